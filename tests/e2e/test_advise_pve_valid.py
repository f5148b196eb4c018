#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab advise's Proxmox fixes, checked against qemu-server's own schema.

Every line advise prints as a correction for a Proxmox fixture (the disk's
and the VM's "corrected" lines of --json) and every file --write-fixed
writes is parsed the way qemu-server parses a VM config and a drive's
property string, and must be one qemu-server takes:

- "key: value" lines (parse_vm_config's regex), no key twice in a section;
- drive keys ide0-3, sata0-5, scsi0-30, virtio0-15 (others are "invalid
  drive key"), efidisk0, tpmstate0;
- a drive's value parsed as PVE::JSONSchema::parse_property_string does:
  the volume first (the default key), then key=value options; an unknown
  option, one given twice (also through an alias: volume/file), a value
  not of its type (booleans 1|on|yes|true / 0|off|no|false, integers,
  numbers, disk sizes, enums, patterns) is refused;
- parse_drive's own refusals: media=cdrom with snapshot= or format=, a
  cdrom on virtio, throttling maxima without their rate;
- the options each bus has (ssd is not a virtio option, iothread not an
  IDE or SATA one, queues only SCSI);
- scsihw's enum, machine's pattern, boot order's devices (existing disks,
  netN, usbN, hostpciN);
- what config_to_command and the start checks refuse or ignore: an ISO
  volume without media=, a volume whose storage lacks that content type
  (after the `pvesm set` fixes advise prints), iothread= or queues= on
  SCSI without scsihw virtio-scsi-single (qemu-server ignores them there
  with a warning: a fix that sets them must also set the controller);
  and, as a fix renames disks, the main section's boot order must name
  disks the config has.

The schema below is our own transcription (nothing of qemu-server is
copied into the tree) of proxmox/qemu-server 9.2.6, commit
e6352be67f70042a7433a3a3c712b36d02f9f7cb: src/PVE/QemuServer/Drive.pm
(%drivedesc_base, %iothread_fmt, %product_fmt, %vendor_fmt, %model_fmt,
%queues_fmt, %readonly_fmt, %scsiblock_fmt, %ssd_fmt, %wwn_fmt, the
throttling options, $ide_fmt, $scsi_fmt, $sata_fmt, $virtio_fmt,
$efidisk_fmt, $tpmstate_fmt, $MAX_*_DISKS, parse_drive), src/PVE/
QemuServer.pm (scsihw enum, verify_bootdev, config_to_command's iothread
and ISO checks, check_volume_storage_type), src/PVE/QemuServer/Machine.pm
($machine_fmt), and of proxmox/pve-common commit
f665029eac78022e81810ab2e44eace57ade13fb src/PVE/JSONSchema.pm
(parse_property_string, parse_boolean, parse_size, check_type).

The validator is checked too: mutated lines (one per rule) must be
refused, so this test fails when a rule stops working.
"""
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, run, done, tmpdir  # noqa: E402

FIX = os.path.join(os.environ.get("IOLAB_SRC", "."), "tests", "fixtures",
                   "advise")
PVE = os.path.join("proxmox", "etc", "pve")
# This test's own configs (not in the golden output): moves that rename
# keys the boot order names, an lsi controller, machine: with options,
# every SCSI key taken.
FIX_OWN = os.path.join(os.environ.get("IOLAB_SRC", "."), "tests",
                       "fixtures", "advise-pve-valid")

# --- the schema (see the docstring for its source) -------------------------

BOOL = ("bool",)
INT = ("int", None)
NUM = ("num",)
SIZE = ("size",)
STR = ("str",)


def enum(*vals):
    return ("enum", vals)


def pattern(rx, maxlen=None):
    return ("pattern", re.compile(r"^(?:%s)$" % rx), maxlen)


def urlenc(maxlen):
    return ("pattern", re.compile(r"^(?:%[0-9A-Fa-f]{2}|[^%,])*$"), maxlen)


IMAGE_FORMAT = enum("raw", "qcow", "qed", "qcow2", "vmdk", "cloop")
VOLUME = ("volume",)

DRIVEDESC_BASE = {
    "file": VOLUME,
    "media": enum("cdrom", "disk"),
    "snapshot": BOOL,
    "cache": enum("none", "writethrough", "writeback", "unsafe",
                  "directsync"),
    "format": IMAGE_FORMAT,
    "size": SIZE,
    "backup": BOOL,
    "replicate": BOOL,
    "rerror": enum("ignore", "report", "stop"),
    "werror": enum("enospc", "ignore", "report", "stop"),
    "aio": enum("native", "threads", "io_uring"),
    "discard": enum("ignore", "on"),
    "detect_zeroes": BOOL,
    "serial": urlenc(60),
    "shared": BOOL,
}
for k in ("bps", "bps_rd", "bps_wr", "iops", "iops_rd", "iops_wr",
          "iops_max", "iops_rd_max", "iops_wr_max"):
    DRIVEDESC_BASE[k] = INT
for k in ("mbps", "mbps_rd", "mbps_wr", "mbps_max", "mbps_rd_max",
          "mbps_wr_max"):
    DRIVEDESC_BASE[k] = NUM
for k in ("bps_max_length", "bps_rd_max_length", "bps_wr_max_length",
          "iops_max_length", "iops_rd_max_length", "iops_wr_max_length"):
    DRIVEDESC_BASE[k] = ("int", 1)
# aliases: volume is file; the legacy *_length names
ALIAS = {"volume": "file", "bps_rd_length": "bps_rd_max_length",
         "bps_wr_length": "bps_wr_max_length",
         "iops_rd_length": "iops_rd_max_length",
         "iops_wr_length": "iops_wr_max_length"}

IOTHREAD = {"iothread": BOOL}
PRODUCT = {"product": pattern(r"[A-Za-z0-9\-_\s]{0,16}")}
VENDOR = {"vendor": pattern(r"[A-Za-z0-9\-_\s]{0,8}")}
MODEL = {"model": urlenc(120)}
QUEUES = {"queues": ("int", 2)}
READONLY = {"ro": BOOL}
SCSIBLOCK = {"scsiblock": BOOL}
SSD = {"ssd": BOOL}
WWN = {"wwn": pattern(r"0x[0-9a-fA-F]{16}.*")}


def fmt(*parts):
    d = {}
    for p in parts:
        d.update(p)
    return d


BUS_FMT = {
    "ide": fmt(DRIVEDESC_BASE, MODEL, SSD, WWN),
    "scsi": fmt(DRIVEDESC_BASE, IOTHREAD, PRODUCT, QUEUES, READONLY,
                SCSIBLOCK, SSD, VENDOR, WWN),
    "sata": fmt(DRIVEDESC_BASE, SSD, WWN),
    "virtio": fmt(DRIVEDESC_BASE, IOTHREAD, READONLY),
    "efidisk": {"file": VOLUME, "format": IMAGE_FORMAT, "size": SIZE,
                "efitype": enum("2m", "4m"), "pre-enrolled-keys": BOOL,
                "ms-cert": enum("2011", "2023", "2023w", "2023k")},
    "tpmstate": {"file": VOLUME, "size": SIZE,
                 "version": enum("v1.2", "v2.0")},
}
MAX_DISKS = {"ide": 4, "sata": 6, "scsi": 31, "virtio": 16, "efidisk": 1,
             "tpmstate": 1}
THROTTLE_NEEDS = [("mbps_max", "mbps"), ("mbps_rd_max", "mbps_rd"),
                  ("mbps_wr_max", "mbps_wr"),
                  ("bps_max_length", "mbps_max"),
                  ("bps_rd_max_length", "mbps_rd_max"),
                  ("bps_wr_max_length", "mbps_wr_max"),
                  ("iops_max_length", "iops_max"),
                  ("iops_rd_max_length", "iops_rd_max"),
                  ("iops_wr_max_length", "iops_wr_max")]

SCSIHW = ("lsi", "lsi53c810", "virtio-scsi-pci", "virtio-scsi-single",
          "megasas", "pvscsi")
MACHINE_FMT = {
    "type": pattern(r"pc|pc(-i440fx)?-\d+(\.\d+)+(\+pve\d+)?(\.pxe)?|q35|"
                    r"pc-q35-\d+(\.\d+)+(\+pve\d+)?(\.pxe)?|"
                    r"virt(?:-\d+(\.\d+)+)?(\+pve\d+)?", 40),
    "viommu": enum("intel", "virtio"),
    "aw-bits": NUM,
    "enable-s3": BOOL,
    "enable-s4": BOOL,
}
BOOT_FMT = {"legacy": pattern(r"[acdn]{1,4}"), "order": STR}
LINE_RE = re.compile(r"^([a-z][a-z_\-]*\d*):\s*(.+?)\s*$")
DISK_KEY_RE = re.compile(r"^(ide|sata|scsi|virtio|efidisk|tpmstate)(\d+)$")


class Refused(Exception):
    pass


def parse_boolean(v):
    if re.match(r"^(1|on|yes|true)$", v, re.I):
        return "1"
    if re.match(r"^(0|off|no|false)$", v, re.I):
        return "0"
    return v


def parse_size(v):
    m = re.match(r"^(\d+(\.\d+)?)([KMGT](?:iB)?)?$", v)
    return m is not None


def check_value(key, v, t):
    kind = t[0]
    if kind == "bool" and v not in ("0", "1"):
        raise Refused("%s: type check ('boolean') failed - got '%s'"
                      % (key, v))
    if kind == "int":
        if not re.match(r"^[+-]?\d+$", v):
            raise Refused("%s: type check ('integer') failed - got '%s'"
                          % (key, v))
        if t[1] is not None and int(v) < t[1]:
            raise Refused("%s: value must have a minimum value of %d"
                          % (key, t[1]))
    if kind == "num" and not re.match(
            r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$", v):
        raise Refused("%s: type check ('number') failed - got '%s'"
                      % (key, v))
    if kind == "size" and not parse_size(v):
        raise Refused("%s: value does not look like a valid disk size: %s"
                      % (key, v))
    if kind == "enum" and v not in t[1]:
        raise Refused("%s: value '%s' does not have a value in the "
                      "enumeration '%s'" % (key, v, ", ".join(t[1])))
    if kind == "pattern":
        if t[2] is not None and len(v) > t[2]:
            raise Refused("%s: value may only be %d characters long"
                          % (key, t[2]))
        if not t[1].match(v):
            raise Refused("%s: value does not match the regex pattern"
                          % key)
    if kind == "volume" and not v:
        raise Refused("%s: empty volume" % key)


def parse_property_string(desc, data, default_key):
    """PVE::JSONSchema::parse_property_string and check_object."""
    res = {}
    seen_default = False
    for part in data.split(","):
        if re.match(r"^\s*$", part):
            continue
        m = re.match(r"^([^=]+)=(.+)$", part, re.S)
        if m:
            k, v = m.group(1), m.group(2)
            if k in res:
                raise Refused("duplicate key in comma-separated list "
                              "property: %s" % k)
            if k in ALIAS and ALIAS[k] in desc:
                k = ALIAS[k]
                if k in res:
                    raise Refused("key '%s' is already defined (via alias)"
                                  % k)
            if k not in desc:
                raise Refused("invalid key in comma-separated list "
                              "property: %s" % k)
            if desc[k] == BOOL:
                v = parse_boolean(v)
            res[k] = v
        elif "=" not in part:
            if seen_default or default_key in res:
                raise Refused("duplicate key in comma-separated list "
                              "property: %s" % default_key)
            seen_default = True
            res[default_key] = parse_boolean(part) \
                if desc[default_key] == BOOL else part
        else:
            raise Refused("missing key in comma-separated list property")
    for k, v in res.items():
        check_value(k, v, desc[k])
    return res


def parse_drive(key, value):
    """PVE::QemuServer::Drive::parse_drive: the drive as a dict."""
    m = DISK_KEY_RE.match(key)
    if not m or int(m.group(2)) >= MAX_DISKS[m.group(1)]:
        raise Refused("invalid drive key: %s" % key)
    bus = m.group(1)
    d = parse_property_string(BUS_FMT[bus], value, "file")
    if "file" not in d:
        raise Refused("%s: property is missing and it is not optional: file"
                      % key)
    for opt, needs in THROTTLE_NEEDS:
        if d.get(opt) and not d.get(needs):
            raise Refused("%s requires %s" % (opt, needs))
    for a, b in (("mbps_rd", "mbps"), ("mbps_wr", "mbps"),
                 ("iops_rd", "iops"), ("iops_wr", "iops")):
        if d.get(a) and d.get(b):
            raise Refused("%s: %s and %s together" % (key, a, b))
    if d.get("media") == "cdrom":
        if d.get("snapshot") == "1" or "format" in d:
            raise Refused("%s: a cdrom with snapshot= or format=" % key)
        if bus == "virtio":
            raise Refused("%s: a cdrom on virtio" % key)
    d["_bus"] = bus
    return d


def check_line(key, value):
    """One "key: value" line; returns the drive dict for drive keys."""
    if DISK_KEY_RE.match(key) or re.match(
            r"^(ide|sata|scsi|virtio|efidisk|tpmstate)\d+$", key):
        return parse_drive(key, value)
    if key == "scsihw":
        check_value(key, value, enum(*SCSIHW))
    elif key == "machine":
        parse_property_string(MACHINE_FMT, value, "type")
    elif key == "boot":
        b = parse_property_string(BOOT_FMT, value, "legacy")
        for dev in b.get("order", "").split(";") if "order" in b else []:
            m = DISK_KEY_RE.match(dev)
            ok_dev = (m and m.group(1) not in ("efidisk", "tpmstate") and
                      int(m.group(2)) < MAX_DISKS[m.group(1)]) or \
                re.match(r"^(net\d|net[12]\d|net3[01]|usb\d|usb1\d|"
                         r"hostpci\d|hostpci1\d)$", dev)
            if not ok_dev:
                raise Refused("invalid boot device '%s'" % dev)
    return None


def storage_cfg(path):
    """storage.cfg: {storage id: set of content types}."""
    st, cur = {}, None
    with open(path) as f:
        for line in f:
            m = re.match(r"^(\w+):\s*(\S+)\s*$", line)
            if m:
                cur = m.group(2)
                st[cur] = set()
                continue
            m = re.match(r"^\s+content\s+(\S+)", line)
            if m and cur:
                st[cur] = set(m.group(1).split(","))
    return st


def vtype(volname):
    for t in ("iso", "vztmpl", "backup", "snippets", "import"):
        if volname.startswith(t + "/"):
            return t
    return "images"


def check_config(text, storage):
    """A whole VM config, section by section; returns the refusals."""
    errs = []
    sections = [("main", [])]
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        m = re.match(r"^\[([^\]]+)\]\s*$", s)
        if m:
            sections.append((m.group(1), []))
            continue
        m = LINE_RE.match(line)
        if not m:
            errs.append("line %d: unable to parse config: %s" % (n, line))
            continue
        sections[-1][1].append((n, m.group(1), m.group(2)))
    for name, lines in sections:
        conf, drives = {}, {}
        for n, k, v in lines:
            if k in conf:
                errs.append("[%s] line %d: %s: given twice" % (name, n, k))
            conf[k] = v
            try:
                d = check_line(k, v)
            except Refused as e:
                errs.append("[%s] line %d: %s: %s" % (name, n, k, e))
                continue
            if d is not None:
                drives[k] = d
        errs += ["[%s] %s" % (name, e) for e in
                 config_rules(conf, drives, storage, name == "main")]
    return errs


def config_rules(conf, drives, storage, main):
    errs = []
    single = conf.get("scsihw") == "virtio-scsi-single"
    for k, d in sorted(drives.items()):
        if d["_bus"] == "scsi" and not single:
            for opt in ("iothread", "queues"):
                if d.get(opt) not in (None, "0"):
                    errs.append("%s: %s= is ignored without scsihw "
                                "virtio-scsi-single (scsihw: %s)"
                                % (k, opt, conf.get("scsihw", "lsi")))
        vol = d["file"]
        m = re.match(r"^([A-Za-z][A-Za-z0-9\-_.]*[A-Za-z0-9]):(.+)$", vol)
        if not m:
            continue  # none, cdrom, /dev/... paths
        sid, volname = m.group(1), m.group(2)
        t = vtype(volname)
        if t == "iso" and "media" not in d:
            errs.append("%s: explicit media parameter is required for iso "
                        "images" % k)
        if storage is not None:
            if sid not in storage:
                errs.append("%s: storage '%s' does not exist" % (k, sid))
            elif t not in storage[sid]:
                errs.append("%s: content type '%s' is not available on "
                            "storage '%s'" % (k, t, sid))
    # advise renames disks: the boot order must follow (a snapshot's
    # section is history, which qemu-server does not start from)
    if main and "boot" in conf:
        b = re.search(r"(?:^|,)order=([^,]*)", conf["boot"])
        for dev in b.group(1).split(";") if b else []:
            if DISK_KEY_RE.match(dev) and dev not in conf:
                errs.append("boot: order names '%s', which the config does "
                            "not have" % dev)
    return errs


# --- the validator's own test ---------------------------------------------

GOOD = [
    ("virtio0", "local-lvm:vm-101-disk-0,cache=none,iothread=1,size=32G"),
    ("scsi30", "local-lvm:vm-101-disk-0,iothread=on,ssd=1,discard=on"),
    ("ide2", "none,media=cdrom"),
    ("sata5", "volume=local-lvm:vm-1-disk-0,backup=no"),
    ("scsihw", "virtio-scsi-single"),
    ("machine", "pc-i440fx-8.1"),
    ("boot", "order=scsi0;ide2;net0"),
]
BAD = [
    ("virtio0", "local-lvm:vm-1-disk-0,ssd=1", "ssd on virtio"),
    ("ide0", "local-lvm:vm-1-disk-0,iothread=1", "iothread on IDE"),
    ("sata0", "local-lvm:vm-1-disk-0,iothread=1", "iothread on SATA"),
    ("virtio0", "local-lvm:vm-1-disk-0,queues=4", "queues on virtio"),
    ("scsi0", "local-lvm:vm-1-disk-0,cahce=none", "unknown option"),
    ("scsi0", "local-lvm:vm-1-disk-0,cache=none,cache=none", "duplicate"),
    ("scsi0", "local-lvm:vm-1-disk-0,file=local-lvm:vm-1-disk-1",
     "volume twice"),
    ("scsi0", "volume=a:b,file=a:c", "alias twice"),
    ("scsi0", "local-lvm:vm-1-disk-0,cache=writearound", "cache enum"),
    ("scsi0", "local-lvm:vm-1-disk-0,aio=posix", "aio enum"),
    ("scsi0", "local-lvm:vm-1-disk-0,discard=off", "discard enum"),
    ("scsi0", "local-lvm:vm-1-disk-0,iothread=2", "boolean"),
    ("scsi0", "local-lvm:vm-1-disk-0,size=32X", "size"),
    ("scsi0", "local-lvm:vm-1-disk-0,queues=1", "queues minimum"),
    ("scsi0", "local-lvm:vm-1-disk-0,cache=", "missing value"),
    ("scsi31", "local-lvm:vm-1-disk-0", "scsi out of range"),
    ("virtio16", "local-lvm:vm-1-disk-0", "virtio out of range"),
    ("ide4", "local-lvm:vm-1-disk-0", "ide out of range"),
    ("sata6", "local-lvm:vm-1-disk-0", "sata out of range"),
    ("virtio1", "local:iso/x.iso,media=cdrom", "cdrom on virtio"),
    ("scsi0", "iops_max=5", "no volume"),
    ("scsi0", "a:b,mbps_max=5", "mbps_max without mbps"),
    ("scsihw", "virtio-scsi", "scsihw enum"),
    ("machine", "pc-i440fx", "machine pattern"),
    ("boot", "order=scsi0;sata9", "boot device"),
]
BAD_CONF = [
    ("scsihw: virtio-scsi-pci\nscsi0: local-lvm:vm-1-disk-0,iothread=1\n",
     "iothread on scsi without virtio-scsi-single"),
    ("scsi0: local-lvm:vm-1-disk-0,queues=4\n",
     "queues on scsi with the default lsi"),
    ("ide2: local:iso/debian.iso,size=600M\n", "ISO without media"),
    ("virtio0: nas-iso:110/vm-110-disk-2.qcow2\n",
     "images on an iso-only storage"),
    ("virtio0: nowhere:vm-1-disk-0\n", "unknown storage"),
    ("boot: order=scsi0\nvirtio0: local-lvm:vm-1-disk-0\n",
     "boot names a disk that is not there"),
    ("cores: 2\ncores: 4\n", "a key twice"),
    ("scsi0 local-lvm:vm-1-disk-0\n", "not key: value"),
]


def self_test(storage):
    for k, v in GOOD:
        try:
            check_line(k, v)
            ok(True, "validator takes %s: %s" % (k, v))
        except Refused as e:
            ok(False, "validator takes %s: %s (%s)" % (k, v, e))
    for k, v, why in BAD:
        try:
            check_line(k, v)
            ok(False, "validator refuses %s: %s (%s)" % (k, v, why))
        except Refused as e:
            ok(True, "validator refuses %s: %s (%s: %s)" % (k, v, why, e))
    for text, why in BAD_CONF:
        errs = check_config(text, storage)
        ok(bool(errs), "validator refuses a config with %s: %s"
           % (why, "; ".join(errs)))


# --- advise's output --------------------------------------------------------


def corrected_lines(doc):
    for vm in doc["vms"]:
        blocks = [("VM", vm.get("corrected"))]
        blocks += [(d["id"], d.get("corrected")) for d in vm["disks"]]
        for who, text in blocks:
            for line in (text or "").splitlines():
                if line.strip():
                    yield who, line


def storage_fixes(doc, storage):
    """The storage after the `pvesm set ID --content LIST` fixes advise
    prints (a storage.cfg change cannot be a line of the VM's config)."""
    st = {k: set(v) for k, v in storage.items()}
    for f in doc["findings"]:
        m = re.search(r"pvesm set (\S+) --content (\S+)", f.get("fix") or "")
        if m and m.group(1) in st:
            st[m.group(1)] = set(m.group(2).split(","))
    return st


def main():
    self_test(storage_cfg(os.path.join(FIX, PVE, "storage.cfg")))
    n_lines = n_files = n_refused_in = 0
    confs = [(FIX, PVE, c) for c in sorted(glob.glob(
        os.path.join(FIX, PVE, "qemu-server", "*.conf")))]
    confs += [(FIX_OWN, os.path.join("etc", "pve"), c) for c in sorted(
        glob.glob(os.path.join(FIX_OWN, "etc", "pve", "qemu-server",
                               "*.conf")))]
    with tmpdir() as tmp:
        for top, pve, src in confs:
            storage = storage_cfg(os.path.join(top, pve, "storage.cfg"))
            name = os.path.relpath(src, top)
            with open(src) as f:
                text_in = f.read()
            errs_in = check_config(text_in, storage)
            rc, out, err = run(["advise", "--no-probe", "--json",
                                "--proxmox", name], cwd=top)
            if rc == 1:
                # advise refuses a config qemu-server refuses too
                ok(bool(errs_in), "%s: refused by advise (%s) and by the "
                   "validator (%s)" % (name, err.strip()[-120:],
                                       "; ".join(errs_in)))
                continue
            n_refused_in += bool(errs_in)
            doc = json.loads(out)
            for who, line in corrected_lines(doc):
                m = LINE_RE.match(line)
                if not ok(m is not None, "%s %s: '%s' is key: value"
                          % (name, who, line)):
                    continue
                try:
                    check_line(m.group(1), m.group(2))
                    ok(True, "%s %s: qemu-server takes '%s'"
                       % (name, who, line))
                except Refused as e:
                    ok(False, "%s %s: qemu-server refuses '%s': %s"
                       % (name, who, line, e))
                n_lines += 1
            dst = os.path.join(tmp, os.path.basename(src))
            rc, out, err = run(["advise", "--no-probe", "--proxmox", name,
                                "--write-fixed", dst], cwd=top)
            ok(rc in (0, 4) and os.path.exists(dst),
               "%s: --write-fixed wrote %s (exit %d %s)"
               % (name, dst, rc, err.strip()[-200:]))
            if not os.path.exists(dst):
                continue
            with open(dst) as f:
                fixed = f.read()
            errs = check_config(fixed, storage_fixes(doc, storage))
            ok(not errs, "%s: qemu-server takes the corrected file%s%s"
               % (name, " (the input it refuses: %s)" % "; ".join(errs_in)
                  if errs_in else "", ": " + "; ".join(errs) if errs
                  else ""))
            n_files += 1
    ok(n_lines >= 10 and n_files >= 12,
       "%d corrected lines and %d corrected files checked (%d inputs "
       "qemu-server refuses)" % (n_lines, n_files, n_refused_in))
    done()


main()
