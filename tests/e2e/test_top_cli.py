#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab top as a user runs it: bad flags and their exit codes, one JSON
sample, batch frames, Ctrl-C, the disks listed against /sys/block, and
no block device ever open in the process."""
import json
import os
import select
import re
import shutil
import signal
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, done, ok, run  # noqa: E402

HIDDEN = ("loop", "ram", "zram", "sr", "fd")


def bad_flags():
    for args, what in ((["--bogus"], "an unknown flag"),
                       (["--interval", "10ms"], "an interval under 100ms"),
                       (["--interval", "soon"], "an interval that is no time"),
                       (["--count", "x"], "a count that is no number"),
                       (["--count", "-1"], "a negative count"),
                       (["--json", "--csv"], "--json with --csv"),
                       (["no-such-disk0", "--count", "1"], "a disk that is not there")):
        rc, out, err = run(["top"] + args)
        ok(rc == 1, "%s: exit 1 (got %d)" % (what, rc))
        ok(out == "", "%s: nothing on stdout" % what)
        ok(err.strip() != "", "%s: a message on stderr" % what)
    rc, out, err = run(["top", "no-such-disk0", "--count", "1"])
    ok("no-such-disk0" in err and "lsblk" in err,
       "a missing disk is named, with where to find names: " + err.strip())
    rc, out, _ = run(["top", "--help"])
    ok(rc == 0 and "--interval" in out and "--count" in out, "--help: exit 0")


def one_json():
    rc, out, err = run(["top", "--count", "1", "--json", "--interval", "200ms"])
    ok(rc == 0, "--count 1 --json: exit 0 (%s)" % err)
    lines = out.splitlines()
    ok(len(lines) == 1, "--count 1 --json: one line")
    try:
        doc = json.loads(lines[0])
    except (ValueError, IndexError) as e:
        ok(False, "--count 1 --json: valid JSON (%s)" % e)
        return
    ok(doc["command"] == "top" and doc["schema_version"] == 1,
       "command and schema_version")
    ok(doc["sample"] == 1 and 0.15 < doc["interval_s"] < 5,
       "sample 1, interval measured (%s s)" % doc["interval_s"])
    for key in ("iowait_pct", "steal_pct", "psi_io_some_pct"):
        ok(key in doc["system"], "system." + key)
    names = [d["name"] for d in doc["devices"]]
    want = sorted(d for d in os.listdir("/sys/block") if not d.startswith(HIDDEN))
    ok(sorted(names) == want, "devices are /sys/block's disks: %s" % names)
    for d in doc["devices"]:
        for k in ("r_s", "w_s", "r_mb_s", "w_mb_s", "r_await_ms",
                  "w_await_ms", "aqu_sz", "util_pct"):
            v = d[k]
            ok(v is None or (v >= 0 and (k != "util_pct" or v <= 100)),
               "%s.%s = %s is a figure in range" % (d["name"], k, v))
    for v in doc["verdicts"]:
        ok(v["severity"] in ("info", "warning") and v["message"] and
           v["value"] is not None, "verdict %s has its figure" % v["id"])
    # A named disk, as /dev/NAME, shows that disk alone.
    if names:
        rc, out, _ = run(["top", "/dev/" + names[0], "--count", "1",
                          "--json", "--interval", "200ms"])
        doc = json.loads(out)
        ok(rc == 0 and [d["name"] for d in doc["devices"]] == [names[0]],
           "/dev/%s shows %s alone" % (names[0], names[0]))


def batch():
    rc, out, err = run(["top", "--batch", "--count", "2", "--interval", "200ms"])
    ok(rc == 0, "--batch --count 2: exit 0")
    ok(out.count("iolab top: sample") == 2, "two frames")
    ok("sample 1" in out and "sample 2" in out, "frames numbered")
    ok("\033" not in out, "no escape sequence when not a terminal")
    ok("DEVICE" in out and "r_await" in out and "aqu-sz" in out, "iostat's columns")


def csv():
    import csv as csvmod
    rc, out, err = run(["top", "--csv", "--count", "2", "--interval", "200ms"])
    ok(rc == 0, "--csv --count 2: exit 0")
    rows = list(csvmod.reader(out.splitlines()))
    ndev = len([d for d in os.listdir("/sys/block") if not d.startswith(HIDDEN)])
    ok(rows and rows[0][:4] == ["sample", "time", "interval_s", "device"],
       "--csv: a header first")
    ok(len(rows) == 1 + 2 * ndev, "--csv: one line per disk per sample (%d)"
       % (len(rows) - 1))
    ok(all(len(r) == len(rows[0]) for r in rows), "--csv: every line complete")


def no_device_open_and_ctrl_c():
    p = subprocess.Popen([IOLAB, "top", "--all", "--interval", "100ms"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    time.sleep(0.8)
    blk = []
    fds = 0
    try:
        for fd in os.listdir("/proc/%d/fd" % p.pid):
            fds += 1
            try:
                if stat.S_ISBLK(os.stat("/proc/%d/fd/%s" % (p.pid, fd)).st_mode):
                    blk.append(os.readlink("/proc/%d/fd/%s" % (p.pid, fd)))
            except OSError:
                pass
    except OSError:
        pass
    ok(fds > 0 and not blk, "no block device open while watching (%d fds, %s)"
       % (fds, blk))
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    ok(p.returncode == 130, "Ctrl-C: exit 130 (got %d)" % p.returncode)
    ok("sample 1" in out, "frames written before Ctrl-C")


def no_device_opened():
    """Every file top opens in a sample, traced: /proc and /sys only."""
    if not shutil.which("strace"):
        print("strace not installed: the open calls not traced")
        return
    p = subprocess.run(["strace", "-f", "-qq", "-e", "trace=open,openat",
                        IOLAB, "top", "--all", "--count", "2",
                        "--interval", "200ms"], capture_output=True,
                       text=True,
                       # LeakSanitizer cannot run under ptrace.
                       env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
    opened = re.findall(r'open(?:at)?\([^"]*"([^"]+)"', p.stderr)
    ok(p.returncode == 0 and "/proc/diskstats" in opened,
       "strace saw /proc/diskstats opened (%d opens)" % len(opened))
    dev = [f for f in opened if f.startswith("/dev/")]
    ok(not dev, "no /dev node opened: %s" % dev)


def reader_goes_away():
    """iolab top | head: the end of the reader ends top, quietly."""
    for extra in ([], ["--json"]):
        p = subprocess.Popen([IOLAB, "top", "--interval", "100ms"] + extra,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        p.stdout.readline()
        p.stdout.close()
        try:
            rc = p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            rc = None
        err = p.stderr.read().decode()
        ok(rc == 0 and err == "", "top %s | head: exit 0, nothing on stderr "
           "(got %s, %r)" % (" ".join(extra), rc, err))


def terminal():
    """On a terminal: frames redrawn, 'q' and Ctrl-C leave it as it was."""
    import pty
    import termios
    for key, want in ((b"q", 0), (b"\x03", 130)):
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(IOLAB, [IOLAB, "top", "--interval", "200ms"])
        before = None
        out = b""
        try:
            # The first frame, then the key: under a sanitizer on a loaded
            # machine the first frame may take seconds.
            deadline = time.time() + 15
            while time.time() < deadline and b"\033[H\033[J" not in out:
                if not select.select([fd], [], [], 0.1)[0]:
                    continue
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    break
            mode = termios.tcgetattr(fd)[3]
            ok(not mode & termios.ICANON and not mode & termios.ECHO,
               "on a terminal: keys read one by one, not echoed")
            os.write(fd, key)
            deadline = time.time() + 20
            while time.time() < deadline:
                done_pid, status = os.waitpid(pid, os.WNOHANG)
                if done_pid:
                    break
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    pass
                time.sleep(0.05)
            else:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                status = None
            rc = os.waitstatus_to_exitcode(status) if status is not None else None
            ok(rc == want, "key %r: exit %d (got %s)" % (key, want, rc))
            mode = termios.tcgetattr(fd)[3]
            before = bool(mode & termios.ICANON) and bool(mode & termios.ECHO)
            ok(before, "key %r: the terminal is as it was" % key)
            if key == b"q":
                ok(b"\033[H\033[J" in out, "frames are redrawn in place")
        finally:
            os.close(fd)


bad_flags()
terminal()
reader_goes_away()
no_device_opened()
one_json()
batch()
csv()
no_device_open_and_ctrl_c()
done()
