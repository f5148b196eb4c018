#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`iolab calibrate` against an exhaustive fio queue-depth sweep, same run.

For TARGET (a file or a block device; only read), runs fio's random reads
(--bs, direct, io_uring, one job) at every queue depth of --qds for
--seconds each, then `iolab calibrate --json` with --budget, and prints
both tables and the check of issue 5: iolab's max_iops must be within
--tolerance of the best sweep point whose mean latency meets the cap, and
the calibration must take no longer than the budget. --order fio-first,
iolab-first or interleaved (fio, iolab, fio) lets a noisy machine show.

Exit 0 if the check passes, 1 if not, 2 if fio or iolab cannot run.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
IOLAB = os.environ.get("IOLAB") or os.path.join(HERE, "..", "build", "iolab")


def fio_point(target, bs, qd, seconds):
    cmd = ["fio", "--name=sweep", "--filename=" + target, "--rw=randread",
           "--bs=" + bs, "--direct=1", "--ioengine=io_uring",
           "--iodepth=%d" % qd, "--runtime=%g" % seconds, "--time_based",
           "--ramp_time=0.5", "--readonly", "--randrepeat=0",
           "--norandommap",
           "--output-format=json"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        sys.exit("fio failed: " + p.stderr.strip()[-500:])
    rd = json.loads(p.stdout)["jobs"][0]["read"]
    return {"qd": qd, "iops": rd["iops"],
            "mean_ms": rd["lat_ns"]["mean"] / 1e6,
            "p99_ms": rd["clat_ns"]["percentile"]["99.000000"] / 1e6}


def sweep(args):
    pts = []
    t0 = time.monotonic()
    for qd in args.qds:
        pts.append(fio_point(args.target, args.bs, qd, args.seconds))
    return pts, time.monotonic() - t0


def calibrate(args):
    cmd = [IOLAB, "calibrate", args.target, "--json", "--no-progress",
           "--budget", args.budget, "--max-latency", str(args.cap_ms),
           "--block-size", args.bs] + args.iolab_args
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode not in (0, 4):
        sys.exit("iolab calibrate failed (%d): %s" % (p.returncode,
                                                      p.stderr.strip()))
    return json.loads(p.stdout), wall


def show_sweep(pts, seconds, cap):
    print("fio sweep (%s s per depth, one job, io_uring, direct):" % seconds)
    print("%6s %10s %10s %10s" % ("QD", "IOPS", "mean ms", "p99 ms"))
    ok = [p for p in pts if p["mean_ms"] <= cap]
    best = max(ok, key=lambda p: p["iops"]) if ok else None
    for p in pts:
        mark = "*" if p is best else (">" if p["mean_ms"] > cap else " ")
        print("%6d %10.0f %10.3f %10.3f %s" % (p["qd"], p["iops"],
                                               p["mean_ms"], p["p99_ms"],
                                               mark))
    return best


def show_iolab(doc):
    print("iolab calibrate (budget %.0f s, used %.1f s):" % (
        doc["budget"]["budget_s"], doc["budget"]["used_s"]))
    print("%6s %9s %10s %10s %10s %3s" % ("load", "QD x T", "IOPS",
                                          "mean ms", "p99 ms", "n"))
    for p in doc["curve"]:
        mark = "*" if p["best"] else (">" if not p["meets_cap"] else " ")
        print("%6d %9s %10.0f %10.3f %10.3f %3d %s%s" % (
            p["load"], "%dx%d" % (p["qd"], p["threads"]), p["iops"],
            p["lat_ms"]["mean"], p["lat_ms"]["p99"], p["windows"], mark,
            "~" if p["noisy"] else ""))
    print("max_iops = %s  latency = %s ms  max_mbps = %s  max_pmbps = %s" % (
        doc["max_iops"], doc["actual_latency_ms"], doc["max_mbps"],
        doc["max_pmbps"]))
    for ph, sr in doc["search"].items():
        print("search %-6s end %-8s windows %2d  %5.1f s  window %.2f s%s" % (
            ph, sr["end"], sr["windows"], sr["seconds"], sr["window_s"],
            "  CUT in " + sr["cut_stage"] if sr["cut_short"] else ""))
    for w in doc["warnings"]:
        print("warning " + w["id"] + ": " + w["message"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("target")
    ap.add_argument("--bs", default="8k")
    ap.add_argument("--cap-ms", type=float, default=10)
    ap.add_argument("--budget", default="60s")
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--qds", default="1,2,4,8,12,16,24,32,48,64,96,128,"
                    "192,256")
    ap.add_argument("--tolerance", type=float, default=0.10)
    ap.add_argument("--order", default="interleaved",
                    choices=("fio-first", "iolab-first", "interleaved"))
    ap.add_argument("iolab_args", nargs="*",
                    help="more iolab calibrate flags, after --")
    args = ap.parse_args()
    args.qds = [int(x) for x in args.qds.split(",")]
    if not shutil.which("fio"):
        sys.exit("fio is not installed (apt-get install fio)")
    if not os.path.exists(args.target):
        sys.exit("%s does not exist: make a filled test file first, e.g. "
                 "iolab run FILE --size 4G --keep --runtime 1s" % args.target)

    runs = []
    if args.order == "iolab-first":
        doc, wall = calibrate(args)
        pts, _ = sweep(args)
        runs = [pts]
    else:
        pts, _ = sweep(args)
        runs = [pts]
        doc, wall = calibrate(args)
        if args.order == "interleaved":
            runs.append(sweep(args)[0])

    bests = []
    for i, pts in enumerate(runs):
        if len(runs) > 1:
            print("sweep %d of %d%s" % (i + 1, len(runs),
                                         " (before iolab)" if i == 0 else
                                         " (after iolab)"))
        bests.append(show_sweep(pts, args.seconds, args.cap_ms))
        print()
    show_iolab(doc)
    print()
    budget_s = doc["budget"]["budget_s"]
    if not any(bests) or doc["max_iops"] is None:
        print("no sweep point or no max_iops meets the cap: nothing to "
              "compare (sweep best %r, iolab %r)" % (bests, doc["max_iops"]))
        return 1
    in_tol = False
    for i, b in enumerate(bests):
        if not b:
            continue
        ratio = doc["max_iops"] / b["iops"]
        ok = abs(ratio - 1) <= args.tolerance
        in_tol |= ok
        print("sweep %d best meeting the cap: QD %d, %.0f IOPS, mean %.3f ms;"
              " iolab max_iops %d = %.1f%% of it: %s" % (
                  i + 1, b["qd"], b["iops"], b["mean_ms"], doc["max_iops"],
                  ratio * 100, "within" if ok else "outside"))
    in_budget = wall <= budget_s + 0.5
    print("max_iops within %.0f%% of a sweep's best: %s" % (
        args.tolerance * 100, "PASS" if in_tol else "FAIL"))
    print("iolab wall time %.1f s, budget %.0f s: %s" % (
        wall, budget_s, "PASS" if in_budget else "FAIL"))
    return 0 if in_tol and in_budget else 1


if __name__ == "__main__":
    sys.exit(main())
