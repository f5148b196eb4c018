# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab doctor on the machine the tests run on, checked against sysfs.

The facts doctor reports are compared with what this script reads itself
(/sys/block, the driver links, kvm-clock); the probe is checked to read a
loop device without changing one byte of it.
"""
import hashlib
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import done, ok, run, run_json, skip, tmpdir  # noqa: E402

HIDDEN = ("loop", "ram", "zram", "sr", "fd")


def sysfs(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def driver_of(disk):
    link = "/sys/block/%s/device/driver" % disk
    if not os.path.islink(link):
        return None
    return os.path.basename(os.readlink(link))


def test_live_facts():
    doc = run_json(["doctor"], check=None)
    rc = run(["doctor", "--json"])[0]
    ok(rc in (0, 4), "exit 0 or 4 (got %d)" % rc)
    crit = [f for f in doc["findings"] if f["severity"] == "critical"]
    ok((rc == 4) == bool(crit), "exit 4 exactly when a finding is critical")
    names = {d["name"]: d for d in doc["disks"]}
    for disk in sorted(os.listdir("/sys/block")):
        if disk.startswith(HIDDEN) or sysfs("/sys/block/%s/hidden" % disk) \
                == "1":
            ok(disk not in names, disk + " hidden without --all")
            continue
        ok(disk in names, disk + " listed")
        if disk not in names:
            continue
        d = names[disk]
        size = sysfs("/sys/block/%s/size" % disk)
        ok(size is not None and d["size_bytes"] == int(size) * 512,
           disk + ": size_bytes from sysfs")
        drv = driver_of(disk)
        if drv and drv != "sd":
            ok(d["driver"] == drv, "%s: driver %s (got %s)" % (
                disk, drv, d["driver"]))
        sched = sysfs("/sys/block/%s/queue/scheduler" % disk)
        if sched and "[" in sched:
            want = sched.split("[")[1].split("]")[0]
            ok(d["scheduler"] == want, disk + ": scheduler " + want)
        mq = "/sys/block/%s/mq" % disk
        if os.path.isdir(mq):
            ok(d["queues"] == len(os.listdir(mq)), disk + ": queue count")
    if os.path.isdir("/sys/block/vda") and driver_of("vda") == "virtio_blk":
        vda = names.get("vda", {})
        ok(vda.get("driver") == "virtio_blk" and
           vda.get("bus") == "virtio-blk" and
           vda.get("kind") == "paravirtual", "vda identified as virtio_blk")
    clocks = sysfs("/sys/devices/system/clocksource/clocksource0/"
                   "available_clocksource") or ""
    v = doc["virtualization"]
    if "kvm-clock" in clocks:
        # kvm-clock says a KVM-compatible hypervisor, not which one: other
        # VMMs (PVM, bhyve) offer it too. CPUID's vendor names it.
        ok(v["virtualized"] and v.get("kvm_clock") is True,
           "kvm-clock present: virtualized, kvm_clock reported")
        vendor = ((v.get("cpuid") or {}).get("vendor") or "").strip()
        if vendor.startswith("KVMKVMKVM"):
            ok(v["hypervisor"] == "kvm",
               "CPUID vendor KVMKVMKVM: hypervisor kvm")
    cpuinfo = sysfs("/proc/cpuinfo") or ""
    flags = [line for line in cpuinfo.splitlines()
             if line.startswith("flags")]
    if flags:
        ok(doc["virtualization"]["virtualized"] ==
           (" hypervisor" in flags[0]), "virtualized matches the CPU flag")
    rel = sysfs("/proc/sys/kernel/osrelease")
    ok(doc["system"]["kernel"] == rel, "kernel release")
    ok(doc["system"]["cpus"] == os.cpu_count(), "CPU count")
    ok(doc["source"]["live"] is True, "source: live")


def test_text():
    rc, out, err = run(["doctor"])
    ok(rc in (0, 4) and out.startswith("iolab doctor: ") and
       "Verdict:" in out and "Guest side" in out, "text report")
    if os.path.isdir("/sys/block/vda"):
        ok("Disk vda: " in out, "text report has Disk vda")
    ok(err == "", "nothing on stderr without a capture")


def test_usage():
    rc, out, _ = run(["doctor", "--help"])
    ok(rc == 0 and "--sysroot" in out and "--capture" in out and
       "--probe" in out and "4 at least one critical" in out, "--help")
    rc, _, err = run(["doctor", "--bogus"])
    ok(rc == 1 and err.startswith("iolab: "), "unknown flag: exit 1")
    rc, _, err = run(["doctor", "extra"])
    ok(rc == 1, "no operands: exit 1")
    rc, _, err = run(["doctor", "--sysroot", "/nonexistent/tree"])
    ok(rc == 1 and "--sysroot" in err and err.count("\n") == 1,
       "missing --sysroot: one line, exit 1")
    with tmpdir() as d:
        rc, _, err = run(["doctor", "--sysroot", d, "--probe"])
        ok(rc == 1 and "--probe" in err, "--probe with --sysroot: exit 1")
    rc, _, err = run(["doctor", "--probe-time", "1ms"])
    ok(rc == 1, "--probe-time below 100ms refused")


def sha(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def test_probe_reads_only():
    with tmpdir() as d:
        back = os.path.join(d, "probe.img")
        with open(back, "wb") as f:
            f.write(os.urandom(16 << 20))
        before = sha(back)
        with loopdev_over(back) as dev:
            name = os.path.basename(dev)
            doc = run_json(["doctor", "--all", "--probe", "--probe-time",
                            "300ms", "--no-progress"], check=None)
            disks = {x["name"]: x for x in doc["disks"]}
            p = disks.get(name, {}).get("probe") or {}
            ok(p.get("error") is None and p.get("ios", 0) > 0 and
               p["lat_ns"]["p50"] > 0 and p["engine"] == "sync" and
               p["bs_bytes"] == 4096, "probe of %s measured reads" % name)
            ok(p.get("lat_ns", {}).get("min", 0) <= p.get("lat_ns", {}).get(
                "p50", 0) <= p.get("lat_ns", {}).get("max", 0),
               "probe latencies ordered")
            for x in doc["disks"]:
                q = x["probe"]
                ok(q is not None and (q["ios"] > 0 or q["error"]),
                   "%s: probed or says why not" % x["name"])
        ok(sha(back) == before, "the probe changed no byte of the device")


class loopdev_over:
    """A loop device over an existing file (the helper makes its own)."""

    def __init__(self, path):
        self.path = path
        self.dev = None

    def __enter__(self):
        p = subprocess.run(["losetup", "--find", "--show", self.path],
                           capture_output=True, text=True)
        if p.returncode:
            skip("cannot set up a loop device: " + p.stderr.strip())
        self.dev = p.stdout.strip()
        return self.dev

    def __exit__(self, *a):
        subprocess.run(["losetup", "-d", self.dev])


test_live_facts()
test_text()
test_usage()
if os.geteuid() == 0 and os.path.exists("/dev/loop-control"):
    test_probe_reads_only()
else:
    print("SKIP probe test: needs root and loop devices")
done()
