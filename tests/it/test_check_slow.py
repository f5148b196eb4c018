# SPDX-License-Identifier: GPL-2.0-or-later
"""`iolab check etcd` on a disk too slow for etcd must say so: a loop
device held to 20 writes/s (50 ms each) by a cgroup v1 blkio throttle.
Every fdatasync waits for a throttled write, so the 99th percentile is far
above etcd's 10 ms and the durable appends below its 50/s: both criteria
fail, exit 4, and the report says what to change."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, done, loopdev, skip, need_root  # noqa

BLKIO = "/sys/fs/cgroup/blkio"

need_root()
if not os.path.exists(os.path.join(BLKIO, "blkio.throttle.write_iops_device")):
    skip("no cgroup v1 blkio throttle at %s" % BLKIO)

with loopdev(64) as dev:
    st = os.stat(dev)
    cg = os.path.join(BLKIO, "iolab-test-check-%d" % os.getpid())
    os.mkdir(cg)
    try:
        with open(os.path.join(cg, "blkio.throttle.write_iops_device"),
                  "w") as f:
            f.write("%d:%d 20\n" % (os.major(st.st_rdev),
                                    os.minor(st.st_rdev)))

        def enter():
            with open(os.path.join(cg, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))

        p = subprocess.run([IOLAB, "check", "etcd", dev,
                            "--allow-write-device", "--runtime", "4s",
                            "--no-progress", "--json"],
                           capture_output=True, text=True, timeout=300,
                           preexec_fn=enter)
        ok(p.returncode == 4, "exit 4 (not fit): exit %d %s" % (
            p.returncode, p.stderr.strip()[:300]))
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            doc = None
            ok(False, "JSON on stdout: %r" % p.stdout[:300])
        if doc:
            v = {c["id"]: c for c in doc["criteria"]}
            p99 = v["wal-fdatasync-p99"]
            rate = v["wal-appends-rate"]
            ok(doc["verdict"] == "fail", "the profile fails")
            ok(p99["verdict"] == "fail" and p99["low"] > 10e6,
               "fdatasync p99 fails, bounded above 10 ms: %s" % {
                   k: p99[k] for k in ("value", "low", "samples")})
            ok(rate["verdict"] == "fail" and rate["high"] < 50,
               "durable appends fail, bounded under 50/s: %s" % {
                   k: rate[k] for k in ("value", "high", "samples")})
            ok(p99["fix"] and rate["fix"], "each failure says what to change")
    finally:
        os.rmdir(cg)
done()
