# SPDX-License-Identifier: GPL-2.0-or-later
"""`iolab calibrate` on a block device: read only without any flag, even
while the device is mounted (a live device), --disks taken from the
device's queue, and the device's contents untouched."""
import hashlib
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, run, run_json, done, loopdev, skip  # noqa

QUIET = ["--no-progress", "--max-latency", "1000"]


def digest(dev):
    h = hashlib.sha256()
    with open(dev, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def settle():
    subprocess.run(["udevadm", "settle"], capture_output=True)


with loopdev(64) as dev:
    name = os.path.basename(dev)
    # Real data, so no read is of a hole.
    with open(dev, "r+b") as f:
        for _ in range(64):
            f.write(os.urandom(1 << 20))
        f.flush()
        os.fsync(f.fileno())
    settle()
    before = digest(dev)

    doc = run_json(["calibrate", dev, "--budget", "6s"] + QUIET)
    if doc:
        e = doc["environment"]
        ok(e["target_type"] == "block" and e["device"] == name,
           "block device %s recognised" % name)
        o = doc["options"]
        nr = int(open("/sys/class/block/%s/queue/nr_requests" % name).read())
        mq = "/sys/class/block/%s/mq" % name
        q = len(os.listdir(mq)) if os.path.isdir(mq) else 1
        want = max(1, min(32, nr * q // 32))
        ok(o["disks"] == want and not o["disks_given"] and
           "nr_requests %d" % nr in o["disks_source"],
           "--disks from the queue: %d (%s)" % (o["disks"],
                                                o["disks_source"]))
        ok(all(p["load"] <= want * 32 for p in doc["curve"]),
           "loads within the device's bound")
        ok(doc["max_iops"] and doc["max_iops"] > 0 and doc["max_mbps"] > 0
           and doc["max_pmbps"] > 0, "figures measured: %s IOPS, %s MB/s" %
           (doc["max_iops"], doc["max_mbps"]))
    ok(digest(dev) == before, "device contents unchanged")

    rc, out, err = run(["calibrate", dev, "--budget", "4s", "--disks", "2"]
                       + QUIET, check=0)
    ok("disks 2 (given with --disks)" in out and "max_iops = " in out,
       "text report on the device with --disks 2")

    # A live device: mounted, in use. Reading it is safe; no flag needed.
    for attempt in range(20):
        settle()
        mk = subprocess.run(["mkfs.ext4", "-q", "-F", dev],
                            capture_output=True, text=True)
        if mk.returncode == 0:
            break
        time.sleep(0.25)
    if mk.returncode:
        skip("mkfs.ext4 failed: " + mk.stderr.strip())
    mnt = tempfile.mkdtemp(prefix="iolab-mnt-")
    m = subprocess.run(["mount", dev, mnt], capture_output=True, text=True)
    if m.returncode:
        os.rmdir(mnt)
        skip("cannot mount: " + m.stderr.strip())
    try:
        with open(os.path.join(mnt, "keep.txt"), "w") as f:
            f.write("data that must survive\n")
        rc, out, err = run(["calibrate", dev, "--budget", "4s"] + QUIET)
        ok(rc == 0 and "max_iops = " in out,
           "a mounted device is calibrated read only (exit %d %s)" %
           (rc, err.strip()))
        with open(os.path.join(mnt, "keep.txt")) as f:
            ok(f.read() == "data that must survive\n",
               "the mounted filesystem's data is intact")
    finally:
        subprocess.run(["umount", mnt])
        os.rmdir(mnt)
    fsck = subprocess.run(["fsck.ext4", "-n", "-f", dev],
                          capture_output=True, text=True)
    ok(fsck.returncode == 0, "filesystem clean after calibrating it mounted")

# A device that fails reads: a loop device whose backing file was cut short
# after it was set up fails reads past the cut (EIO, or a short transfer).
with tempfile.TemporaryDirectory(dir=os.environ.get("IOLAB_BUILD")) as d:
    back = os.path.join(d, "short.img")
    with open(back, "wb") as f:
        f.truncate(64 << 20)
    p = subprocess.run(["losetup", "--find", "--show", back],
                       capture_output=True, text=True)
    if p.returncode:
        skip("cannot set up a loop device: " + p.stderr.strip())
    dev = p.stdout.strip()
    try:
        os.truncate(back, 4 << 20)
        rc, out, err = run(["calibrate", dev, "--budget", "4s"] + QUIET)
        ok(rc == 3, "a failing read exits 3 (got %d)" % rc)
        ok("PARTIAL: I/O error" in out and "at offset" in err and
           ("Input/output error" in err or "short transfer" in err),
           "the failure is reported: %s" % err.strip())
        doc = run_json(["calibrate", dev, "--budget", "4s"] + QUIET,
                       check=3)
        if doc:
            ok(doc["partial"] is True and "at offset" in doc["io_error"]
               and doc["search"]["small"]["end"] == "stopped",
               "JSON: partial, io_error names it, search stopped (%r, %s)"
               % (doc["io_error"], doc["search"]["small"]["end"]))
    finally:
        subprocess.run(["losetup", "-d", dev])

done()
