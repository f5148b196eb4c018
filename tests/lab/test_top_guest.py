# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab top --vms on the host while a real guest works: `iolab lab` boots
one TCG guest (its own kernel, initramfs and iolab inside; one cell,
virtio-blk, cache=none, aio=threads, a 32 MiB disk) that fills its virtio
disk and runs mark's RND4K-Q1T1 (a warm-up and a scored run of 2 s, reads
then writes). The lab's --qemu is a wrapper that adds what a host's VMs
have and the lab's do not: -name, a QMP socket, and -action
shutdown=pause, so that the guest's power-off leaves QEMU paused (the lab
kills it 15 s later) and top reads the final counters.

top, sampling every second from before the guest boots, must find the VM
by its process, name it by -name and its disk as advise names it
(lab-disk, the -blockdev node), and report what the guest's own mark run
reports:
- reads: QEMU counts the warm-up's and the scored run's reads (ios from
  the guest's report; the warm-up's as its IOPS x its time, +-1) plus at
  most 144 more: after each run that read (the warm-up and the scored
  one) mark samples up to 64 blocks of 4 KiB (the unbacked-reads check,
  core/plausible.c), and the guest kernel reads its partition table at
  boot (a few); bytes likewise (at most 144 x 4 KiB more);
- writes: the fill (the whole disk) plus the warm-up's and the scored
  run's bytes, exactly (+-4 KiB for the warm-up's rounding): nothing else
  writes in the guest;
- its rates times its intervals add up to the counters' differences
  (within 1 %, and the rounding of r/s to 2 decimals);
- time: at QD1 the guest has one read in flight at a time and QEMU's time
  is a part of each, so QEMU's total read time (sum of r_await x reads)
  is above 0 and at most the guest's time reading (warm-up + scored run)
  plus 1 s (the two unbacked checks' budgets of 200 ms, each overrun by
  at most its last read, and the boot's reads).
"""
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, done, ok, skip, tmpdir  # noqa: E402

QEMU = shutil.which("qemu-system-x86_64")
STATIC = os.environ.get("IOLAB_STATIC")
if not QEMU:
    skip("qemu-system-x86_64 not installed")
if not glob.glob("/boot/vmlinuz-*"):
    skip("no guest kernel in /boot")
if not STATIC or not os.access(STATIC, os.X_OK):
    skip("no static iolab (IOLAB_STATIC); this build cannot link one")

DISK = 32 << 20
BS = 4096
# Two unbacked-read samples of up to 64 blocks, and the boot's few reads.
EXTRA_READS = 2 * 64 + 16

WRAPPER = """#!/bin/sh
# The lab's QEMU, as a host runs VMs: a name, a QMP socket; paused at
# power-off. Only the guest's QEMU (-kernel), not the lab's --version.
case " $* " in
*" -kernel "*)
	exec %(qemu)s "$@" -name guest=%(name)s \\
		-qmp unix:%(sock)s,server=on,wait=off -action shutdown=pause ;;
esac
exec %(qemu)s "$@"
"""


def reader(p, lines):
    for line in p.stdout:
        lines.append(line)


def guest_counts(lab):
    """(reads, read bytes, read seconds, writes, write bytes) of the guest's
    own report: warm-up plus scored runs."""
    cell = lab["cells"][0]
    t = cell["result"]["tests"][0]
    out = {}
    for k in ("read", "write"):
        d = t[k]
        wu = d["warmup"]
        ios = wu["iops"] * wu["elapsed_s"]
        secs = wu["elapsed_s"]
        byt = ios * BS
        for r in d["runs"]:
            ios += r[k]["ios"]
            byt += r[k]["bytes"]
            secs += r["elapsed_s"]
        out[k] = (ios, byt, secs)
    return out


def main():
    with tmpdir() as d:
        name = "iolab-top-guest-%d" % os.getpid()
        sock = os.path.join(d, "qmp.sock")
        wrap = os.path.join(d, "qemu")
        with open(wrap, "w") as f:
            f.write(WRAPPER % {"qemu": QEMU, "name": name, "sock": sock})
        os.chmod(wrap, 0o755)
        os.mkdir(os.path.join(d, "img"))
        top = subprocess.Popen([IOLAB, "top", "--vms", "--json",
                                "--interval", "1s"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        lines = []
        t = threading.Thread(target=reader, args=(top, lines))
        t.start()
        try:
            lab = subprocess.run(
                [IOLAB, "lab", "--accel", "tcg", "--aio", "threads",
                 "--cache", "none", "--bus", "virtio-blk",
                 "--disk", os.path.join(d, "img"), "--disk-size", str(DISK),
                 "--tests", "RND4K-Q1T1", "--time", "2s", "--runs", "1",
                 "--iolab-static", STATIC, "--qemu", wrap, "--json",
                 "--no-progress"],
                capture_output=True, text=True, timeout=600)
        finally:
            top.send_signal(signal.SIGINT)
            t.join(60)
            err = top.stderr.read()
            top.wait(60)
        ok(lab.returncode == 0, "the lab's guest ran its suite (%s)"
           % lab.stderr.strip()[-400:])
        ok(top.returncode == 130, "top ended by Ctrl-C: 130 (%s)"
           % err.strip()[-300:])
        if lab.returncode:
            done()
        check(json.loads(lab.stdout), [json.loads(x) for x in lines], name,
              sock)
    done()


def check(lab, docs, name, sock):
    g = guest_counts(lab)
    seen = []
    for doc in docs:
        v = [x for x in doc.get("vms", []) if x["name"] == name]
        if v:
            seen.append(v[0])
    ok(len(seen) >= 10, "top saw the VM in %d samples" % len(seen))
    if not seen:
        return
    ok(all(v["qmp"] == sock and v["source"] == "qmp" for v in seen),
       "by its QMP socket")
    ok(all(v["error"] is None for v in seen), "every sample answered (%s)"
       % sorted(set(str(v["error"]) for v in seen)))
    disks = [[x for x in v["disks"] if x["name"] == "lab-disk"] for v in seen]
    ok(all(len(x) == 1 for x in disks),
       "its disk, named lab-disk (the -blockdev node, as advise names it)")
    if not all(len(x) == 1 for x in disks):
        return
    dk = [x[0] for x in disks]
    ok((dk[0]["setting"] or "").startswith("virtio-blk, cache=none"),
       "advise's reading beside it: %s" % dk[0]["setting"])
    last, before = dk[-1], dk[-2]
    ok(all(last[k] == before[k] for k in ("rd_operations", "wr_operations",
                                          "rd_bytes", "wr_bytes")),
       "the last two samples saw the paused VM: the final counters")
    rio, rby, rsec = g["read"]
    wio, wby, wsec = g["write"]
    print("guest: %.1f reads (%.0f B) in %.2f s, %.1f writes (%.0f B); "
          "QEMU: %d reads (%d B), %d writes (%d B)"
          % (rio, rby, rsec, wio, wby, last["rd_operations"],
             last["rd_bytes"], last["wr_operations"], last["wr_bytes"]))
    ok(-1 <= last["rd_operations"] - rio <= EXTRA_READS,
       "QEMU's reads are the guest's %.0f and at most %d more: %d"
       % (rio, EXTRA_READS, last["rd_operations"]))
    ok(-BS <= last["rd_bytes"] - rby <= EXTRA_READS * BS,
       "QEMU's read bytes are the guest's and at most %d x 4 KiB more"
       % EXTRA_READS)
    ok(abs(last["wr_bytes"] - DISK - wby) <= BS,
       "QEMU's written bytes are the fill and the guest's writes: %d vs %.0f"
       % (last["wr_bytes"], DISK + wby))
    ok(last["wr_operations"] >= wio,
       "QEMU counted the guest's %.0f writes (%d, the fill's too)"
       % (wio, last["wr_operations"]))
    okd = [(v, x) for v, x in zip(seen, dk) if x["state"] == "ok"]
    first = next(i for i, x in enumerate(dk) if x["state"] == "ok")
    base = dk[first - 1] if first else None
    ok(base is not None, "the VM seen once before its first rates")
    if base is None:
        return
    for fig, cnt in (("r_s", "rd_operations"), ("w_s", "wr_operations")):
        got = sum(x[fig] * v["interval_s"] for v, x in okd)
        want = last[cnt] - base[cnt]
        ok(abs(got - want) <= 0.01 * want + 0.01 * len(okd),
           "%s x interval adds up to the %d counted (%.1f)"
           % (fig, want, got))
    ok(max(x["r_s"] for v, x in okd) > 0 and
       max(x["w_s"] for v, x in okd) > 0,
       "reads and writes per second while the guest works")
    rtime = sum(x["r_await_ms"] * x["r_s"] * v["interval_s"]
                for v, x in okd) / 1e3
    ok(0 < rtime <= rsec + 1.0,
       "QEMU's read time %.2f s is within the guest's %.2f s reading + 1 s"
       % (rtime, rsec))
    ok(all(x["w_await_ms"] > 0 for v, x in okd if x["w_s"] > 0),
       "a write await wherever there were writes")


main()
