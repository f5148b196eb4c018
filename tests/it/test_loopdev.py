# SPDX-License-Identifier: GPL-2.0-or-later
"""Block devices: a loop device is read without flags, written only with
--allow-write-device, and refused when mounted, even with the flag."""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, run, run_json, done, loopdev, tmpdir, skip  # noqa

common = ["--runtime", "300ms", "--no-progress"]

with loopdev(64) as dev:
    doc = run_json(["run", dev, "--rw", "randread", "--qd", "4"] + common)
    if doc:
        ok(doc["environment"]["target_type"] == "block",
           "device recognised as a block device")
        ok(doc["environment"]["device"] == os.path.basename(dev),
           "environment names the device (%s)" %
           doc["environment"]["device"])
        ok(doc["jobs"][0]["read"]["ios"] > 0, "device read")

    rc, out, err = run(["run", dev, "--rw", "randwrite"] + common)
    ok(rc == 2 and "--allow-write-device" in err,
       "write refused without the flag (exit %d): %s" % (rc, err.strip()))

    doc = run_json(["run", dev, "--rw", "randwrite", "--allow-write-device",
                    "--bs", "64k", "--qd", "8"] + common)
    if doc:
        ok(doc["jobs"][0]["write"]["ios"] > 0, "device written with the flag")
    # Several writers at once, and again straight after (udev probes the
    # device when a writer closes it; iolab waits that out).
    for i in range(2):
        doc = run_json(["run", dev, "--rw", "randwrite",
                        "--allow-write-device", "--threads", "2"] + common)
        ok(doc and doc["jobs"][0]["write"]["ios"] > 0,
           "two writer threads, run %d" % (i + 1))

    rc, out, err = run(["run", dev, "--size", "128M"] + common)
    ok(rc == 1 and "past the end" in err,
       "a region past the end is refused: " + err.strip())

    rc, out, err = run(["run", dev, "--bs", "1000"] + common)
    ok(rc == 1 and "block size" in err,
       "O_DIRECT misalignment named with the fix: " + err.strip())

    # udev probes a device after a writer closes it: let it finish.
    for attempt in range(20):
        subprocess.run(["udevadm", "settle"], capture_output=True)
        mk = subprocess.run(["mkfs.ext4", "-q", "-F", dev],
                            capture_output=True, text=True)
        if mk.returncode == 0:
            break
        time.sleep(0.25)
    if mk.returncode:
        skip("mkfs.ext4 failed: " + mk.stderr.strip())
    with tmpdir() as mnt:
        if subprocess.run(["mount", dev, mnt]).returncode:
            skip("cannot mount the loop device")
        try:
            rc, out, err = run(["run", dev, "--rw", "write",
                                "--allow-write-device"] + common)
            ok(rc == 2 and "mounted on" in err,
               "mounted device refused even with the flag (exit %d): %s" %
               (rc, err.strip()))
            doc = run_json(["run", dev, "--rw", "randread"] + common)
            ok(doc is not None and doc["jobs"][0]["read"]["ios"] > 0,
               "a mounted device may still be read")
        finally:
            subprocess.run(["umount", mnt])

# Active swap is refused for writing too.
with loopdev(32) as dev:
    sw = subprocess.run(["mkswap", dev], capture_output=True, text=True)
    if sw.returncode == 0 and subprocess.run(
            ["swapon", dev], capture_output=True).returncode == 0:
        try:
            rc, out, err = run(["run", dev, "--rw", "randwrite",
                                "--allow-write-device"] + common)
            ok(rc == 2 and "swap" in err,
               "active swap refused even with the flag: " + err.strip())
        finally:
            subprocess.run(["swapoff", dev])
    else:
        print("note: swapon on a loop device is not possible here")
done()
