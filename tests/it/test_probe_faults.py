# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab probe under faults, serving /metrics throughout: a device whose
reads fail with EIO (a FUSE file), a target that disappears and comes back,
a --textfile directory that is full and then read-only. Each fault shows in
the metrics (iolab_probe_up 0, iolab_probe_errors_total rising) or once on
stderr, and the probe recovers when the fault goes."""
import errno
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, done, tmpdir, need_root, skip  # noqa
from fusehold import Fuse, NAME  # noqa
import promtext  # noqa

need_root()
v = promtext.value


def scrape(port):
    with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port,
                                timeout=5) as r:
        return promtext.parse(r.read().decode())


def until(fn, limit=15):
    end = time.time() + limit
    while time.time() < end:
        got = fn()
        if got:
            return got
        time.sleep(0.2)
    return fn()


with tmpdir() as d:
    mnt = os.path.join(d, "mnt")
    tfdir = os.path.join(d, "tf")
    os.mkdir(mnt)
    os.mkdir(tfdir)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "iolabtest",
                       tfdir]).returncode:
        skip("cannot mount a small tmpfs for the full-filesystem case")
    fs = Fuse(mnt)
    eio = os.path.join(mnt, NAME.decode())
    moving = os.path.join(d, "moving.img")
    with open(moving, "wb") as f:
        f.write(os.urandom(1 << 20))
    errs = []
    p = None
    try:
        p = subprocess.Popen([IOLAB, "probe", "--listen", ":0", "--interval",
                              "100ms", "--textfile", tfdir,
                              "--textfile-interval", "1s", "--no-doctor",
                              eio, moving], stderr=subprocess.PIPE, text=True)
        port = int(p.stderr.readline().rsplit(" ", 1)[1])
        threading.Thread(target=lambda: errs.extend(p.stderr), daemon=True).start()

        # a device that returns EIO
        fs.fail_errno = errno.EIO
        fams = until(lambda: (lambda f: f if (v(f, "iolab_probe_errors_total",
                                                target=eio, op="read") or 0) >= 3
                              else None)(scrape(port)))
        ok(fams and v(fams, "iolab_probe_up", target=eio) == 0,
           "EIO: iolab_probe_up 0, errors_total %s" %
           (fams and v(fams, "iolab_probe_errors_total", target=eio, op="read")))
        fs.fail_errno = 0
        fams = until(lambda: (lambda f: f if v(f, "iolab_probe_up", target=eio) == 1
                              else None)(scrape(port)))
        ok(fams, "EIO gone: up again")

        # a target that disappears and comes back
        os.rename(moving, moving + ".away")
        fams = until(lambda: (lambda f: f if v(f, "iolab_probe_up", target=moving) == 0
                              else None)(scrape(port)))
        ok(fams, "a target removed: iolab_probe_up 0")
        os.rename(moving + ".away", moving)
        fams = until(lambda: (lambda f: f if v(f, "iolab_probe_up", target=moving) == 1
                              else None)(scrape(port)))
        ok(fams, "the target back: up again")

        # --textfile on a full filesystem, then read-only, then fine
        prom = os.path.join(tfdir, "iolab.prom")
        ok(until(lambda: os.path.exists(prom)), "the textfile is written")
        filler = os.path.join(tfdir, "filler")
        try:
            with open(filler, "wb") as f:
                while True:
                    f.write(b"\0" * 4096)
                    f.flush()
        except OSError:
            pass
        said = until(lambda: [e for e in errs if "iolab.prom" in e and
                              "retrying" in e], 10)
        ok(said, "full: said on stderr (%s)" % (said and said[0].strip()))
        ok(scrape(port).get("iolab_probe_up"), "full: /metrics still answers")
        leftovers = [n for n in os.listdir(tfdir) if n.endswith(".tmp")]
        ok(not leftovers, "full: no temporary file left (%s)" % leftovers)
        os.unlink(filler)
        subprocess.run(["mount", "-o", "remount,ro", tfdir], check=True)
        time.sleep(2.5)
        ok(p.poll() is None, "read-only: the probe keeps running")
        subprocess.run(["mount", "-o", "remount,rw", tfdir], check=True)
        again = until(lambda: [e for e in errs if "written again" in e], 10)
        ok(again, "writable again: said so")
        n_said = len([e for e in errs if "retrying" in e])
        ok(n_said == 1, "the failure said once, not every interval (%d)" %
           n_said)
        ok(promtext.parse(open(prom).read()).get("iolab_probe_up"),
           "the textfile is whole again")
        p.send_signal(signal.SIGTERM)
        p.wait(20)
        ok(p.returncode == 143, "SIGTERM: exit 143")
    finally:
        if p and p.poll() is None:
            p.kill()
        fs.close(mnt)
        subprocess.run(["umount", "-l", tfdir])
done()
