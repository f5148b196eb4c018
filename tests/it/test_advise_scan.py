#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab advise finds a real QEMU process: a paused qemu-system-x86_64
(-S, TCG, no display) started here with an unsafe virtio-blk disk on a
sparse image given by a relative path, and an AHCI disk. With no source and
with --running it must report this VM, resolve both disks, probe the
sparse file through the process's working directory, and exit 4."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, run, done, skip, tmpdir  # noqa: E402

QEMU = shutil.which("qemu-system-x86_64")


def start_qemu(d, name):
    with open(os.path.join(d, "root.raw"), "wb") as f:
        f.truncate(64 << 20)  # sparse: discard matters
    with open(os.path.join(d, "data.raw"), "wb") as f:
        f.write(os.urandom(1 << 20))
    args = [QEMU, "-S", "-accel", "tcg", "-display", "none", "-nodefaults",
            "-no-user-config", "-name", name, "-m", "64", "-smp", "2",
            "-machine", "q35",
            "-drive", "file=root.raw,format=raw,if=none,id=d0,"
            "cache=unsafe,aio=threads",
            "-device", "virtio-blk-pci,drive=d0,id=vd0",
            "-drive", "file=%s,format=raw,if=none,id=d1,cache=none,"
            "aio=native" % os.path.join(d, "data.raw"),
            "-device", "ide-hd,drive=d1,bus=ide.1,id=sata1",
            "-monitor", "none", "-serial", "none"]
    p = subprocess.Popen(args, cwd=d, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    # Paused with -S: it stays up; wait until its cmdline is readable.
    for _ in range(100):
        if p.poll() is not None:
            break
        try:
            with open("/proc/%d/cmdline" % p.pid, "rb") as f:
                if b"-name" in f.read():
                    time.sleep(0.3)
                    if p.poll() is None:
                        return p
        except OSError:
            pass
        time.sleep(0.1)
    err = p.stderr.read().decode(errors="replace") if p.poll() is not None \
        else "did not come up"
    ok(False, "QEMU started: %s" % err.strip())
    p.kill()
    done()


def our_vm(doc, pid):
    for vm in doc["vms"]:
        if vm["source"] == "process:%d" % pid:
            return vm
    return None


def findings(doc, vm):
    return {(f["rule"], f["disk"]) for f in doc["findings"]
            if f["vm"] == vm["name"]}


def main():
    if not QEMU:
        skip("qemu-system-x86_64 not installed")
    with tmpdir() as d:
        d = os.path.abspath(d)
        name = "iolab-advise-test-%d" % os.getpid()
        p = start_qemu(d, name)
        try:
            for args in (["advise", "--json"],
                         ["advise", "--running", "--json"]):
                rc, out, err = run(args, timeout=120)
                what = " ".join(args)
                doc = json.loads(out)
                vm = our_vm(doc, p.pid)
                if not ok(vm is not None, "%s finds pid %d" % (what, p.pid)):
                    continue
                ok(rc == 4, "%s: exit 4 for an unsafe disk (%d)" % (what, rc))
                ok(vm["name"] == name and vm["kind"] == "process" and
                   vm["vcpus"] == 2 and vm["machine"] == "q35",
                   "%s: name, vCPUs, machine from the command line" % what)
                disks = {x["id"]: x for x in vm["disks"]}
                vd0, sata1 = disks.get("vd0", {}), disks.get("sata1", {})
                ok(vd0.get("bus") == "virtio-blk" and
                   vd0.get("cache") == "unsafe" and
                   vd0.get("aio") == "threads" and vd0.get("queues") == 2,
                   "%s: vd0 resolved %r" % (what, vd0))
                ok(sata1.get("bus") == "sata" and
                   sata1.get("cache") == "none" and
                   sata1.get("aio") == "native",
                   "%s: ide-hd on q35's ide.1 is AHCI %r" % (what, sata1))
                ok(vd0.get("storage", {}).get("thin") and
                   "sparse" in vd0["storage"]["what"],
                   "%s: the relative root.raw is probed in the process's "
                   "cwd: %r" % (what, vd0.get("storage")))
                f = findings(doc, vm)
                for want in (("cache-unsafe", "vd0"), ("no-iothread", "vd0"),
                             ("discard-missing", "vd0"),
                             ("emulated-controller", "sata1")):
                    ok(want in f, "%s: finding %s on %s" % ((what,) + want))
            rc, out, err = run(["advise", "--running", "--no-probe",
                                "--json"], timeout=120)
            vm = our_vm(json.loads(out), p.pid)
            ok(vm is not None and ("discard-missing", "vd0") not in
               findings(json.loads(out), vm),
               "--no-probe: the image is not looked at")
            rc, out, err = run(["advise"], timeout=120)
            fixed = out.split("corrected configuration", 1)[-1]
            drive = [x.strip() for x in fixed.splitlines()
                     if x.strip().startswith("-drive file=root.raw,")]
            ok(name in out and "cache-unsafe" in out and
               drive == [x for x in drive if "cache=none" in x] and
               len(drive) == 1 and drive[0].startswith(
                   "-drive file=root.raw,format=raw,if=none,id=d0,"),
               "text report shows the one corrected -drive: %r" % drive)
        finally:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
    done()


main()
