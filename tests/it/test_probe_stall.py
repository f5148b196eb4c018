# SPDX-License-Identifier: GPL-2.0-or-later
"""A stalled device does not stall the scrape: with every read of one
target held in a FUSE server (tests/lib/fusehold.py), `iolab probe
--listen` keeps answering /metrics at once, its
iolab_probe_stalled_seconds for that target rises, the other target keeps
being probed; released, the read is counted and the gauge drops to 0.
--once with the stall held still prints and exits in bounded time."""
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, done, tmpdir, need_root  # noqa
from fusehold import Fuse, NAME  # noqa
import promtext  # noqa

need_root()


def scrape(port):
    t0 = time.time()
    with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port,
                                timeout=5) as r:
        text = r.read().decode()
    return promtext.parse(text), time.time() - t0


with tmpdir() as d:
    mnt = os.path.join(d, "mnt")
    os.mkdir(mnt)
    good = os.path.join(d, "good.img")
    with open(good, "wb") as f:
        f.write(os.urandom(1 << 20))
    fs = Fuse(mnt)
    slow = os.path.join(mnt, NAME.decode())
    p = None
    try:
        fs.stall()
        p = subprocess.Popen([IOLAB, "probe", "--listen", ":0", "--interval",
                              "100ms", "--no-doctor", slow, good],
                             stderr=subprocess.PIPE, text=True)
        line = p.stderr.readline()
        port = int(line.rsplit(" ", 1)[1])
        time.sleep(3)
        v = promtext.value
        fams, took = scrape(port)
        stalled = v(fams, "iolab_probe_stalled_seconds", target=slow)
        ok(took < 2, "the scrape answers while a read is held (%.3f s)" % took)
        ok(stalled is not None and stalled >= 1,
           "iolab_probe_stalled_seconds rises on the stalled target (%s)" %
           stalled)
        ok(v(fams, "iolab_probe_latency_seconds_count", target=good,
             op="read") >= 5,
           "the other target keeps being probed (%s reads)" %
           v(fams, "iolab_probe_latency_seconds_count", target=good,
             op="read"))
        time.sleep(1)
        fams2, _ = scrape(port)
        ok(v(fams2, "iolab_probe_stalled_seconds", target=slow) > stalled,
           "the stall gauge keeps rising")
        ok(len(fs.held) == 1, "one read held: QD1, no pile-up behind it (%d)"
           % len(fs.held))
        fs.release()
        time.sleep(1)
        fams3, _ = scrape(port)
        ok(v(fams3, "iolab_probe_latency_seconds_count", target=slow,
             op="read") >= 1 and
           v(fams3, "iolab_probe_stalled_seconds", target=slow) < 1,
           "released: the read is counted, the gauge falls")
        le2 = v(fams3, "iolab_probe_latency_seconds_bucket", target=slow,
                op="read", le="2.097152")
        n = v(fams3, "iolab_probe_latency_seconds_count", target=slow,
              op="read")
        ok(n - le2 >= 1, "the held read lands above the 2 s bucket "
           "(%s of %s reads)" % (n - le2, n))
        p.send_signal(signal.SIGTERM)
        p.wait(20)
        ok(p.returncode == 143, "SIGTERM: exit 143 (%s)" % p.returncode)

        # --once while the device holds the read: bounded, and says so.
        # The process itself lingers until the read returns (the kernel
        # does not abort a FUSE request already sent), but its output is
        # complete and its pipes closed.
        fs.stall()
        t0 = time.time()
        q = subprocess.Popen([IOLAB, "probe", "--once", "--no-doctor", slow,
                              good], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        got = {}
        readers = [threading.Thread(target=lambda k, f: got.update({k: f.read()}),
                                    args=(k, f), daemon=True)
                   for k, f in (("out", q.stdout), ("err", q.stderr))]
        for r in readers:
            r.start()
        for r in readers:
            r.join(30)
        took = time.time() - t0
        fs.release()
        rc = q.wait(30)
        fams = promtext.parse(got.get("out", ""))
        ok(rc == 0 and took < 20 and
           v(fams, "iolab_probe_stalled_seconds", target=slow) >= 5 and
           v(fams, "iolab_probe_up", target=good) == 1 and
           "has not completed" in got.get("err", ""),
           "--once with a stalled target: complete output in %.1f s, the "
           "stall shown (%s)" % (took, got.get("err", "").strip()))
    finally:
        if p and p.poll() is None:
            p.kill()
        fs.close(mnt)
done()
