# SPDX-License-Identifier: GPL-2.0-or-later
"""Helpers for iolab's integration and end-to-end tests.

Each test script is a standalone program: it runs the real iolab binary
(path in $IOLAB, set by meson) against real files and devices, prints one
line per check, and exits 0 (pass), 1 (fail) or 77 (skip).
"""
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

IOLAB = os.path.abspath(os.environ.get("IOLAB") or os.path.join(
    os.environ.get("IOLAB_BUILD", "build"), "iolab"))
SKIP = 77

_failures = []


def run(args, check=None, timeout=300, env=None, cwd=None, stdin=None):
    """Run iolab; return (rc, stdout, stderr). check: expected rc."""
    p = subprocess.run([IOLAB] + [str(a) for a in args], capture_output=True,
                       text=True, timeout=timeout, env=env, cwd=cwd,
                       stdin=stdin)
    if check is not None and p.returncode != check:
        fail("iolab %s: exit %d, expected %d\nstdout: %s\nstderr: %s" % (
            " ".join(map(str, args)), p.returncode, check, p.stdout[-2000:],
            p.stderr[-2000:]))
    return p.returncode, p.stdout, p.stderr


def run_json(args, check=0, **kw):
    rc, out, err = run(list(args) + ["--json"], check=check, **kw)
    try:
        return json.loads(out)
    except ValueError as e:
        fail("iolab %s: stdout is not JSON (%s): %r / stderr %r" % (
            " ".join(map(str, args)), e, out[:500], err[:500]))
        return None


def ok(cond, what):
    if cond:
        print("ok   " + what)
    else:
        fail(what)
    return cond


def fail(what):
    print("FAIL " + what)
    _failures.append(what)


def done():
    if _failures:
        print("%d check(s) failed" % len(_failures))
        sys.exit(1)
    print("all checks passed")
    sys.exit(0)


def skip(why):
    print("SKIP " + why)
    sys.exit(SKIP)


def need_root():
    if os.geteuid() != 0:
        skip("needs root")


@contextlib.contextmanager
def tmpdir(under=None):
    """A scratch directory on a real disk (not tmpfs) unless under= says."""
    base = under or os.environ.get("IOLAB_BUILD") or None
    d = tempfile.mkdtemp(prefix="iolab-test-", dir=base)
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


@contextlib.contextmanager
def loopdev(size_mb=64, under=None):
    """A loop device over a new backing file; detached afterwards."""
    need_root()
    if not shutil.which("losetup"):
        skip("losetup not installed")
    with tmpdir(under) as d:
        back = os.path.join(d, "loop.img")
        with open(back, "wb") as f:
            f.truncate(size_mb << 20)
        p = subprocess.run(["losetup", "--find", "--show", back],
                           capture_output=True, text=True)
        if p.returncode:
            skip("cannot set up a loop device: " + p.stderr.strip())
        dev = p.stdout.strip()
        try:
            yield dev
        finally:
            subprocess.run(["losetup", "-d", dev])


def files_like(d, prefix="iolab-test"):
    return [f for f in os.listdir(d) if f.startswith(prefix)]
