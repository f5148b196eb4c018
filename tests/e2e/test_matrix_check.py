# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab matrix --check PROFILE: iolab check's profile judged in every
engine x cache cell, as a QEMU disk with that aio= and cache= would issue
it; a cell whose flushes are dropped (unsafe) is never a pass, QEMU's
refusals stay refused cells, and only cells that keep data are named as
passing."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, run, run_json, done, tmpdir, files_like  # noqa

ARGS = ["matrix", "--check", "etcd", "--engines", "threads,native",
        "--caches", "none,unsafe", "--time", "1s", "--interval", "0",
        "--no-progress"]

with tmpdir(os.environ.get("IOLAB_BUILD")) as d:
    doc = run_json(ARGS + ["--json"], cwd=d)
    ok(doc and doc["options"]["check"] == "etcd", "options.check says etcd")
    cells = {(c["engine"], c["cache"]): c for c in (doc or {}).get(
        "cells", [])}
    ok(cells[("native", "unsafe")]["status"] == "refused",
       "native + unsafe stays QEMU's refusal")
    unsafe = cells[("threads", "unsafe")]["check"]
    ok(unsafe and unsafe["verdict"] == "inconclusive" and
       all(c["verdict"] != "pass" for c in unsafe["criteria"]
           if c["id"] == "wal-fdatasync-p99"),
       "dropped flushes are never a pass: %s" % (unsafe or {}).get(
           "verdict"))
    none = cells[("threads", "none")]
    ok(none["status"] == "ok" and none["check"]["verdict"] in
       ("pass", "fail", "inconclusive") and
       [c["id"] for c in none["check"]["criteria"]] ==
       ["wal-fdatasync-p99", "wal-appends-rate"],
       "cache=none: 2300-byte appends reach the disk as whole pages and "
       "are judged (%s)" % none.get("reason"))
    text = doc["recommendation"]["text"]
    ok(text and not any("aio=threads cache=unsafe" in l for l in text
                        if l.startswith("Pass")),
       "unsafe is never named among the passing: %s" % text)
    ok(not files_like(d), "test file removed")

    rc, out, err = run(ARGS, cwd=d)
    ok(rc == 0 and "wal-fdatasync-p99" in out and "refused[" in out and
       "on host power loss" in out, "text table (rc %d %s)" % (
           rc, err.strip()[-200:]))

    rc, out, err = run(ARGS + ["--csv"], cwd=d)
    ok(rc == 1 and "--json" in err, "--check with --csv says to use --json")
    rc, out, err = run(["matrix", "--check", "nosuch"], cwd=d)
    ok(rc == 1 and "check --list" in err, "an unknown profile is refused")
    rc, out, err = run(["matrix", "--check", "etcd", "--time", "500ms"],
                       cwd=d)
    ok(rc == 1 and "at least 1s" in err, "steps under 1 s are refused")
    ok(not files_like(d), "nothing left behind")
done()
