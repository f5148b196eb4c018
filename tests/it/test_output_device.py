# SPDX-License-Identifier: GPL-2.0-or-later
"""-o onto a block device is refused (exit 2) and the device is not
touched: not by its name, not through a link to it, mounted or not. Only
terminals and /dev/null-like character devices take a report."""
import hashlib
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, done, run, tmpdir, loopdev, need_root  # noqa: E402

QUICK = ["--size", "8M", "--runtime", "200ms", "--no-progress"]


def device_hash(dev):
    h = hashlib.sha256()
    with open(dev, "rb") as f:
        while True:
            b = f.read(1 << 20)
            if not b:
                break
            h.update(b)
    return h.hexdigest()


need_root()
with tmpdir() as d, loopdev(16) as dev:
    with open(dev, "r+b") as f:
        f.write(os.urandom(16 << 20))
        f.flush()
        os.fsync(f.fileno())
    before = device_hash(dev)
    t = os.path.join(d, "t.dat")
    rc, so, se = run(["run", t, "-o", dev] + QUICK)
    ok(rc == 2 and "block device" in se and se.count("\n") == 1,
       "-o %s refused with exit 2 and one line (%d: %s)"
       % (dev, rc, se.strip()))
    ok(device_hash(dev) == before, "the loop device is unchanged")
    link = os.path.join(d, "report.txt")
    os.symlink(dev, link)
    rc, so, se = run(["run", t, "--json", "-o", link] + QUICK)
    ok(rc == 2 and device_hash(dev) == before,
       "-o through a link to the device refused, device unchanged (%d)" % rc)
    for cmd in (["doctor"], ["advise", "--no-probe"]):
        rc, so, se = run(cmd + ["-o", dev])
        ok(rc == 2 and device_hash(dev) == before,
           "%s -o %s refused (%d)" % (cmd[0], dev, rc))
    mkfs = shutil.which("mkfs.ext4")
    if mkfs and subprocess.run([mkfs, "-q", "-F", dev],
                               capture_output=True).returncode == 0:
        mnt = os.path.join(d, "mnt")
        os.mkdir(mnt)
        if subprocess.run(["mount", dev, mnt],
                          capture_output=True).returncode == 0:
            try:
                with open(os.path.join(mnt, "data"), "w") as f:
                    f.write("on the mounted filesystem\n")
                subprocess.run(["sync"])
                before = device_hash(dev)
                rc, so, se = run(["run", t, "-o", dev] + QUICK)
                ok(rc == 2 and device_hash(dev) == before,
                   "-o onto the mounted loop device refused, unchanged")
            finally:
                subprocess.run(["umount", mnt])
        else:
            print("SKIP mounted case: cannot mount")
    else:
        print("SKIP mounted case: no mkfs.ext4")
    # A new name in /dev would stand in for a device that appears later.
    ghost = "/dev/iolab-no-such-disk"
    rc, so, se = run(["run", t, "-o", ghost] + QUICK)
    ok(rc == 2 and not os.path.exists(ghost),
       "-o naming a new file in /dev refused (%d)" % rc)
    if os.path.isfile(ghost) and not os.path.islink(ghost):
        os.unlink(ghost)
    # Character devices other than terminals and the null-like ones.
    if os.path.exists("/dev/random"):
        rc, so, se = run(["run", t, "-o", "/dev/random"] + QUICK)
        ok(rc == 2 and "does not write reports to" in se,
           "-o /dev/random refused (%d)" % rc)

done()
