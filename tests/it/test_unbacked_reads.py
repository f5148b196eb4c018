# SPDX-License-Identifier: GPL-2.0-or-later
"""Reads no disk served are flagged: a fallocated file (unwritten extents),
a loop device over a sparse file (zeros a thin device returns), a file of
one block repeated (what dedup serves from one copy). A file iolab filled
itself, and one it filled with --pattern zero on request, are not."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, run, run_json, done, loopdev, tmpdir, skip  # noqa

common = ["--runtime", "300ms", "--no-progress", "--qd", "4"]
TRUTH = {"sparse-file", "unwritten-reads", "zero-reads", "repeated-reads"}


def ids(doc):
    return {w["id"] for w in doc["warnings"]} if doc else set()


def message(doc, wid):
    return next((w["message"] for w in doc["warnings"] if w["id"] == wid),
                "")


with tmpdir() as d:
    fa = os.path.join(d, "falloc.dat")
    p = subprocess.run(["fallocate", "-l", "64M", fa], capture_output=True)
    if p.returncode:
        skip("fallocate is not supported here")
    doc = run_json(["run", fa] + common)
    ok("unwritten-reads" in ids(doc) and "100%" in
       message(doc, "unwritten-reads"),
       "a fallocated file: unwritten-reads, all of it (%s)" % ids(doc))
    ok("sparse-file" not in ids(doc), "not called a file with holes: "
       "its blocks are allocated")
    # mark's table marks such a figure z, and its JSON says so.
    rc, out, err = run(["mark", fa, "--tests", "RND4K-Q1T1", "--only",
                        "read", "--time", "300ms", "--runs", "1",
                        "--interval", "0", "--no-progress"])
    row = [l for l in out.splitlines() if l.startswith("RND4K Q1T1")]
    ok(rc == 0 and row and "z" in row[0].split()[2] and
       "z = reads of a region no disk stored" in out,
       "mark marks the figure z: %s" % (row or err.strip()[-200:]))
    mdoc = run_json(["mark", fa, "--tests", "RND4K-Q1T1", "--only", "read",
                     "--time", "300ms", "--runs", "1", "--interval", "0",
                     "--no-progress"])
    ok(mdoc and mdoc["tests"][0]["read"]["unbacked_reads"] is True,
       "mark's JSON: unbacked_reads")

    # Half written, half unwritten: the share is reported.
    half = os.path.join(d, "half.dat")
    subprocess.run(["fallocate", "-l", "64M", half], check=True)
    with open(half, "r+b") as f:
        f.write(os.urandom(32 << 20))
        os.fsync(f.fileno())
    doc = run_json(["run", half] + common)
    ok("50%" in message(doc, "unwritten-reads"),
       "half written: 50%% unwritten (%s)" % message(doc, "unwritten-reads"))

    rep = os.path.join(d, "rep.dat")
    block = os.urandom(4096)
    with open(rep, "wb") as f:
        f.write(block * (16 << 8))
    doc = run_json(["run", rep] + common)
    ok("repeated-reads" in ids(doc) and "zero-reads" not in ids(doc),
       "one block repeated: repeated-reads (%s)" % ids(doc))

    own = os.path.join(d, "own.dat")
    doc = run_json(["run", own, "--size", "32M"] + common)
    ok(doc and not ids(doc) & TRUTH,
       "a file iolab filled: none of %s (%s)" % (sorted(TRUTH), ids(doc)))
    zero = os.path.join(d, "zero.dat")
    doc = run_json(["run", zero, "--size", "32M", "--pattern", "zero"] +
                   common)
    ok(doc and not ids(doc) & TRUTH,
       "zeros written on request are not flagged (%s)" % ids(doc))

with loopdev(64) as dev:
    doc = run_json(["run", dev] + common)
    ok("zero-reads" in ids(doc) and "64 of 64" in message(doc, "zero-reads"),
       "a loop device over a sparse file: zero-reads (%s)" %
       message(doc, "zero-reads"))
    doc = run_json(["run", dev, "--rw", "write", "--bs", "1M", "--qd", "8",
                    "--allow-write-device", "--runtime", "2s",
                    "--no-progress"])
    ok(doc and doc["jobs"][0]["write"]["ios"] >= 64,
       "the device written in full (%s MiB)" %
       (doc and doc["jobs"][0]["write"]["ios"]))
    doc = run_json(["run", dev] + common)
    ok(doc and not ids(doc) & TRUTH,
       "once written, its reads are not flagged (%s)" % ids(doc))

done()
