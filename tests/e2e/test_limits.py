# SPDX-License-Identifier: GPL-2.0-or-later
"""Resources and silent zeros (issue 13, items 6 and 7): buffers that do
not fit in memory are refused at once, before any file is made; the null
engine maps no buffers; --cpus is checked against the CPUs iolab may run
on; a run that measured nothing is an error, and a figure nothing was
measured for is null/"-", never 0."""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, fail, run, run_json, done, tmpdir, files_like  # noqa

Q = ["--no-progress"]


def refused(args, code, needles, what, d):
    """One line on stderr, nothing on stdout, the exit code, no file."""
    t0 = time.monotonic()
    try:
        rc, out, err = run(args + Q, cwd=d, timeout=30)
    except subprocess.TimeoutExpired:
        # What it did before: filled the test file, then mapped buffers
        # until the OOM killer came.
        fail("%s: still running after 30 s" % what)
        return ""
    took = time.monotonic() - t0
    lines = [l for l in err.splitlines() if l.strip()]
    ok(rc == code and all(n in err for n in needles) and len(lines) == 1
       and out == "" and not os.listdir(d),
       "%s: exit %d in %.1f s, nothing created: %s" % (
           what, rc, took, err.strip()))
    return err


with tmpdir() as d:
    # 256 GiB of buffers: was OOM-killed after 47 s, the test file left.
    err = refused(["run", "--qd", "4096", "--threads", "64", "--bs", "1M",
                   "-o", "out.txt"], 2,
                  ["256 GiB", "--qd", "--threads", "--bs", "available"],
                  "run asking for 256 GiB of buffers refused", d)
    refused(["mark", "--tests", "SEQ64M-Q4096T16", "--engine", "io_uring"],
            2, ["SEQ64M", "4 TiB", "--tests"],
            "mark with a test far larger than memory refused", d)
    refused(["matrix", "--tests", "SEQ64M-Q1024T16", "--engines",
             "io_uring,native", "--caches", "none"], 2,
            ["SEQ64M", "1 TiB"],
            "matrix with a test far larger than memory refused", d)
    refused(["calibrate", "--block-size", "64M", "--disks", "1000"], 2,
            ["256 GiB", "--block-size", "--disks"],
            "calibrate whose widest window is larger than memory refused",
            d)

    # The null engine touches no data: 1 TiB of would-be buffers is no
    # memory at all (it used to map and populate them, and fail).
    rc, out, err = run(["run", "--engine", "null", "--qd", "4096",
                        "--threads", "4", "--bs", "64M", "--size", "64M",
                        "--runtime", "100ms"] + Q, cwd=d, timeout=120)
    ok(rc == 0 and "IOPS" in out,
       "null engine with QD 4096 x 4 x 64 MiB runs without buffers "
       "(exit %d) %s" % (rc, err.strip()[:300]))

    # --cpus: checked against the CPUs this process may run on.
    allowed = os.sched_getaffinity(0)
    absent = min(c for c in range(1024) if c not in allowed)
    err = refused(["run", "--engine", "null", "--cpus", str(absent)], 1,
                  ["--cpus", "CPU %d" % absent],
                  "--cpus %d on CPUs %s is a usage error" % (
                      absent, sorted(allowed)), d)
    first = min(allowed)
    ok(str(first) in err, "the message names the CPUs iolab may use")
    refused(["run", "--engine", "null", "--cpus", "4294967297"], 1,
            ["--cpus", "4294967297"], "--cpus 4294967297 does not wrap to 1",
            d)
    refused(["run", "--engine", "null", "--cpus", "3-1"], 1, ["--cpus"],
            "--cpus with a backwards range", d)
    refused(["run", "--engine", "null", "--cpus", "0,"], 1, ["--cpus"],
            "--cpus with a trailing comma", d)
    rc, out, err = run(["run", "--engine", "null", "--cpus", str(first),
                        "--size", "16M", "--runtime", "50ms"] + Q, cwd=d)
    ok(rc == 0, "--cpus %d (allowed) runs: exit %d %s" % (first, rc,
                                                           err.strip()))
    for f in files_like(d):
        os.unlink(os.path.join(d, f))

    # --runtime 1ns printed a table of zeros with exit 0.
    refused(["run", "--engine", "null", "--runtime", "1ns"], 1,
            ["--runtime", "1ms"], "--runtime 1ns refused up front", d)
    refused(["mark", "--engine", "null", "--time", "1ns"], 1,
            ["--time", "1ms"], "mark --time 1ns refused up front", d)
    # A pace slower than the run: the only I/O falls in the warm-up.
    rc, out, err = run(["run", "--engine", "null", "--size", "16M",
                        "--rate-iops", "1", "--ramp", "10ms", "--runtime",
                        "10ms"] + Q, cwd=d)
    ok(rc == 2 and out == "" and "no I/O completed" in err,
       "a run that measured no I/O is an error, not a table of zeros: "
       "exit %d, stdout %r, %s" % (rc, out[:80], err.strip()))
    for f in files_like(d):
        os.unlink(os.path.join(d, f))

    # A direction that completed nothing: null in JSON, "-" in text.
    # One I/O of a 99 % read mix (the default seed makes it a read).
    args = ["run", "--engine", "null", "--size", "16M", "--rw", "randrw",
            "--mix", "99", "--ios", "1"] + Q
    doc = run_json(args, cwd=d)
    if doc:
        job = doc["jobs"][0]
        empty = [k for k in ("read", "write") if job[k]["ios"] == 0]
        ok(len(empty) == 1, "one direction completed no I/O: %s" % empty)
        for k in empty:
            ok(job[k]["iops"] is None and job[k]["mbps"] is None and
               job[k]["mibps"] is None and job[k]["lat_ns"] is None,
               "JSON: %s iops/mbps/mibps/lat_ns are null, not 0: %s" % (
                   k, job[k]))
        full = [k for k in ("read", "write") if job[k]["ios"]]
        for k in full:
            ok(job[k]["iops"] > 0, "JSON: %s iops measured" % k)
        ok(job["cpu"]["us_per_io"] is not None,
           "JSON: cpu per I/O measured when I/O completed")
    rc, out, err = run(args, cwd=d)
    rows = [l for l in out.splitlines() if l.startswith(("read", "write"))]
    ok(rc == 0 and any("no I/O completed" in r and " 0 " not in r
                       for r in rows),
       "text: the empty direction shows -, not 0: %s" % rows)
    rc, out, err = run(args + ["--csv"], cwd=d)
    lines = out.splitlines()
    head = lines[0].split(",")
    for line in lines[1:]:
        row = dict(zip(head, line.split(",")))
        if row.get("ios") == "0":
            ok(row["iops"] == "" and row["MB_s"] == "",
               "CSV: empty direction's iops/MB_s are empty: %s" % line)

    # calibrate with a cap no disk meets: exit 4, QD1 latency printed.
    doc = run_json(["calibrate", "--size", "16M", "--budget", "3s",
                    "--max-latency", "0.001"] + Q, check=4, cwd=d,
                   timeout=120)
    if doc:
        ok(doc["cap_met"] is False and doc["max_iops"] is None and
           doc["actual_latency_ms"] is None,
           "calibrate --max-latency 0.001: cap_met false, max_iops null")
        qd1 = [p for p in doc["curve"] if p["load"] == 1]
        ok(qd1 and qd1[0]["lat_ms"]["mean"] > 0.001,
           "calibrate: the QD1 latency is measured: %s" % (
               qd1[0]["lat_ms"] if qd1 else None))
    rc, out, err = run(["calibrate", "--size", "16M", "--budget", "3s",
                        "--max-latency", "0.001"] + Q, cwd=d, timeout=120)
    ok(rc == 4 and "max_iops = not met" in out and "(at QD1)" in out and
       "latency  = 0.000" not in out,
       "calibrate text: max_iops not met, the QD1 latency given: exit %d"
       % rc)
done()
