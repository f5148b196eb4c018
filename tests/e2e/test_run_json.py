# SPDX-License-Identifier: GPL-2.0-or-later
"""The JSON of `iolab run`: shape, types and sense (not timings)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, run, run_json, done, tmpdir  # noqa: E402

NUM = (int, float)


def lat_ok(lat, name):
    ok(isinstance(lat, dict) and
       all(isinstance(lat[k], NUM) for k in ("min", "mean", "max", "stddev"))
       and lat["min"] <= lat["mean"] <= lat["max"],
       name + ": min <= mean <= max")
    ps = lat["percentiles"]
    ok([p["p"] for p in ps] == sorted(p["p"] for p in ps) and
       all(lat["min"] <= p["ns"] <= lat["max"] for p in ps) and
       all(a["ns"] <= b["ns"] for a, b in zip(ps, ps[1:])),
       name + ": percentiles ascending within [min, max]")


with tmpdir() as d:
    f = os.path.join(d, "t.dat")
    doc = run_json(["run", f, "--rw", "randrw", "--mix", "60", "--size",
                    "16M", "--runtime", "1s", "--qd", "4", "--flush-every",
                    "16", "--percentiles", "50,99,99.9", "--no-progress"])
    ok(doc["schema_version"] == 1, "schema_version 1")
    ok(doc["tool"]["name"] == "iolab" and doc["tool"]["version"],
       "tool name and version")
    ok(doc["command"] == "run", "command")
    o = doc["options"]
    ok(o["rw"] == "randrw" and o["mix_read_pct"] == 60 and
       o["bs_bytes"] == 4096 and o["qd"] == 4 and o["size_bytes"] == 16 << 20,
       "options echoed")
    e = doc["environment"]
    for k in ("kernel", "target", "fs_type", "device", "driver",
              "logical_block_size"):
        ok(k in e, "environment." + k + " present (%r)" % e.get(k))
    ok(isinstance(doc["warnings"], list), "warnings is a list")
    ok(doc["partial"] is False, "not partial")
    job = doc["jobs"][0]
    for k in ("engine", "cache", "rw", "bs_bytes", "qd", "threads"):
        ok(k in job, "jobs[0]." + k)
    for dname in ("read", "write"):
        dd = job[dname]
        ok(all(k in dd for k in ("ios", "bytes", "iops", "mbps", "mibps",
                                 "lat_ns")), dname + " fields")
        ok(dd["bytes"] == dd["ios"] * 4096, dname + ": bytes = ios x bs")
        ok(abs(dd["iops"] - dd["ios"] / job["elapsed_s"]) <=
           0.01 * dd["iops"] + 1, dname + ": iops = ios / elapsed")
        ok(abs(dd["mbps"] - dd["bytes"] / job["elapsed_s"] / 1e6) <=
           0.01 * dd["mbps"] + 0.01, dname + ": MB/s is 10^6 bytes/s")
        ok(abs(dd["mibps"] * 1048576 - dd["mbps"] * 1e6) <=
           0.01 * dd["mbps"] * 1e6 + 1e4, dname + ": MiB/s is 2^20 bytes/s")
        lat_ok(dd["lat_ns"], dname)
        ok([p["p"] for p in dd["lat_ns"]["percentiles"]] == [50, 99, 99.9],
           dname + ": --percentiles honoured")
    r, w = job["read"]["ios"], job["write"]["ios"]
    ok(0.5 < r / (r + w) < 0.7, "mix near 60%% reads (%.2f)" % (r / (r + w)))
    ok(job["flush"]["count"] > 0 and "lat_ns" in job["flush"],
       "flush counted and timed")
    cpu = job["cpu"]
    ok(cpu["user_s"] >= 0 and cpu["sys_s"] >= 0 and cpu["us_per_io"] > 0,
       "cpu figures")
    ts = job["timeseries"]
    # A 1 s run is one full second: the drain of the requests in flight at
    # its end counts in it, never as a second of its own (a dive to 0).
    ok(len(ts) == 1 and ts[0]["span_s"] == 1.0,
       "a 1 s run is one full second, no drain second: %s" % ts)
    ok(sum(p["read_iops"] + p["write_iops"] for p in ts) == r + w,
       "timeseries adds up to the totals")
    ok(job["errors"]["count"] == 0, "no errors")

    # --ios: exactly that many, over the workers
    doc = run_json(["run", f, "--size", "8M", "--ios", "1000", "--threads",
                    "2", "--qd", "8", "--no-progress"])
    ok(doc["jobs"][0]["read"]["ios"] == 1000, "--ios 1000 gives 1000 reads")
    ok(doc["jobs"][0]["read"]["lat_ns"] is not None, "latency present")
    ok(doc["jobs"][0]["write"] is None, "write is null for a read job")
    ts = doc["jobs"][0]["timeseries"]
    # A cut last second gives rates over its span, which it states.
    ok(1 <= len(ts) <= doc["jobs"][0]["elapsed_s"] + 2 and
       abs(sum(p["read_iops"] * p["span_s"] for p in ts) - 1000) <=
       5 + len(ts) and 0 < ts[-1]["span_s"] <= 1,
       "--ios timeseries covers only the seconds measured")
    ok(doc["options"]["submit_batch"] == 1, "QD8 submits 1 at a time")
    # Latency runs from when a request was due (its slot came free), so a
    # closed loop obeys Little's law: in flight = IOPS x mean latency.
    doc = run_json(["run", f, "--size", "8M", "--qd", "8", "--runtime", "1s",
                    "--no-progress"])
    r = doc["jobs"][0]["read"]
    inflight = r["iops"] * r["lat_ns"]["mean"] / 1e9
    ok(0.7 * 8 <= inflight <= 8 * 1.05,
       "Little's law: %.2f in flight at QD8" % inflight)
    w = doc["jobs"][0]["submit_wait_ns_mean"]
    ok(0 <= w < r["lat_ns"]["mean"],
       "submit wait (%.0f ns) is a part of the latency" % w)

    doc = run_json(["run", f, "--size", "8M", "--ios", "999", "--qd", "16",
                    "--batch", "16", "--no-progress"])
    ok(doc["options"]["submit_batch"] == 16 and
       doc["jobs"][0]["read"]["ios"] == 999,
       "--batch 16: whole-queue submits, --ios still exact")

    # Rate limited: achieved rate near the target, latency from intent.
    doc = run_json(["run", f, "--size", "8M", "--rate-iops", "500",
                    "--runtime", "2s", "--no-progress"])
    iops = doc["jobs"][0]["read"]["iops"]
    ok(iops < 550, "--rate-iops 500 never runs faster (%.0f)" % iops)
    # On a loaded machine the target may fall short: then iolab says so.
    ok(iops > 450 or any(w["id"] == "rate-not-met" for w in doc["warnings"]),
       "--rate-iops 500 reaches ~500 or warns that it did not")

    # null engine: the runner's own cost
    doc = run_json(["run", f, "--engine", "null", "--size", "8M",
                    "--runtime", "300ms", "--qd", "32", "--no-progress"])
    ok(any(w["id"] == "null-engine" for w in doc["warnings"]),
       "null engine says it measured no I/O")
    rc, out, err = run(["run", f, "--engine", "null", "--size", "8M",
                        "--runtime", "300ms", "--no-progress"])
    ok("runner's own cost" in out, "null engine prints the runner's cost")

    # --output with --json writes a parseable file
    rep = os.path.join(d, "r.json")
    run(["run", f, "--size", "8M", "--runtime", "200ms", "--json", "-o",
         rep, "--no-progress"], check=0)
    import json
    ok(json.load(open(rep))["command"] == "run", "--json -o FILE")
done()
