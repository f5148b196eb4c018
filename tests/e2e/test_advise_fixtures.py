#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab advise on fixture configurations written as QNAP (libvirt XML),
Proxmox and libvirt/QEMU users write them: for each FIXTURE there is an
expectation file with the exit code, the resolved settings of every disk
and the exact set of findings (severity, rule, vm/disk); malformed ones
name the file and line on stderr. --no-probe keeps this host out of it."""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, run, done  # noqa: E402

FIX = os.path.join(os.environ.get("IOLAB_SRC", "."), "tests", "fixtures",
                   "advise")


def check(expect_path):
    with open(expect_path) as f:
        exp = json.load(f)
    name = os.path.relpath(expect_path, FIX)
    rc, out, err = run(["advise", "--no-probe", "--json"] + exp["args"],
                       cwd=FIX)
    ok(rc == exp["exit"], "%s: exit %d (want %d) %s" % (
        name, rc, exp["exit"], err.strip()[:300]))
    if "stderr" in exp:
        ok(err.strip() == exp["stderr"], "%s: message %r" % (name, err))
        ok(out == "", "%s: nothing on stdout when the input is malformed"
           % name)
        return
    doc = json.loads(out)
    disks = {}
    for vm in doc["vms"]:
        for d in vm["disks"]:
            disks[vm["name"] + "/" + d["id"]] = d
    ok(sorted(disks) == sorted(exp["disks"]),
       "%s: disks %s" % (name, sorted(disks)))
    for key, want in exp["disks"].items():
        got = disks.get(key, {})
        for field, val in want.items():
            ok(got.get(field) == val, "%s: %s %s=%r (want %r)" % (
                name, key, field, got.get(field), val))
    got = sorted([f["severity"], f["rule"], f["vm"] + "/" + f["disk"]]
                 for f in doc["findings"])
    missing = [f for f in exp["findings"] if f not in got]
    extra = [f for f in got if f not in exp["findings"]]
    ok(not missing and not extra, "%s: findings (missing %s, unexpected %s)"
       % (name, missing, extra))
    for f in doc["findings"]:
        ok(f["message"] and f["why"], "%s: %s has message and why"
           % (name, f["rule"]))
    return doc


def fixes(doc, rule, disk):
    return [f["fix"] for f in doc["findings"]
            if f["rule"] == rule and f["disk"] == disk]


def main():
    docs = {}
    paths = sorted(glob.glob(os.path.join(FIX, "**", "*.expect.json"),
                             recursive=True))
    ok(len(paths) >= 12, "%d fixture configurations" % len(paths))
    for p in paths:
        docs[os.path.relpath(p, FIX)] = check(p)

    # Fixes are the corrected line in the source's own syntax.
    d = docs["qemu/start-vm.sh.expect.json"]
    ok(fixes(d, "cache-unsafe", "virtio0") == [
        "-drive file=/srv/ci/builder,,2024/root.qcow2,format=qcow2,"
        "if=virtio,cache=none,discard=unmap"],
       "a -drive fix keeps ',,' escaping and the user's option order")
    ok(any("-device virtio-scsi-pci,id=scsi0,num_queues=8" in f
           for f in fixes(d, "bad-property", "scratch")),
       "virtio-scsi num-queues is corrected to num_queues")
    ok(any("iothread=io-scratch" in f and f.startswith("-device virtio-scsi")
           for f in fixes(d, "bad-property", "scratch")),
       "an iothread on scsi-hd moves to the virtio-scsi controller")
    d = docs["qemu/libvirt-log-json.args.expect.json"]
    fx = fixes(d, "native-without-direct", "virtio-disk0")[0]
    ok(fx.startswith("-blockdev '{\"driver\":\"file\"") and
       '"cache":{"direct":true' in fx.splitlines()[0],
       "a JSON -blockdev fix stays JSON and sets cache.direct on the "
       "protocol node")
    d = docs["libvirt/rhel9-native-writeback.xml.expect.json"]
    ok(fixes(d, "native-without-direct", "vdb") == [
        "<driver name='qemu' type='raw' cache='none' io='native' "
        "iothread='2'/>"], "a libvirt fix is the corrected <driver>")
    ok(fixes(d, "iothread-missing", "vdb") == ["<iothreads>2</iothreads>"],
       "a missing libvirt iothread is defined with <iothreads>")
    d = docs["proxmox/etc/pve/qemu-server/102.expect.json"]
    ok(fixes(d, "emulated-controller", "sata0") == [
        "scsi0: local-lvm:vm-102-disk-1,size=80G,iothread=1",
        ] or fixes(d, "emulated-controller", "sata0")[0].splitlines() == [
        "scsi0: local-lvm:vm-102-disk-1,size=80G,iothread=1",
        "boot: order=scsi0;ide0;net0"],
       "a Proxmox SATA disk moves to scsiN, the boot order follows")
    d = docs["proxmox/etc/pve/qemu-server/101.expect.json"]
    ok(fixes(d, "iothread-ignored", "scsi0")[0].splitlines()[0] ==
       "scsihw: virtio-scsi-single",
       "an ignored Proxmox iothread is fixed with VirtIO SCSI single")
    d = docs["proxmox/etc/pve/qemu-server/104.expect.json"]
    ok(fixes(d, "io-uring-hang", "virtio0") == [
        "virtio0: nas-smb:104/vm-104-disk-0.qcow2,aio=native,size=32G,"
        "ssd=1"], "io_uring on CIFS falls back to native (cache.direct)")
    done()


main()
