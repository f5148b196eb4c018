#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab advise as a user runs it: sources at once, the JSON schema, the
exit codes, and one clear line for every kind of malformed input."""
import glob
import json
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, run, run_json, done, tmpdir  # noqa: E402

SRC = os.environ.get("IOLAB_SRC", ".")
FIX = os.path.join(SRC, "tests", "fixtures", "advise")
MAN = os.path.join(SRC, "man", "iolab-advise.1")


def rule_ids():
    rc, out, _ = run(["advise", "--rules"], check=0)
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def test_rules_documented_and_covered():
    ids = rule_ids()
    ok(len(ids) >= 15, "--rules lists %d rules" % len(ids))
    with open(MAN) as f:
        man = f.read()
    for r in ids:
        ok("\n.B %s\n" % r.replace("-", "\\-") in man,
           "rule %s is documented in iolab-advise.1" % r)
    seen = set()
    for p in glob.glob(os.path.join(FIX, "**", "*.expect.json"),
                       recursive=True):
        with open(p) as f:
            for sev, rule, _ in json.load(f).get("findings", []):
                seen.add(rule)
    for r in ids:
        ok(r in seen, "rule %s is exercised by a fixture" % r)


def test_schema_and_sources():
    doc = run_json(["advise", "--no-probe",
                    "--qemu-args", "-smp 2 -drive file=/v/a.raw,format=raw,"
                    "if=virtio,cache=none,aio=native",
                    "--libvirt", os.path.join(FIX, "libvirt",
                                              "virtio-scsi-tuned.xml"),
                    "--proxmox", os.path.join(FIX, "proxmox", "etc", "pve",
                                              "qemu-server", "103.conf")],
                   check=0)
    ok(doc["command"] == "advise" and doc["schema_version"] >= 1,
       "JSON names the command")
    ok([v["name"] for v in doc["vms"]] == ["qemu-args", "ceph-osd-gw",
                                           "pg-primary"],
       "three sources at once, in the order given")
    for v in doc["vms"]:
        ok({"name", "source", "disks"} <= set(v), "vm keys %s" % v["name"])
        for d in v["disks"]:
            ok({"id", "file", "format", "bus", "cache", "aio", "iothread",
                "queues"} <= set(d), "disk keys %s/%s" % (v["name"], d["id"]))
    for f in doc["findings"]:
        ok({"severity", "rule", "vm", "disk", "message", "why", "fix"} <=
           set(f), "finding keys %s" % f["rule"])
        ok(f["severity"] in ("error", "warning", "info"), "severity word")
    q = doc["vms"][0]["disks"][0]
    ok(q["bus"] == "virtio-blk" and q["cache"] == "none" and
       q["aio"] == "native" and q["queues"] == 2,
       "if=virtio resolves: %r" % q)


def test_exit_codes():
    rc, out, err = run(["advise", "--no-probe", "--qemu-args",
                        "-drive file=/v/a.raw,format=raw,if=virtio,"
                        "cache=writeback"])
    ok(rc == 0 and "cache-writeback" in out,
       "warnings only: exit 0 (%d)" % rc)
    rc, out, err = run(["advise", "--no-probe", "--qemu-args",
                        "-drive file=/v/a.raw,format=raw,if=virtio,"
                        "cache=writeback,aio=native"])
    ok(rc == 4 and "native-without-direct" in out,
       "an error-level finding: exit 4 (%d)" % rc)
    ok("\n      -drive file=/v/a.raw,format=raw,if=virtio,cache=none,"
       "aio=native\n" in out, "text shows the corrected line")


def test_conflict_order():
    """Two rules want different cache modes for one disk: the first rule
    (an error) wins, the other finding says its change was not applied,
    and the one corrected line has the winner's value."""
    rc, out, err = run(["advise", "--no-probe", "--json", "--qemu-args",
                        "-drive file=/v/a.raw,format=raw,if=virtio,"
                        "cache=writethrough,aio=native"])
    doc = json.loads(out)
    fx = {f["rule"]: f["fix"] for f in doc["findings"]}
    ok("not applied: cache=none, because native-without-direct" in
       fx.get("cache-writethrough", ""), "the losing finding says so: %r"
       % fx.get("cache-writethrough"))
    ok("not applied" not in fx.get("native-without-direct", "x"),
       "the winner is applied")
    d = doc["vms"][0]["disks"][0]
    ok(d["corrected"] == "-drive file=/v/a.raw,format=raw,if=virtio,"
       "cache=directsync,aio=native", "one corrected line: %r"
       % d["corrected"])


def expect_fail(args, code, pattern, what, **kw):
    rc, out, err = run(["advise", "--no-probe"] + args, **kw)
    ok(rc == code and re.search(pattern, err) and err.count("\n") == 1,
       "%s: exit %d, %r" % (what, rc, err.strip()))


def test_malformed():
    expect_fail(["--qemu-args", "-m 1G -drvie file=x"], 1,
                r"--qemu-args:1: unknown QEMU option '-drvie'",
                "unknown QEMU option")
    expect_fail(["--qemu-args", "-drive 'file=x"], 1,
                r"--qemu-args:1: unterminated ' quote", "open quote")
    expect_fail(["--qemu-args", "-blockdev {\"driver\":"], 1,
                r"-blockdev: invalid JSON", "broken JSON -blockdev")
    expect_fail(["--qemu-args", "-drive file=x,cache=fast"], 1,
                r"cache=fast is not none", "bad cache value")
    expect_fail(["--qemu-args", "-device virtio-blk-pci,drive=nope"], 1,
                r"drive=nope: no -drive id=nope", "dangling drive=")
    expect_fail(["--qemu-args", "-drive"], 1, r"'-drive' needs a value",
                "option without value")
    expect_fail(["--libvirt", "/nonexistent/x.xml"], 2,
                r"cannot read --libvirt /nonexistent/x.xml", "missing XML")
    expect_fail(["--proxmox", "/nonexistent/1.conf"], 2,
                r"cannot read --proxmox", "missing Proxmox config")
    expect_fail(["--qemu-args-file", "/nonexistent"], 2,
                r"cannot read --qemu-args-file", "missing args file")
    expect_fail(["--proxmox-storage", "/etc/hostname"], 1,
                r"--proxmox-storage applies to --proxmox", "stray option")
    with tmpdir() as d:
        p = os.path.join(d, "vm.sh")
        with open(p, "w") as f:
            f.write("#!/bin/sh\nqemu-system-x86_64 \\\n  -m 1G \\\n"
                    "  -blokdev driver=file,filename=x\n")
        expect_fail(["--qemu-args-file", p], 1,
                    re.escape(p) + r":4: unknown QEMU option '-blokdev'",
                    "unknown option in a file names its line")
        p = os.path.join(d, "notdomain.xml")
        with open(p, "w") as f:
            f.write("<network><name>default</name></network>\n")
        expect_fail(["--libvirt", p], 1, r"root element is <network>",
                    "XML that is not a domain")
        p = os.path.join(d, "nodev.xml")
        with open(p, "w") as f:
            f.write("<domain><devices>\n<disk type='file'>\n"
                    "<source file='/x'/></disk></devices></domain>\n")
        expect_fail(["--libvirt", p], 1, re.escape(p) +
                    r":2: <disk> without <target", "disk without target")


def test_stdin_and_output():
    text = "qemu-system-x86_64 -name one -hda /v/one.img\n" \
           "qemu-system-x86_64 -name two -drive file=/v/two.raw," \
           "format=raw,if=virtio,cache=none,aio=native\n"
    p = subprocess.run([IOLAB, "advise", "--no-probe", "--json",
                        "--qemu-args-file", "-"], input=text,
                       capture_output=True, text=True, timeout=60)
    doc = json.loads(p.stdout)
    ok([v["name"] for v in doc["vms"]] == ["one", "two"],
       "two command lines on stdin: two VMs")
    with tmpdir() as d:
        o = os.path.join(d, "report.json")
        rc, out, err = run(["advise", "--no-probe", "--json", "-o", o,
                            "--qemu-args", "-hda /v/x.img"])
        ok(rc == 0 and out == "" and
           json.load(open(o))["vms"][0]["disks"][0]["bus"] == "ide",
           "--output writes the report to a file")


def test_ps_paste():
    # A line of `ps -ef` output: libvirt's JSON arguments lost their quotes.
    line = ("libvirt+ 4242 1 9 May13 ? 01:02:03 /usr/bin/qemu-system-x86_64 "
            "-name guest=web,debug-threads=on -smp 2 "
            "-blockdev {\"driver\":\"file\",\"filename\":\"/v/web.raw\","
            "\"node-name\":\"s\",\"aio\":\"native\"} "
            "-blockdev {\"node-name\":\"f\",\"driver\":\"raw\","
            "\"file\":\"s\"} "
            "-device {\"driver\":\"virtio-blk-pci\",\"drive\":\"f\","
            "\"id\":\"virtio-disk0\"}")
    doc = run_json(["advise", "--no-probe", "--qemu-args", line], check=4)
    ok(doc and doc["vms"][0]["name"] == "web" and
       doc["vms"][0]["disks"][0]["file"] == "/v/web.raw" and
       any(f["rule"] == "native-without-direct" for f in doc["findings"]),
       "a ps(1) line with unquoted JSON options is read")


def test_garbage_never_crashes():
    rnd = random.Random(7)
    alphabet = "-=,.:'\"\\ {}[]\n\tqemudrivefilecachenoneaio0123456789"
    for i in range(200):
        s = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 80)))
        rc, out, err = run(["advise", "--no-probe", "--qemu-args", s])
        if rc not in (0, 1, 4):
            ok(False, "garbage %r: exit %d %s" % (s, rc, err))
            return
    ok(True, "200 random command lines: no crash, exit 0/1/4 only")


test_rules_documented_and_covered()
test_schema_and_sources()
test_exit_codes()
test_conflict_order()
test_malformed()
test_stdin_and_output()
test_ps_paste()
test_garbage_never_crashes()
done()
