# SPDX-License-Identifier: GPL-2.0-or-later
"""-o FILE: the report goes to a temporary file beside FILE and replaces it
only when complete. A refused, failed or interrupted run leaves an existing
FILE byte for byte; a link planted at FILE is replaced, never written
through; no temporary file is ever left behind."""
import hashlib
import os
import signal
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, done, run, tmpdir  # noqa: E402

ORIGINAL = b"the report of last week, keep me\n" * 100


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def put(path, data=ORIGINAL, mode=0o644):
    with open(path, "wb") as f:
        f.write(data)
    os.chmod(path, mode)
    return digest(path)


def leftovers(d, name):
    return [f for f in os.listdir(d) if f.startswith("." + name + ".")]


def wait_for_file(path, timeout=20):
    end = time.time() + timeout
    while time.time() < end:
        if os.path.exists(path):
            return True
        time.sleep(0.01)
    return False


QUICK = ["--size", "8M", "--runtime", "200ms", "--no-progress"]

with tmpdir() as d:
    out = os.path.join(d, "out.txt")

    # A refused run: an existing file iolab did not create, writes asked.
    h = put(out)
    mine = os.path.join(d, "mine.dat")
    put(mine, b"\0" * (16 << 20))
    rc, so, se = run(["run", mine, "--rw", "randwrite", "-o", out] + QUICK)
    ok(rc != 0 and "allow-write-file" in se,
       "writing to a file iolab did not create is refused (%d)" % rc)
    ok(digest(out) == h, "a refused run leaves the -o file byte-identical")
    ok(not leftovers(d, "out.txt"), "no temporary file left (refused)")

    # A usage error found after -o was opened (target too small).
    rc, so, se = run(["calibrate", os.path.join(d, "t.dat"), "--size", "4k",
                      "--no-progress", "-o", out])
    ok(rc != 0 and digest(out) == h and not leftovers(d, "out.txt"),
       "a failed calibrate leaves the -o file as it was (%d)" % rc)

    # A successful run replaces it, keeping its mode.
    put(out, mode=0o600)
    rc, so, se = run(["run", os.path.join(d, "t.dat"), "-o", out] + QUICK,
                     check=0)
    with open(out) as f:
        text = f.read()
    ok(so == "" and "IOPS" in text, "the report is in the -o file")
    ok(stat.S_IMODE(os.stat(out).st_mode) == 0o600,
       "the replaced file keeps its mode")
    ok(not leftovers(d, "out.txt"), "no temporary file left (success)")

    # A link planted at the -o name: its target is never written.
    victim = os.path.join(d, "victim")
    hv = put(victim)
    link = os.path.join(d, "planted.txt")
    os.symlink(victim, link)
    rc, so, se = run(["run", os.path.join(d, "t.dat"), "--json", "-o", link]
                     + QUICK, check=0)
    ok(digest(victim) == hv, "-o through a planted link: its target unchanged")
    ok(not os.path.islink(link) and b'"jobs"' in open(link, "rb").read(),
       "the link itself is replaced by the report")
    # A dangling link (pointing at a file that does not exist yet) too.
    ghost = os.path.join(d, "ghost")
    os.symlink(ghost, os.path.join(d, "dangling.txt"))
    run(["run", os.path.join(d, "t.dat"), "-o",
         os.path.join(d, "dangling.txt")] + QUICK, check=0)
    ok(not os.path.exists(ghost), "-o through a dangling link creates nothing "
       "where it points")

    # -o naming the test file, before the test file exists.
    rc, so, se = run(["run", "-o", "iolab-test.dat"] + QUICK, cwd=d)
    ok(rc == 1 and "target itself" in se and
       not os.path.exists(os.path.join(d, "iolab-test.dat")),
       "-o naming the default test file refused before it exists (%d)" % rc)
    rc, so, se = run(["run", "-o", d] + QUICK, cwd=d)
    ok(rc == 1 and "directory" in se, "-o naming a directory refused")

    # Ctrl-C while filling: no report, so the old file stays.
    h = put(out)
    big = os.path.join(d, "big.dat")
    p = subprocess.Popen([IOLAB, "run", big, "--size", "20G", "--runtime",
                          "1s", "--no-progress", "-o", out],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_for_file(big)
    time.sleep(0.3)
    ok(leftovers(d, "out.txt") != [], "the report is written to a temporary "
       "file beside the name")
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=60)
    ok(p.returncode == 130, "Ctrl-C while filling exits 130 (%d)"
       % p.returncode)
    ok(digest(out) == h, "interrupted before a report: -o file unchanged")
    ok(not leftovers(d, "out.txt"), "no temporary file left (Ctrl-C)")

    # Twice: the immediate exit removes the temporary file as well.
    p = subprocess.Popen([IOLAB, "run", big, "--size", "20G", "--runtime",
                          "1s", "--no-progress", "-o", out],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_for_file(big)
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=60)
    ok(p.returncode == 130 and digest(out) == h and
       not leftovers(d, "out.txt"),
       "double Ctrl-C: exit 130, -o file unchanged, no temporary file")

    # A signal iolab does not otherwise handle (SIGUSR1) ends it at once,
    # still removing the temporary file.
    p = subprocess.Popen([IOLAB, "run", big, "--size", "20G", "--runtime",
                          "1s", "--no-progress", "-o", out],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_for_file(big)
    time.sleep(0.3)
    p.send_signal(signal.SIGUSR1)
    p.communicate(timeout=60)
    ok(p.returncode != 0 and digest(out) == h and
       not leftovers(d, "out.txt"),
       "SIGUSR1: -o file unchanged, no temporary file (%d)" % p.returncode)
    if os.path.exists(big):
        os.unlink(big)

    # Interrupted mid-run: the partial report is a report; it replaces.
    p = subprocess.Popen([IOLAB, "run", os.path.join(d, "s.dat"), "--size",
                          "8M", "--runtime", "60s", "--no-progress", "-o",
                          out], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    wait_for_file(os.path.join(d, "s.dat"))
    time.sleep(1.0)
    p.send_signal(signal.SIGTERM)
    p.communicate(timeout=30)
    ok(p.returncode == 143 and "PARTIAL" in open(out).read() and
       not leftovers(d, "out.txt"),
       "SIGTERM mid-run: the partial report replaces the file")

    # Devices that are not disks still work as they are.
    rc, so, se = run(["run", os.path.join(d, "t.dat"), "-o", "/dev/null"]
                     + QUICK, check=0)
    ok(so == "", "-o /dev/null")
    rc, so, se = run(["run", os.path.join(d, "t.dat"), "--json", "-o",
                      "/dev/stdout"] + QUICK, check=0)
    ok(so.startswith("{"), "-o /dev/stdout writes to standard output")
    rc, so, se = run(["run", os.path.join(d, "t.dat"), "-o", "-"] + QUICK,
                     check=0)
    ok("IOPS" in so, "-o - writes to standard output")
    if os.path.exists("/dev/full"):
        rc, so, se = run(["run", os.path.join(d, "t.dat"), "-o",
                          "/dev/full"] + QUICK)
        ok(rc == 2 and "cannot write the report" in se,
           "-o /dev/full: the write error is reported (%d)" % rc)
    ok(sorted(os.listdir(d)) == sorted(
        ["out.txt", "mine.dat", "victim", "planted.txt", "dangling.txt"]),
       "nothing else left in the directory: %s" % sorted(os.listdir(d)))

done()
