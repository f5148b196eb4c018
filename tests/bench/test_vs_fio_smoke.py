#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/vs-fio in CI's bench mode: every job once through iolab and fio
on /dev/shm (1 pair of 1 s). A smoke test of the benchmark itself: it
runs, both tools measure every job, the table and the JSON agree. No
timing is asserted (this machine is shared and noisy); the ratios are
printed for the log."""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, done, ok, skip, tmpdir  # noqa: E402

BENCH = os.path.join(os.path.dirname(__file__), "..", "..", "bench",
                     "vs-fio")

if not shutil.which("fio"):
    skip("fio is not installed (scripts/deps.sh --test)")
with tmpdir() as d:
    out = os.path.join(d, "bench.json")
    p = subprocess.run([sys.executable, BENCH, "--targets", "shm", "--pairs",
                        "1", "--time", "1", "--iolab", IOLAB, "--json", out],
                       capture_output=True, text=True, timeout=600)
    print(p.stdout)
    ok(p.returncode == 0, "vs-fio ran (exit %d: %s)" %
       (p.returncode, p.stderr.strip()[-300:]))
    try:
        rows = json.load(open(out))
    except (OSError, ValueError):
        rows = []
    if isinstance(rows, dict):
        rows = rows.get("results", rows.get("rows", []))
    ok(len(rows) >= 7, "every job measured (%d rows)" % len(rows))
    for r in rows:
        ok(r["iolab_iops"] > 0 and r["fio_iops"] > 0 and
           r["iops_ratio"] > 0 and r["cpu_ratio"] > 0 and
           r["job"] in p.stdout,
           "%s: both tools did I/O, ratio %.2f, cpu ratio %.2f, in the table"
           % (r["job"], r["iops_ratio"], r["cpu_ratio"]))
    ok(not os.path.exists("/dev/shm/iolab-bench.dat"),
       "the bench file is removed")
done()
