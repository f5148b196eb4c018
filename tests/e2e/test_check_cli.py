# SPDX-License-Identifier: GPL-2.0-or-later
"""`iolab check` as a user runs it: --list, etcd on a file on the disk
(JSON shape, verdicts that follow the figures and the exit code, the test
file removed), the same on tmpfs (no durability: inconclusive, exit 5),
CSV, an existing file iolab did not create (refused, left as it was), and
bad input. The disk's verdict depends on how loaded the machine is, so it
is checked for consistency, never for a value."""
import hashlib
import json
import csv
import io
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, run, done, tmpdir, files_like  # noqa

QUIET = ["--no-progress"]
PROFILES = ["etcd", "postgresql", "mysql", "oracle", "zookeeper"]
VERDICT_RC = {"pass": 0, "fail": 4, "inconclusive": 5, "no-threshold": 0}


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def load(out, name):
    try:
        return json.loads(out)
    except ValueError:
        ok(False, "%s: stdout is JSON: %r" % (name, out[:300]))
        return None


def check_criteria(doc, name):
    crit = doc["criteria"]
    ok([c["id"] for c in crit] == ["wal-fdatasync-p99", "wal-appends-rate"],
       name + ": etcd's two criteria, in order")
    for c in crit:
        v, lim, lo, hi = c["value"], c["limit"], c["low"], c["high"]
        ok(c["verdict"] in VERDICT_RC and isinstance(v, (int, float)) and
           c["source"], name + ": %s measured, with a source: %s" % (
               c["id"], {k: c[k] for k in ("verdict", "value", "low",
                                           "high", "reason")}))
        at_most = c["comparison"] == "at_most"
        if c["verdict"] == "pass":
            ok(c["reason"] is None or "RAM" not in c["reason"],
               name + ": a pass has no RAM reason")
            ok(hi is not None and (hi <= lim if at_most else lo >= lim),
               name + ": %s passes only with its bound inside the limit"
               % c["id"])
        if c["verdict"] == "fail":
            ok(lo > lim if at_most else hi < lim,
               name + ": %s fails only with its bound beyond the limit"
               % c["id"])
            ok(c["fix"], name + ": a failure says what to change")
        if c["verdict"] == "inconclusive":
            ok(c["reason"], name + ": inconclusive says why")
    p99 = crit[0]
    ok(p99["unit"] == "ns" and p99["limit"] == 10e6 and
       p99["percentile"] == 99 and p99["direction"] == "flush",
       name + ": etcd's limit is the fdatasync p99 at 10 ms")


# --list: every profile, each criterion with its source
rc, out, err = run(["check", "--list"])
ok(rc == 0 and all(p in out for p in PROFILES) and
   out.count("source:") >= 10, "--list names the profiles and sources")
ok("--fdatasync=1 --bs=2300" in out, "--list quotes etcd's fio recipe")

# bad input
for args, what in ((["check"], "no profile"),
                   (["check", "sqlite"], "unknown profile"),
                   (["check", "etcd", "x.dat", "--dir", "."],
                    "TARGET and --dir"),
                   (["check", "etcd", "--runtime", "100ms"],
                    "--runtime below 1s"),
                   (["check", "etcd", "--engine", "sync"],
                    "--engine not one of QEMU's")):
    rc, out, err = run(args + QUIET)
    ok(rc == 1 and "iolab:" in err and not out, "%s: exit 1 (%d) %s" % (
        what, rc, err.strip()[:120]))

# etcd on the disk, in --dir
with tmpdir() as d:
    rc, out, err = run(["check", "etcd", "--dir", d, "--runtime", "2s",
                        "--json"] + QUIET)
    doc = load(out, "etcd disk")
    if doc:
        ok(doc["command"] == "check" and doc["profile"] == "etcd" and
           doc["options"]["target"] == os.path.join(d, "iolab-test.dat"),
           "etcd disk: command, profile and --dir's file echoed")
        ok(doc["verdict"] in VERDICT_RC and rc == VERDICT_RC[doc["verdict"]],
           "etcd disk: exit %d follows the verdict %s" % (rc, doc["verdict"]))
        check_criteria(doc, "etcd disk")
        ok(doc["steps"][0]["id"] == "wal" and doc["steps"][0]["result"],
           "etcd disk: step wal with its run")
        ok(not doc["partial"], "etcd disk: judged, not partial")
    ok(files_like(d) == [], "etcd disk: the test file is removed")

    # compare and report read check results
    a, b = os.path.join(d, "a.json"), os.path.join(d, "b.json")
    for path in (a, b):
        run(["check", "etcd", "--dir", d, "--runtime", "1s", "--json", "-o",
             path] + QUIET)
    rc, out, err = run(["compare", a, b])
    ok(rc == 0 and "2 check results" in out and
       "99th percentile of the fdatasync" in out,
       "compare of two check results: %d %s" % (rc, err.strip()[:200]))
    html = os.path.join(d, "r.html")
    rc, out, err = run(["report", a, b, "-o", html])
    ok(rc == 0 and os.path.exists(html) and
       "wal-fdatasync-p99" in open(html).read(),
       "report of check results: %d %s" % (rc, err.strip()[:200]))
    os.unlink(a)
    os.unlink(b)
    os.unlink(html)

    # an existing file iolab did not create: refused and left as it was
    f = os.path.join(d, "mine.dat")
    with open(f, "wb") as fh:
        fh.write(os.urandom(1 << 20))
    before = digest(f)
    rc, out, err = run(["check", "etcd", f, "--runtime", "1s"] + QUIET)
    ok(rc == 2 and "--allow-write-file" in err,
       "an existing file is refused, naming --allow-write-file: %d %s" % (
           rc, err.strip()[:160]))
    ok(digest(f) == before, "the existing file is unchanged")

    # As a QEMU disk with cache=unsafe: the flushes are dropped, so no
    # criterion can pass, whatever the disk
    rc, out, err = run(["check", "etcd", "--dir", d, "--runtime", "1s",
                        "--cache", "unsafe", "--engine", "threads",
                        "--json"] + QUIET)
    doc = load(out, "etcd cache=unsafe")
    ok(rc == 5, "etcd as cache=unsafe: exit 5 (inconclusive): %d" % rc)
    if doc:
        ok(doc["options"]["qemu_cache"] == "unsafe" and
           doc["options"]["qemu_aio"] == "threads" and
           all(c["verdict"] == "inconclusive" and "dropped" in c["reason"]
               for c in doc["criteria"]),
           "etcd as cache=unsafe: every criterion inconclusive, flushes "
           "dropped: %s" % [c["reason"] for c in doc["criteria"]])
    # aio=native without O_DIRECT: QEMU's refusal, before any file is made
    rc, out, err = run(["check", "etcd", "--dir", d, "--engine", "native",
                        "--runtime", "1s"] + QUIET)
    ok(rc == 2 and "QEMU refuses aio=native" in err and not files_like(d),
       "--engine native without --cache none: refused as QEMU does, "
       "no file made: %d %s" % (rc, err.strip()[:160]))

    # CSV: one line per criterion, the profile's verdict on each
    rc, out, err = run(["check", "zookeeper", "--dir", d, "--runtime", "1s",
                        "--csv"] + QUIET)
    lines = out.splitlines()
    ok(rc in (0, 4, 5) and len(lines) == 3 and
       lines[0].startswith("profile,criterion,step,verdict,value") and
       all(l.startswith("zookeeper,") for l in lines[1:]),
       "zookeeper --csv: header and one line per criterion (%d) %r" % (
           rc, lines[:2]))
    rows = list(csv.DictReader(io.StringIO(out)))
    ok(rows and all(r["unit"] in ("us", "per_s") for r in rows) and
       # ZooKeeper's fsync warning threshold, 1 s, in us
       any(r["criterion"] == "fsync-max" and r["unit"] == "us" and
           r["limit"] == "1000000" for r in rows),
       "zookeeper --csv: latency in us, as every CSV: %r" % [
           (r["criterion"], r["unit"], r["limit"]) for r in rows])

# Ctrl-C in the middle: what ran is reported, not judged; exit 130; the
# test file removed
with tmpdir() as d:
    # A small file fills at once: the signal lands in the steps.
    p = subprocess.Popen([IOLAB, "check", "postgresql", "--dir", d,
                          "--runtime", "3s", "--size", "8M"] + QUIET,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    time.sleep(4)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    ok(p.returncode == 130 and "NOT JUDGED" in out,
       "Ctrl-C: exit 130 and a report marked not judged: %d %r" % (
           p.returncode, out[-200:]))
    ok(files_like(d) == [], "Ctrl-C: the test file is removed")

# tmpfs: nothing reaches a disk; no pass is possible
if os.path.isdir("/dev/shm"):
    with tmpdir("/dev/shm") as d:
        rc, out, err = run(["check", "etcd", "--dir", d, "--runtime", "1s",
                            "--json"] + QUIET)
        doc = load(out, "etcd tmpfs")
        ok(rc == 5, "etcd on tmpfs: exit 5 (inconclusive): %d %s" % (
            rc, err.strip()[:200]))
        if doc:
            ok(doc["verdict"] == "inconclusive" and
               all(c["verdict"] == "inconclusive" and "RAM" in c["reason"]
                   for c in doc["criteria"]),
               "etcd on tmpfs: every criterion inconclusive, saying RAM")
        rc, out, err = run(["check", "etcd", "--dir", d, "--runtime", "1s"]
                           + QUIET)
        ok(rc == 5 and "Inconclusive for etcd" in out and "INCONCLUSIVE" in out,
           "etcd on tmpfs, text: the sentence and the verdict column")
        ok(files_like(d) == [], "etcd on tmpfs: the test file is removed")
done()
