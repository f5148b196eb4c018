# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes acknowledged from a cache are flagged with the rate counting the
flush they left: a loop device held to 8 MB/s of writes (cgroup v1 blkio
throttle) written through the page cache (cache=writeback) reads at RAM
speed; the flush after the run takes seconds. The same device written
with O_DIRECT, or with O_DSYNC, is not flagged."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, done, loopdev, skip, need_root  # noqa

BLKIO = "/sys/fs/cgroup/blkio"

need_root()
if not os.path.exists(os.path.join(BLKIO,
                                   "blkio.throttle.write_bps_device")):
    skip("no cgroup v1 blkio throttle at %s" % BLKIO)


def warnings(doc):
    return {w["id"]: w["message"] for w in doc["warnings"]} if doc else {}


with loopdev(16) as dev:
    st = os.stat(dev)
    cg = os.path.join(BLKIO, "iolab-test-cached-%d" % os.getpid())
    os.mkdir(cg)
    try:
        with open(os.path.join(cg, "blkio.throttle.write_bps_device"),
                  "w") as f:
            f.write("%d:%d %d\n" % (os.major(st.st_rdev),
                                    os.minor(st.st_rdev), 8 << 20))

        def enter():
            with open(os.path.join(cg, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))

        def write_run(cache):
            p = subprocess.run([IOLAB, "run", dev, "--rw", "write", "--bs",
                                "1M", "--qd", "4", "--runtime", "300ms",
                                "--cache", cache, "--allow-write-device",
                                "--no-progress", "--json"],
                               capture_output=True, text=True, timeout=120,
                               preexec_fn=enter)
            try:
                return json.loads(p.stdout)
            except ValueError:
                ok(False, "%s: JSON on stdout (exit %d): %s" % (
                    cache, p.returncode, p.stderr.strip()[:300]))
                return None

        doc = write_run("writeback")
        w = warnings(doc)
        ok("cached-writes" in w, "writeback: cached-writes (%s)" % list(w))
        m = re.search(r"flush after the run took ([0-9.]+) s more.*"
                      r"the writes ran at ([0-9]+) MB/s, not ([0-9]+)",
                      w.get("cached-writes", ""))
        ok(m and float(m.group(1)) >= 1.0,
           "the flush took the time the writes did not (>= 1 s for up to "
           "16 MiB at 8 MB/s): %s" % (m and m.group(1)))
        ok(m and int(m.group(2)) < int(m.group(3)),
           "the rate counting the flush is below the acknowledged one: %s"
           % ((m and m.groups()),))
        for cache in ("none", "writethrough"):
            doc = write_run(cache)
            ok(doc and "cached-writes" not in warnings(doc),
               "%s: writes throttled as they go, not flagged (%s)" % (
                   cache, list(warnings(doc))))
    finally:
        os.rmdir(cg)

done()
