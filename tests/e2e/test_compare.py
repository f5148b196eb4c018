# SPDX-License-Identifier: GPL-2.0-or-later
"""`iolab compare` on the golden inputs: the ratios against the inputs'
own figures, better/worse by direction, settings that differ, findings that
came or went, colour only when wanted, and every refusal with its exit
code."""
import csv
import io
import json
import os
import pty
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, run, run_json, done, tmpdir  # noqa: E402

G = os.path.join(os.environ.get("IOLAB_SRC", "."), "tests", "fixtures",
                 "golden")


def golden(name):
    return os.path.join(G, name)


def load(name):
    with open(golden(name)) as f:
        return json.load(f)


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


A, B = "run-qd1.json", "run-qd16.json"
ja, jb = load(A), load(B)

# The text follows the locale's charset: under LC_ALL=C (a cron job, a
# serial console) the times and plus-minus signs are ASCII.
for loc, want in (("C", "x"), ("C.UTF-8", "\u00d7")):
    rc, out, err = run(["compare", golden(A), golden(B)],
                       env=dict(os.environ, LC_ALL=loc))
    ascii_only = all(ord(ch) < 128 for ch in out)
    ok(rc == 0 and want in out and ascii_only == (loc == "C"),
       "compare under LC_ALL=%s: %s ratios, ASCII only: %s" %
       (loc, want, ascii_only))
doc = run_json(["compare", golden(A), golden(B)])
ok(doc["command"] == "compare" and doc["schema_version"] == 1,
   "compare --json has the common envelope")
ok([i["letter"] for i in doc["inputs"]] == ["A", "B"] and
   doc["inputs"][0]["label"] == "run-qd1", "inputs listed with labels")
fig = {f["key"]: f for f in doc["figures"]}

# Every ratio is B's figure over A's, taken from the inputs themselves.
checks = {
    "read/iops": lambda j: j["jobs"][0]["read"]["iops"],
    "read/mbps": lambda j: j["jobs"][0]["read"]["mbps"],
    "read/lat_mean": lambda j: j["jobs"][0]["read"]["lat_ns"]["mean"],
    "read/lat_max": lambda j: j["jobs"][0]["read"]["lat_ns"]["max"],
    "read/lat_p99": lambda j: next(
        p["ns"] for p in j["jobs"][0]["read"]["lat_ns"]["percentiles"]
        if p["p"] == 99),
    "cpu_us_per_io": lambda j: j["jobs"][0]["cpu"]["us_per_io"],
}
for key, get in checks.items():
    f = fig.get(key)
    if not ok(f is not None, "figure %s present" % key):
        continue
    va, vb = get(ja), get(jb)
    ok(f["values"] == [va, vb], "%s: values are the inputs' (%r)" %
       (key, f["values"]))
    ok(close(f["ratio"][1], vb / va), "%s: ratio %.6g = B/A %.6g" %
       (key, f["ratio"][1], vb / va))
    ok(close(f["change_pct"][1], (vb / va - 1) * 100),
       "%s: change %% = (B/A - 1) x 100" % key)
    ok(f["ratio"][0] is None and f["verdict"][0] is None,
       "%s: A has no ratio to itself" % key)

# The verdict: "same" within 5 % in ratio; beyond it, Welch's t-test on
# the samples behind the figure (here each run's full seconds) decides,
# and with no samples there is "no spread known", never better or worse.
def seconds(j, field):
    job = j["jobs"][0]
    return [p[field] for i, p in enumerate(job["timeseries"])
            if p.get("span_s", 1.0 if job["elapsed_s"] - i >= 0.999
                     else 0) >= 0.999]


def welch(a, b):
    na, nb = len(a), len(b)
    ma, mb = sum(a) / na, sum(b) / nb
    va = sum((x - ma) ** 2 for x in a) / (na - 1) / na
    vb = sum((x - mb) ** 2 for x in b) / (nb - 1) / nb
    return ((mb - ma) / (va + vb) ** 0.5,
            (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1)))


for f in doc["figures"]:
    r, v, t = f["ratio"][1], f["verdict"][1], f["test"][1]
    if f["unit"] == "count" or r is None or f["better"] == "none":
        continue
    up = r >= 1.05
    if not up and r > 1 / 1.05:
        ok(v == "same", "%s: ratio %.3f within 5 %%: same (%s)" %
           (f["key"], r, v))
    elif t is None:
        ok(v == "no spread known", "%s: ratio %.3f, no samples: %s" %
           (f["key"], r, v))
    else:
        good = up == (f["better"] == "higher")
        want = ("better" if good else "worse") if t["p"] < 0.05 else \
            "within noise"
        ok(v == want and (t["needed"] is None) == (v != "within noise"),
           "%s: ratio %.3f, p %.3g: %s" % (f["key"], r, t["p"], v))
for key, field in (("read/iops", "read_iops"), ("read/mbps", "read_mbps")):
    sa, sb = seconds(ja, field), seconds(jb, field)
    t = fig[key]["test"][1]
    tw, dfw = welch(sa, sb)
    ok(t["kind"] == "seconds" and t["test"] == "welch-t" and
       close(t["t"], tw, 1e-6) and close(t["df"], dfw, 1e-6),
       "%s: Welch's t %.4g df %.4g from the inputs' %d and %d seconds" %
       (key, tw, dfw, len(sa), len(sb)))
    ok(fig[key]["spread"][0]["n"] == len(sa) and
       fig[key]["spread"][1]["n"] == len(sb), "%s: samples counted" % key)
ok(fig["read/iops"]["verdict"][1] == "better",
   "QD16 against QD1: IOPS better beyond the noise")

# Where the samples come from: a cut last second is left out; a mark
# test of one run has its seconds, of several runs its runs.
with tmpdir() as t:
    cut = json.loads(json.dumps(ja))
    ts = cut["jobs"][0]["timeseries"]
    ts.append(dict(ts[-1], t_s=len(ts) + 1, span_s=0.4, read_iops=1))
    for p in ts[:-1]:
        p["span_s"] = 1.0
    pc = os.path.join(t, "cut.json")
    with open(pc, "w") as fh:
        json.dump(cut, fh)
    dc = {x["key"]: x for x in run_json(["compare", golden(A), pc])["figures"]}
    ok(dc["read/iops"]["spread"][1]["n"] == len(ts) - 1 and
       dc["read/iops"]["verdict"][1] == "same",
       "run: the cut last second is not a sample (%d of %d)" %
       (dc["read/iops"]["spread"][1]["n"], len(ts)))
    mk = load("mark-vda.json")
    one = json.loads(json.dumps(mk))
    for tt in one["tests"]:
        for dr in ("read", "write"):
            if tt.get(dr):
                r0 = tt[dr]["runs"][0]
                r0["timeseries"] = [
                    {"t_s": i + 1, "span_s": 1.0,
                     "read_iops": 100 + i, "write_iops": 0,
                     "read_mbps": 10.0 + i, "write_mbps": 0.0}
                    for i in range(4)]
                tt[dr]["runs"] = [r0]
    po = os.path.join(t, "one.json")
    with open(po, "w") as fh:
        json.dump(one, fh)
    dm = run_json(["compare", golden("mark-vda.json"), po])
    f0 = dm["figures"][0]
    ok(f0["spread"][0]["kind"] == "runs" and
       f0["spread"][0]["n"] == len(mk["tests"][0]["read"]["runs"]) and
       f0["spread"][1]["kind"] == "seconds" and f0["spread"][1]["n"] == 4,
       "mark: runs in A, the one run's 4 seconds in B (%r)" % f0["spread"])
    ok(all(x["test"][1] is None and
           x["verdict"][1] in ("same", "no spread known", None)
           for x in dm["figures"]),
       "mark: runs against seconds are not mixed: no spread known")
    dd = {x["key"]: x for x in run_json(["compare", po, po])["figures"]}
    x = dd["SEQ1M Q8T1/read/mbps"]
    ok(x["test"][1]["kind"] == "seconds" and
       close(x["spread"][1]["mean"], 11.5) and
       dd["SEQ1M Q8T1/read/lat_mean"]["spread"][1] is None,
       "mark of one run: MB/s from its seconds, latency without spread")
ok(fig["read/lat_mean"]["verdict"][1] == "no spread known" and
   fig["read/lat_mean"]["test"][1] is None,
   "a run's latency has no per-second spread: no spread known")
ok(fig["read/iops"]["better"] == "higher" and
   fig["read/lat_p99"]["better"] == "lower", "IOPS up, latency down is good")
ok(fig["read/lat_p99"]["unit"] == "ns" and fig["read/mbps"]["unit"] == "MB/s",
   "units named")

names = {"better": "better", "worse": "worse", "same": "same",
         "within noise": "within_noise",
         "no spread known": "no_spread_known"}
tally = {k: sum(1 for f in doc["figures"] if f["verdict"][1] == v)
         for v, k in names.items()}
ok(doc["inputs"][1]["against_a"] == tally and
   doc["inputs"][0]["against_a"] is None,
   "B against A: %(better)d better, %(worse)d worse, %(same)d the same, "
   "%(within_noise)d within noise, %(no_spread_known)d no spread known" %
   tally)
diff = {s["key"]: s for s in doc["settings_differ"]}
ok("qd" in diff and diff["qd"]["values"] == ["1", "16"] and
   diff["qd"]["kind"] == "workload", "queue depth called out as differing")
ok("engine" in diff and diff["engine"]["values"] == ["sync", "io_uring"],
   "engine called out as differing")
ok("bs" not in diff and "cache" not in diff, "equal settings not called out")
ok(any(w["id"] == "settings-differ" for w in doc["warnings"]),
   "a settings-differ warning")

# The table: ratio with x, latency with %, better/worse words, no colour.
rc, out, err = run(["compare", golden(A), golden(B)], check=0)
ratio = ja["jobs"][0]["read"]["iops"] and \
    jb["jobs"][0]["read"]["iops"] / ja["jobs"][0]["read"]["iops"]
half = fig["read/iops"]["test"][1]["spread_ratio"]
ok("%.2f\u00d7 \u00b1%.2f better" % (ratio, half) in out,
   "table shows IOPS ratio %.2f\u00d7 \u00b1%.2f" % (ratio, half))
p99a = checks["read/lat_p99"](ja)
p99b = checks["read/lat_p99"](jb)
pct = (p99b / p99a - 1) * 100
ok(("(%+.0f %%)" % pct) in out or ("(%+.1f %%)" % pct) in out,
   "latency ratio also in percent (%+.0f %%)" % pct)
ok("B against A: %(better)d better, %(worse)d worse, %(same)d the same, "
   "%(within_noise)d within noise, %(no_spread_known)d no spread known" %
   tally in out, "the table sums up B against A")
ok("no spread known" in out and "Welch's t-test" in out,
   "the table says no spread known and the rule")
ok("Settings that differ" in out and "queue depth" in out,
   "table calls out the differing settings")
ok("\033[" not in out, "no colour into a pipe")
rc, out, err = run(["compare", "--color", "always", golden(A), golden(B)],
                   check=0)
ok("\033[32m" in out and "\033[31m" not in out,
   "--color always: green for better, no red without a worse")
with tmpdir() as t:
    # B slower than A in every second: red.
    slow = json.loads(json.dumps(ja))
    for p in slow["jobs"][0]["timeseries"]:
        p["read_iops"] //= 2
    slow["jobs"][0]["read"]["iops"] /= 2
    ps = os.path.join(t, "slow.json")
    with open(ps, "w") as fh:
        json.dump(slow, fh)
    rc, out, err = run(["compare", "--color", "always", golden(A), ps],
                       check=0)
    ok("\033[31m" in out and "0.50\u00d7" in out,
       "--color always: red for worse")


def on_tty(args, env):
    """Run with stdout on a pseudo-terminal; return what it printed."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(IOLAB, [IOLAB] + args, env)
    chunks = []
    while True:
        try:
            b = os.read(fd, 65536)
        except OSError:
            break
        if not b:
            break
        chunks.append(b)
    os.waitpid(pid, 0)
    return b"".join(chunks).decode("utf-8", "replace")


env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
env["TERM"] = "xterm"
ok("\033[32m" in on_tty(["compare", golden(A), golden(B)], env),
   "colour on a terminal")
env["NO_COLOR"] = "1"
ok("\033[" not in on_tty(["compare", golden(A), golden(B)], env),
   "NO_COLOR on a terminal: no colour")

# CSV: one line per figure, numbers in the header's units.
rc, out, err = run(["compare", "--csv", golden(A), golden(B)], check=0)
rows = list(csv.reader(io.StringIO(out)))
ok(rows[0] == ["group", "figure", "unit", "better", "a", "b", "b_over_a",
               "b_spread", "b_p", "b_verdict", "b_noise_from", "b_needed",
               "a_label", "b_label"], "CSV header: %r" % rows[0])
ok(all(r[-2:] == ["run-qd1", "run-qd16"] for r in rows[1:]),
   "CSV: the labels on every line, not in the header")
lat = {(r[0], r[1]): r for r in rows[1:]}[("read", "mean latency")]
ok(lat[2] == "us" and close(float(lat[4]) * 1e3,
                            ja["jobs"][0]["read"]["lat_ns"]["mean"], 1e-6),
   "CSV: latency in us, as in every iolab CSV")
ok(len(rows) - 1 == len(doc["figures"]), "CSV: a line per figure")
byname = {(r[0], r[1]): r for r in rows[1:]}
r = byname[("read", "IOPS")]
ok(close(float(r[4]), ja["jobs"][0]["read"]["iops"]) and
   close(float(r[6]), ratio, 1e-6) and
   close(float(r[7]), half, 1e-6) and r[9] == "better" and
   r[10] == "seconds" and r[11] == "",
   "CSV: IOPS values, ratio, spread and verdict")
# Text, CSV and JSON agree on every verdict.
ok([rw[9] for rw in rows[1:]] ==
   [f["verdict"][1] or "" for f in doc["figures"]],
   "CSV and JSON: the same verdicts")

# Three inputs: each against A.
doc3 = run_json(["compare", golden(A), golden(B), golden("run-randrw.json"),
                 "--labels", "qd1,qd16,mixed"])
f = {x["key"]: x for x in doc3["figures"]}
jc = load("run-randrw.json")
ok([i["label"] for i in doc3["inputs"]] == ["qd1", "qd16", "mixed"],
   "--labels names the inputs")
ok(close(f["read/iops"]["ratio"][2],
         jc["jobs"][0]["read"]["iops"] / ja["jobs"][0]["read"]["iops"]),
   "C is compared with A too")
ok(f["write/iops"]["values"][:2] == [None, None] and
   f["write/iops"]["ratio"][2] is None,
   "a figure only C has: no ratio, no invention")

# Other commands' documents.
da, db = load("doctor-ide.json"), load("doctor-virtio.json")
d = run_json(["compare", golden("doctor-ide.json"),
              golden("doctor-virtio.json")])
fs = {(x["id"], x["subject"]): x for x in d["findings"]}
ka = {(x["id"], x["disk"]) for x in da["findings"]}
kb = {(x["id"], x["disk"]) for x in db["findings"]}
ok(len(fs) == len(ka | kb), "doctor: every finding of either input listed")
ok(all(fs[k]["change"] == "gone" for k in ka - kb) and
   all(fs[k]["change"] == "new" for k in kb - ka) and
   all(fs[k]["change"] == "kept" for k in ka & kb),
   "doctor: findings gone, new and kept (%d, %d, %d)" %
   (len(ka - kb), len(kb - ka), len(ka & kb)))
ok(fs[("emulated-ide", "sda")]["change"] == "gone",
   "doctor: the emulated IDE finding is gone after the move to virtio")
crit = next(x for x in d["figures"] if x["key"] == "findings/critical")
ok(crit["values"] == [da["summary"]["critical"], db["summary"]["critical"]]
   and crit["verdict"][1] == "better",
   "doctor: critical findings %d -> %d is better" %
   (da["summary"]["critical"], db["summary"]["critical"]))
drv = next((x for x in d["settings_differ"] if x["key"] == "disk/disk/driver"),
           None)
ok(drv is not None and drv["values"] == ["ata_piix", "virtio_blk"],
   "doctor: the one disk's driver compares across sda -> vda (%r)" %
   (drv and drv["values"]))

aa, ab = load("advise.json"), load("advise-tuned.json")
d = run_json(["compare", golden("advise.json"), golden("advise-tuned.json")])
err_fig = next(x for x in d["figures"] if x["key"] == "findings/error")
ok(err_fig["values"] == [aa["summary"]["errors"], ab["summary"]["errors"]] and
   err_fig["verdict"][1] == "better", "advise: error findings %d -> %d" %
   (aa["summary"]["errors"], ab["summary"]["errors"]))
ok(len(d["findings"]) == len(aa["findings"]) and
   all(x["change"] == "gone" for x in d["findings"]),
   "advise: every finding gone in the tuned configuration")

ca, cb = load("calibrate-ide.json"), load("calibrate-virtio.json")
d = run_json(["compare", golden("calibrate-ide.json"),
              golden("calibrate-virtio.json")])
f = {x["key"]: x for x in d["figures"]}
ok(close(f["max_iops"]["ratio"][1], cb["max_iops"] / ca["max_iops"]) and
   f["max_iops"]["verdict"][1] == "no spread known",
   "calibrate: max_iops ratio, no spread known")
ok(f["actual_latency"]["unit"] == "ms" and
   f["actual_latency"]["better"] == "lower", "calibrate: latency in ms")

# A curve that never met the cap (Oracle's ORA error): no max_iops at all.
with tmpdir() as t:
    nm = dict(ca, cap_met=False, max_iops=None, actual_latency_ms=None)
    p = os.path.join(t, "notmet.json")
    with open(p, "w") as fh:
        json.dump(nm, fh)
    d = run_json(["compare", golden("calibrate-ide.json"), p])
    f = {x["key"]: x for x in d["figures"]}
    ok(f["max_iops"]["status"] == [None, "cap not met"] and
       f["max_iops"]["values"][1] is None and
       f["max_iops"]["ratio"][1] is None,
       "calibrate: cap not met is a status, not a 0")
    ok(any("latency cap" in w["message"] for w in d["input_warnings"]
           if w["input"] == 1), "calibrate: cap not met is said in words")
    rc, out, err = run(["compare", golden("calibrate-ide.json"), p], check=0)
    ok("cap not met" in out, "calibrate: the table says cap not met")

ma, mb = load("mark-ide.json"), load("mark-virtio.json")
d = run_json(["compare", golden("mark-ide.json"), golden("mark-virtio.json")])
f = {x["key"]: x for x in d["figures"]}
want = mb["tests"][2]["read"]["mbps"]["max"] / ma["tests"][2]["read"]["mbps"]["max"]
ok(close(f["RND4K Q32T1/read/mbps"]["ratio"][1], want),
   "mark: RND4K Q32T1 read ratio %.1f" % want)

d = run_json(["compare", golden("matrix.json"), golden("matrix.json")])
ref = [x for x in d["figures"] if x["status"][0] == "refused"]
cells = load("matrix.json")["cells"]
nref = sum(1 for c in cells if c["status"] == "refused")
ok(len(ref) == nref * 4 * 2 and all(x["ratio"][1] is None for x in ref),
   "matrix: %d refused figures, none with a ratio" % len(ref))
ok(all(x["verdict"][1] == "same" for x in d["figures"]
       if x["status"][0] is None), "matrix against itself: all the same")

for name in ("lab.json", "advise.json", "mark-vda.json", "matrix-vda.json",
             "doctor-vda.json"):
    run(["compare", golden(name), golden(name)], check=0)

# Refusals, each with one line and its exit code.
with tmpdir() as t:
    def write(name, text):
        p = os.path.join(t, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    newer = dict(ja, schema_version=2)
    pn = write("newer.json", json.dumps(newer))
    rc, out, err = run(["compare", golden(A), pn])
    ok(rc == 2 and "newer" in err and "schema_version 2" in err and
       err.count("\n") == 1, "newer schema_version: exit 2, one line: " +
       err.strip())
    p0 = write("zero.json", json.dumps(dict(ja, schema_version=0)))
    rc, out, err = run(["compare", golden(A), p0])
    ok(rc == 2 and "unknown schema_version" in err,
       "schema_version 0: exit 2")
    pu = write("unknown.json", json.dumps(dict(ja, command="frobnicate")))
    rc, out, err = run(["compare", pu, pu])
    ok(rc == 2 and "frobnicate" in err, "unknown command: exit 2")
    pj = write("fio.json", json.dumps({"fio version": "fio-3.33"}))
    rc, out, err = run(["compare", golden(A), pj])
    ok(rc == 1 and "not an iolab JSON document" in err,
       "fio's JSON: exit 1")
    pb = write("broken.json", '{"schema_version": 1,')
    rc, out, err = run(["compare", golden(A), pb])
    ok(rc == 1 and "not valid JSON" in err and "line 1" in err,
       "broken JSON: exit 1 with the position")
    rc, out, err = run(["compare", golden(A), os.path.join(t, "nope.json")])
    ok(rc == 2 and "cannot read" in err, "missing file: exit 2")
    rc, out, err = run(["compare", golden(A), golden("mark-ide.json")])
    ok(rc == 1 and "one command" in err, "mixed commands: exit 1")
    rc, out, err = run(["compare", golden(A)])
    ok(rc == 1 and "at least two" in err, "one input: exit 1")
    rc, out, err = run(["compare", "--labels", "a,b,c", golden(A), golden(B)])
    ok(rc == 1 and "--labels names 3 inputs but 2" in err,
       "--labels with the wrong count: exit 1")
    rc, out, err = run(["compare", "--json", "--csv", golden(A), golden(B)])
    ok(rc == 1, "--json with --csv: exit 1")
    # -o onto an input is refused and the input is left alone.
    cp = os.path.join(t, "a.json")
    shutil.copy(golden(A), cp)
    before = open(cp).read()
    rc, out, err = run(["compare", cp, golden(B), "-o", cp])
    ok(rc == 1 and "never overwrites" in err and open(cp).read() == before,
       "-o onto an input: refused, input unchanged")
    # Standard input as one of them.
    with open(golden(A)) as f:
        p = subprocess.run([IOLAB, "compare", "--json", "-", golden(B)],
                           stdin=f, capture_output=True, text=True)
    ok(p.returncode == 0 and json.loads(p.stdout)["inputs"][0]["label"] ==
       "stdin", "'-' reads standard input")

done()
