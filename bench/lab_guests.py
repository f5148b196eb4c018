#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Shared guests against a guest per cell: `iolab lab --json` documents.

Each document says which way it ran (options.guests: "shared" or
"per-cell"). The per-run MB/s of every ok cell, test and direction are
pooled per side; for each figure the ratio of the means (shared /
per-cell) and Welch's t, then the geometric mean of the ratios with its
95 % interval (over figures). Run the two ways alternately, under the same
options, so that the machine's drift falls on both sides.

    bench/lab_guests.py per-cell-1.json shared-1.json per-cell-2.json ...
"""
import json
import math
import statistics as st
import sys


def runs(path):
    with open(path) as f:
        d = json.load(f)
    out = {}
    for c in d.get("cells", []):
        if c.get("status") != "ok":
            continue
        for t in c["result"]["tests"]:
            for dr in ("read", "write"):
                if dr in t and t[dr].get("runs"):
                    out[(c["bus"], c["format"], c["aio"], c["cache"],
                         t["name"], dr)] = [r[dr]["mbps"]
                                            for r in t[dr]["runs"]]
    return d["options"].get("guests", "per-cell"), out


def main(paths):
    side = {"shared": {}, "per-cell": {}}
    for p in paths:
        way, figs = runs(p)
        for k, v in figs.items():
            side[way].setdefault(k, []).extend(v)
    a, b = side["per-cell"], side["shared"]
    keys = sorted(k for k in a if k in b and len(a[k]) > 1 and len(b[k]) > 1)
    if len(keys) < 2:
        sys.exit("need documents of both ways with several runs per figure")
    logs = []
    print("%-48s %9s %9s %6s %6s" % ("figure (MB/s, mean of runs)",
                                     "per-cell", "shared", "ratio", "t"))
    for k in keys:
        ma, mb = st.mean(a[k]), st.mean(b[k])
        se = math.sqrt(st.variance(a[k]) / len(a[k]) +
                       st.variance(b[k]) / len(b[k]))
        logs.append(math.log(mb / ma))
        print("%-48s %9.1f %9.1f %6.2f %6.2f" % (
            " ".join(k), ma, mb, mb / ma, (mb - ma) / se if se else 0.0))
    m, s = st.mean(logs), st.stdev(logs) / math.sqrt(len(logs))
    print("geometric mean shared/per-cell %.3f (95 %% interval %.3f..%.3f)"
          ", %d figures" % (math.exp(m), math.exp(m - 1.96 * s),
                            math.exp(m + 1.96 * s), len(logs)))


if __name__ == "__main__":
    main(sys.argv[1:])
