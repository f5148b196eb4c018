# SPDX-License-Identifier: GPL-2.0-or-later
"""Faults a user meets: an I/O error in the middle of a run (a loop device
whose backing file's filesystem fills up) is reported with its offset and
errno, exit 3, partial results; a filesystem without O_DIRECT (ramfs) gets a
message suggesting --cache writeback, which then works."""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, run, run_json, done, tmpdir, need_root, skip  # noqa

need_root()


def umount(path):
    for _ in range(40):
        if subprocess.run(["umount", path], capture_output=True).returncode \
                == 0:
            return
        time.sleep(0.25)


with tmpdir() as mnt:
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8M", "tmpfs",
                       mnt]).returncode:
        skip("cannot mount a tmpfs")
    try:
        back = os.path.join(mnt, "back.img")
        with open(back, "wb") as f:
            f.truncate(64 << 20)   # sparse: only 8 MiB can be written
        p = subprocess.run(["losetup", "--find", "--show", back],
                           capture_output=True, text=True)
        if p.returncode:
            skip("no loop device: " + p.stderr.strip())
        dev = p.stdout.strip()
        try:
            rc, out, err = run(["run", dev, "--rw", "write", "--bs", "1M",
                                "--qd", "4", "--allow-write-device",
                                "--runtime", "5s", "--json",
                                "--no-progress"])
            ok(rc == 3, "an I/O error exits 3 (got %d)" % rc)
            import json
            doc = json.loads(out)
            job = doc["jobs"][0]
            e = job["errors"]
            ok(e["count"] >= 1 and e["first"]["op"] == "write" and
               e["first"]["errno"] > 0 and
               e["first"]["offset"] >= (8 << 20) - (1 << 20),
               "first error reported: %s at %d (%s)" % (
                   e["first"]["op"], e["first"]["offset"],
                   e["first"]["message"]))
            ok(doc["partial"] and job["write"]["ios"] >= 1,
               "partial results kept (%d writes)" % job["write"]["ios"])
            rc, out, err = run(["run", dev, "--rw", "write", "--bs", "1M",
                                "--allow-write-device", "--runtime", "5s",
                                "--no-progress"])
            ok(rc == 3 and "I/O ERROR" in out and "PARTIAL" in out,
               "the table says I/O ERROR and PARTIAL")
        finally:
            subprocess.run(["losetup", "-d", dev])
    finally:
        umount(mnt)

with tmpdir() as mnt:
    if subprocess.run(["mount", "-t", "ramfs", "ramfs", mnt]).returncode:
        skip("cannot mount ramfs")
    try:
        f = os.path.join(mnt, "t.dat")
        rc, out, err = run(["run", f, "--size", "8M", "--runtime", "200ms",
                            "--no-progress"])
        ok(rc == 2 and "O_DIRECT" in err and "--cache writeback" in err,
           "no O_DIRECT: exit 2 suggesting writeback: " + err.strip())
        ok(not os.path.exists(f), "and the test file is removed")
        doc = run_json(["run", f, "--size", "8M", "--runtime", "200ms",
                        "--cache", "writeback", "--no-progress"])
        ok(doc and doc["jobs"][0]["read"]["ios"] > 0 and
           any(w["id"] == "ram-target" for w in doc["warnings"]),
           "--cache writeback works there, flagged as RAM")
    finally:
        umount(mnt)
done()
