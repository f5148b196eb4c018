# SPDX-License-Identifier: GPL-2.0-or-later
"""Ctrl-C: during the run it ends early with partial results and removes
the test file; during preparation it removes the half-written file; a second
Ctrl-C exits at once, still removing it."""
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, done, tmpdir  # noqa: E402


def start(args, cwd):
    return subprocess.Popen([IOLAB] + args, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_for_file(path, timeout=20):
    end = time.time() + timeout
    while time.time() < end:
        if os.path.exists(path):
            return True
        time.sleep(0.01)
    return False


with tmpdir() as d:
    f = os.path.join(d, "sig.dat")
    for sig, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        p = start(["run", f, "--size", "8M", "--runtime", "60s", "--json",
                   "--no-progress"], d)
        wait_for_file(f)
        time.sleep(1.0)
        p.send_signal(sig)
        out, err = p.communicate(timeout=30)
        ok(p.returncode == code, "%s mid-run exits %d (got %d)" %
           (sig.name, code, p.returncode))
        try:
            doc = json.loads(out)
            ok(doc["partial"] is True and doc["jobs"][0]["partial"] and
               doc["jobs"][0]["read"]["ios"] > 0 and
               doc["jobs"][0]["elapsed_s"] < 30,
               "%s: partial results printed and marked" % sig.name)
        except ValueError:
            ok(False, "%s: JSON printed after the signal" % sig.name)
        ok(not os.path.exists(f), "%s: test file removed" % sig.name)

    # Every other signal whose default action ends the process: the run
    # stops with partial results and the test file is removed.
    others = ["SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM",
              "SIGVTALRM", "SIGPROF", "SIGXCPU", "SIGXFSZ", "SIGIO",
              "SIGPWR", "SIGSTKFLT"]
    for name in others:
        sig = getattr(signal, name, None)
        if sig is None:
            continue
        p = start(["run", f, "--size", "8M", "--runtime", "60s", "--json",
                   "--no-progress"], d)
        wait_for_file(f)
        time.sleep(1.0)
        p.send_signal(sig)
        out, err = p.communicate(timeout=30)
        ok(p.returncode == 128 + sig and not os.path.exists(f),
           "%s: exit %d (got %d), test file removed" %
           (name, 128 + sig, p.returncode))

    # Text output says PARTIAL.
    p = start(["run", f, "--size", "8M", "--runtime", "60s",
               "--no-progress"], d)
    wait_for_file(f)
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    ok("PARTIAL" in out and "Ctrl-C" in out, "table marked PARTIAL")

    # During preparation of a large file.
    big = os.path.join(d, "big.dat")
    p = start(["run", big, "--size", "20G", "--runtime", "1s",
               "--no-progress"], d)
    wait_for_file(big)
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    ok(p.returncode == 130 and "interrupted" in err,
       "Ctrl-C while filling: exit 130, said so (%s)" % err.strip())
    ok(not os.path.exists(big), "half-written file removed")

    # Twice: immediate exit, still removed.
    p = start(["run", f, "--size", "8M", "--runtime", "60s",
               "--no-progress", "--engine", "sync"], d)
    wait_for_file(f)
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=30)
    ok(p.returncode in (130,), "double Ctrl-C exits 130 (got %d)" %
       p.returncode)
    ok(not os.path.exists(f), "double Ctrl-C: test file removed")
    leftovers = [x for x in os.listdir(d)]
    ok(leftovers == [], "nothing left in the directory: %r" % leftovers)
done()
