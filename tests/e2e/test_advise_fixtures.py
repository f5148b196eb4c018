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


def disk_fix(doc, disk):
    """The corrected lines of one disk (every fix of it applied)."""
    for vm in doc["vms"]:
        for d in vm["disks"]:
            if d["id"] == disk:
                return (d["corrected"] or "").splitlines()
    return []


def vm_fix(doc):
    return "\n".join(v["corrected"] or "" for v in doc["vms"]).splitlines()


def check_proxmox_all_applied():
    """Every Proxmox fixture: one corrected line per disk that has fixes,
    and each setting a finding changes is in it unless the finding says
    another rule won (no finding undone by another)."""
    import re
    for p in sorted(glob.glob(os.path.join(FIX, "proxmox", "etc", "pve",
                                           "qemu-server", "*.conf"))):
        rel = os.path.relpath(p, FIX)
        rc, out, err = run(["advise", "--no-probe", "--json", "--proxmox",
                            rel], cwd=FIX)
        if rc not in (0, 4):
            continue
        doc = json.loads(out)
        for vm in doc["vms"]:
            keys = []
            for d in vm["disks"]:
                lines = (d["corrected"] or "").splitlines()
                drive = [x for x in lines if re.match(r"^(ide|sata|scsi|"
                                                      r"virtio)\d+: ", x)]
                ok(len(drive) <= 1, "%s %s: one drive line %s"
                   % (rel, d["id"], drive))
                if not drive:
                    continue
                keys.append(drive[0].split(":")[0])
                opts = drive[0].split(": ", 1)[1].split(",")
                for f in doc["findings"]:
                    if f["disk"] != d["id"] or "not applied" in f["fix"]:
                        continue
                    for m in re.finditer(r"\b(cache|aio)=(\w+)", f["fix"]):
                        ok(m.group(0) in opts, "%s %s: %s (%s) applied"
                           % (rel, d["id"], m.group(0), f["rule"]))
                    for m in re.finditer(r"'(\w+)' removed", f["fix"]):
                        ok(not any(o.startswith(m.group(1) + "=")
                                   for o in opts), "%s %s: %s removed"
                           % (rel, d["id"], m.group(1)))
                    if "discard passed through" in f["fix"]:
                        ok("discard=on" in opts, "%s %s: discard=on"
                           % (rel, d["id"]))
                    if "a new iothread" in f["fix"]:
                        ok("iothread=1" in opts, "%s %s: iothread=1"
                           % (rel, d["id"]))
            ok(len(keys) == len(set(keys)), "%s: drive keys unique %s"
               % (rel, keys))


def finding(doc, rule, disk):
    for f in doc["findings"]:
        if f["rule"] == rule and f["disk"] == disk:
            return f
    return None


def check_semantics(docs):
    """What libvirt and Proxmox do with forms real configurations use."""
    d = docs["libvirt/cluster-node-shared.xml.expect.json"]
    ok(not finding(d, "iothread-missing", "vdb") and
       not finding(d, "iothread-missing", "vdd"),
       "<iothreads>5</iothreads> with ids 2 and 4 listed: libvirt numbers "
       "1, 3 and 5 itself")
    ok(not finding(d, "cache-writeback", "vdb") and
       not finding(d, "cache-writeback", "vdc"),
       "a writable <shareable/> disk without a cache mode (absent or "
       "'default') is cache=none, as libvirt generates it")
    ok(disk_fix(d, "vdb") == ["<driver name='qemu' type='raw' iothread='3' "
                              "cache='none' io='native'/>"],
       "io='native' on a <shareable/> disk comes with an explicit "
       "cache='none' (libvirt checks the XML's cache mode)")
    f = finding(d, "cache-writeback", "vdd")
    ok(f and "cache='default'" in f["message"] and
       "no cache attribute" not in f["message"],
       "an explicit cache='default' is named as such")
    ok(disk_fix(d, "vdd")[0].count("cache=") == 1,
       "the fix replaces cache='default', not adds a second cache=")
    d = docs["libvirt/legacy-passthrough.xml.expect.json"]
    f = finding(d, "virtio-blk-scsi", "vdb")
    ok(f and "bus='scsi'" in f["fix"] and
       "device='lun'" in f["message"],
       "device='lun' on bus='virtio' is virtio-blk scsi=on: moved to "
       "virtio-scsi")
    ok("<!-- and delete this disk's <address type='usb' .../> -->" in
       disk_fix(d, "sda"), "a USB disk moved to virtio drops its USB "
       "address")
    f = finding(d, "emulated-controller", "fda")
    ok(f and "device='disk'" in f["fix"],
       "a floppy with media is an emulated controller; the fix changes "
       "the device type too")
    ok(not finding(d, "emulated-controller", "fdb"),
       "an empty floppy drive is no finding")
    d = docs["libvirt/ceph-iscsi-network.xml.expect.json"]
    ok(not any(f["rule"] in ("cache-writeback", "aio-threads",
                             "migration-cache") for f in d["findings"]),
       "network disks (rbd, iscsi, nbd, gluster) have no host page cache "
       "and no aio=: no cache or aio advice")
    d = docs["proxmox/etc/pve/qemu-server/109.expect.json"]
    ok(not finding(d, "cache-writeback", "scsi0") and
       not finding(d, "aio-threads", "scsi0"),
       "btrfs without nocow: Proxmox's writeback is not advised to none")
    f = finding(d, "direct-on-btrfs", "scsi1")
    ok(f and disk_fix(d, "scsi1") ==
       ["scsi1: fast-btrfs:109/vm-109-disk-1.raw,aio=io_uring,"
        "cache=writeback,discard=on,iothread=1,size=100G"],
       "cache=none on btrfs without nocow goes back to writeback (and "
       "native to io_uring, which needs no O_DIRECT)")
    ok(finding(d, "cache-writeback", "scsi2"),
       "btrfs with nocow: cache=none is advised as anywhere")
    d = docs["proxmox/etc/pve/qemu-server/110.expect.json"]
    f = finding(d, "config-refused", "ide2")
    ok(f and disk_fix(d, "ide2") ==
       ["ide2: local:iso/debian-12.7.0-amd64-netinst.iso,size=631M,"
        "media=cdrom"],
       "an ISO without media=: Proxmox refuses; the corrected line (and "
       "copy) has media=cdrom")
    ok(not finding(d, "emulated-controller", "ide2"),
       "the ISO is a CD-ROM, not a data disk on IDE")
    f = finding(d, "config-refused", "virtio2")
    ok(f and f["fix"] == "pvesm set nas-iso --content iso,images",
       "a disk on a storage without images content: refused, fixed with "
       "pvesm")
    ok(not any(f["rule"] in ("cache-writeback", "aio-threads")
               for f in d["findings"]),
       "ZFS over iSCSI (libiscsi) and GlusterFS (libgfapi) have no host "
       "page cache: no cache advice")


def main():
    docs = {}
    paths = sorted(glob.glob(os.path.join(FIX, "**", "*.expect.json"),
                             recursive=True))
    ok(len(paths) >= 12, "%d fixture configurations" % len(paths))
    for p in paths:
        docs[os.path.relpath(p, FIX)] = check(p)

    # Fixes are the corrected lines in the source's own syntax, every
    # change of a disk applied at once.
    d = docs["qemu/start-vm.sh.expect.json"]
    ok(disk_fix(d, "virtio0")[0] ==
       "-drive file=/srv/ci/builder,,2024/root.qcow2,format=qcow2,"
       "if=none,cache=none,discard=unmap,aio=native,id=virtio0",
       "a -drive fix keeps ',,' escaping and the user's option order, "
       "with cache-unsafe's and aio-threads' changes both")
    ok("-device virtio-scsi-pci,id=scsi0,num_queues=8,iothread=io-scratch"
       in disk_fix(d, "scratch"),
       "virtio-scsi num-queues is corrected to num_queues, and an "
       "iothread on scsi-hd moves to the virtio-scsi controller")
    ok(all("iothread" not in x for x in disk_fix(d, "scratch")
           if x.startswith("-device scsi-hd")),
       "the scsi-hd keeps no iothread")
    ok(vm_fix(d) == ["-object iothread,id=iothread1"] and
       "iothread=iothread1" in disk_fix(d, "virtio0")[1],
       "no unused new iothread for the controller that gets io-scratch")
    d = docs["qemu/libvirt-log-json.args.expect.json"]
    fx = disk_fix(d, "virtio-disk0")
    ok(fx[0].startswith("-blockdev '{\"driver\":\"file\"") and
       '"cache":{"direct":true' in fx[0] and '"discard":"unmap"' in fx[0],
       "a JSON -blockdev fix stays JSON and sets cache.direct on the "
       "protocol node, with discard from another finding")
    d = docs["libvirt/rhel9-native-writeback.xml.expect.json"]
    ok(disk_fix(d, "vdb") == [
        "<driver name='qemu' type='raw' cache='none' io='native' "
        "iothread='2'/>"], "a libvirt fix is the corrected <driver>")
    ok(vm_fix(d) == ["<iothreads>3</iothreads>"] and
       "iothread='3'" in disk_fix(d, "vdc")[0],
       "a missing libvirt iothread (2) is defined with <iothreads>, once, "
       "and vdc's new iothread is another one (3)")
    d = docs["proxmox/etc/pve/qemu-server/102.expect.json"]
    ok(disk_fix(d, "sata0") ==
       ["scsi0: local-lvm:vm-102-disk-1,size=80G,discard=on,iothread=1"]
       and vm_fix(d) == ["boot: order=scsi0;ide0;net0"],
       "a Proxmox SATA disk moves to scsiN with discard, the boot order "
       "follows")
    d = docs["proxmox/etc/pve/qemu-server/101.expect.json"]
    ok("scsihw: virtio-scsi-single" in vm_fix(d),
       "an ignored Proxmox iothread is fixed with VirtIO SCSI single")
    ok(disk_fix(d, "scsi0") ==
       ["scsi0: san-lvm:vm-101-disk-0,aio=native,cache=none,iothread=1,"
        "size=64G"],
       "io_uring on LVM falls back to native once cache=none is applied")
    d = docs["proxmox/etc/pve/qemu-server/104.expect.json"]
    ok(disk_fix(d, "virtio0") == [
        "virtio0: nas-smb:104/vm-104-disk-0.qcow2,aio=native,size=32G,"
        "discard=on,iothread=1"],
       "one Proxmox line per disk: ssd dropped, io_uring on CIFS to native, "
       "discard and iothread, no finding undone")
    d = docs["libvirt/two-sata-metadata-cache.xml.expect.json"]
    ok(disk_fix(d, "sda")[1] == "<target dev='vdb' bus='virtio'/>" and
       disk_fix(d, "sdb")[1] == "<target dev='vdc' bus='virtio'/>",
       "two SATA disks moved to virtio get different targets, none vda")
    fx = disk_fix(d, "vda")
    ok(fx[0] == "<driver name='qemu' type='qcow2' cache='none' io='native' "
       "discard='unmap' iothread='3'>" and fx[-1] == "</driver>" and
       '<max_size unit="bytes">1048576</max_size>' in "\n".join(fx),
       "a <driver> with children keeps them (not self-closing)")
    d = docs["proxmox/etc/pve/qemu-server/108.expect.json"]
    ok(disk_fix(d, "ide0") ==
       ["scsi1: local-lvm:vm-108-disk-0,size=32G,discard=on,iothread=1"] and
       disk_fix(d, "ide1") ==
       ["scsi2: local-lvm:vm-108-disk-1,cache=none,size=64G,discard=on,"
        "iothread=1"],
       "two Proxmox IDE disks move to different free SCSI slots")
    ok(vm_fix(d) == ["scsihw: virtio-scsi-single",
                     "boot: order=scsi1;scsi2;scsi0;net0"],
       "scsihw: once, and one boot: line with both renames: %r" % vm_fix(d))
    d = docs["qemu/libvirt-log-json.args.expect.json"]
    ok(vm_fix(d) == ["-object iothread,id=iothread0",
                     "-object iothread,id=iothread1"] and
       '"iothread":"iothread1"' in disk_fix(d, "virtio-disk1")[0],
       "two disks given a new iothread get one each")
    d = docs["libvirt/virtio-scsi-shared.xml.expect.json"]
    ok(vm_fix(d) == ["<iothreads>1</iothreads>",
                     "<controller type='scsi' index='0' model='virtio-scsi'>",
                     "  <driver iothread='1'/>",
                     '  <address type="pci" domain="0x0000" bus="0x03" '
                     'slot="0x00" function="0x0"/>',
                     "</controller>"] and
       not disk_fix(d, "sda") and not disk_fix(d, "sdb"),
       "two disks on one virtio-scsi controller: one iothread, one "
       "<controller> that keeps its <address>: %r" % vm_fix(d))
    check_semantics(docs)
    check_proxmox_all_applied()
    done()


main()
