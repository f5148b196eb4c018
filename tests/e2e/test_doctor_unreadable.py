# SPDX-License-Identifier: GPL-2.0-or-later
"""Missing and unreadable files in a tree are reported, never fatal.

A copy of a fixture is damaged in several ways; doctor must still
diagnose what it can, list each file it could not read with the reason,
and keep its exit status meaning (4 only for critical findings).
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import done, ok, run, run_json, tmpdir  # noqa: E402

FIX = os.path.join(os.environ.get("IOLAB_SRC", os.path.join(
    os.path.dirname(__file__), "..", "..")), "tests", "fixtures", "doctor")


def unreadable(doc):
    return {u["path"]: u["error"] for u in doc["unreadable"]}


def queue_dir(tree, disk):
    return os.path.realpath(os.path.join(tree, "sys", "block", disk, "queue"))


def test_damaged_tree():
    with tmpdir() as d:
        tree = os.path.join(d, "tree")
        shutil.copytree(os.path.join(FIX, "tcg-ide-piix"), tree,
                        symlinks=True)
        q = queue_dir(tree, "sda")
        ok(q.startswith(tree), "queue directory resolves inside the copy")
        os.unlink(os.path.join(q, "scheduler"))
        os.unlink(os.path.join(q, "nr_requests"))
        os.mkdir(os.path.join(q, "nr_requests"))
        os.unlink(os.path.join(q, "nomerges"))
        os.mkfifo(os.path.join(q, "nomerges"))
        # A failure a capture recorded (e.g. EACCES) is replayed as such.
        os.unlink(os.path.join(q, "max_sectors_kb"))
        with open(os.path.join(tree, ".iolab", "unreadable"), "a") as f:
            f.write("13 %s\n" % os.path.join(q, "max_sectors_kb")[len(tree):])
        os.unlink(os.path.join(tree, "proc", "meminfo"))
        doc = run_json(["doctor", "--sysroot", tree], check=4)
        u = unreadable(doc)
        ok(u.get("/sys/block/sda/queue/scheduler") == "missing",
           "missing scheduler reported")
        ok(u.get("/sys/block/sda/queue/nr_requests") == "Is a directory",
           "a directory in place of nr_requests reported")
        ok(u.get("/sys/block/sda/queue/nomerges") == "Invalid argument",
           "a FIFO in place of nomerges reported (and not opened)")
        ok(u.get("/sys/block/sda/queue/max_sectors_kb") ==
           "Permission denied", "a recorded EACCES replayed")
        ok(u.get("/proc/meminfo") == "missing", "missing meminfo reported")
        sda = doc["disks"][0]
        ok(sda["driver"] == "ata_piix" and sda["scheduler"] is None and
           sda["nr_requests"] is None and sda["nomerges"] is None,
           "the rest of sda is still diagnosed; unknowns are null")
        ok(doc["system"]["memory_bytes"] is None, "memory unknown")
        ids = [f["id"] for f in doc["findings"]]
        ok("emulated-ide" in ids and "unreadable-files" in ids,
           "findings still made; unreadable-files noted")
        rc, out, _ = run(["doctor", "--sysroot", tree])
        ok(rc == 4 and "Unreadable (reported, not fatal)" in out and
           "/sys/block/sda/queue/scheduler: missing" in out,
           "text report lists the unreadable files")


def test_no_os_release():
    with tmpdir() as d:
        tree = os.path.join(d, "tree")
        shutil.copytree(os.path.join(FIX, "tcg-virtio-scsi"), tree,
                        symlinks=True)
        for p in ("etc/os-release", "usr/lib/os-release"):
            if os.path.lexists(os.path.join(tree, p)):
                os.unlink(os.path.join(tree, p))
        doc = run_json(["doctor", "--sysroot", tree], check=4)
        ok("/etc/os-release" in unreadable(doc), "os-release reported")
        dist = doc["system"]["distribution"]
        ok(dist["id"] is None and dist["package_manager"] is None,
           "distribution unknown")
        f = [x for x in doc["findings"] if x["id"] ==
             "guest-agent-not-running"]
        ok(f and any("package manager" in c for c in f[0]["fix"]["commands"]),
           "fix without a known package manager says so in words")


def test_empty_and_broken():
    with tmpdir() as d:
        empty = os.path.join(d, "empty")
        os.mkdir(empty)
        rc, out, err = run(["doctor", "--sysroot", empty, "--json"])
        ok(rc == 0 and err == "", "an empty tree: exit 0, no error")
        doc = run_json(["doctor", "--sysroot", empty])
        ok(doc["disks"] == [] and "/sys/block" in unreadable(doc),
           "an empty tree: no disks, /sys/block reported")
        ok(any(f["id"] == "no-disks" and f["severity"] == "warning"
               for f in doc["findings"]), "no-disks warning")
        ok(doc["virtualization"]["hypervisor"] is None and
           doc["virtualization"]["container"] is None,
           "no facts: hypervisor and container unknown (null)")
        broken = os.path.join(d, "broken")
        os.makedirs(os.path.join(broken, "sys"))
        open(os.path.join(broken, "sys", "block"), "w").close()
        doc = run_json(["doctor", "--sysroot", broken])
        ok(unreadable(doc).get("/sys/block") == "Not a directory",
           "/sys/block as a file reported")
        loop = os.path.join(d, "loop")
        os.makedirs(os.path.join(loop, "sys"))
        os.symlink("block", os.path.join(loop, "sys", "block"))
        doc = run_json(["doctor", "--sysroot", loop])
        ok("/sys/block" in unreadable(doc), "a symlink loop is reported")


test_damaged_tree()
test_no_os_release()
test_empty_and_broken()
done()
