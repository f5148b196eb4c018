# SPDX-License-Identifier: GPL-2.0-or-later
"""--csv of run and advise: a header, one line per direction (run) or disk
(advise), fields that agree with the JSON of the same input."""
import csv
import io
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, run, done, tmpdir  # noqa: E402

with tmpdir() as d:
    f = os.path.join(d, "t.dat")
    rc, out, err = run(["run", f, "--size", "16M", "--rw", "randrw",
                        "--runtime", "500ms", "--flush-every", "8",
                        "--percentiles", "50,99,99.9", "--csv",
                        "--no-progress"], check=0)
    rows = list(csv.DictReader(io.StringIO(out)))
    head = out.splitlines()[0].split(",")
    ok(head[:9] == ["engine", "cache", "rw", "bs_bytes", "qd", "threads",
                    "direction", "ios", "bytes"], "header starts with the job")
    ok([h for h in head if h.startswith("lat_p")] ==
       ["lat_p50_ns", "lat_p99_ns", "lat_p99.9_ns"],
       "a column per --percentiles value")
    ok([r["direction"] for r in rows] == ["read", "write", "flush"],
       "read, write and flush lines")
    for r in rows[:2]:
        ios, by = int(r["ios"]), int(r["bytes"])
        ok(by == ios * 4096, r["direction"] + ": bytes = ios x 4096, whole")
        ok(abs(float(r["iops"]) - ios / float(r["elapsed_s"])) <=
           0.01 * float(r["iops"]) + 1, r["direction"] + ": iops")
        ok(abs(float(r["mbps"]) * 1e6 - by / float(r["elapsed_s"])) <=
           0.01 * by / float(r["elapsed_s"]) + 1e4,
           r["direction"] + ": MB/s is 10^6 bytes/s")
        ok(int(r["lat_min_ns"]) <= int(r["lat_p50_ns"]) <=
           int(r["lat_p99_ns"]) <= int(r["lat_max_ns"]),
           r["direction"] + ": min <= p50 <= p99 <= max")
        ok(r["engine"] and r["cache"] == "none" and r["rw"] == "randrw",
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
d0 = next(d for vm in doc["vms"] for d in vm["disks"])
r0 = rows[0] if rows[0]["disk"] else rows[1]
ok(r0["bus"] == d0["bus"] and r0["cache"] == d0["cache"] and
   r0["file"] == d0["file"], "advise: the resolved settings")
rc, out, err = run(["advise"] + src + ["--csv", "--json"])
ok(rc == 1 and "exclude" in err, "advise --csv with --json: exit 1")

done()
