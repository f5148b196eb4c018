#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`iolab compare` against its own noise, on real measurements.

A/A: the same short measurement twice on the same local file (`run` of
2 s, `mark` of two tests with 3 runs), compared. Nothing changed, so a
figure may be called better or worse only by the chance the level allows:
at most k of the N distinct tests, k the least count that N tests at the
5 % level exceed with a probability of at most 5 % (0 of 1 for run, 2 of
13 or so for mark). Figures resting on the same samples, as MB/s and IOPS
of one run, are one test. Before compare weighed the noise, such a pair
called 33 of 40 figures better or worse.

A/B: 4 KiB against 64 KiB blocks (MB/s, 5 s, per second), and a real
engine against the null engine, which touches no disk (per run, 5 runs):
B really is different and must be called so (for the null engine, by 3
of its 4 tests at least, and never the other way).

The machine is shared, so its load can shift between two measurements,
which no test of the samples of one of them can see (seen here: a second
mark a third faster in every test, as the other jobs paused): a check
that fails is measured again, up to three times in all, before it counts
(an honest level fails all three with a probability of at most 1 in
8000; a verdict by ratio alone, every time).
"""
import os
import sys
from math import comb

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import done, fail, ok, run, run_json, tmpdir  # noqa: E402

LEVEL = 0.05
RUN = ["run", "--runtime", "2", "--size", "32M", "--no-progress"]
MARK = ["mark", "--tests", "RND4K-Q1T1,SEQ1M-Q1T1", "--runs", "3",
        "--time", "300ms", "--interval", "0", "--size", "32M",
        "--no-progress"]


def allowed(n, level=LEVEL, risk=0.05):
    """The least k with P(Binomial(n, level) > k) <= risk."""
    tail = 1.0
    for k in range(n + 1):
        tail -= comb(n, k) * level ** k * (1 - level) ** (n - k)
        if tail <= risk + 1e-12:
            return k
    return n


def measure(d, name, args):
    p = os.path.join(d, name + ".json")
    rc, out, err = run(args + ["--json", "-o", p], cwd=d)
    if rc != 0:
        fail("iolab %s: exit %d: %s" % (" ".join(args), rc, err[-300:]))
        return None
    return p


def compare(a, b):
    return run_json(["compare", a, b])


def tests_of(doc):
    """Distinct tests (group, kind, t) and the figures called on them."""
    tests, called = set(), set()
    for f in doc["figures"]:
        t = f["test"][1]
        if t is None:
            continue
        # MB/s and IOPS of a run differ only by rounding: one test.
        key = (f["group"], t["kind"], round(t["t"], 2))
        tests.add(key)
        if f["verdict"][1] in ("better", "worse"):
            called.add(key)
    return tests, called


def aa(d, what, args):
    """One A/A pair: (ok, message)."""
    a, b = measure(d, what + "-a", args), measure(d, what + "-b", args)
    if not a or not b:
        return True, "%s: not measured" % what
    doc = compare(a, b)
    tests, called = tests_of(doc)
    k = allowed(len(tests))
    aga = doc["inputs"][1]["against_a"]
    return (len(tests) > 0 and len(called) <= k,
            "A/A %s: %d of %d tests called better or worse (at most %d at "
            "the 5 %% level); figures: %d better, %d worse, %d same, "
            "%d within noise, %d no spread known" %
            (what, len(called), len(tests), k, aga["better"], aga["worse"],
             aga["same"], aga["within_noise"], aga["no_spread_known"]))


def tries(check, n=3):
    good, msg = check()
    for _ in range(n - 1):
        if good:
            break
        print("# once more after: " + msg)
        good, msg = check()
    ok(good, msg)


with tmpdir() as d:
    tries(lambda: aa(d, "run", RUN))
    tries(lambda: aa(d, "mark", MARK))

    def run_ab():
        # 5 full seconds each: 3 left Welch's test 2 degrees of freedom.
        a = measure(d, "bs4k", RUN + ["--runtime", "5", "--bs", "4k"])
        b = measure(d, "bs64k", RUN + ["--runtime", "5", "--bs", "64k"])
        if not a or not b:
            return True, "A/B run: not measured"
        f = {x["key"]: x for x in compare(a, b)["figures"]}
        m = f["read/mbps"]
        return (m["verdict"][1] == "better" and
                m["test"][1]["kind"] == "seconds",
                "A/B run 4k -> 64k: MB/s %.2fx +-%.2f, p %.2g: %s" %
                (m["ratio"][1], m["test"][1]["spread_ratio"],
                 m["test"][1]["p"], m["verdict"][1]))

    def mark_ab():
        # The null engine's runs scatter with the CPU's load: 5 of them.
        a = measure(d, "real", MARK + ["--runs", "5"])
        b = measure(d, "null", MARK + ["--runs", "5", "--engine", "null"])
        if not a or not b:
            return True, "A/B mark: not measured"
        doc = compare(a, b)
        mbps = [x for x in doc["figures"] if x["name"] == "MB/s"]
        # A null run now and then goes ten times faster than the others
        # (a free CPU): 5 such runs may not tell even 1000x at 5 %, so
        # 3 of the 4 tests must, none may call it the other way.
        return (len(mbps) == 4 and
                sum(x["verdict"][1] == "better" for x in mbps) >= 3 and
                all(x["verdict"][1] in ("better", "within noise") and
                    x["test"][1]["kind"] == "runs" for x in mbps) and
                doc["inputs"][1]["against_a"]["worse"] == 0,
                "A/B mark io_uring -> null engine: MB/s %s" %
                ", ".join("%.0fx %s" % (x["ratio"][1], x["verdict"][1])
                          for x in mbps))

    tries(run_ab)
    tries(mark_ab)

done()
