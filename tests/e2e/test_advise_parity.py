#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""One model, several parsers that agree: a libvirt domain XML and the QEMU
command line libvirt generates for it, and a Proxmox VM config and its
`qm showcmd` kvm command line, must resolve to the same disks (bus, cache
mode, aio, iothread, format, queues, discard, backing file) and to the
same findings (rule, severity, disk). Any disagreement fails.

Compared as written, with --no-probe: what only one side can know is left
out and said so here. A Proxmox config names its storage (storage.cfg says
/dev/pve/vm-100-disk-0 is thin LVM), a command line only the device path,
so findings that come from the storage kind (discard-missing, io-uring-hang)
are compared only where both sides resolved the same kind. Empty CD-ROM
drives are no disks (a Proxmox 'none' has no volume at all). A ZFS over
iSCSI LUN number comes from the storage's iSCSI provider, not the config,
so iscsi:// files are compared up to the target. Rules about
the file a source is written in (format-probed: QEMU only) do not apply
to the other side's syntax and are compared only where both could say it.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, run, done  # noqa: E402

FIX = os.path.join(os.environ.get("IOLAB_SRC", "."), "tests", "fixtures",
                   "advise", "parity")

# (config source, its file, the command line its tool generates, how disks
# are matched: libvirt names devices virtio-disk0 where the XML says vda, so
# by backing file; Proxmox keeps its drive keys as device ids)
PAIRS = [
    ("--libvirt", "webshop.xml", "webshop.args", "file"),
    ("--libvirt", "legacy-lun-usb.xml", "legacy-lun-usb.args", "file"),
    ("--proxmox", "pve/qemu-server/120.conf", "pve/120.showcmd", "id"),
    ("--proxmox", "pve/qemu-server/121.conf", "pve/121.showcmd", "id"),
]
FIELDS = ["bus", "cache", "aio", "format", "queues", "queues_auto",
          "discard", "cdrom", "readonly", "protocol"]
STORAGE_RULES = {"discard-missing", "io-uring-hang"}
SOURCE_RULES = {"format-probed"}


def resolve(args):
    rc, out, err = run(["advise", "--no-probe", "--json"] + args, cwd=FIX)
    ok(rc in (0, 4), "%s: exit %d %s" % (args, rc, err.strip()[:200]))
    return json.loads(out) if out else {"vms": [], "findings": []}


def norm_file(f):
    # rbd:pool/image:opt=...: the options are not the image
    if f and f.startswith("rbd:"):
        return ":".join(f.split(":")[:2])
    # ZFS over iSCSI: the LUN number is the iSCSI provider's, which a
    # Proxmox config does not hold; portal and target it does
    if f and f.startswith("iscsi://"):
        return "/".join(f.split("/")[:4])
    return f


def disks(doc, key):
    out = {}
    vm = doc["vms"][0] if doc["vms"] else {"disks": []}
    for d in vm["disks"]:
        if not d["file"]:
            continue
        k = norm_file(d["file"]) if key == "file" else d["id"]
        out[k] = d
    return out


def iothread(d):
    # libvirt iothread='1' is QEMU's -object iothread,id=iothread1
    t = d["iothread"]
    return None if t is None else re.sub(r"^iothread(?=\d+$)", "", t)


def findings(doc, by_id, key):
    out = set()
    for f in doc["findings"]:
        d = by_id.get(f["disk"])
        if f["disk"] and d is None:
            continue  # an empty drive
        k = (norm_file(d["file"]) if key == "file" else d["id"]) if d \
            else "(vm)"
        out.add((f["severity"], f["rule"], k))
    return out


def main():
    for src, conf, cmdline, key in PAIRS:
        a = resolve([src, conf])
        b = resolve(["--qemu-args-file", cmdline])
        da, db = disks(a, key), disks(b, key)
        ok(sorted(da) == sorted(db) and da,
           "%s / %s: the same disks %s / %s" % (conf, cmdline, sorted(da),
                                                sorted(db)))
        same_storage = set()
        for k in sorted(set(da) & set(db)):
            x, y = da[k], db[k]
            for fld in FIELDS:
                ok(x.get(fld) == y.get(fld), "%s %s: %s %r (%s) == %r (%s)"
                   % (conf, k, fld, x.get(fld), conf, y.get(fld), cmdline))
            ok(iothread(x) == iothread(y), "%s %s: iothread %r == %r"
               % (conf, k, x["iothread"], y["iothread"]))
            ok(norm_file(x["file"]) == norm_file(y["file"]),
               "%s %s: file %r == %r" % (conf, k, x["file"], y["file"]))
            if x["storage"]["kind"] == y["storage"]["kind"]:
                same_storage.add(k)
        ida = {d["id"]: d for vm in a["vms"] for d in vm["disks"]}
        idb = {d["id"]: d for vm in b["vms"] for d in vm["disks"]}
        fa, fb = findings(a, ida, key), findings(b, idb, key)

        def comparable(f):
            return f[1] not in SOURCE_RULES and (
                f[1] not in STORAGE_RULES or f[2] in same_storage)
        fa = {f for f in fa if comparable(f)}
        fb = {f for f in fb if comparable(f)}
        ok(fa == fb, "%s / %s: the same findings (only in the config: %s; "
           "only in the command line: %s)" % (conf, cmdline,
                                              sorted(fa - fb),
                                              sorted(fb - fa)))
        ok(len(fa) >= 3, "%s: the pair has findings to compare (%d)"
           % (conf, len(fa)))
    done()


main()
