#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab top --vms against a real QEMU (TCG, started paused with -S and a
QMP socket): the VM is found by its process, named by -name, and its
disk's figures are QEMU's own. The test makes a known load through the
monitor (qemu-io's aio_write and aio_flush, which QEMU accounts like a
guest's requests): 8 writes of 64 KiB and a flush between top's samples.
top must count exactly those 8 writes in QEMU's cumulative counters, and
its rates times each VM's own interval (between two replies) must add up
to them within 2 % (JSON rounds w/s to 2 decimals).
The VM is still paused afterwards: top sent nothing that changes it.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, done, ok, skip, tmpdir  # noqa: E402

QEMU = shutil.which("qemu-system-x86_64")
WRITES = 8


class Qmp:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX)
        self.s.settimeout(20)
        self.s.connect(path)
        self.f = self.s.makefile("rw")
        ok("QMP" in json.loads(self.f.readline()), "QMP greeting")
        self.cmd("qmp_capabilities")

    def cmd(self, name, **args):
        msg = {"execute": name}
        if args:
            msg["arguments"] = args
        self.f.write(json.dumps(msg) + "\n")
        self.f.flush()
        while True:
            r = json.loads(self.f.readline())
            if "return" in r or "error" in r:
                return r

    def hmp(self, line):
        return self.cmd("human-monitor-command", **{"command-line": line})

    def close(self):
        self.f.close()
        self.s.close()


def main():
    if not QEMU:
        skip("qemu-system-x86_64 not installed")
    with tmpdir() as d:
        img = os.path.join(d, "disk.img")
        sock = os.path.join(d, "qmp.sock")
        with open(img, "wb") as f:
            f.truncate(16 << 20)
        name = "iolab-top-it-%d" % os.getpid()
        vm = subprocess.Popen(
            [QEMU, "-S", "-machine", "accel=tcg", "-display", "none",
             "-nodefaults", "-name", "guest=%s,debug-threads=on" % name,
             "-drive", "file=%s,if=virtio,format=raw,id=drive0" % img,
             "-qmp", "unix:%s,server=on,wait=off" % sock],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            for _ in range(100):
                if os.path.exists(sock) or vm.poll() is not None:
                    break
                time.sleep(0.1)
            if not os.path.exists(sock):
                skip("QEMU did not start: %s" % vm.stderr.read()[-300:])
            check(vm, sock, name)
        finally:
            vm.kill()
            vm.wait()
    done()


def check(vm, sock, name):
    top = subprocess.Popen([IOLAB, "top", "--vms", "--json", "--count", "3",
                            "--interval", "1s"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    time.sleep(1.4)
    q = Qmp(sock)
    for i in range(WRITES):
        r = q.hmp('qemu-io drive0 "aio_write -P 7 %d 64k"' % (i << 16))
        ok("error" not in r, "write %d through the monitor" % i)
    q.hmp('qemu-io drive0 "aio_flush"')
    q.close()
    out, err = top.communicate(timeout=120)
    ok(top.returncode == 0, "top --vms exits 0 (%s)" % err[-300:])
    docs = [json.loads(line) for line in out.splitlines()]
    ok(len(docs) == 3, "3 samples")
    mine = []
    for doc in docs:
        vms = [v for v in doc.get("vms", []) if v["pid"] == vm.pid]
        ok(len(vms) == 1, "sample %d: the VM found by its process" % doc["sample"])
        if vms:
            mine.append((doc, vms[0]))
    if len(mine) != 3:
        return
    v = mine[0][1]
    ok(v["name"] == name, "named by -name: %s" % v["name"])
    ok(v["qmp"] == sock and v["error"] is None, "its QMP socket, answered (%s)"
       % v["error"])
    disks = [[x for x in m[1]["disks"] if x["name"] == "drive0"] for m in mine]
    if not ok(all(len(x) == 1 for x in disks), "drive0 in every sample"):
        return
    disks = [x[0] for x in disks]
    ok("cache=writeback (default)" in (disks[0]["setting"] or ""),
       "advise's reading of the disk beside it: %s" % disks[0]["setting"])
    ok("cache-writeback" in (disks[0]["advise"] or ""),
       "advise's finding on it: %s" % disks[0]["advise"])
    wrote = disks[-1]["wr_operations"] - disks[0]["wr_operations"]
    ok(wrote == WRITES, "QEMU counted %d writes between the samples (made %d)"
       % (wrote, WRITES))
    ok(disks[-1]["flush_operations"] >= 1, "the flush counted")
    ws = sum(m[1]["interval_s"] * x["w_s"] for m, x in zip(mine[1:], disks[1:]))
    mb = sum(m[1]["interval_s"] * x["w_mb_s"] for m, x in zip(mine[1:], disks[1:]))
    print("top's rates add up to %.2f writes, %.4f MB" % (ws, mb))
    ok(abs(ws - WRITES) <= 0.02 * WRITES, "w/s x interval adds up to %d writes"
       % WRITES)
    ok(abs(mb - WRITES * 65536 / 1e6) <= 0.02 * WRITES * 65536 / 1e6,
       "wMB/s x interval adds up to %.4f MB" % (WRITES * 65536 / 1e6))
    ok(all(x["w_await_ms"] is not None and x["w_await_ms"] >= 0
           for x in disks[1:]), "w_await is a figure")
    q = Qmp(sock)
    st = q.cmd("query-status")["return"]
    mine_now = [b for b in q.cmd("query-blockstats")["return"]
                if b.get("device") == "drive0"][0]["stats"]
    q.close()
    ok(not st["running"], "the VM is still paused: top changed nothing")
    ok(mine_now["wr_operations"] == disks[-1]["wr_operations"],
       "top's last counter is QEMU's own now (%d)" % mine_now["wr_operations"])
    rc = subprocess.run([IOLAB, "top", "--vms", "--batch", "--count", "1",
                         "--interval", "200ms"], capture_output=True, text=True)
    ok(rc.returncode == 0 and "%s (%d)" % (name, vm.pid) in rc.stdout and
       "drive0" in rc.stdout, "the text view lists the VM and its disk")


main()
