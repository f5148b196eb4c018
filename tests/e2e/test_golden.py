#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Output pinned by golden files (tests/fixtures/golden/out/).

Text, JSON and CSV of every command, byte for byte where the input is fixed
(doctor --sysroot of captured trees, advise of fixture configs, compare and
report of golden documents, --help), and by shape where figures are
measured (run, mark, matrix, calibrate on the null engine: every number
masked, white space folded, so labels, columns and order are pinned).
A change of output must be deliberate: regenerate with
IOLAB_GOLDEN_UPDATE=1 and say why in the commit.
"""
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, done, fail, ok, run, tmpdir  # noqa: E402

SRC = os.path.abspath(os.environ.get("IOLAB_SRC", os.path.join(
    os.path.dirname(__file__), "..", "..")))
OUT = os.path.join(SRC, "tests", "fixtures", "golden", "out")
UPDATE = os.environ.get("IOLAB_GOLDEN_UPDATE") == "1"
G = "tests/fixtures/golden/"


def exact(text):
    # The binary's path and version are the build's, not the output's.
    text = text.replace(json.dumps(IOLAB)[1:-1], "iolab")
    text = re.sub(r'("version": ")[^"]*(")', r"\1V\2", text)
    # When and where a document was written are the run's.
    text = re.sub(r'("time_utc": )"[^"]*"', r'\1"T"', text)
    text = re.sub(r'("host": )("[^"]*"|null)', r'\1"H"', text)
    # a document's file time is the checkout's
    text = re.sub(r"written \d{4}-\d\d-\d\d \d\d:\d\d UTC", "written DATE", text)
    return re.sub(r"generated \d{4}-\d\d-\d\d \d\d:\d\d UTC by iolab \S+",
                  "generated DATE by iolab V", text)


def shape(text):
    text = exact(text)
    text = re.sub(r"\d+(\.\d+)?(e[+-]?\d+)?", "#", text)
    text = re.sub(r"# ?(ns|us|ms|s|KiB|MiB|GiB|B)\b", "# U", text)
    text = re.sub(r"[ \t]+", " ", text)
    # The clock is chosen by what a read of it costs now: under load the
    # vDSO may lose to the TSC. Which one it was is not the shape.
    text = re.sub(r'"clock": "[^"]*"', '"clock": "#"', text)
    return "\n".join(line.strip() for line in text.splitlines()) + "\n"


def check(name, args, norm=exact, rcs=(0,), cwd=SRC):
    rc, out, err = run(args, cwd=cwd)
    if rc not in rcs:
        fail("%s: iolab %s exited %d: %s" % (name, " ".join(args), rc,
                                            err[-500:]))
        return
    got = norm(out)
    path = os.path.join(OUT, name)
    if UPDATE:
        os.makedirs(OUT, exist_ok=True)
        with open(path, "w") as f:
            f.write(got)
        print("wrote " + name)
        return
    try:
        want = open(path).read()
    except OSError:
        fail("%s: no golden file; run with IOLAB_GOLDEN_UPDATE=1" % name)
        return
    if not ok(got == want, "%s: output as pinned" % name):
        a, b = want.splitlines(), got.splitlines()
        for i in range(max(len(a), len(b))):
            x = a[i] if i < len(a) else "<end>"
            y = b[i] if i < len(b) else "<end>"
            if x != y:
                print("  line %d\n  want: %s\n  got:  %s" % (i + 1, x, y))
                break


FMTS = [("txt", []), ("json", ["--json"]), ("csv", ["--csv"])]

# doctor of captured trees
for tree in sorted(glob.glob(os.path.join(SRC, "tests/fixtures/doctor/*/"))):
    t = os.path.basename(tree.rstrip("/"))
    for ext, flag in FMTS[:2]:
        check("doctor-%s.%s" % (t, ext),
              ["doctor", "--sysroot", "tests/fixtures/doctor/" + t] + flag,
              rcs=(0, 4))

# advise of fixture configs
cases = []
for f in sorted(glob.glob(os.path.join(SRC, "tests/fixtures/advise/libvirt/*.xml"))):
    cases.append(("libvirt-" + os.path.basename(f), ["--libvirt", os.path.relpath(f, SRC)]))
for f in sorted(glob.glob(os.path.join(SRC, "tests/fixtures/advise/proxmox/etc/pve/qemu-server/*.conf"))):
    cases.append(("proxmox-" + os.path.basename(f), ["--proxmox", os.path.relpath(f, SRC)]))
for f in sorted(glob.glob(os.path.join(SRC, "tests/fixtures/advise/qemu/*"))):
    if not f.endswith(".json"):
        cases.append(("qemu-" + os.path.basename(f), ["--qemu-args-file", os.path.relpath(f, SRC)]))
for name, args in cases:
    for ext, flag in FMTS:
        check("advise-%s.%s" % (name, ext), ["advise", "--no-probe"] + args + flag,
              rcs=(0, 1, 2, 4))

# compare and report of golden documents
pairs = [("run", ["run-qd1.json", "run-qd16.json", "run-randrw.json"]),
         ("mark", ["mark-ide.json", "mark-virtio.json", "mark-vda.json"]),
         ("matrix", ["matrix.json", "matrix-vda.json"]),
         ("calibrate", ["calibrate-ide.json", "calibrate-virtio.json"]),
         ("doctor", ["doctor-ide.json", "doctor-virtio.json"]),
         ("advise", ["advise.json", "advise-tuned.json"]),
         ("lab", ["lab.json", "lab-tcg.json"])]
for cmd, docs in pairs:
    for ext, flag in FMTS:
        check("compare-%s.%s" % (cmd, ext), ["compare"] + [G + d for d in docs] + flag)
with tmpdir() as d:
    html = os.path.join(d, "r.html")
    docs = sorted(os.path.relpath(p, SRC) for p in glob.glob(os.path.join(SRC, G + "*.json")))
    rc, out, err = run(["report"] + docs + ["-o", html], cwd=SRC)
    if ok(rc == 0, "report of every golden document: exit 0 (%s)" % err[-300:]):
        text = exact(open(html).read())
        path = os.path.join(OUT, "report.html")
        if UPDATE:
            open(path, "w").write(text)
        else:
            want = open(path).read() if os.path.exists(path) else ""
            if not ok(want == text, "report.html: output as pinned"):
                a, b = want.splitlines(), text.splitlines()
                for i, (x, y) in enumerate(zip(a, b)):
                    if x != y:
                        print("  line %d\n  want: %s\n  got:  %s" % (i + 1, x[:300], y[:300]))
                        break

# every command's --help
for cmd in ["run", "mark", "matrix", "calibrate", "check", "doctor", "advise",
            "lab", "compare", "report", "probe", "top"]:
    check("help-%s.txt" % cmd, [cmd, "--help"])
    # "iolab help CMD" is the same page, as git's help is.
    check("help-%s.txt" % cmd, ["help", cmd])

# measuring commands by shape, on the null engine (no disk, fixed counts)
with tmpdir() as d:
    f = os.path.join(d, "t.dat")
    for ext, flag in FMTS:
        check("run-null.%s" % ext,
              ["run", "t.dat", "--engine", "null", "--size", "16M", "--ios", "20000"] + flag,
              norm=shape, cwd=d)
        check("mark-null.%s" % ext,
              ["mark", "t.dat", "--engine", "null", "--size", "16M", "--runs", "1",
               "--time", "100ms", "--interval", "0"] + flag, norm=shape, cwd=d)
done()
