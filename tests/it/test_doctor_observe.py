# SPDX-License-Identifier: GPL-2.0-or-later
"""doctor --observe: while iolab run writes a loop device at a known rate,
doctor's observation of that device (the kernel's counters, as iostat -x)
gives that rate; nothing is opened for I/O by doctor itself."""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, run, run_json, done, loopdev, need_root  # noqa

need_root()
RATE = 200

with loopdev(64) as dev:
    name = os.path.basename(dev)
    load = subprocess.Popen([IOLAB, "run", dev, "--allow-write-device",
                             "--rw", "randwrite", "--rate-iops", str(RATE),
                             "--runtime", "6", "--no-progress"],
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    time.sleep(1.5)
    doc = run_json(["doctor", "--all", "--observe", "3s", "--json"],
                   check=None)
    load.wait()
    obs = [f for f in (doc or {}).get("findings", [])
           if f.get("id") == "observed-io" and f.get("disk") == name]
    ok(len(obs) == 1, "one observation of %s: %s" % (
        name, [f.get("id") for f in (doc or {}).get("findings", [])]))
    if obs:
        msg = obs[0]["message"]
        # "... 201.3 writes/s in 0.84 ms ..."
        w = float(msg.split(" writes/s")[0].split()[-1])
        # The rate is paced on the request's intended start: within 15 %
        # over 3 s (the window's edges catch a request more or less).
        ok(abs(w - RATE) <= 0.15 * RATE,
           "writes/s %.1f is the load's %d: %s" % (w, RATE, msg))
        ok("over 3.0 s" in msg, "the window is said: %s" % msg)

rc, out, err = run(["doctor", "--observe", "200ms"])
ok(rc == 1 and "at least 1s" in err, "a too short --observe is refused")
rc, out, err = run(["doctor", "--sysroot", "/", "--observe", "2s"])
ok(rc == 1 and "--sysroot" in err, "--observe cannot watch a tree")
done()
