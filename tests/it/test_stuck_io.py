# SPDX-License-Identifier: GPL-2.0-or-later
"""After Ctrl-C with I/O stuck in the device (a suspended device-mapper
device queues it), iolab says it waits for the in-flight I/O instead of
waiting silently, and finishes once the device answers."""
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, done, loopdev, skip, need_root  # noqa

need_root()
if not shutil.which("dmsetup"):
    skip("dmsetup not installed")

name = "iolab-stuck-%d" % os.getpid()
with loopdev(32) as dev:
    sectors = int(subprocess.run(["blockdev", "--getsz", dev],
                                 capture_output=True, text=True,
                                 check=True).stdout)
    if subprocess.run(["dmsetup", "create", name, "--table",
                       "0 %d linear %s 0" % (sectors, dev)],
                      capture_output=True).returncode:
        skip("cannot create a device-mapper device")
    dm = "/dev/mapper/" + name
    errf = "/tmp/%s.err" % name
    try:
        subprocess.run(["udevadm", "settle"], capture_output=True)
        with open(errf, "w") as ef:
            p = subprocess.Popen([IOLAB, "run", dm, "--rw", "randread",
                                  "--qd", "4", "--runtime", "60s",
                                  "--no-progress"],
                                 stdout=subprocess.PIPE, stderr=ef, text=True)
        time.sleep(1.0)
        subprocess.run(["dmsetup", "suspend", "--noflush", name], check=True)
        try:
            time.sleep(0.5)
            p.send_signal(signal.SIGINT)
            end = time.time() + 15
            said = ""
            while time.time() < end:
                with open(errf) as ef:
                    said = ef.read()
                if "in-flight" in said:
                    break
                time.sleep(0.1)
        finally:
            subprocess.run(["dmsetup", "resume", name])
        out, _ = p.communicate(timeout=60)
        with open(errf) as ef:
            said = ef.read()
        ok("waiting for 4 in-flight I/O" in said and "Ctrl-C again" in said,
           "stuck I/O after Ctrl-C is announced: %s" % said.strip())
        ok(p.returncode == 130 and "PARTIAL" in out,
           "the run finishes with exit 130 once the device answers (%d)" %
           p.returncode)
    finally:
        subprocess.run(["dmsetup", "remove", name])
        if os.path.exists(errf):
            os.unlink(errf)
done()
