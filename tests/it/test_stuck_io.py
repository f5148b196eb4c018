# SPDX-License-Identifier: GPL-2.0-or-later
"""After Ctrl-C with I/O stuck in the device, iolab says it waits for the
in-flight I/O instead of waiting silently, and finishes once the I/O
completes. The stuck device is a one-file FUSE filesystem served here
(tests/lib/fusehold.py) that holds its read replies while told to."""
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, done, tmpdir, need_root  # noqa
from fusehold import Fuse  # noqa

need_root()

with tmpdir() as d:
    mnt = os.path.join(d, "mnt")
    os.mkdir(mnt)
    fs = Fuse(mnt)
    errf = os.path.join(d, "stderr")
    try:
        with open(errf, "w") as ef:
            p = subprocess.Popen([IOLAB, "run", os.path.join(mnt, "disk.img"),
                                  "--rw", "randread", "--qd", "4",
                                  "--runtime", "60s", "--no-progress"],
                                 stdout=subprocess.PIPE, stderr=ef, text=True)
        time.sleep(1.0)
        fs.stall()
        time.sleep(0.5)
        p.send_signal(signal.SIGINT)
        said = ""
        end = time.time() + 15
        while time.time() < end and p.poll() is None:
            with open(errf) as ef:
                said = ef.read()
            if "in-flight" in said:
                break
            time.sleep(0.1)
        stalled = len(fs.held)
        fs.release()
        out, _ = p.communicate(timeout=60)
        with open(errf) as ef:
            said = ef.read()
        ok(stalled > 0, "%d reads held in the FUSE server" % stalled)
        ok("waiting for" in said and "in-flight I/O" in said and
           "Ctrl-C again" in said,
           "stuck I/O after Ctrl-C is announced: %s" % said.strip())
        ok(p.returncode == 130 and "PARTIAL" in out,
           "the run finishes with exit 130 once the I/O completes (%d)" %
           p.returncode)
    finally:
        if p.poll() is None:
            p.kill()
        fs.close(mnt)
done()
