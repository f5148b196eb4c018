#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab top --vms --libvirt against libvirt's test driver (test:///default,
in the client library: no daemon). Its running domain "test" has one disk,
vda, whose block statistics the driver makes from its clock at each call:
rd_req = t_us / 10, rd_bytes = t_us / 20, wr_req = t_us / 30,
wr_bytes = t_us / 40 (so 100 000 reads/s, 33 333 writes/s, 0.05 and 0.025
MB/s), and no times and no flushes (the older virDomainBlockStats call).
So the figures are known: top must name the VM and the disk as advise
names them (advise --libvirt on the same domain's XML), take each counter
from its own field (rd = 2 x rd_bytes ...), add up its rates times its
intervals to the counters' own differences, and find the driver's rates
within 2 % (the driver reads its wall clock inside the call, top its
monotonic clock around it: on a loaded machine the two can differ by some
milliseconds out of the 500 ms between samples). Awaits and flushes it
has no figure for are null, not zero.
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, done, ok, run, skip, tmpdir  # noqa: E402

URI = "test:///default"
RATES = {"r_s": 1e6 / 10, "w_s": 1e6 / 30, "r_mb_s": 1e6 / 20 / 1e6,
         "w_mb_s": 1e6 / 40 / 1e6}


def advise_view():
    """advise's disks and findings for the test domain, or None."""
    if not shutil.which("virsh"):
        return None
    xml = subprocess.run(["virsh", "-c", URI, "dumpxml", "test"],
                         capture_output=True, text=True)
    if xml.returncode:
        return None
    with tmpdir() as d:
        p = os.path.join(d, "test.xml")
        with open(p, "w") as f:
            f.write(xml.stdout)
        rc, out, err = run(["advise", "--libvirt", p, "--json"])
    return json.loads(out)


def main():
    rc, out, err = run(["top", "--libvirt", URI, "--json", "--count", "3",
                        "--interval", "500ms"])
    if rc == 2 and "built without libvirt" in err:
        skip("iolab built without libvirt")
    ok(rc == 0, "top --libvirt %s exits 0 (%s)" % (URI, err.strip()[-300:]))
    docs = [json.loads(line) for line in out.splitlines()]
    ok(len(docs) == 3, "3 samples")
    vms = []
    for doc in docs:
        mine = [v for v in doc.get("vms", []) if v["name"] == "test"]
        ok(len(mine) == 1, "sample %d: the domain test" % doc["sample"])
        ok(doc["options"]["vms"], "--libvirt implies --vms")
        vms.extend(mine)
    if len(vms) != 3:
        done()
    v = vms[0]
    ok(v["source"] == "libvirt" and v["libvirt"] == URI and v["pid"] is None
       and v["qmp"] is None, "from libvirt at %s, no process here" % URI)
    ok(all(x["error"] is None for x in vms), "every sample answered (%s)"
       % [x["error"] for x in vms])
    disks = [x["disks"] for x in vms]
    ok(all(len(d) == 1 and d[0]["name"] == "vda" for d in disks),
       "its one disk, named vda (its <target dev>)")
    d = [x[0] for x in disks]
    adv = advise_view()
    if adv:
        a = adv["vms"][0]
        ok(a["name"] == v["name"] and [x["id"] for x in a["disks"]] == ["vda"],
           "named as advise names them: %s / %s" % (a["name"], a["disks"][0]["id"]))
        rules = sorted(f["rule"] for f in adv["findings"] if f.get("disk") == "vda")
        mine = sorted(x.split(" ", 1)[1] for x in d[0]["advise"].split(", "))
        ok(rules == mine, "advise's findings beside it: %s" % mine)
    ok(d[0]["setting"].startswith("virtio-blk, cache=writeback"),
       "advise's reading of the disk: %s" % d[0]["setting"])
    # top reads once before its first interval: every sample has figures.
    ok(all(x["state"] == "ok" for x in d), "figures in every sample")
    # One clock behind every counter: each from its own field.
    for x in d:
        ok(abs(x["rd_operations"] - 2 * x["rd_bytes"]) <= 2 and
           abs(3 * x["wr_operations"] - 4 * x["wr_bytes"]) <= 8 and
           abs(x["rd_operations"] - 3 * x["wr_operations"]) <= 4,
           "reads and writes, requests and bytes from their own fields")
    ok(all(b["rd_operations"] > a["rd_operations"] and
           b["wr_bytes"] > a["wr_bytes"] for a, b in zip(d, d[1:])),
       "the counters move between samples")
    for k in ("rd_operations", "wr_operations"):
        fig = "r_s" if k[0] == "r" else "w_s"
        got = sum(x[fig] * m["interval_s"] for x, m in zip(d[1:], vms[1:]))
        want = d[-1][k] - d[0][k]
        ok(abs(got - want) <= 0.001 * want,
           "%s x interval adds up to the %s counted (%.0f vs %d)"
           % (fig, k, got, want))
    for x in d:
        for k, want in RATES.items():
            ok(abs(x[k] - want) <= 0.02 * want,
               "%s %.4f is the driver's %.4f within 2 %%" % (k, x[k], want))
        ok(x["r_await_ms"] is None and x["w_await_ms"] is None and
           x["f_s"] is None and x["flush_operations"] is None,
           "no times and no flushes from this driver: null, not 0")
    rc, out, err = run(["top", "--libvirt", URI, "--batch", "--count", "1",
                        "--interval", "300ms"])
    lines = [ln for ln in out.splitlines() if ln.startswith("test (libvirt)")]
    ok(rc == 0 and len(lines) == 1 and " vda " in lines[0] and
       lines[0].rstrip().endswith("-"),
       "the text view: the domain, its disk, '-' for the awaits (%s)"
       % lines)
    rc, out, err = run(["top", "--libvirt", "nosuch:///x", "--count", "1"])
    ok(rc == 2 and "libvirt nosuch:///x" in err and not out,
       "a connection that fails: exit 2, why (%s)" % err.strip())
    done()


main()
