# SPDX-License-Identifier: GPL-2.0-or-later
"""`iolab mark` as a user runs it: every preset and direction end to end
on a small file with short runs, the JSON's shape and sense (the headline
is the best run; mean, min and stddev agree with the runs), the table,
refusals of bad test names and flag combinations, and Ctrl-C."""
import json
import os
import signal
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, run, run_json, done, tmpdir, files_like  # noqa: E402,E501

FAST = ["--time", "150ms", "--interval", "0", "--size", "16M",
        "--no-progress"]

PRESETS = {
    "default": ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"],
    "nvme": ["SEQ1M Q8T1", "SEQ128K Q32T1", "RND4K Q32T16", "RND4K Q1T1"],
    "cdm7": ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T16", "RND4K Q1T1"],
    "cdm6": ["SEQ128K Q32T1", "RND4K Q8T8", "RND4K Q32T1", "RND4K Q1T1"],
    "peak": ["SEQ1M Q8T1", "RND4K Q32T1"],
    "real": ["SEQ1M Q1T1", "RND4K Q1T1"],
    "flash": ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"],
}


def close(a, b, tol=0.002):
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def check_dir(name, t, d, want_runs, mix_pct=None):
    x = t[d]
    what = "%s %s" % (name, d)
    if not ok(isinstance(x, dict), what + ": measured"):
        return
    runs = x["runs"]
    mb = [r["read"]["mbps"] if r["read"] else 0 for r in runs]
    mb = [a + (r["write"]["mbps"] if r["write"] else 0)
          for a, r in zip(mb, runs)]
    ok(len(runs) == want_runs and x["runs_scored"] == want_runs and
       not x["partial"], what + ": %d scored runs" % want_runs)
    ok(x["warmup"] is not None and x["warmup"]["elapsed_s"] > 0,
       what + ": one unscored warm-up run")
    s = x["mbps"]
    # A run on a loaded machine may move little; the best one moved data.
    ok(max(mb) > 0, what + ": the runs moved data")
    ok(close(s["max"], max(mb), 0.01) and close(s["min"], min(mb), 0.01) and
       close(s["mean"], statistics.mean(mb), 0.01),
       what + ": headline = max of the runs, with mean and min (%s)" % s)
    sd = statistics.stdev(mb) if len(mb) > 1 else 0.0
    ok(abs(s["stddev"] - sd) <= 0.01 * max(1.0, sd) + 0.01,
       what + ": sample stddev %.3f (computed %.3f)" % (s["stddev"], sd))
    ok(x["iops"]["max"] > 0 and x["lat_ns"] and x["lat_ns"]["mean"] > 0 and
       x["lat_ns"]["p99"] >= x["lat_ns"]["p50"] > 0,
       what + ": IOPS and latency present")
    bs = t["bs_bytes"]
    ok(close(x["iops"]["max"] * bs / 1e6, s["max"], 0.01),
       what + ": IOPS x block size = MB/s (10^6)")
    for r in runs:
        ok(r["bs_bytes"] == bs and r["qd"] == t["qd"] and
           r["threads"] == t["threads"] and not r["partial"],
           what + ": run is %s Q%dT%d" % (bs, t["qd"], t["threads"]))
        rw = r["rw"]
        seq = t["pattern"] == "sequential"
        want = {"read": "read" if seq else "randread",
                "write": "write" if seq else "randwrite",
                "mix": "rw" if seq else "randrw"}[d]
        ok(rw == want, what + ": job rw=%s" % rw)
    if mix_pct is not None:
        ok(x["read_pct"] == mix_pct and x["read_mbps"]["max"] > 0 and
           x["write_mbps"]["max"] > 0, what + ": mix has both sides")


with tmpdir() as d:
    # Every preset, every direction, end to end.
    for preset, names in PRESETS.items():
        doc = run_json(["mark", "--preset", preset, "--only",
                        "read,write,mix", "--runs", "2"] + FAST, cwd=d)
        if not doc:
            continue
        ok(doc["command"] == "mark" and doc["options"]["preset"] == preset,
           preset + ": command and preset echoed")
        ok([t["name"] for t in doc["tests"]] == names,
           preset + ": tests as CrystalDiskMark's: %s" % names)
        ok(doc["options"]["directions"] == ["read", "write", "mix"] and
           doc["options"]["headline"] == "max" and
           doc["options"]["warmup_runs"] == 1, preset + ": options echoed")
        ok(doc["partial"] is False and doc["stopped_by"] is None,
           preset + ": complete")
        for t in doc["tests"]:
            for dd in ("read", "write"):
                check_dir(preset + " " + t["name"], t, dd, 2)
            check_dir(preset + " " + t["name"], t, "mix", 2, 70)
        ok(not files_like(d), preset + ": test file removed")

    # The flash preset's own time; an explicit --time wins.
    rc, out, err = run(["mark", "--preset", "flash", "--only", "read",
                        "--runs", "1", "--interval", "0", "--size", "16M",
                        "--no-progress", "--json"], cwd=d)
    flash = json.loads(out) if rc == 0 else None
    ok(flash and flash["options"]["time_s"] == 1.0,
       "flash measures 1 s runs as CDM 9 (%s)" % (
           flash and flash["options"]["time_s"]))
    ok(flash and flash["options"]["interval_s"] == 0.0,
       "an explicit --interval wins over the preset's 30 s")

    # More runs: spread over 3 runs, per-run detail; a default-direction run.
    doc = run_json(["mark", "--tests", "SEQ1M-Q8T1,rnd4k-q32t16", "--runs",
                    "3"] + FAST, cwd=d)
    if doc:
        ok([t["name"] for t in doc["tests"]] == ["SEQ1M Q8T1",
                                                  "RND4K Q32T16"],
           "--tests names the tests as CrystalDiskMark labels them")
        ok(doc["options"]["preset"] is None and
           doc["options"]["directions"] == ["read", "write"],
           "default directions are read and write")
        for t in doc["tests"]:
            check_dir(t["name"], t, "read", 3)
            check_dir(t["name"], t, "write", 3)
            ok(t["mix"] is None, t["name"] + ": no mix unless asked")
        r0 = doc["tests"][0]["read"]["runs"][0]
        ok("timeseries" in r0 and "lat_ns" in r0["read"] and
           "percentiles" in r0["read"]["lat_ns"], "each run in full")

    # The table a person reads.
    rc, out, err = run(["mark", "--tests", "SEQ1M-Q1T1,RND4K-Q1T1",
                        "--runs", "2"] + FAST, cwd=d)
    ok(rc == 0 and "Read" in out and "Write" in out and "MB/s" in out and
       "IOPS" in out and "p99" in out and "SEQ1M Q1T1" in out,
       "table: tests as rows, read and write side by side, units")
    ok("10^6" in out and "highest" in out and "CrystalDiskMark" in out,
       "table says MB/s is 10^6 and the headline is the best run")
    ok("mean" in out and "stddev" in out and "min" in out,
       "table shows mean, min and stddev beside the max")
    ok("about" in err and "warm-up" in err,
       "estimated time on stderr before starting: %r" % err[:200])
    rc, out, err = run(["mark", "--only", "mix", "--mix", "50", "--tests",
                        "RND4K-Q1T1", "--runs", "1"] + FAST, cwd=d)
    ok(rc == 0 and "Mix R50/W50" in out, "mix table with its share")

    # Engines and cache modes as in run.
    for eng in ("threads", "native", "io_uring"):
        rc, out, err = run(["mark", "--engine", eng, "--tests",
                            "RND4K-Q8T2", "--runs", "1", "--json"] + FAST,
                           cwd=d)
        if eng == "io_uring" and rc == 2:
            ok(True, "io_uring unavailable here: %s" % err.strip())
            continue
        doc = json.loads(out) if rc == 0 else None
        ok(doc and doc["options"]["engine"] == eng and
           doc["tests"][0]["read"]["runs"][0]["engine"] == eng,
           "--engine %s measured (rc %d %s)" % (eng, rc, err.strip()[-200:]))
    doc = run_json(["mark", "--cache", "writeback", "--engine", "threads",
                    "--tests", "SEQ1M-Q1T1", "--runs", "1"] + FAST, cwd=d)
    ok(doc and doc["tests"][0]["read"]["page_cache_reads"] in (True, False)
       and doc["options"]["cache"] == "writeback",
       "buffered mark runs, page-cache flag reported")


def refused(args, code, needle, what):
    with tmpdir() as d:
        rc, out, err = run(["mark"] + args + ["--no-progress"], cwd=d)
        lines = [x for x in err.splitlines() if x.strip()]
        ok(rc == code and needle in err and len(lines) == 1 and out == "" and
           not files_like(d), "%s: exit %d, one line: %s" % (
               what, rc, err.strip()))


refused(["--tests", "SEQ1M-Q8"], 1, "T<threads>", "test without threads")
refused(["--tests", "FOO4K-Q1T1"], 1, "SEQ or RND", "test of no kind")
refused(["--tests", "RND4-Q1T1"], 1, "K (KiB) or M (MiB)", "size unit")
refused(["--tests", "RND4K-Q0T1"], 1, "queue depth", "QD 0")
refused(["--tests", "SEQ1M-Q8T1,,RND4K-Q1T1"], 1, "empty item",
        "empty list item")
refused(["--preset", "cdm5"], 1, "nvme", "unknown preset lists presets")
refused(["--preset", "nvme", "--tests", "RND4K-Q1T1"], 1, "one of them",
        "--preset and --tests together")
refused(["--only", "sideways"], 1, "read, write, mix", "bad direction")
refused(["--mix", "50"], 1, "--only mix", "--mix without mix tests")
refused(["--runs", "0"], 1, "--runs", "zero runs")
refused(["--time", "0"], 1, "--time", "zero time")
refused(["--only", "read", "--flush-every", "4"], 1, "write",
        "--flush-every without writes")
refused(["--engine", "sync"], 1, "SEQ1M Q8T1", "sync engine and QD8 test")
refused(["--engine", "native", "--cache", "writeback"], 2,
        "cache.direct=on", "native + writeback refused as QEMU does")
refused(["--engine", "warp"], 1, "io_uring", "bad engine")
refused(["--runz", "3"], 1, "did you mean '--runs'", "misspelt flag")

with tmpdir() as d:
    user = os.path.join(d, "user.dat")
    with open(user, "wb") as f:
        f.write(os.urandom(4 << 20))
    rc, out, err = run(["mark", user, "--no-progress"])
    ok(rc == 2 and "--allow-write-file" in err and os.path.exists(user),
       "an existing file is not written without --allow-write-file")
    rc, out, err = run(["mark", user, "--only", "read", "--tests",
                        "RND4K-Q1T1", "--runs", "1", "--time", "100ms",
                        "--interval", "0", "--no-progress"])
    ok(rc == 0 and os.path.exists(user), "read-only mark of a user's file")

    # --force measures what QEMU refuses, and says so.
    doc = run_json(["mark", "--engine", "native", "--cache", "writeback",
                    "--force", "--tests", "RND4K-Q4T1", "--runs", "1"] +
                   FAST, cwd=d)
    ok(doc and any(w["id"] == "native-buffered"
                   for w in doc["tests"][0]["read"]["warnings"]),
       "--force: native + writeback measured with a warning")

    # Ctrl-C: partial results marked, test file removed, exit 130.
    p = subprocess.Popen([IOLAB, "mark", "--size", "16M", "--time", "1s",
                          "--interval", "0", "--json", "--no-progress"],
                         cwd=d, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    time.sleep(4)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    ok(p.returncode == 130, "Ctrl-C exits 130 (got %d)" % p.returncode)
    try:
        doc = json.loads(out)
        first = doc["tests"][0]["read"]
        ok(doc["partial"] is True and doc["stopped_by"] == "SIGINT" and
           first is not None and first["partial"] is True,
           "Ctrl-C: partial results printed and marked")
        ok(doc["tests"][-1]["write"] is None, "later tests not run")
    except ValueError:
        ok(False, "Ctrl-C: JSON printed")
    ok(not files_like(d), "Ctrl-C: test file removed")
    # A precision no disk reaches within the cap: the mean is kept, marked
    # ~ and warned noisy, and the test stops at --max-time.
    rc, out, err = run(["mark", "--tests", "RND4K-Q1T1", "--only", "read",
                        "--precision", "0.1", "--max-time", "1s", "--time",
                        "100ms", "--size", "16M", "--no-progress"], cwd=d)
    row = [ln for ln in out.splitlines() if ln.startswith("RND4K Q1T1")]
    ok(rc == 0 and row and row[0].split()[2].endswith("~") and
       "~ = not known to the precision asked" in out and
       "only (95% interval of the mean), not the +-0.1% asked" in out,
       "--precision 0.1 within 1 s: the mean marked ~, warned noisy (%r)" %
       (row[0] if row else out[-300:]))
    spread = [ln for ln in out.splitlines()
              if ln.startswith("RND4K Q1T1 read")]
    ok(spread and float(spread[0].split()[-2]) <= 1.3,
       "the test stopped at its 1 s cap (%r)" % (spread[0] if spread else
                                                  None))
    rc, out, err = run(["mark", "--help"])
    ok(rc == 0 and "--preset" in out and "cdm6" in out and
       "SEQ128K Q32T1" in out, "--help lists flags and presets")
done()
