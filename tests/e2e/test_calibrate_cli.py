# SPDX-License-Identifier: GPL-2.0-or-later
"""`iolab calibrate` as a user runs it, on files: the Oracle figures in
their familiar form, the JSON's shape and sense (curve, knee, budget), a
cap that cannot be met (exit 4), read-only use of a file iolab did not
create, bad input, and Ctrl-C. Short budgets; no timing is asserted beyond
the budget the command itself promises (with slack for a busy machine)."""
import hashlib
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, run, run_json, done, tmpdir, files_like  # noqa

NUM = (int, float)
QUIET = ["--no-progress"]
# A cap any disk meets even on a busy machine, so that the shape checks do
# not depend on how loaded the test machine is; 10 ms is checked apart.
CAP = ["--max-latency", "1000"]


def digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def check_doc(doc, name, budget_s, cap):
    for k in ("schema_version", "tool", "command", "argv", "options",
              "environment", "warnings", "max_iops", "actual_latency_ms",
              "max_mbps", "max_pmbps", "curve", "large_curve", "single",
              "knee", "classification", "search", "budget", "cap_met"):
        ok(k in doc, "%s: %s present" % (name, k))
    ok(doc["command"] == "calibrate", name + ": command")
    o = doc["options"]
    ok(o["block_size_bytes"] == 8192 and o["max_latency_ms"] == cap and
       o["latency_stat"] == "mean" and o["cache"] == "none",
       name + ": defaults echoed (8 KiB, mean, direct), cap %g ms" % cap)
    curve = doc["curve"]
    loads = [p["load"] for p in curve]
    ok(loads and loads == sorted(set(loads)) and loads[0] == 1,
       name + ": curve ascends from load 1: %s" % loads)
    max_small = o["disks"] * 32
    ok(all(1 <= p["load"] <= max_small for p in curve),
       name + ": loads within --disks x 32 = %d" % max_small)
    ok(all(p["qd"] * p["threads"] == p["load"] for p in curve),
       name + ": load = QD x threads")
    ok(all(p["windows"] >= 1 for p in curve), name + ": windows counted")
    best = [p for p in curve if p["best"]]
    ok(len(best) == 1, name + ": exactly one point is max_iops")
    if best and doc["cap_met"]:
        b = best[0]
        ok(b["meets_cap"] and b["lat_ms"]["mean"] <= cap,
           name + ": max_iops point meets the cap")
        # The curve prints IOPS to 0.1: 5231.46 shows as 5231.5, which
        # Python rounds to 5232 while max_iops is 5231.
        ok(abs(doc["max_iops"] - b["iops"]) <= 0.55,
           name + ": max_iops is that point's IOPS")
        ok(abs(doc["actual_latency_ms"] - b["lat_ms"]["mean"]) < 1e-3,
           name + ": actual_latency_ms is its mean latency")
        ok(all(p["iops"] <= b["iops"] for p in curve if p["meets_cap"]),
           name + ": no point meeting the cap has more IOPS")
        ok(isinstance(doc["max_iops"], int) and doc["max_iops"] > 0,
           name + ": max_iops a positive integer")
        ok(b["windows"] >= 2 or any(w["id"] == "unconfirmed"
                                    for w in doc["warnings"]),
           name + ": max_iops confirmed by a second window, or said not")
    for p in curve + doc["large_curve"]:
        lat = p["lat_ms"]
        # A closed loop never has more in flight than its load. This
        # holds within one window; a figure that is the median of several
        # windows pairs IOPS and latency from different windows.
        if p["iops"] > 0 and lat["mean"] > 0 and p["windows"] == 1:
            ok(p["iops"] * lat["mean"] / 1e3 <= p["load"] * 1.15,
               name + ": Little's law holds at load %d (%.1f in flight)" %
               (p["load"], p["iops"] * lat["mean"] / 1e3))
    k = doc["knee"]
    if doc["cap_met"]:
        ok(k and 0 < k["iops"] <= doc["max_iops"] and
           1 <= k["load"] <= best[0]["load"] and k["fraction"] == 0.8,
           name + ": knee at 80% of max_iops, at or below its load")
        ok(k["qd1_latency_ms"] > 0 and k["littles_law_parallelism"] > 0,
           name + ": Little's-law parallelism given")
    large = doc["large_curve"]
    ok(large and all(p["load"] <= min(64, o["disks"] * 8) for p in large),
       name + ": 1 MiB curve within --disks x 8")
    ok(doc["max_mbps"] == max(p["mbps"] for p in large) or
       abs(doc["max_mbps"] - [p for p in large if p["best"]][0]["mbps"]) <
       0.1, name + ": max_mbps is the best 1 MiB point")
    s = doc["single"]
    ok(s and s["load"] == 1 and s["qd"] == 1 and s["threads"] == 1 and
       abs(s["mbps"] - doc["max_pmbps"]) < 0.1,
       name + ": max_pmbps from one thread at QD1")
    ok(isinstance(doc["classification"], str) and
       "QD1" in doc["classification"], name + ": classification sentence")
    bud = doc["budget"]
    ok(bud["budget_s"] == budget_s, name + ": budget echoed")
    ok(0 < bud["used_s"] <= budget_s + 5,
       name + ": used %.1f s of a %g s budget" % (bud["used_s"], budget_s))
    for ph in ("small", "large", "single"):
        sr = doc["search"][ph]
        ok(sr["ran"] and sr["windows"] >= 1 and sr["end"] in (
            "cap", "plateau", "max-load", "not-met", "budget"),
           name + ": search.%s ended (%s)" % (ph, sr["end"]))
    ok(doc["budget"]["cut_short"] ==
       any(doc["search"][ph]["cut_short"] for ph in doc["search"]),
       name + ": budget.cut_short agrees with the phases")


with tmpdir() as d:
    f = os.path.join(d, "cal.dat")

    # --- JSON on a new test file
    doc = run_json(["calibrate", f, "--size", "64M", "--budget", "8s"] +
                   CAP + QUIET)
    if doc:
        check_doc(doc, "file", 8, 1000)
        ok(doc["environment"]["created"] is True, "test file created")
    ok(not files_like(d, "cal.dat"), "test file removed afterwards")

    # --- text: the familiar form, then the curve, knee and reading
    rc, out, err = run(["calibrate", f, "--size", "32M", "--budget", "6s"] +
                       CAP + QUIET, check=0)
    lines = out.splitlines()
    heads = [l.split("=")[0].strip() for l in lines if " = " in l and
             l.split(" = ")[0].strip() in ("max_iops", "latency",
                                            "max_mbps", "max_pmbps")]
    ok(heads == ["max_iops", "latency", "max_mbps", "max_pmbps"],
       "figures in Oracle's order: %s" % heads)
    lat = [l for l in lines if l.startswith("latency  = ")]
    ok(lat and "." in lat[0] and len(lat[0].split("=")[1].split(".")[1])
       == 3, "latency in ms with decimals: %r" % (lat[:1],))
    ok(any(l.startswith("max_iops = ") and l[11:].isdigit() for l in lines),
       "max_iops an integer")
    for word in ("knee:", "Little's law", "random 1 MiB reads",
                 "one thread at QD1", "search:", "budget"):
        ok(word in out, "text has %r" % word)
    ok(any(l.startswith("Latency at QD1 of ") for l in lines),
       "classification sentence printed")

    # --- Oracle's default cap, 10 ms: met or not (exit 0 or 4), said so
    rc, out, err = run(["calibrate", f, "--size", "32M", "--budget", "4s",
                        "--json"] + QUIET)
    try:
        doc = json.loads(out)
        ok(doc["options"]["max_latency_ms"] == 10 and
           rc == (0 if doc["cap_met"] else 4),
           "default cap 10 ms; exit %d matches cap_met %s" % (
               rc, doc["cap_met"]))
    except ValueError:
        ok(False, "default run printed JSON (exit %d, %s)" % (rc, err))

    # --- a cap no device meets: Oracle has no max_iops; exit 4
    rc, out, err = run(["calibrate", f, "--size", "32M", "--budget", "5s",
                        "--max-latency", "0.001"] + QUIET)
    ok(rc == 4, "unmeetable cap exits 4 (got %d, %s)" % (rc, err.strip()))
    ok("max_iops = not met" in out and "cannot be met" in out,
       "unmeetable cap said clearly")
    ok("max_mbps = " in out and "not measured" not in out.split(
        "max_mbps = ")[1].splitlines()[0], "max_mbps still measured")
    doc = run_json(["calibrate", f, "--size", "32M", "--budget", "5s",
                    "--max-latency", "0.001"] + QUIET, check=4)
    if doc:
        ok(doc["cap_met"] is False and doc["max_iops"] is None and
           doc["actual_latency_ms"] is None and doc["knee"] is None,
           "JSON: max_iops null when the cap is not met")
        ok(len(doc["curve"]) == 1 and doc["curve"][0]["load"] == 1 and
           not doc["curve"][0]["meets_cap"] and
           doc["curve"][0]["windows"] >= 2,
           "only QD1 measured, twice, before concluding")
        ok(doc["search"]["small"]["end"] == "not-met", "search end not-met")
        ok(isinstance(doc["max_mbps"], NUM) and doc["max_mbps"] > 0,
           "max_mbps measured anyway")
        ok("no load meets --max-latency" in doc["classification"],
           "classification says the cap cannot be met")

    # --- p99 as the statistic
    doc = run_json(["calibrate", f, "--size", "32M", "--budget", "5s",
                    "--latency-stat", "p99", "--max-latency", "50"] + QUIET)
    if doc:
        ok(doc["options"]["latency_stat"] == "p99", "p99 echoed")
        # A load whose windows completed no read (iops null) meets no cap:
        # its latency is the warm-up's, not a measured p99.
        ok(all(p["meets_cap"] == (p["iops"] is not None and
                                  p["lat_ms"]["p99"] <= 50)
               for p in doc["curve"]), "p99 is what is held to the cap: %s"
           % [(p["load"], p["iops"], p["lat_ms"]["p99"], p["meets_cap"])
              for p in doc["curve"]])

    # --- --precision is the agreement asked of a point's windows; a point
    # whose windows spread beyond it is marked noisy. --max-time is the
    # budget under mark's name.
    doc = run_json(["calibrate", f, "--size", "32M", "--max-time", "5s",
                    "--precision", "2"] + QUIET)
    if doc:
        ok(doc["options"]["precision_pct"] == 2 and
           doc["options"]["budget_s"] == 5 and
           doc["options"]["procedure"] == "windows-agree",
           "--precision and --max-time echoed")
        ok(all(p["noisy"] or p["spread"] <= 0.02
               for p in doc["curve"]),
           "a point spread beyond +-2 %% is noisy: %s" %
           [(p["load"], p["spread"], p["noisy"]) for p in doc["curve"]])

    # --- a file iolab did not create: read, never written nor removed
    mine = os.path.join(d, "mine.dat")
    with open(mine, "wb") as fh:
        fh.write(os.urandom(8 << 20))
    before, mtime = digest(mine), os.stat(mine).st_mtime_ns
    doc = run_json(["calibrate", mine, "--budget", "4s", "--disks", "1"] +
                   CAP + QUIET)
    ok(os.path.exists(mine) and digest(mine) == before and
       os.stat(mine).st_mtime_ns == mtime,
       "an existing file is only read, and left in place")
    if doc:
        ok(doc["environment"]["created"] is False, "not created by iolab")
        ok(doc["options"]["disks"] == 1 and
           doc["options"]["disks_source"] == "given with --disks" and
           all(p["load"] <= 32 for p in doc["curve"]) and
           all(p["load"] <= 8 for p in doc["large_curve"]),
           "--disks 1 bounds the loads at 32 small, 8 large")

    # --- --keep, --output, null engine
    out_path = os.path.join(d, "report.json")
    rc, out, err = run(["calibrate", f, "--size", "16M", "--budget", "4s",
                        "--keep", "--json", "--output", out_path,
                        "--engine", "null"] + CAP + QUIET, check=0)
    ok(os.path.exists(f), "--keep keeps the test file")
    ok(out == "" and os.path.exists(out_path), "--output writes the report")
    try:
        with open(out_path) as fh:
            nd = json.load(fh)
        ok(any(w["id"] == "null-engine" for w in nd["warnings"]),
           "null engine warned about")
        ok("no I/O" in nd["classification"], "null engine reading")
    except (OSError, ValueError) as e:
        ok(False, "report file is JSON: %s" % e)
    os.unlink(f)

    # --- buffered is allowed, and warned about
    doc = run_json(["calibrate", f, "--size", "16M", "--budget", "4s",
                    "--cache", "writeback"] + CAP + QUIET)
    if doc:
        ok(any(w["id"] == "buffered-calibration" for w in doc["warnings"]),
           "buffered calibration warned about")

    # --- bad input: one line naming the problem and the fix
    for args, code, words in (
            (["--budget", "1s"], 1, "at least 3s"),
            (["--block-size", "100"], 1, "at least 512"),
            (["--block-size", "1000"], 1, "multiple of"),
            (["--max-latency", "0"], 1, "--max-latency"),
            (["--max-latency", "ten"], 1, "--max-latency"),
            (["--latency-stat", "p50"], 1, "mean"),
            (["--disks", "0"], 1, "--disks"),
            (["--size", "512k"], 1, "1 MiB"),
            (["--engine", "native", "--cache", "writeback"], 2,
             "cache.direct=on"),
            (["extra-operand"], 1, "")):
        target = [f] if args != ["extra-operand"] else [f, "x"]
        rc, out, err = run(["calibrate"] + target + args + QUIET)
        ok(rc == code and words in err and len(err.strip().splitlines())
           == 1 and out == "",
           "%s: exit %d, one line (%s)" % (" ".join(args), rc, err.strip()))
    ok(not os.path.exists(f), "no test file left by refused runs")
    rc, out, err = run(["calibrate", "--help"], check=0)
    for flag in ("--disks", "--max-latency", "--latency-stat",
                 "--block-size", "--budget", "--engine", "--cache",
                 "--json"):
        ok(flag in out, "--help lists " + flag)

    # --- Ctrl-C: partial report, exit 130, test file removed
    p = subprocess.Popen([IOLAB, "calibrate", f, "--size", "32M", "--budget",
                          "60s"] + QUIET, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    end = time.time() + 30
    while time.time() < end and not os.path.exists(f):
        time.sleep(0.01)
    time.sleep(2.0)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    ok(p.returncode == 130, "Ctrl-C exits 130 (got %d)" % p.returncode)
    ok("PARTIAL" in out and "Ctrl-C" in out, "partial report marked")
    ok(not os.path.exists(f), "test file removed after Ctrl-C")

done()
