# SPDX-License-Identifier: GPL-2.0-or-later
"""--csv of run, advise, mark, matrix, calibrate and lab: a header with
units in the names, one line per record (direction, disk, test and
direction, cell x test x direction, point of a curve), every line as wide
as the header, fields that agree with the JSON of the same input or settings,
RFC 4180 quoting, --csv with --json refused, -o FILE."""
import csv
import glob
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, run, run_json, done, tmpdir  # noqa: E402,E501

with tmpdir() as d:
    f = os.path.join(d, "t.dat")
    rc, out, err = run(["run", f, "--size", "16M", "--rw", "randrw",
                        "--runtime", "500ms", "--flush-every", "8",
                        "--percentiles", "50,99,99.9", "--csv",
                        "--no-progress"], check=0)
    rows = list(csv.DictReader(io.StringIO(out)))
    head = out.splitlines()[0].split(",")
    ok(head[:10] == ["engine", "cache", "rw", "pattern", "bs_bytes", "qd",
                     "threads", "direction", "ios", "bytes"],
       "header starts with the job")
    ok([h for h in head if h.startswith("lat_p")] ==
       ["lat_p50_us", "lat_p99_us", "lat_p99.9_us"],
       "a column per --percentiles value")
    ok([r["direction"] for r in rows] == ["read", "write", "flush"],
       "read, write and flush lines")
    for r in rows[:2]:
        ios, by = int(r["ios"]), int(r["bytes"])
        ok(by == ios * 4096, r["direction"] + ": bytes = ios x 4096, whole")
        ok(abs(float(r["iops"]) - ios / float(r["elapsed_s"])) <=
           0.01 * float(r["iops"]) + 1, r["direction"] + ": iops")
        ok(abs(float(r["MB_s"]) * 1e6 - by / float(r["elapsed_s"])) <=
           0.01 * by / float(r["elapsed_s"]) + 1e4,
           r["direction"] + ": MB/s is 10^6 bytes/s")
        ok(float(r["lat_min_us"]) <= float(r["lat_p50_us"]) <=
           float(r["lat_p99_us"]) <= float(r["lat_max_us"]),
           r["direction"] + ": min <= p50 <= p99 <= max")
        ok(r["engine"] and r["cache"] == "none" and r["rw"] == "randrw" and
           r["pattern"] == "random",
           r["direction"] + ": settings on every line")
    fl = rows[2]
    ok(int(fl["ios"]) > 0 and fl["bytes"] == "" and fl["iops"] == "",
       "flush line: a count and latency, no throughput")
    ok(all(r["partial"] == "false" for r in rows), "not partial")
    ok(not os.path.exists(f), "test file removed")

    rc, out, err = run(["run", f, "--csv", "--json", "--engine", "null"])
    ok(rc == 1 and "exclude" in err, "--csv with --json: exit 1")

# advise: the disk table with its findings, against its own JSON.
F = os.path.join(os.environ.get("IOLAB_SRC", "."), "tests", "fixtures",
                 "advise")
src = ["--libvirt", os.path.join(F, "libvirt", "rhel9-native-writeback.xml"),
       "--proxmox", os.path.join(F, "proxmox", "etc", "pve", "qemu-server",
                                 "101.conf")]
rc, out, err = run(["advise"] + src + ["--csv"])
rcj, js, _ = run(["advise"] + src + ["--json"])
doc = json.loads(js)
rows = list(csv.DictReader(io.StringIO(out)))
ok(rc == rcj == 4, "advise --csv keeps the exit status (4: errors found)")
disks = [(vm["name"], d["id"]) for vm in doc["vms"] for d in vm["disks"]]
ok([(r["vm"], r["disk"]) for r in rows if r["disk"]] == disks,
   "advise: a line per disk, in order")
for r in rows:
    fs = [f for f in doc["findings"] if f["vm"] == r["vm"] and
          (f["disk"] or "") == r["disk"]]
    want = [sum(1 for f in fs if f["severity"] == s)
            for s in ("error", "warning", "info")]
    ok([int(r["errors"]), int(r["warnings"]), int(r["info"])] == want and
       r["rules"].split() == [f["rule"] for f in fs],
       "advise %s/%s: findings %r" % (r["vm"], r["disk"] or "(VM)", want))
corrected = {(vm["name"], d["id"]): d["corrected"] or ""
             for vm in doc["vms"] for d in vm["disks"]}
corrected.update({(vm["name"], ""): vm["corrected"] or ""
                  for vm in doc["vms"]})
ok(all(r["corrected"] == corrected[(r["vm"], r["disk"])] for r in rows) and
   any(r["corrected"] and not r["disk"] for r in rows),
   "advise: the corrected lines of each disk, and the VM's on its own line")
d0 = next(d for vm in doc["vms"] for d in vm["disks"])
r0 = rows[0] if rows[0]["disk"] else rows[1]
ok(r0["bus"] == d0["bus"] and r0["cache"] == d0["cache"] and
   r0["file"] == d0["file"], "advise: the resolved settings")
rc, out, err = run(["advise"] + src + ["--csv", "--json"])
ok(rc == 1 and "exclude" in err, "advise --csv with --json: exit 1")


def table(text, what):
    """Rows as dicts; every line as wide as the header (pandas-clean)."""
    lines = list(csv.reader(io.StringIO(text)))
    ok(lines and all(len(l) == len(lines[0]) for l in lines),
       what + ": %d lines, each with the header's %d fields" % (
           len(lines), len(lines[0]) if lines else 0))
    return lines[0] if lines else [], list(csv.DictReader(io.StringIO(text)))


def num(v):
    return float(v) if v != "" else None


def near(a, b, rel=0.002, eps=0.002):
    return a is not None and b is not None and abs(a - b) <= rel * abs(b) + eps


TEST_COLS = ["test", "pattern", "bs_bytes", "qd", "threads", "direction",
             "runs_scored", "MB_s", "MB_s_ci95_pct", "MB_s_max", "MB_s_mean",
             "MB_s_min", "MB_s_stddev", "iops", "iops_max", "iops_mean",
             "iops_min",
             "iops_stddev", "lat_min_us", "lat_mean_us", "lat_p50_us",
             "lat_p99_us", "lat_max_us"]
MIX_COLS = ["mix_read_pct", "mix_read_MB_s_max", "mix_read_MB_s_mean",
            "mix_write_MB_s_max", "mix_write_MB_s_mean"]
TAIL_COLS = ["page_cache_reads", "partial", "warnings"]
FIGS = [c for c in TEST_COLS[7:]]
# What CrystalDiskMark's procedure (--runs) leaves empty: no interval.
NO_CI = ("MB_s_ci95_pct",)


def sane_test_row(r, what, runs):
    """A measured line: its spread, units and latency order hold."""
    bs = int(r["bs_bytes"])
    ok(int(r["runs_scored"]) == runs, what + ": runs_scored %s" %
       r["runs_scored"])
    ok(num(r["MB_s_min"]) <= num(r["MB_s_mean"]) <= num(r["MB_s_max"]) and
       num(r["iops_min"]) <= num(r["iops_mean"]) <= num(r["iops_max"]),
       what + ": min <= mean <= max")
    # Every run moves bs-sized blocks: MB/s = IOPS x bs / 10^6.
    ok(near(num(r["MB_s_max"]), num(r["iops_max"]) * bs / 1e6, 0.002, 0.01),
       what + ": MB/s is 10^6 bytes/s (%s vs %s IOPS)" % (
           r["MB_s_max"], r["iops_max"]))
    ok((r["MB_s_stddev"] == "") == (runs == 1) and
       (r["iops_stddev"] == "") == (runs == 1),
       what + ": a deviation only over 2 or more runs")
    # --runs is CrystalDiskMark's procedure: the best run is the headline.
    ok(r["MB_s"] == r["MB_s_max"] and r["iops"] == r["iops_max"] and
       r["MB_s_ci95_pct"] == "", what + ": the headline is the best run")
    lat = [num(r[c]) for c in ("lat_min_us", "lat_p50_us", "lat_p99_us",
                               "lat_max_us")]
    ok(None not in lat and lat == sorted(lat) and
       lat[0] <= num(r["lat_mean_us"]) <= lat[3],
       what + ": latency min <= p50 <= p99 <= max, mean inside")
    ok(r["partial"] == "false" and r["page_cache_reads"] in ("true",
                                                            "false"),
       what + ": flags")


with tmpdir() as d:
    f = os.path.join(d, "s.dat")
    fast = ["--size", "16M", "--time", "200ms", "--interval", "0",
            "--no-progress"]

    # --- mark: a line per test and direction, as its JSON's tests.
    margs = ["mark", f, "--tests", "SEQ128K-Q4T1,RND4K-Q1T1", "--only",
             "read,write,mix", "--runs", "2"] + fast
    out_csv = os.path.join(d, "mark.csv")
    rc, out, err = run(margs + ["--csv", "-o", out_csv])
    ok(rc == 0 and out == "", "mark --csv -o FILE: exit 0, nothing on stdout")
    text = open(out_csv).read() if os.path.exists(out_csv) else ""
    head, rows = table(text, "mark")
    ok(head == ["engine", "cache"] + TEST_COLS + MIX_COLS + TAIL_COLS,
       "mark: the header, units in the names")
    doc = run_json(margs)
    if doc:
        want = [(t["name"], dd) for t in doc["tests"]
                for dd in ("read", "write", "mix") if t[dd]]
        ok([(r["test"], r["direction"]) for r in rows] == want,
           "mark: a line per test and direction, the JSON's %d, in order" %
           len(want))
        ok(all(r["engine"] == doc["options"]["engine"] and
               r["cache"] == doc["options"]["cache"] for r in rows),
           "mark: the JSON's engine and cache on every line")
        jt = {t["name"]: t for t in doc["tests"]}
        for r in rows:
            what = "mark %s %s" % (r["test"], r["direction"])
            t = jt.get(r["test"])
            ok(t and int(r["bs_bytes"]) == t["bs_bytes"] and
               int(r["qd"]) == t["qd"] and
               int(r["threads"]) == t["threads"] and
               r["pattern"] == t["pattern"], what + ": the test's settings")
            sane_test_row(r, what, 2)
            mix = r["direction"] == "mix"
            ok(all((r[c] != "") == mix for c in MIX_COLS),
               what + ": mix columns only on mix lines")
            if mix:
                ok(int(r["mix_read_pct"]) == 70 and
                   num(r["mix_read_MB_s_max"]) <= num(r["MB_s_max"]),
                   what + ": 70 %% reads, a share of the total")
    ok(not os.path.exists(f), "mark: test file removed")

    # Without mix tests there are no mix columns.
    rc, out, err = run(["mark", f, "--tests", "RND4K-Q1T1", "--only", "read",
                        "--runs", "1", "--csv"] + fast)
    head, rows = table(out, "mark, reads only")
    ok(head == ["engine", "cache"] + TEST_COLS + TAIL_COLS and len(rows) == 1,
       "mark, reads only: no mix columns, one line")
    if rows:
        sane_test_row(rows[0], "mark RND4K Q1T1 read (1 run)", 1)

    # The default procedure: the headline is the mean, with its interval.
    rc, out, err = run(["mark", f, "--tests", "RND4K-Q1T1", "--only", "read",
                        "--max-time", "1s", "--time", "100ms", "--csv",
                        "--size", "16M", "--no-progress"])
    head, rows = table(out, "mark, precision")
    if rows:
        r = rows[0]
        ok(int(r["runs_scored"]) >= 3 and r["MB_s"] == r["MB_s_mean"] and
           r["iops"] == r["iops_mean"] and num(r["MB_s_ci95_pct"]) >= 0,
           "mark, precision: the mean is the headline, its interval "
           "beside it (%s runs, +-%s %%)" % (r["runs_scored"],
                                             r["MB_s_ci95_pct"]))

    # --- matrix: every cell x test x direction; refused cells empty.
    xargs = ["matrix", f, "--engines", "threads,native", "--caches",
             "none,writeback", "--tests", "RND4K-Q1T1", "--runs", "1"] + fast
    rc, out, err = run(xargs + ["--csv"])
    ok(rc == 0, "matrix --csv: exit 0")
    head, rows = table(out, "matrix")
    ok(head == ["engine", "cache", "status", "reason", "forced", "risk",
                "keeps_data_on_power_loss"] + TEST_COLS + TAIL_COLS,
       "matrix: the header")
    doc = run_json(xargs)
    if doc:
        want = [(c["engine"], c["cache"], dd) for c in doc["cells"]
                for dd in ("read", "write")]
        ok([(r["engine"], r["cache"], r["direction"]) for r in rows] == want,
           "matrix: %d lines, cell x test x direction, the JSON's order" %
           len(want))
        jc = {(c["engine"], c["cache"]): c for c in doc["cells"]}
        for r in rows:
            c = jc.get((r["engine"], r["cache"]))
            what = "matrix %s/%s %s" % (r["engine"], r["cache"],
                                        r["direction"])
            if not c:
                continue
            ok(r["status"] == c["status"] and
               r["reason"] == (c["reason"] or "") and
               r["risk"] == c["risk"] and
               r["keeps_data_on_power_loss"] ==
               str(c["keeps_data_on_power_loss"]).lower(),
               what + ": status %s, reason and risk as the JSON" %
               r["status"])
            if r["status"] == "refused":
                ok(all(r[k] == "" for k in FIGS + TAIL_COLS),
                   what + ": refused, every figure empty (never 0)")
                # QEMU's words hold quotes and commas: RFC 4180 kept them.
                ok('"aio=native was specified' in r["reason"] and
                   "," in r["reason"], what + ": QEMU's quoted reason intact")
            else:
                sane_test_row(r, what, 1)
        ok(sum(r["status"] == "refused" for r in rows) == 2,
           "matrix: native/writeback refused, read and write")
    raw = [l for l in out.splitlines() if l.startswith("native,writeback,")]
    ok(raw and raw[0].startswith('native,writeback,refused,"QEMU refuses') and
       '""aio=native' in raw[0], "matrix: the reason quoted, its quotes doubled")

    # --force measures the refused cell: ok, forced, QEMU's reason kept.
    rc, out, err = run(["matrix", f, "--engines", "native", "--caches",
                        "writeback", "--tests", "RND4K-Q1T1", "--only",
                        "read", "--force", "--csv"] + fast)
    head, rows = table(out, "matrix --force")
    ok(len(rows) == 1 and rows[0]["status"] == "ok" and
       rows[0]["forced"] == "true" and "aio=native" in rows[0]["reason"] and
       num(rows[0]["MB_s_max"]) is not None,
       "matrix --force: measured, marked forced, the reason kept")

    # Ctrl-C: the lines of cells and tests not reached say not-run, empty.
    p = subprocess.Popen([
        IOLAB, "matrix", f, "--engines", "threads,native", "--caches",
        "none,writeback", "--tests", "RND4K-Q1T1,SEQ128K-Q4T1", "--time",
        "1s", "--interval", "0", "--size", "16M", "--csv", "--no-progress"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    ok(p.returncode == 130, "matrix --csv, Ctrl-C: exit 130")
    head, rows = table(out, "matrix --csv, Ctrl-C")
    st = [(r["engine"], r["cache"], r["status"]) for r in rows]
    ok(len(rows) == 16 and ("threads", "writeback", "not-run") in st and
       ("native", "writeback", "refused") in st,
       "Ctrl-C: every cell's lines, later cells not-run, refusal kept")
    ok(all(r[k] == "" for r in rows if r["status"] == "not-run"
           for k in FIGS + TAIL_COLS),
       "Ctrl-C: not-run lines have empty figures")
    ok(any(r["status"] == "ok" and (r["partial"] == "true" or
                                   r["MB_s_max"] != "") for r in rows),
       "Ctrl-C: the first cell's tests that ran are there")

    # --- calibrate: a line per point, the figures on every line.
    cargs = ["calibrate", f, "--size", "16M", "--budget", "3s", "--disks",
             "1", "--no-progress"]
    rc, out, err = run(cargs + ["--csv"])
    ok(rc in (0, 4), "calibrate --csv: exit %d" % rc)
    head, rows = table(out, "calibrate")
    ok(head == ["phase", "block_size_bytes", "load", "qd", "threads", "iops",
                "MB_s", "lat_mean_us", "lat_p50_us", "lat_p99_us",
                "windows", "spread", "noisy", "meets_cap", "best",
                "engine", "cache", "disks", "max_latency_us",
                "latency_stat", "cap_met", "max_iops", "actual_latency_us",
                "max_MB_s", "max_pMB_s", "knee_load", "knee_iops",
                "knee_lat_mean_us", "qd1_lat_mean_us", "budget_cut_short",
                "partial"], "calibrate: the header")
    phases = [r["phase"] for r in rows]
    # A 3 s budget on a shared disk may end a phase early: the document
    # says so (budget_cut_short, partial), and then a later phase may be
    # missing. The checks follow what the run reports, not the clock.
    cut = bool(rows) and "true" in (rows[0].get("budget_cut_short"),
                                    rows[0].get("partial"))
    ok(phases == sorted(phases, key=["small", "large", "single"].index) and
       (set(phases) == {"small", "large", "single"} or
        (cut and set(phases) <= {"small", "large", "single"})),
       "calibrate: small, large, single lines in order (%d, %d, %d)" % (
           phases.count("small"), phases.count("large"),
           phases.count("single")))
    ok(phases.count("single") == 1 or (cut and not phases.count("single")),
       "calibrate: one lone-reader line")
    heads = {tuple(r[c] for c in head[15:]) for r in rows}
    ok(len(heads) == 1, "calibrate: the same figures on every line")
    for ph, bs in (("small", 8192), ("large", 1 << 20), ("single", 1 << 20)):
        pr = [r for r in rows if r["phase"] == ph]
        bad = [r for r in pr if not (
            int(r["block_size_bytes"]) == bs and
            int(r["load"]) == int(r["qd"]) * int(r["threads"]) and
            # a window that completed no read has no figures (not 0)
            ((r["iops"] == "" and r["MB_s"] == "") or
             # IOPS is printed to 0.1: at a few 1 MiB reads a second (a
             # loaded disk) that rounding is more than 0.2 % of MB/s
             near(num(r["MB_s"]), num(r["iops"]) * bs / 1e6, 0.002,
                  0.05 * bs / 1e6 + 0.0005)))]
        ok(not bad, ph + ": load = qd x threads, MB/s = IOPS x bs" + "".join(
            " [load %s = %s x %s, %s IOPS, %s MB/s]" % (
                r["load"], r["qd"], r["threads"], r["iops"], r["MB_s"])
            for r in bad))
        ok([int(r["load"]) for r in pr] ==
           sorted(int(r["load"]) for r in pr), ph + ": ascending load")
        ok(all((r["meets_cap"] != "") == (ph == "small") for r in pr),
           ph + ": meets_cap only where there is a cap")
        ok(sum(r["best"] == "true" for r in pr) <= 1, ph + ": one best")
    r0 = rows[0] if rows else {}
    best = [r for r in rows if r["phase"] == "small" and r["best"] == "true"]
    if r0.get("cap_met") == "true":
        ok(best and near(num(r0["max_iops"]), num(best[0]["iops"]), 0, 0.51)
           and r0["actual_latency_us"] == best[0]["lat_mean_us"],
           "calibrate: max_iops and latency are the best small line's")
    else:
        ok(r0.get("max_iops") == "" and r0.get("actual_latency_us") == "",
           "calibrate: cap not met, max_iops empty (not 0)")
    lb = [r for r in rows if r["phase"] == "large" and r["best"] == "true"]
    sg = [r for r in rows if r["phase"] == "single"]
    ok((lb and near(num(r0["max_MB_s"]), num(lb[0]["MB_s"]), 0.001, 0.051)
        or (cut and not lb and r0.get("max_MB_s") == "")) and
       (sg and near(num(r0["max_pMB_s"]), num(sg[0]["MB_s"]), 0.001, 0.051)
        or (cut and not sg and r0.get("max_pMB_s") == "")),
       "calibrate: max_MB_s and max_pMB_s are their phases' best "
       "(empty where the budget cut the phase)")
    doc = run_json(cargs)
    if doc and rows:
        o = doc["options"]
        ok(r0["engine"] == o["engine"] and r0["cache"] == o["cache"] and
           int(r0["disks"]) == o["disks"] == 1 and
           num(r0["max_latency_us"]) == o["max_latency_ms"] * 1e3 and
           r0["latency_stat"] == o["latency_stat"],
           "calibrate: the settings as the JSON's options")
        jp = doc["curve"][0]
        cp = rows[0]
        ok(jp["load"] == int(cp["load"]) == 1 and
           set(jp["lat_ms"]) == {"mean", "p50", "p99"},
           "calibrate: both start at load 1, latency in ms in the JSON")
    ok(not os.path.exists(f), "calibrate: test file removed")

    # --- lab: a line per cell x test x direction, from the guests' JSON.
    # Needs QEMU, a guest kernel and the static iolab; without them the
    # other commands' checks above still count.
    static = os.environ.get("IOLAB_STATIC")
    if not (shutil.which("qemu-system-x86_64") and shutil.which("qemu-img")
            and glob.glob("/boot/vmlinuz-*") and static and
            os.access(static, os.X_OK)):
        print("SKIP lab --csv: no QEMU, guest kernel or static iolab")
    else:
        img = os.path.join(d, "images")
        os.mkdir(img)
        largs = ["lab", "--accel", "tcg", "--disk-size", "32M", "--time",
                 "200ms", "--runs", "1", "--iolab-static", static,
                 "--tests", "RND4K-Q1T1",
                 "--aio", "native", "--cache", "none,writeback", "--disk",
                 img, "--no-progress", "-q"]
        rc, out, err = run(largs + ["--csv"], timeout=600)
        ok(rc == 0, "lab --csv: exit 0 (%s)" % err.strip()[-300:])
        head, rows = table(out, "lab")
        ok(head == ["bus", "format", "aio", "cache", "accel", "status",
                    "reason", "risk"] + TEST_COLS + TAIL_COLS,
           "lab: the header")
        doc = run_json(largs, timeout=600)
        if doc:
            want = [(c["bus"], c["format"], c["aio"], c["cache"],
                     c["status"], dd) for c in doc["cells"]
                    for dd in ("read", "write")]
            ok([(r["bus"], r["format"], r["aio"], r["cache"], r["status"],
                 r["direction"]) for r in rows] == want,
               "lab: %d lines, cell x test x direction, statuses as the "
               "JSON's" % len(want))
            for r in rows:
                what = "lab %s/%s %s" % (r["aio"], r["cache"], r["direction"])
                ok(r["accel"] == doc["accel"] == "tcg" and
                   r["bus"] == "virtio-blk" and r["format"] == "raw",
                   what + ": bus, format, accel")
                if r["status"] == "refused":
                    ok(r["reason"].startswith("qemu-system-x86_64: ") and
                       r["reason"].endswith(
                           "aio=native was specified, but it requires "
                           "cache.direct=on, which was not specified.") and
                       "\n" not in r["reason"],
                       what + ": QEMU's message, on one line")
                    ok(all(r[k] == "" for k in FIGS + TAIL_COLS),
                       what + ": refused, every figure empty (never 0)")
                else:
                    ok(r["status"] == "ok" and r["reason"] == "",
                       what + ": ok, no reason")
                    sane_test_row(r, what, 1)
            raw = [l for l in out.splitlines() if ",refused," in l]
            ok(raw and ',refused,"qemu-system-x86_64: -blockdev ' in raw[0],
               "lab: QEMU's message quoted (it holds commas)")
        ok(os.listdir(img) == [], "lab: no image left")

    for cmd in (["mark", f], ["matrix", f], ["calibrate", f], ["lab"]):
        rc, out, err = run(cmd + ["--csv", "--json"])
        ok(rc == 1 and err.strip() ==
           "iolab: --json and --csv exclude each other; choose one" and
           not os.path.exists(f),
           cmd[0] + " --csv --json: one line, exit 1, no test file")

done()
