# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab lab end to end with real QEMU guests under TCG.

A short lab (32 MiB disk, 200 ms runs): four cells on virtio-blk, one of
them the aio=native + cache=writeback that QEMU refuses, checked in JSON
(statuses, QEMU's message verbatim, mark-shaped results, three cells
sharing one guest on disks found by serial); --guest-per-cell; an IDE-vs-virtio
comparison in text; the watchdog; Ctrl-C (once, and twice) leaving no
QEMU and no file behind; and bad input refused before any guest boots.
"""
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import (IOLAB, done, fail, ok, run, skip,  # noqa: E402
                       tmpdir)

QEMU = shutil.which("qemu-system-x86_64")
STATIC = os.environ.get("IOLAB_STATIC")
if not QEMU or not shutil.which("qemu-img"):
    skip("qemu-system-x86_64 or qemu-img not installed")
if not glob.glob("/boot/vmlinuz-*"):
    skip("no guest kernel in /boot")
if not STATIC or not os.access(STATIC, os.X_OK):
    skip("no static iolab (IOLAB_STATIC); this build cannot link one")

REFUSAL = ("aio=native was specified, but it requires cache.direct=on, "
           "which was not specified.")
# CrystalDiskMark's fixed procedure, one short run per test: the cells are
# what this test is about (the precision procedure has its own test).
SHORT = ["--accel", "tcg", "--disk-size", "32M", "--runs", "1", "--time",
         "200ms", "--iolab-static", STATIC]


def env_with_tmp(d):
    e = dict(os.environ)
    e["TMPDIR"] = d
    return e


def children(pid):
    """Processes whose parent is @pid: (pid, comm)."""
    out = []
    for p in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(p) as f:
                s = f.read()
        except OSError:
            continue
        comm = s[s.index("(") + 1:s.rindex(")")]
        ppid = int(s[s.rindex(")") + 2:].split()[1])
        if ppid == pid:
            out.append((int(p.split("/")[2]), comm))
    return out


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return ") Z " not in f.read()
    except OSError:
        return False


def qemu_version():
    p = subprocess.run([QEMU, "--version"], capture_output=True, text=True)
    return p.stdout.splitlines()[0].split("version ", 1)[1]


def check_json_lab():
    with tmpdir() as d:
        disk = os.path.join(d, "images")
        tmp = os.path.join(d, "tmp")
        os.mkdir(disk)
        os.mkdir(tmp)
        rc, out, err = run(["lab"] + SHORT + [
            "--tests", "RND4K-Q1T1,SEQ128K-Q8T1", "--aio", "threads,native",
            "--cache", "none,writeback", "--disk", disk, "--json"],
            env=env_with_tmp(tmp), timeout=600)
        ok(rc == 0, "4-cell lab exits 0 (rc %d; stderr %s)" % (rc, err[-800:]))
        try:
            doc = json.loads(out)
        except ValueError:
            fail("lab --json is not JSON: %r" % out[:300])
            return
        ok(doc.get("command") == "lab", "command is lab")
        ok(doc.get("qemu_version") == qemu_version(),
           "qemu_version is QEMU's (%r)" % doc.get("qemu_version"))
        ok(doc.get("accel") == "tcg", "accel tcg")
        cells = doc.get("cells", [])
        ok(len(cells) == 4, "4 cells (got %d)" % len(cells))
        by = {(c["aio"], c["cache"]): c for c in cells}
        for key in [("threads", "none"), ("threads", "writeback"),
                    ("native", "none")]:
            c = by.get(key)
            if not ok(c is not None and c["status"] == "ok",
                      "%s/%s ok (%r)" % (key + (c and c.get("reason"),))):
                continue
            ok(c["bus"] == "virtio-blk" and c["format"] == "raw",
               "%s/%s: bus and format" % key)
            ok(c["reason"] is None, "%s/%s: no reason" % key)
            r = c["result"]
            ok(r.get("command") == "mark" and r.get("partial") is False,
               "%s/%s: the result is iolab mark's document" % key)
            ok(r.get("environment", {}).get("target_type") == "block" and
               r["environment"].get("driver") == "virtio_blk",
               "%s/%s: mark ran on the guest's virtio-blk disk" % key)
            names = [t["name"] for t in r.get("tests", [])]
            ok(names == ["RND4K Q1T1", "SEQ128K Q8T1"],
               "%s/%s: the tests asked for (%r)" % (key + (names,)))
            for t in r.get("tests", []):
                for d_ in ("read", "write"):
                    m = t[d_]["mbps"]
                    ok(m["max"] > 0 and m["min"] <= m["mean"] <= m["max"],
                       "%s/%s %s %s: MB/s max %.2f, sane stats" % (
                           key + (t["name"], d_, m["max"])))
                    ok(len(t[d_]["runs"]) == 1 and
                       t[d_]["runs"][0]["engine"] in ("io_uring", "native"),
                       "%s/%s %s %s: one run, with the guest's engine" % (
                           key + (t["name"], d_)))
            ok(c["boot_s"] > 0 and c["elapsed_s"] >= c["boot_s"],
               "%s/%s: boot and elapsed times" % key)
        c = by.get(("native", "writeback"), {})
        ok(c.get("status") == "refused", "native/writeback refused")
        reason = c.get("reason") or ""
        ok(reason.startswith("qemu-system-x86_64: -blockdev driver=file,")
           and reason.endswith(REFUSAL),
           "QEMU's message verbatim: %r" % reason)
        ok(c.get("result") is None, "refused cell has no result")
        # The three cells QEMU accepts share one guest, a disk each, found
        # by its serial; the refused one had a QEMU of its own.
        ok(doc["options"].get("guests") == "shared", "options.guests shared")
        shared = [by.get(k) or {} for k in [("threads", "none"),
                                             ("threads", "writeback"),
                                             ("native", "none")]]
        ok(len({x.get("guest") for x in shared}) == 1 and
           all(x.get("guest_cells") == 3 for x in shared),
           "3 cells in one guest (%r)" % [(x.get("guest"),
                                           x.get("guest_cells"))
                                          for x in shared])
        serials = [x.get("guest_disk_serial") for x in shared]
        ok(sorted(serials) == ["iolab-lab-disk-%d" % i for i in range(3)],
           "each cell on its own disk, by serial (%r)" % serials)
        disks = [x.get("guest_disk") for x in shared]
        ok(len(set(disks)) == 3 and all(
            (x.get("result") or {}).get("environment", {}).get("device") ==
            x.get("guest_disk") for x in shared),
           "mark measured each cell's own disk (%r)" % disks)
        ok(c.get("guest") not in (None, 0, shared[0].get("guest")) and
           c.get("guest_cells") == 1, "the refused cell: a QEMU of its own")
        ok(doc.get("guests_started") == 2, "2 QEMUs started (%r)" %
           doc.get("guests_started"))
        best = doc.get("best", {})
        ok(best.get("safe") and best["safe"]["cache"] in ("none", "writeback")
           and best["safe"]["aio"] in ("threads", "native"),
           "best safe setting is one that ran (%r)" % best.get("safe"))
        ok(os.listdir(disk) == [], "no image left (%r)" % os.listdir(disk))
        ok(os.listdir(tmp) == [], "no initramfs left (%r)" % os.listdir(tmp))
        ok("refused by QEMU" in err and "4/4]" in err,
           "a line per cell on stderr")


def check_text_buses():
    with tmpdir() as d:
        # No --iolab-static: found beside the iolab binary.
        rc, out, err = run(["lab"] + SHORT[:-2] + [
            "--tests", "RND4K-Q1T1", "--bus", "ide,virtio-blk",
            "--aio", "io_uring", "--cache", "none", "--doctor", "--disk", d],
            env=env_with_tmp(d), timeout=600)
        ok(rc == 0, "ide vs virtio-blk exits 0 (rc %d; %s)" % (rc, err[-600:]))
        for want in ["ide, raw image: Read MB/s",
                     "ide, raw image: Write MB/s",
                     "virtio-blk, raw image: Read MB/s",
                     "Buses compared at aio=io_uring cache=none",
                     "TCG emulates the guest's CPU",
                     "QEMU " + qemu_version(),
                     "Inside the ide guest (iolab doctor), raw image:",
                     "sda: emulated IDE controller",
                     "Inside the virtio-blk guest (iolab doctor), raw image:",
                     "vda: virtio-blk (paravirtual), driver virtio_blk"]:
            ok(want in out, "text report has %r" % want)
        ok(re.search(r"^Best (safe )?setting of all: (ide|virtio-blk) raw "
                     r"aio=io_uring cache=none, geometric mean [0-9.]+ MB/s",
                     out, re.M), "the best of both buses named")
        ok(os.listdir(d) == [], "nothing left behind (%r)" % os.listdir(d))


def check_guest_per_cell():
    with tmpdir() as d:
        rc, out, err = run(["lab"] + SHORT + [
            "--tests", "RND4K-Q1T1", "--aio", "threads", "--cache",
            "none,writeback", "--guest-per-cell", "--disk", d, "--json"],
            env=env_with_tmp(d), timeout=600)
        ok(rc == 0, "--guest-per-cell exits 0 (rc %d; %s)" % (rc, err[-600:]))
        try:
            doc = json.loads(out)
        except ValueError:
            fail("--guest-per-cell: not JSON: %r" % out[:300])
            return
        cells = doc.get("cells", [])
        ok(doc["options"].get("guests") == "per-cell" and
           doc.get("guests_started") == 2 and
           [c.get("guest") for c in cells] == [1, 2] and
           all(c.get("guest_cells") == 1 and c["status"] == "ok"
               for c in cells),
           "--guest-per-cell: a guest each (%r)" % [
               (c.get("guest"), c.get("guest_cells"), c.get("status"))
               for c in cells])
        ok(os.listdir(d) == [], "nothing left behind (%r)" % os.listdir(d))


def check_precision():
    """The default procedure in a guest: runs until each MB/s is known,
    within the lab's 2 s per test; the host reads the mean as headline."""
    short = [a for a in SHORT if a not in ("--runs", "1", "--time", "200ms")]
    with tmpdir() as d:
        rc, out, err = run(["lab"] + short + [
            "--tests", "RND4K-Q1T1", "--aio", "threads", "--cache", "none",
            "--disk", d, "--json"], env=env_with_tmp(d), timeout=300)
        ok(rc == 0, "precision lab: exit 0 (%s)" % err.strip()[-300:])
        try:
            doc = json.loads(out)
            o = doc["options"]
            r = doc["cells"][0]["result"]
        except (ValueError, KeyError, IndexError):
            fail("precision lab: no JSON cell: %r" % out[:300])
            return
        ok(o["procedure"] == "precision" and o["runs"] is None and
           o["precision_pct"] == 5 and o["max_time_s"] == 2,
           "precision lab: the procedure in the options")
        ro = r["options"]
        ok(ro["procedure"] == "precision" and ro["time_s"] == 0.25 and
           "--precision" in r["argv"] and "RND4K-Q1T1" in r["argv"],
           "the guest ran it (%s)" % r["argv"])
        for dd in ("read", "write"):
            t = r["tests"][0][dd]
            ok(t["runs_scored"] >= 3 and t["elapsed_s"] <= 2.5 and
               t["mbps"]["headline"] == t["mbps"]["mean"] and
               (t["precise"] or "noisy" in [w["id"] for w in t["warnings"]]),
               "%s: 3 runs at least, within the cap, the mean the headline "
               "(%d runs, %.2f s, +-%s %%)" % (dd, t["runs_scored"],
                                               t["elapsed_s"],
                                               t["mbps"]["ci95_pct"]))


def check_watchdog():
    with tmpdir() as d:
        rc, out, err = run(["lab"] + SHORT + [
            "--tests", "RND4K-Q1T1", "--aio", "threads", "--cache", "none",
            "--boot-timeout", "1s", "--disk", d, "--json"],
            env=env_with_tmp(d), timeout=120)
        ok(rc == 2, "a cell that cannot boot in 1 s fails: exit 2 (%d)" % rc)
        try:
            c = json.loads(out)["cells"][0]
        except (ValueError, KeyError, IndexError):
            fail("watchdog lab: no JSON cell: %r" % out[:300])
            return
        ok(c["status"] == "failed" and "did not boot" in c["reason"],
           "failed with the watchdog's reason (%r)" % c["reason"])
        ok(isinstance(c.get("console_tail"), str),
           "the guest console's tail is in the JSON")
        ok(os.listdir(d) == [], "nothing left behind (%r)" % os.listdir(d))


def check_interrupt(times):
    with tmpdir() as d:
        p = subprocess.Popen(
            [IOLAB, "lab"] + SHORT + [
                "--tests", "SEQ128K-Q8T1", "--time", "5s", "--aio",
                "threads", "--cache", "none,writeback", "--disk", d],
            env=env_with_tmp(d), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        qemu = []
        deadline = time.time() + 60
        while time.time() < deadline and not qemu:
            qemu = [c for c in children(p.pid)
                    if c[1].startswith("qemu-system")]
            time.sleep(0.2)
        if not ok(qemu, "a QEMU runs under iolab lab"):
            p.kill()
            p.wait()
            return
        time.sleep(3)  # into the guest's boot
        for _ in range(times):
            p.send_signal(signal.SIGINT)
            time.sleep(0.05)
        try:
            out, err = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            fail("iolab lab did not stop within 30 s of Ctrl-C")
        want = 130
        ok(p.returncode == want, "Ctrl-C x%d: exit %d (%d; %s)" % (
            times, want, p.returncode, err[-300:]))
        time.sleep(0.5)
        ok(not alive(qemu[0][0]), "Ctrl-C x%d: QEMU %d is gone" % (
            times, qemu[0][0]))
        ok(os.listdir(d) == [], "Ctrl-C x%d: no file left (%r)" % (
            times, os.listdir(d)))
        if times == 1:
            ok("PARTIAL" in out, "Ctrl-C once: a partial report")


def check_refusals():
    with tmpdir() as d:
        existing = os.path.join(d, "x.img")
        open(existing, "w").close()
        cases = [
            (["--bus", "scsi"], 1, "--bus: unknown value 'scsi'"),
            (["--aio", "native,native"], 1, "listed twice"),
            (["--preset", "cdm6", "--tests", "RND4K-Q1T1"], 1,
             "give one"),
            (["--tests", "RND4K"], 1, "write tests as SEQ1M-Q8T1"),
            (["--preset", "cdm5"], 1, "--preset cdm5: unknown"),
            (["--runs", "0"], 1, "--runs"),
            (["--accel", "xen"], 1, "--accel"),
            (["--disk", existing], 1, "exists"),
            (["--disk", "/nonexistent-dir/x.img"], 1, "does not exist"),
            (["--kernel", "/etc/hostname"], 1, "not an x86 kernel"),
            (["--qemu", "/nonexistent/qemu"], 2, "not found"),
            (["--iolab-static", IOLAB], 1, "dynamically linked"),
        ]
        for args, want, text in cases:
            rc, out, err = run(["lab", "--disk", d] + args
                               if "--disk" not in args else ["lab"] + args,
                               env=env_with_tmp(d), timeout=60)
            ok(rc == want and text in err and out == "",
               "lab %s: exit %d with %r (got %d: %s)" % (
                   " ".join(args), want, text, rc, err.strip()[:200]))
        ok(os.listdir(d) == ["x.img"], "refusals create nothing (%r)" %
           os.listdir(d))


check_refusals()
check_json_lab()
check_text_buses()
check_guest_per_cell()
check_precision()
check_watchdog()
check_interrupt(1)
check_interrupt(2)
done()
