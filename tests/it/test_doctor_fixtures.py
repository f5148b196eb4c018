# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab doctor on captured trees: each bus and distribution diagnosed right.

The trees in tests/fixtures/doctor were captured with `iolab doctor
--capture` inside QEMU guests (make-fixtures.sh) and on a KVM guest with a
virtio-blk disk; the *-flavour ones are copies with another os-release.
"""
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import done, fail, ok, run, run_json  # noqa: E402

FIX = os.path.join(os.environ.get("IOLAB_SRC", os.path.join(
    os.path.dirname(__file__), "..", "..")), "tests", "fixtures", "doctor")

HOSTS = {"qnap_virtualization_station", "proxmox", "virt_manager",
         "libvirt_xml"}


def diagnose(name, rc):
    return run_json(["doctor", "--sysroot", os.path.join(FIX, name)],
                    check=rc)


def finding(doc, fid, disk=None):
    for f in doc["findings"]:
        if f["id"] == fid and (disk is None or f["disk"] == disk):
            return f
    return None


def has(doc, fid, sev, disk=None, name=""):
    f = finding(doc, fid, disk)
    ok(f is not None and f["severity"] == sev,
       "%s: %s %s%s" % (name, sev, fid, " on " + disk if disk else ""))
    return f or {"fix": {"commands": [], "host": {}, "summary": ""}}


def lacks(doc, fid, name):
    ok(finding(doc, fid) is None, "%s: no %s finding" % (name, fid))


def cmds(f):
    return "\n".join(f["fix"]["commands"])


def one_disk(doc, name):
    disks = doc["disks"]
    ok(len(disks) == 1, "%s: one disk (got %s)" % (
        name, [d["name"] for d in disks]))
    return disks[0]


def check_shape(doc, name):
    ok(doc["command"] == "doctor" and doc["schema_version"] >= 1,
       name + ": command and schema_version")
    v = doc["virtualization"]
    ok(all(k in v for k in ("hypervisor", "product", "container")),
       name + ": virtualization keys")
    for d in doc["disks"]:
        ok(all(k in d for k in ("name", "driver", "bus", "model",
                                "size_bytes", "scheduler", "queues")),
           name + ": disk %s keys" % d["name"])
    seen = set()
    for f in doc["findings"]:
        ok(f["severity"] in ("critical", "warning", "info") and f["id"] and
           f["message"] and f["why"] and f["fix"]["summary"],
           name + ": finding %s complete" % f["id"])
        ok(set(f["fix"]["host"]) <= HOSTS, name + ": host keys of " +
           f["id"])
        key = (f["id"], f["disk"])
        ok(key not in seen, name + ": %s once per disk" % (key,))
        seen.add(key)
    order = [("critical", "warning", "info").index(f["severity"])
             for f in doc["findings"]]
    ok(order == sorted(order), name + ": most severe findings first")
    s = doc["summary"]
    ok(s["critical"] == order.count(0) and s["warning"] == order.count(1)
       and s["info"] == order.count(2), name + ": summary counts")
    ok(doc["unreadable"] == [], name + ": nothing unreadable in a capture")


def emulated_fix_checks(f, name, initramfs, pm_install=None):
    ok(initramfs in cmds(f), "%s: fix puts virtio into the initramfs (%s)"
       % (name, initramfs))
    ok(set(f["fix"]["host"]) == HOSTS,
       name + ": host fix for QNAP, Proxmox, virt-manager and libvirt XML")


def tcg_guest(doc, name, machine):
    v = doc["virtualization"]
    ok(v["hypervisor"] == "qemu" and v["cpuid"]["vendor"] == "TCGTCGTCGTCG",
       name + ": QEMU TCG from CPUID")
    ok(v["machine"] == machine, "%s: machine %s (got %s)" % (
        name, machine, v["machine"]))
    ok(v["product"] and v["product"].startswith("QEMU Standard PC"),
       name + ": DMI product")
    has(doc, "hypervisor-tcg", "critical", name=name)


def test_ide(name, pm, initramfs, install):
    doc = diagnose(name, 4)
    check_shape(doc, name)
    tcg_guest(doc, name, "i440fx")
    d = one_disk(doc, name)
    ok(d["name"] == "sda" and d["driver"] == "ata_piix" and
       d["bus"] == "ide" and d["kind"] == "emulated" and
       d["pci_id"] == "8086:7010", name + ": sda on emulated PIIX IDE")
    ok(d["queue_depth"] == 1 and d["model"] == "QEMU HARDDISK",
       name + ": IDE queue depth 1, QEMU HARDDISK")
    ok([p["name"] for p in d["partitions"]] == ["sda1", "sda2"] and
       d["partitions"][0]["start_sector"] == 2048, name + ": partitions")
    ok([(m["device"], m["mountpoint"], m["fstype"]) for m in d["mounts"]] ==
       [("sda1", "/data", "ext4")], name + ": /data mounted from sda1")
    ok([s["path"] for s in d["swaps"]] == ["/dev/sda2"], name + ": swap")
    f = has(doc, "emulated-ide", "critical", "sda", name)
    emulated_fix_checks(f, name, initramfs)
    ok("queue depth 1" in f["message"], name + ": message says depth 1")
    has(doc, "device-names", "warning", name=name)
    f = has(doc, "guest-agent-channel", "warning", name=name)
    ok(install in cmds(f), "%s: agent install via %s" % (name, pm))
    ok(doc["system"]["distribution"]["package_manager"] == pm,
       name + ": package manager " + pm)


def test_ahci(name, pm, initramfs, install):
    doc = diagnose(name, 4)
    check_shape(doc, name)
    tcg_guest(doc, name, "q35")
    d = one_disk(doc, name)
    ok(d["driver"] == "ahci" and d["bus"] == "sata-ahci" and
       d["kind"] == "emulated" and d["queue_depth"] == 32,
       name + ": sda on emulated AHCI with NCQ depth 32")
    f = has(doc, "emulated-sata", "critical", "sda", name)
    emulated_fix_checks(f, name, initramfs)
    f = has(doc, "guest-agent-channel", "warning", name=name)
    ok(install in cmds(f), "%s: agent install via %s" % (name, pm))


def test_virtio_scsi():
    name = "tcg-virtio-scsi"
    doc = diagnose(name, 4)
    check_shape(doc, name)
    tcg_guest(doc, name, "q35")
    d = one_disk(doc, name)
    ok(d["driver"] == "virtio_scsi" and d["block_driver"] == "sd" and
       d["bus"] == "virtio-scsi" and d["kind"] == "paravirtual" and
       d["pci_id"] == "1af4:1004", name + ": sda behind virtio-scsi")
    ok(d["queues"] == 2, name + ": one queue per vCPU (2)")
    for fid in ("emulated-ide", "emulated-sata", "emulated-scsi",
                "single-queue", "guest-agent-channel"):
        lacks(doc, fid, name)
    g = doc["guest"]["agent"]
    ok(g["channel"] and g["channel_path"].startswith("/dev/vport"),
       name + ": agent port found in sysfs (no udev link)")
    f = has(doc, "guest-agent-not-running", "warning", name=name)
    ok("apt-get install -y qemu-guest-agent" in cmds(f) and
       "systemctl enable --now qemu-guest-agent" in cmds(f),
       name + ": install and enable qemu-ga")
    has(doc, "rotational-default", "info", "sda", name)
    lacks(doc, "device-names", name)


def test_nvme():
    name = "tcg-nvme"
    doc = diagnose(name, 4)
    check_shape(doc, name)
    d = one_disk(doc, name)
    ok(d["name"] == "nvme0n1" and d["driver"] == "nvme" and
       d["kind"] == "emulated-nvme" and d["pci_id"] == "1b36:0010" and
       d["model"] == "QEMU NVMe Ctrl", name + ": QEMU's emulated NVMe")
    ok([p["name"] for p in d["partitions"]] == ["nvme0n1p1", "nvme0n1p2"],
       name + ": nvme partition names")
    f = has(doc, "emulated-nvme", "info", "nvme0n1", name)
    ok(set(f["fix"]["host"]) == HOSTS, name + ": host fix for all four")
    ok([x["id"] for x in doc["findings"] if x["severity"] == "critical"] ==
       ["hypervisor-tcg"], name + ": only TCG is critical")


def test_virtio_blk():
    name = "tcg-virtio-blk-writethrough"
    doc = diagnose(name, 4)
    check_shape(doc, name)
    d = one_disk(doc, name)
    ok(d["name"] == "vda" and d["driver"] == "virtio_blk" and
       d["bus"] == "virtio-blk" and d["kind"] == "paravirtual",
       name + ": vda on virtio-blk")
    ok(d["queues"] == 2 and d["write_cache"] == "write through" and
       d["discard"] is True, name + ": 2 queues, write through, discard")
    f = has(doc, "write-through", "warning", "vda", name)
    ok("cache='none'" in f["fix"]["host"].get("libvirt_xml", ""),
       name + ": libvirt fix sets cache='none'")
    ok("write_cache" in f["fix"]["summary"] and not f["fix"]["commands"],
       name + ": no guest command that would drop flushes")
    has(doc, "rotational-virtio", "info", "vda", name)
    for fid in ("single-queue", "no-discard", "device-names"):
        lacks(doc, fid, name)


def test_lsi(name, pm, install):
    doc = diagnose(name, 4)
    check_shape(doc, name)
    d = one_disk(doc, name)
    ok(d["driver"] == "sym53c8xx" and d["bus"] == "lsi-scsi" and
       d["kind"] == "emulated", name + ": sda on emulated LSI 53C895A")
    f = has(doc, "emulated-scsi", "critical", "sda", name)
    ok("virtio-scsi-single" in f["fix"]["host"]["proxmox"],
       name + ": Proxmox fix: VirtIO SCSI single")
    ok("virtio_scsi" in cmds(f), name + ": initramfs gets virtio_scsi")
    f = has(doc, "partition-misaligned", "warning", "sda", name)
    ok("sda1" in f["message"] and "63" in f["message"],
       name + ": sda1 at sector 63")
    f = has(doc, "aio-max-nr-low", "info", name=name)
    ok("sysctl -w fs.aio-max-nr=1048576" in cmds(f), name + ": aio sysctl")
    f = has(doc, "tuned-profile", "info", name=name)
    ok(install in cmds(f), "%s: tuned via %s" % (name, pm))


def test_kvm():
    name = "kvm-virtio-blk"
    doc = diagnose(name, 0)
    check_shape(doc, name)
    v = doc["virtualization"]
    ok(v["hypervisor"] == "kvm" and v["cpuid"]["vendor"] == "KVMKVMKVM",
       name + ": KVM from CPUID")
    ok(v["container"] == "none", name + ": not a container (/.dockerenv "
       "is discounted: / is on vda)")
    vda = [d for d in doc["disks"] if d["name"] == "vda"]
    ok(len(vda) == 1 and vda[0]["driver"] == "virtio_blk" and
       vda[0]["bus"] == "virtio-blk" and vda[0]["kind"] == "paravirtual",
       name + ": vda is virtio_blk")
    ok(any(m["mountpoint"] == "/" for m in vda[0]["mounts"]),
       name + ": / is on vda")
    ok(not any(d["name"].startswith(("loop", "zram")) for d in doc["disks"]),
       name + ": loop and zram hidden without --all")
    ok(not [f for f in doc["findings"] if f["severity"] == "critical"],
       name + ": no critical finding")


def test_lvm():
    name = "tcg-virtio-blk-lvm"
    doc = diagnose(name, 4)
    check_shape(doc, name)
    disks = {d["name"]: d for d in doc["disks"]}
    ok(sorted(disks) == ["dm-0", "vda"], name + ": vda and its LV")
    vda, lv = disks.get("vda", {}), disks.get("dm-0", {})
    ok(vda.get("holders") == [{"name": "dm-0", "of": "vda1", "kind": "lvm",
                               "label": "vg-data"}],
       name + ": vda1 held by LVM vg-data")
    ok([(m["device"], m["mountpoint"]) for m in vda.get("mounts", [])] ==
       [("dm-0", "/data")], name + ": /data on vda through dm-0")
    ok(lv.get("kind") == "stacked" and lv.get("bus") == "dm" and
       lv.get("on") == ["vda1"] and
       lv.get("controller", "").startswith("LVM logical volume vg-data"),
       name + ": dm-0 is an LVM volume on vda1")
    ok(lv.get("queues") is None, name + ": bio-based dm has no hw queues")
    ok(not [f for f in doc["findings"] if f["disk"] == "dm-0"],
       name + ": no disk rules on the stacked device")
    lacks(doc, "device-names", name)


# What `tuned-adm profile NAME` sets, per tuned's own profiles
# (virtual-guest includes throughput-performance).
TUNED = {"virtual-guest": {"vm.dirty_ratio": "30",
                           "vm.dirty_background_ratio": "10",
                           "vm.swappiness": "30"}}
# The kernel keeps each pair as one limit: writing one zeroes the other.
SAME = {"vm.dirty_bytes": "vm.dirty", "vm.dirty_ratio": "vm.dirty",
        "vm.dirty_background_bytes": "vm.dirty_background",
        "vm.dirty_background_ratio": "vm.dirty_background"}


def profile_sysctls(name, confs):
    if name in TUNED:
        return dict(TUNED[name])
    conf = confs.get(name)
    if conf is None:
        return None
    include, replace, own, section = None, False, {}, ""
    for line in conf.split("\n"):
        line = line.strip()
        if line.startswith("["):
            section = line
        elif "=" in line:
            k, v = (x.strip() for x in line.split("=", 1))
            if section == "[main]" and k == "include":
                include = v
            elif section == "[sysctl]" and k == "replace":
                replace = v == "1"
            elif section == "[sysctl]":
                own[k] = v
    base = {} if replace or not include else (
        profile_sysctls(include, confs) or {})
    base.update(own)
    return base


def effects(commands, name):
    """(setting, value) of every command that changes one, read from the
    command text itself, not from doctor's model."""
    confs, out = {}, []

    def sysctl(k, v):
        out.append((SAME.get(k, k), "%s=%s" % (k, v)))
    for c in commands:
        m = re.match(r"sysctl -w (\S+)=(\S+)$", c)
        if m:
            sysctl(*m.groups())
        m = re.match(r"echo '(\S+) = (\S+)' > /etc/sysctl\.d/", c)
        if m:
            sysctl(*m.groups())
        m = re.match(r"echo (\S+) > (/sys/block/\S+)$", c)
        if m:
            out.append((m.group(2), m.group(1)))
        m = re.search(r'KERNEL=="([^"]+)", ATTR\{([^}]+)\}="([^"]*)"', c)
        if m:
            out.append(("/sys/block/%s/%s" % m.groups()[:2], m.group(3)))
        m = re.match(r"printf '(.*)' > /etc/tuned/([^/]+)/tuned\.conf$", c)
        if m:
            confs[m.group(2)] = m.group(1).replace("\\n", "\n")
        m = re.match(r"tuned-adm profile (\S+)$", c)
        if m:
            p = profile_sysctls(m.group(1), confs)
            ok(p is not None, "%s: tuned profile %s is known or written "
               "before it is activated" % (name, m.group(1)))
            for k, v in (p or {}).items():
                sysctl(k, v)
    return out


def check_fix_merge(doc, name):
    """No two fix commands set one setting to different values, whichever
    finding they come from, and fix_commands holds them all once."""
    every = [c for f in doc["findings"] for c in f["fix"]["commands"]]
    seen = {}
    for key, val in effects(every, name):
        ok(seen.setdefault(key, val) == val,
           "%s: %s set to %s and to %s" % (name, key, seen[key], val))
    plan = []
    for c in every:
        if c not in plan:
            plan.append(c)
    ok(doc["fix_commands"] == plan,
       name + ": fix_commands are the findings' commands, each once")
    for f in doc["findings"]:
        ok(f["fix"]["overridden"] == bool(f["fix"]["notes"]),
           "%s: %s says why it was overridden" % (name, f["id"]))


def test_merge():
    name = "rhel9-virtio-tuned"
    doc = diagnose(name, 0)
    check_shape(doc, name)
    d = has(doc, "dirty-limit-large", "info", name=name)
    t = has(doc, "tuned-profile", "info", name=name)
    ok("sysctl -w vm.dirty_bytes=1073741824" in cmds(d) and
       not d["fix"]["overridden"], name + ": the dirty cap stands")
    ok(t["fix"]["overridden"] and
       any("vm.dirty_ratio=30" in n and "dirty-limit-large" in n
           for n in t["fix"]["notes"]),
       name + ": tuned's finding says its vm.dirty_ratio=30 lost to the cap")
    ok("tuned-adm profile virtual-guest" not in t["fix"]["commands"] and
       "tuned-adm profile iolab-virtual-guest" in t["fix"]["commands"],
       name + ": a child of virtual-guest is activated instead")
    ok("systemctl enable --now tuned" in cmds(t) and "install" not in
       cmds(t), name + ": tuned is installed, only enabled")
    conf = [c for c in t["fix"]["commands"] if "tuned.conf" in c]
    ok(len(conf) == 1 and "include=virtual-guest" in conf[0] and
       "replace=1" in conf[0] and "vm.dirty_bytes=1073741824" in conf[0] and
       "vm.swappiness=30" in conf[0],
       name + ": the child keeps swappiness and carries the cap")
    check_fix_merge(doc, name)
    # The same commands, unmerged, would clash: the check can fail.
    raw = [c for f in doc["findings"] for c in f["fix"]["commands"]
           if "tuned.conf" not in c and "iolab-virtual-guest" not in c]
    vals = {v for k, v in effects(raw + ["tuned-adm profile virtual-guest"],
                                  name) if k == "vm.dirty"}
    ok(len(vals) == 2, name + ": virtual-guest itself would undo the cap")


QEMU_PC_ONLY = ("num-queues", "libvirt", "virsh", "<driver", "qm set",
                "Proxmox", "virt-manager", "machine type")


def check_platform_fit(doc, name, text):
    """Fixes fit the machine found; the verdict fits the devices seen."""
    v = doc["virtualization"]
    if any(d["bus"].startswith("virtio") for d in doc["disks"]):
        ok(v["virtualized"] and v["hypervisor"] not in ("none", None) and
           "bare metal" not in text,
           name + ": a virtio disk is never on bare metal")
    if v["vmm"] not in (None, "qemu-pc"):
        for f in doc["findings"]:
            ok(not f["fix"]["host"],
               "%s: %s has no QNAP/Proxmox/virt-manager/libvirt lines on %s"
               % (name, f["id"], v["vmm"]))
    if v["vmm"] in ("firecracker", "cloud-hypervisor"):
        for f in doc["findings"]:
            fix = json.dumps(f["fix"])
            ok(not [w for w in QEMU_PC_ONLY if w in fix],
               "%s: %s names no QEMU PC setting on %s" % (
                   name, f["id"], v["vmm"]))


def other(f):
    return f["fix"]["other_hypervisor"] or ""


def test_platforms():
    name = "firecracker-mmio"
    doc = diagnose(name, 0)
    check_shape(doc, name)
    v = doc["virtualization"]
    ok(v["hypervisor"] == "kvm" and v["vmm"] == "firecracker" and
       v["dmi"] is None, name + ": Firecracker by its virtio-mmio base")
    f = has(doc, "single-queue", "info", "vda", name)
    ok("Firecracker" in f["fix"]["summary"] and not f["fix"]["commands"] and
       not other(f), name + ": no queue setting to name")
    f = has(doc, "write-through", "warning", "vda", name)
    ok("cache_type" in f["message"] and "Writeback" in other(f) and
       "cache='none'" not in json.dumps(f), name + ": cache_type Writeback")
    f = has(doc, "no-discard", "info", "vda", name)
    ok(not f["fix"]["commands"], name + ": no fstrim for a disk without it")
    for fid in ("guest-agent-channel", "guest-agent-not-running"):
        lacks(doc, fid, name)

    name = "qemu-microvm"
    doc = diagnose(name, 0)
    check_shape(doc, name)
    v = doc["virtualization"]
    ok(v["vmm"] == "qemu-microvm" and v["acpi"]["oem_id"] == "BOCHS",
       name + ": QEMU microvm by QEMU's ACPI and mmio base")
    f = has(doc, "single-queue", "info", "vda", name)
    ok("-device virtio-blk-device" in other(f) and "num-queues=2" in
       other(f) and not f["fix"]["host"], name + ": microvm's num-queues")
    f = has(doc, "no-discard", "info", "vda", name)
    ok("discard=unmap" in other(f), name + ": microvm's discard=unmap")

    name = "cloud-hypervisor"
    doc = diagnose(name, 0)
    check_shape(doc, name)
    v = doc["virtualization"]
    ok(v["vmm"] == "cloud-hypervisor" and v["dmi"] is not None,
       name + ": Cloud Hypervisor by its SMBIOS and ACPI ids")
    f = has(doc, "single-queue", "info", "vda", name)
    ok("num_queues=2" in other(f) and "--disk" in other(f),
       name + ": its --disk num_queues")
    lacks(doc, "guest-agent-channel", name)

    name = "hidden-cpuid-virtio"
    doc = diagnose(name, 0)
    check_shape(doc, name)
    v = doc["virtualization"]
    ok(v["cpuid"]["hypervisor_bit"] is False and v["virtualized"] and
       v["hypervisor"] != "none" and "vda" in (v["evidence"] or ""),
       name + ": CPUID says bare metal, the virtio disk says VM")
    ok(v["vmm"] == "qemu-pc", name + ": virtio on PCI with SMBIOS: QEMU PC")
    rc, out, err = run(["doctor", "--sysroot", os.path.join(FIX, name)])
    ok("bare metal" not in out and "hidden from CPUID" in out,
       name + ": the text says why it is a VM")
    has(doc, "single-queue", "info", "vda", name)
    has(doc, "tuned-profile", "info", name=name)

    name = "kvm-virtio-blk"
    doc = diagnose(name, 0)
    f = has(doc, "single-queue", "info", "vda", name)
    ok(doc["virtualization"]["vmm"] == "minimal-kvm" and
       not f["fix"]["host"] and "Firecracker" in other(f),
       name + ": no SMBIOS, no telling mark: both minimal VMMs' answers")


def edited(src, edit):
    """Diagnose a copy of fixture @src changed by @edit(tree)."""
    d = tempfile.mkdtemp(prefix="iolab-test-", dir=os.environ.get(
        "IOLAB_BUILD"))
    try:
        tree = os.path.join(d, "t")
        shutil.copytree(os.path.join(FIX, src), tree, symlinks=True)
        edit(tree)
        return run_json(["doctor", "--sysroot", tree], check=None)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def put(tree, rel, text):
    p = os.path.join(tree, rel)
    if os.path.islink(p):
        p = os.path.realpath(p)
    with open(p, "w") as f:
        f.write(text)


def test_edited():
    # The LSI capture as if VMware ran it (LSI Logic, no vmtoolsd).
    def vmware(t):
        put(t, ".iolab/cpuid", "hypervisor_bit 1\nvendor VMwareVMware\n")
        put(t, "sys/class/dmi/id/sys_vendor", "VMware, Inc.\n")
        put(t, "sys/class/dmi/id/product_name", "VMware Virtual Platform\n")
    doc = edited("tcg-lsi", vmware)
    name = "vmware-edit"
    ok(doc["virtualization"]["hypervisor"] == "vmware", name + ": VMware")
    f = has(doc, "emulated-scsi", "warning", "sda", name)
    ok(not f["fix"]["host"] and "VMware Paravirtual" in
       (f["fix"]["other_hypervisor"] or ""), name + ": PVSCSI, no QEMU tools")
    has(doc, "vmware-tools-not-running", "warning", name=name)
    ok(doc["virtualization"]["vmm"] == "vmware", name + ": vmm vmware")
    lacks(doc, "guest-agent-channel", name)
    lacks(doc, "hypervisor-tcg", name)

    # The same as if Hyper-V ran it.
    def hyperv(t):
        put(t, ".iolab/cpuid", "hypervisor_bit 1\nvendor Microsoft Hv\n")
        put(t, "sys/class/dmi/id/sys_vendor", "Microsoft Corporation\n")
        put(t, "sys/class/dmi/id/product_name", "Virtual Machine\n")
    doc = edited("tcg-lsi", hyperv)
    name = "hyperv-edit"
    ok(doc["virtualization"]["vmm"] == "hyper-v", name + ": vmm hyper-v")
    f = has(doc, "emulated-scsi", "critical", "sda", name)
    ok(not f["fix"]["host"] and "Hyper-V" in other(f),
       name + ": Hyper-V's SCSI controller, no QEMU tools")
    lacks(doc, "guest-agent-channel", name)

    # Two AHCI disks: each moves to a virtio target of its own.
    def two_disks(t):
        blk = os.path.join(t, "sys/devices/pci0000:00/0000:00:1f.2/ata1/"
                           "host0/target0:0:0/0:0:0:0/block")
        shutil.copytree(os.path.join(blk, "sda"), os.path.join(blk, "sdb"),
                        symlinks=True)
        os.symlink("../devices/pci0000:00/0000:00:1f.2/ata1/host0/"
                   "target0:0:0/0:0:0:0/block/sdb",
                   os.path.join(t, "sys/block/sdb"))
    doc = edited("tcg-ahci-q35", two_disks)
    name = "two-ahci-edit"
    targets = [re.search(r"dev='(vd[a-z])'", has(
        doc, "emulated-sata", "critical", d, name)["fix"]["host"].get(
            "libvirt_xml", "")) for d in ("sda", "sdb")]
    ok(all(targets) and [m.group(1) for m in targets] == ["vda", "vdb"],
       name + ": sda and sdb move to vda and vdb, not both to one target")

    # QEMU by DMI, but no KVM signature and no kvm-clock.
    def hidden(t):
        put(t, ".iolab/cpuid", "hypervisor_bit 1\nvendor \n")
    doc = edited("tcg-virtio-scsi", hidden)
    name = "no-kvm-edit"
    ok(doc["virtualization"]["hypervisor"] == "qemu", name + ": QEMU")
    has(doc, "hypervisor-no-kvm", "warning", name=name)
    lacks(doc, "hypervisor-tcg", name)

    # A container fact.
    def container(t):
        put(t, ".iolab/container", "container docker\nnote container=docker\n")
    doc = edited("kvm-virtio-blk", container)
    name = "container-edit"
    ok(doc["virtualization"]["container"] == "docker", name + ": docker")
    has(doc, "container", "info", name=name)

    # A bare-metal AHCI disk is no finding; bfq on an SSD is.
    def metal(t):
        put(t, ".iolab/cpuid", "hypervisor_bit 0\nvendor \n")
        for a in ("sys_vendor", "product_name", "product_version",
                  "bios_vendor", "bios_version"):
            put(t, "sys/class/dmi/id/" + a, "Dell Inc.\n")
        put(t, "sys/block/sda/device/model", "Samsung SSD 870\n")
        put(t, "sys/block/sda/queue/rotational", "0\n")
        put(t, "sys/block/sda/queue/scheduler", "mq-deadline [bfq] none\n")
    doc = edited("tcg-ahci-q35", metal)
    name = "metal-edit"
    ok(doc["virtualization"]["hypervisor"] == "none" and
       not doc["virtualization"]["virtualized"] and
       doc["virtualization"]["vmm"] == "bare-metal", name + ": bare metal")
    sda = doc["disks"][0]
    ok(sda["kind"] == "native" and sda["controller"] == "SATA controller "
       "(AHCI)", name + ": a real AHCI controller")
    for fid in ("emulated-sata", "hypervisor-tcg", "guest-agent-channel",
                "tuned-profile", "device-names"):
        lacks(doc, fid, name)
    f = has(doc, "io-scheduler", "warning", "sda", name)
    ok("echo mq-deadline > /sys/block/sda/queue/scheduler" in cmds(f),
       name + ": switch bfq to mq-deadline (one queue)")


def test_text_and_determinism():
    for name in sorted(os.listdir(FIX)):
        path = os.path.join(FIX, name)
        if not os.path.isdir(path):
            continue
        rc, out, err = run(["doctor", "--sysroot", path])
        ok(rc in (0, 4) and out.startswith("iolab doctor: ") and
           "Verdict:" in out and "Disk " in out and not err,
           name + ": text report")
        ok(("CRITICAL" in out) == (rc == 4), name + ": exit 4 iff critical")
        a = json.loads(run(["doctor", "--sysroot", path, "--json"])[1])
        b = json.loads(run(["doctor", "--sysroot", path, "--json"])[1])
        # Two runs may straddle a second: the write time is the one field
        # that may differ.
        for doc in (a, b):
            ok(doc.pop("time_utc", None) is not None,
               name + ": JSON says when it was written")
        ok(a == b, name + ": same JSON twice")
        check_fix_merge(a, name)
        check_platform_fit(a, name, out)


test_ide("tcg-ide-piix", "apt", "update-initramfs -u -k all",
         "apt-get install -y qemu-guest-agent")
test_ide("sles15-ide-piix", "zypper", "dracut -f --regenerate-all",
         "zypper --non-interactive install qemu-guest-agent")
test_ahci("tcg-ahci-q35", "apt", "update-initramfs -u -k all",
          "apt-get install -y qemu-guest-agent")
test_ahci("ol9-ahci-q35", "dnf", "dracut -f --regenerate-all",
          "dnf install -y qemu-guest-agent")
test_virtio_scsi()
test_nvme()
test_virtio_blk()
test_lsi("tcg-lsi", "apt", "apt-get install -y tuned")
test_lsi("centos7-lsi", "yum", "yum install -y tuned")
test_kvm()
test_lvm()
test_merge()
test_platforms()
test_edited()
test_text_and_determinism()
if not os.path.isdir(FIX):
    fail("no fixtures at " + FIX)
done()
