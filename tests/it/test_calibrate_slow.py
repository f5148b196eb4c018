# SPDX-License-Identifier: GPL-2.0-or-later
"""`iolab calibrate` on a device too slow for its windows: a loop device
held to 2 reads/s (500 ms per read) by a cgroup v1 blkio throttle. No
window completes a read; calibrate printed max_iops = 0, latency = 0.000,
cap_met true, exit 0. It must exit 4 with the measured QD1 latency."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, done, loopdev, skip, need_root  # noqa

BLKIO = "/sys/fs/cgroup/blkio"

need_root()
if not os.path.exists(os.path.join(BLKIO, "blkio.throttle.read_iops_device")):
    skip("no cgroup v1 blkio throttle at %s" % BLKIO)

with loopdev(64) as dev:
    st = os.stat(dev)
    cg = os.path.join(BLKIO, "iolab-test-slow-%d" % os.getpid())
    os.mkdir(cg)
    try:
        with open(os.path.join(cg, "blkio.throttle.read_iops_device"),
                  "w") as f:
            f.write("%d:%d 2\n" % (os.major(st.st_rdev),
                                   os.minor(st.st_rdev)))

        def enter():
            with open(os.path.join(cg, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))

        p = subprocess.run([IOLAB, "calibrate", dev, "--budget", "5s",
                            "--max-latency", "1", "--no-progress", "--json"],
                           capture_output=True, text=True, timeout=120,
                           preexec_fn=enter)
        ok(p.returncode == 4, "exit 4 (cap not met at QD1): exit %d %s" % (
            p.returncode, p.stderr.strip()[:300]))
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            doc = None
            ok(False, "JSON on stdout: %r" % p.stdout[:300])
        if doc:
            ok(doc["cap_met"] is False and doc["max_iops"] is None and
               doc["actual_latency_ms"] is None,
               "cap_met false, max_iops and latency null (not 0): %s" % {
                   k: doc[k] for k in ("cap_met", "max_iops",
                                       "actual_latency_ms")})
            qd1 = [pt for pt in doc["curve"] if pt["load"] == 1]
            ok(qd1 and qd1[0]["lat_ms"]["mean"] >= 100,
               "the QD1 latency is the measured one (>= 100 ms): %s" % (
                   qd1[0]["lat_ms"] if qd1 else None))
            ok(all(pt["iops"] is None or pt["iops"] > 0
                   for pt in doc["curve"] + doc["large_curve"]),
               "no point shows 0 IOPS: a window without a read is null")
            ok(doc["max_mbps"] is None or doc["max_mbps"] > 0,
               "max_mbps is null or measured, never 0: %s" % doc["max_mbps"])
    finally:
        os.rmdir(cg)
done()
