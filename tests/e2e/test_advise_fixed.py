#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab advise --write-fixed and --diff, checked by the real consumers.

- Every QEMU command-line fixture (tests/fixtures/advise/qemu) is
  rewritten with --write-fixed; each QEMU command line of the corrected
  file is started with qemu-system-x86_64 -S -display none -accel tcg on
  scratch images (qemu-img create) and must reach QMP's "prelaunch"
  state. Only what cannot exist here is changed for the start (KVM, the
  host's files, fds, sockets and tap devices, RAM size, machine versions
  this QEMU lacks); every disk, controller, device, iothread and PCI
  address stays as the corrected file has it.
- Every libvirt fixture's corrected file passes virt-xml-validate and, if
  libvirt defines the input, `virsh -c test:///default define`.
- The copy differs from the input only in the lines the fixes change,
  the input is never written, an existing PATH or a symbolic link is
  refused, and `patch` applied to the --diff output gives the same file.
"""
import difflib
import glob
import hashlib
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, run, done, tmpdir  # noqa: E402

FIX = os.path.join(os.environ.get("IOLAB_SRC", "."), "tests", "fixtures",
                   "advise")
# Command lines where a device a fix adds could take a slot another asks
# for (their own fixtures: not part of the golden output).
FIX_PCI = os.path.join(os.environ.get("IOLAB_SRC", "."), "tests",
                       "fixtures", "advise-fixed")
QEMU = shutil.which("qemu-system-x86_64")
QEMU_IMG = shutil.which("qemu-img")
PROG = re.compile(r"(^|/)(qemu-system-[A-Za-z0-9_.-]+|qemu-kvm|kvm)$")

# Options that need the host this command line was written for.
DROP_ARG = {"-cpu", "-pidfile", "-vnc", "-iscsi", "-mon", "-chardev",
            "-serial", "-boot", "-id", "-sandbox", "-audiodev", "-display",
            "-accel", "-spice", "-qmp", "-monitor", "-k", "-runas",
            "-chroot"}
DROP = {"-enable-kvm", "-daemonize", "-no-shutdown", "-S", "-nographic"}
NOARG = {"-no-user-config", "-nodefaults", "-no-hpet", "-no-acpi",
         "-no-reboot", "-snapshot"}


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def commands(text):
    """The QEMU command lines of a file: (options) per command."""
    logical = re.sub(r"\\\r?\n", " ", text)
    cmds = []
    prog_seen = False
    for line in logical.splitlines():
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            continue
        for i, w in enumerate(words):
            if PROG.search(w):
                prog_seen = True
                cmds.append(words[i + 1:])
                break
    if not prog_seen:
        # options only (an argument file): every word of the file
        cmds = [shlex.split(logical, comments=True)]
    return cmds


def split_opts(s):
    """QEMU key=value options (",," escapes a comma)."""
    out, cur, i = [], "", 0
    while i < len(s):
        if s[i] == ",":
            if s[i + 1:i + 2] == ",":
                cur += ","
                i += 2
                continue
            out.append(cur)
            cur = ""
        else:
            cur += s[i]
        i += 1
    out.append(cur)
    return out


def join_opts(parts):
    return ",".join(p.replace(",", ",,") for p in parts)


class Scratch:
    """One scratch image per path the command line names."""

    def __init__(self, tmp):
        self.tmp, self.paths = tmp, {}

    def get(self, path):
        if path not in self.paths:
            fmt = "qcow2" if path.endswith(".qcow2") else "raw"
            p = os.path.join(self.tmp, "img%d.%s" % (len(self.paths), fmt))
            subprocess.run([QEMU_IMG, "create", "-q", "-f", fmt, p, "64M"],
                           check=True, timeout=60)
            self.paths[path] = p
        return self.paths[path]


def machines():
    r = subprocess.run([QEMU, "-machine", "help"], capture_output=True,
                       text=True, timeout=60)
    return {ln.split()[0] for ln in r.stdout.splitlines()[1:] if ln.strip()}


def fix_machine(val, known):
    parts = split_opts(val)
    keep = []
    for i, p in enumerate(parts):
        k, _, v = p.partition("=")
        if (i == 0 and "=" not in p) or k == "type":
            t = v if k == "type" else p
            if t not in known:
                # a version or a vendor's type (pc+pve0, pc-q35-rhel9.2.0)
                # this QEMU lacks: the same chipset, unversioned
                t = "q35" if "q35" in t else "pc"
            keep.append(t if i == 0 and "=" not in p else "type=" + t)
        elif k not in ("accel", "memory-backend"):
            keep.append(p)
    return join_opts(keep)


def json_or_kv(val):
    if val.lstrip().startswith("{"):
        return json.loads(val), True
    return None, False


def fix_json_files(obj, scratch):
    if isinstance(obj, dict):
        if obj.get("driver") == "host_device":
            obj["driver"] = "file"
        if "filename" in obj and obj.get("driver") in ("file", None):
            obj["filename"] = scratch.get(obj["filename"])
        for v in obj.values():
            fix_json_files(v, scratch)


def fix_kv_files(val, scratch, keys):
    parts = split_opts(val)
    for i, p in enumerate(parts):
        k, _, v = p.partition("=")
        if k in keys:
            parts[i] = "%s=%s" % (k, scratch.get(v))
        elif k.endswith("driver") and v == "host_device":
            parts[i] = "%s=file" % k
    return join_opts(parts)


def for_here(opts, scratch, known):
    """The command line with the host-only parts replaced (see above)."""
    out, i = [], 0
    while i < len(opts):
        o = opts[i]
        v = opts[i + 1] if i + 1 < len(opts) else None
        name = "-" + o.lstrip("-") if o.startswith("-") else o
        if name in DROP:
            i += 1
            continue
        if name in NOARG:
            out.append(name)
            i += 1
            continue
        i += 2
        if name in DROP_ARG:
            continue
        if name == "-m":
            out += ["-m", "256"]
        elif name in ("-machine", "-M"):
            out += ["-machine", fix_machine(v, known)]
        elif name == "-object":
            j, is_json = json_or_kv(v)
            kind = j.get("qom-type") if is_json else split_opts(v)[0]
            if kind == "iothread":
                out += ["-object", v]
        elif name == "-netdev":
            j, is_json = json_or_kv(v)
            nid = j["id"] if is_json else [
                p[3:] for p in split_opts(v) if p.startswith("id=")][0]
            out += ["-netdev", "user,id=" + nid]
        elif name == "-device":
            j, is_json = json_or_kv(v)
            if (j and "chardev" in j) or (not is_json and "chardev=" in v):
                continue
            out += ["-device", v]
        elif name == "-drive":
            out += ["-drive", fix_kv_files(v, scratch, ("file",))]
        elif name == "-blockdev":
            j, is_json = json_or_kv(v)
            if is_json:
                fix_json_files(j, scratch)
                out += ["-blockdev", json.dumps(j)]
            else:
                out += ["-blockdev", fix_kv_files(
                    v, scratch, ("filename", "file.filename"))]
        elif name == "-set":
            out += ["-set", v]
        elif v is not None:
            out += [name, v]
    return out


def qmp_status(sock):
    """QMP's query-status of the QEMU at @sock; asks it to quit."""
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(30)
    s.connect(sock)
    f = s.makefile("rw")
    f.readline()  # greeting
    for c in ("qmp_capabilities", "query-status"):
        f.write(json.dumps({"execute": c}) + "\n")
        f.flush()
        while True:
            r = json.loads(f.readline())
            if "return" in r or "error" in r:
                break
    f.write(json.dumps({"execute": "quit"}) + "\n")
    f.flush()
    s.close()
    return r.get("return", {}).get("status")


def qmp_started(args, tmp, label, want=True):
    """Start QEMU stopped; check that QMP says it is in prelaunch (or,
    with want=False, that QEMU refuses to start)."""
    sock = os.path.join(tmp, "qmp.sock")
    if os.path.exists(sock):
        os.unlink(sock)
    cmd = [QEMU] + args + ["-S", "-display", "none", "-accel", "tcg",
                           "-qmp", "unix:%s,server=on,wait=off" % sock]
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    status = None
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and p.poll() is None:
            if not os.path.exists(sock):
                time.sleep(0.2)
                continue
            try:
                status = qmp_status(sock)
            except (OSError, ValueError):
                status = None  # QEMU exited while we asked
            break
    finally:
        if p.poll() is None:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
        _, err = p.communicate()
    if not want:
        ok(status is None, "%s: QEMU refuses it: %s" % (
            label, err.strip()[-200:]))
        return
    ok(status == "prelaunch", "%s: QEMU starts the corrected command line "
       "(status %s)%s" % (label, status,
                          "" if status else ": " + err.strip()[-400:] +
                          "\n  " + shlex.join(cmd)))


def check_qemu(tmp):
    if not (QEMU and QEMU_IMG):
        print("SKIP QEMU start: qemu-system-x86_64 or qemu-img missing")
        return 0
    known = machines()
    n = 0
    for src in sorted(glob.glob(os.path.join(FIX, "qemu", "*")) +
                      glob.glob(os.path.join(FIX_PCI, "*"))):
        if src.endswith(".json"):
            continue
        name = os.path.basename(src)
        out = os.path.join(tmp, name + ".fixed")
        rc, _, err = run(["advise", "--no-probe", "--qemu-args-file", src,
                          "--write-fixed", out])
        ok(rc in (0, 4) and os.path.exists(out),
           "%s: --write-fixed wrote the corrected copy (%s)" % (name, err))
        if not os.path.exists(out):
            continue
        with open(out) as f:
            cmds = commands(f.read())
        for k, opts in enumerate(cmds):
            scratch = Scratch(tmp)
            qmp_started(for_here(opts, scratch, known), tmp,
                        "%s#%d" % (name, k + 1))
            n += 1
    # The control: without the slot the fix names, the new virtio-blk-pci
    # takes slot 3, which the NIC asks for after it.
    with open(os.path.join(tmp, "i440fx-ide-slot3.sh.fixed")) as f:
        bare = re.sub(r",bus=pci\.0,addr=0x1f\b", "", f.read())
    for opts in commands(bare):
        qmp_started(for_here(opts, Scratch(tmp), known), tmp,
                    "i440fx-ide-slot3.sh without the new device's addr=",
                    want=False)
    ok(n >= 8, "%d corrected QEMU command lines started" % n)
    return n


def defines(path):
    r = subprocess.run(["virsh", "-q", "-c", "test:///default", "define",
                        path], capture_output=True, text=True, timeout=60)
    return r.returncode == 0, (r.stdout + r.stderr).strip()[-300:]


def check_libvirt(tmp):
    if not (shutil.which("virt-xml-validate") and shutil.which("virsh")):
        print("SKIP libvirt: virt-xml-validate or virsh missing "
              "(libvirt-clients; scripts/deps.sh --test)")
        return
    n = 0
    for src in sorted(glob.glob(os.path.join(FIX, "libvirt", "*.xml"))):
        name = os.path.basename(src)
        with open(src) as f:
            text = f.read()
        if "<memory" not in text:
            # libvirt wants one; it has nothing to do with the disks
            text = re.sub(r"(</name>\n)",
                          r"\1  <memory unit='KiB'>1048576</memory>\n",
                          text, count=1)
        inp = os.path.join(tmp, "in-" + name)
        with open(inp, "w") as f:
            f.write(text)
        out = os.path.join(tmp, "fixed-" + name)
        rc, _, err = run(["advise", "--no-probe", "--libvirt", inp,
                          "--write-fixed", out])
        if rc == 1:
            continue  # malformed on purpose (broken.xml)
        ok(os.path.exists(out), "%s: corrected copy written (%s)"
           % (name, err.strip()))
        if not os.path.exists(out):
            continue
        with open(out) as f:
            fixed = f.read()
        gone = [ln for ln in difflib.ndiff(text.splitlines(),
                                           fixed.splitlines())
                if ln.startswith("- ")]
        ok(all(re.match(r"- *<(driver|target|iothreads|controller|"
                        r"address type='(drive|usb)')", ln) for ln in gone),
           "%s: only changed elements differ (children and comments as "
           "written): %s" % (name, gone))
        r = subprocess.run(["virt-xml-validate", out, "domain"],
                           capture_output=True, text=True, timeout=60)
        ok(r.returncode == 0, "%s: virt-xml-validate: %s" % (
            name, (r.stdout + r.stderr).strip()[-300:]))
        if defines(inp)[0]:
            good, msg = defines(out)
            ok(good, "%s: virsh define of the corrected copy: %s"
               % (name, msg))
        n += 1
    ok(n >= 6, "%d corrected libvirt files checked" % n)


def check_file_rules(tmp):
    src = os.path.join(FIX, "proxmox", "etc", "pve", "qemu-server",
                       "108.conf")
    inp = os.path.join(tmp, "108.conf")
    shutil.copy(src, inp)
    before = sha(inp)
    out = os.path.join(tmp, "108-fixed.conf")
    run(["advise", "--no-probe", "--proxmox", inp, "--write-fixed", out])
    ok(sha(inp) == before, "the input is not written")
    with open(inp) as f:
        a = f.read().splitlines()
    with open(out) as f:
        b = f.read().splitlines()
    changed = [x for x, y in zip(a, b) if x != y]
    ok(len(a) == len(b) and changed and
       all(re.match(r"(boot|ide\d|scsi\d|scsihw):", x) for x in changed),
       "only the lines the fixes change differ: %s" % changed)
    ok(all(re.match(r"(boot|scsi\d|scsihw|ide2):", y) or y in a for y in b),
       "the other lines are kept as they are")
    rc, _, err = run(["advise", "--no-probe", "--proxmox", inp,
                      "--write-fixed", out])
    ok(rc == 2 and "exists" in err, "an existing PATH is refused: %s"
       % err.strip())
    link = os.path.join(tmp, "link.conf")
    os.symlink(os.path.join(tmp, "elsewhere.conf"), link)
    rc, _, err = run(["advise", "--no-probe", "--proxmox", inp,
                      "--write-fixed", link])
    ok(rc == 2 and not os.path.exists(os.path.join(tmp, "elsewhere.conf")),
       "a symbolic link is not followed: %s" % err.strip())
    rc, _, err = run(["advise", "--no-probe", "--qemu-args", "-m 1",
                      "--diff"])
    ok(rc == 1, "--diff needs one input file: %s" % err.strip())
    if shutil.which("patch"):
        for kind, f in (("--proxmox", inp),
                        ("--qemu-args-file", os.path.join(
                            FIX, "qemu", "start-vm.sh")),
                        ("--libvirt", os.path.join(
                            FIX, "libvirt", "two-sata-metadata-cache.xml"))):
            rc, diff, err = run(["advise", "--no-probe", kind, f, "--diff"])
            cp = os.path.join(tmp, "patched")
            shutil.copy(f, cp)
            p = subprocess.run(["patch", "-s", cp], input=diff, text=True,
                               capture_output=True, timeout=60)
            fixed = os.path.join(tmp, "via-write")
            if os.path.exists(fixed):
                os.unlink(fixed)
            run(["advise", "--no-probe", kind, f, "--write-fixed", fixed])
            ok(p.returncode == 0 and sha(cp) == sha(fixed),
               "%s: patch(1) with the --diff output gives the "
               "--write-fixed copy %s" % (os.path.basename(f), p.stderr))


def main():
    with tmpdir() as tmp:
        check_file_rules(tmp)
        check_libvirt(tmp)
        check_qemu(tmp)
    done()


main()
