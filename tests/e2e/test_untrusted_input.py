# SPDX-License-Identifier: GPL-2.0-or-later
"""Untrusted input (issue 13): configuration files, other users' processes,
sysfs trees and result files are read safely.

- a Proxmox drive option without '=' (a use-after-free under ASan) and a
  repeated storage.cfg key (a leak under ASan's leak check) are clean;
- a libvirt XML with an entity referenced many times is refused at once
  (no expansion), with bounded memory and exit 2;
- a directory, a FIFO, an empty file, NUL bytes or an oversized file as a
  config or result is one error line and exit 2, never a VM without disks;
- escape sequences in a running process's argv, a Proxmox config, a doctor
  --sysroot tree or a compare input never reach the output raw;
- compare and report of two 4,000-job results finish (a hang guard, not a
  timing).
"""
import glob
import json
import os
import resource
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, done, ok, run, tmpdir  # noqa: E402

SRC = os.environ.get("IOLAB_SRC", os.path.join(os.path.dirname(__file__),
                                               "..", ".."))
FIX = os.path.join(SRC, "tests", "fixtures")
ESC = "\x1b]52;c;aGVsbG8=\x07"  # OSC 52: write "hello" to the clipboard
CSI = "\x1b[2J"  # clear the screen


def write(path, data, mode="w"):
    with open(path, mode) as f:
        f.write(data)
    return path


def no_raw_escape(what, *texts):
    ok(all("\x1b" not in t and "\x07" not in t and "\x9b" not in t
           for t in texts), what + ": no raw control character")


def one_line(err):
    return len(err.strip().splitlines()) == 1


def entity_bomb(d):
    # One 1 KiB entity, nested four deep and referenced from text and
    # attributes: gigabytes if expanded.
    ents = ['<!ENTITY a0 "%s">' % ("x" * 1024)]
    for i in range(1, 5):
        ents.append('<!ENTITY a%d "%s">' % (i, ("&a%d;" % (i - 1)) * 32))
    refs = "&a4;" * 64
    xml = ('<?xml version="1.0"?>\n<!DOCTYPE domain [%s]>\n'
           '<domain type="kvm"><name>%s</name><devices>'
           '<disk type="file" device="disk"><source file="%s"/>'
           '<target dev="vda" bus="virtio"/></disk></devices></domain>\n'
           % ("".join(ents), refs, refs))
    return write(os.path.join(d, "bomb.xml"), xml)


def test_entity_bomb(d):
    # First: RUSAGE_CHILDREN's maxrss is the largest child so far.
    path = entity_bomb(d)
    rc, out, err = run(["advise", "--no-probe", "--libvirt", path],
                       timeout=60)
    rss_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    ok(rc == 2, "entity bomb: exit 2 (got %d)" % rc)
    ok("DOCTYPE" in err and "entit" in err and one_line(err),
       "entity bomb: one line naming the DOCTYPE/entity: %r" % err)
    ok(not out, "entity bomb: no report")
    ok(rss_mib < 512, "entity bomb: memory bounded (%.0f MiB)" % rss_mib)
    # An external DTD is refused the same way, never fetched.
    ext = write(os.path.join(d, "ext.xml"),
                '<?xml version="1.0"?>\n<!DOCTYPE domain SYSTEM '
                '"file:///etc/passwd">\n<domain><name>x</name></domain>\n')
    rc, _, err = run(["advise", "--no-probe", "--libvirt", ext])
    ok(rc == 2 and "DOCTYPE" in err, "external DTD: refused, exit 2")


def test_proxmox_uaf_and_leak(d):
    conf = write(os.path.join(d, "101.conf"),
                 "name: typo\nscsi0: local:vm-101-disk-0,cachenone\n")
    rc, out, err = run(["advise", "--no-probe", "--proxmox", conf])
    ok(rc == 1 and "'cachenone' is not key=value" in err and one_line(err),
       "drive option without '=': exit 1, names it (rc %d, %r)" % (rc, err))
    ok("AddressSanitizer" not in err, "drive option without '=': no ASan")
    cfg = write(os.path.join(d, "storage.cfg"),
                "dir: a\n\tpath /x\n\tpath /y\n\tpath /srv/a\n"
                "lvm: b\n\tvgname v1\n\tvgname v2\n"
                "rbd: c\n\tpool p1\n\tpool p2\n\tkrbd 1\n")
    conf = write(os.path.join(d, "102.conf"),
                 "name: rep\nscsi0: a:102/vm-102-disk-0.raw,cache=none\n"
                 "scsi1: b:vm-102-disk-1,cache=none\n"
                 "virtio0: c:vm-102-disk-2,cache=none\n")
    rc, out, err = run(["advise", "--no-probe", "--proxmox", conf,
                        "--proxmox-storage", cfg])
    ok(rc in (0, 4) and "LeakSanitizer" not in err and "Sanitizer" not in err,
       "storage.cfg with repeated keys: no leak (rc %d, %r)" % (rc, err[-300:]))
    ok("/srv/a/images/102/vm-102-disk-0.raw" in out and "/dev/v2/" in out
       and "rbd" in out, "storage.cfg: the last repeated key counts")


def test_bad_files(d):
    empty = write(os.path.join(d, "empty"), "")
    nul = write(os.path.join(d, "nul"), b"\0" * 4096, "wb")
    lead_nul = write(os.path.join(d, "leadnul"), b"name: x\n\0\0\0", "wb")
    fifo = os.path.join(d, "fifo")
    os.mkfifo(fifo)
    big = write(os.path.join(d, "big.conf"),
                "name: big\n" + "# padding\n" * (5 << 17))
    sub = os.path.join(d, "dir")
    os.mkdir(sub)
    comments = write(os.path.join(d, "comments.conf"), "# only\n\n")
    for flag in ("--proxmox", "--libvirt", "--qemu-args-file"):
        for name, path, word in (("a directory", sub, "directory"),
                                 ("an empty file", empty, "empty"),
                                 ("NUL bytes", nul, "NUL"),
                                 ("NUL after text", lead_nul, "NUL"),
                                 ("a FIFO", fifo, "not a regular file")):
            rc, out, err = run(["advise", "--no-probe", flag, path],
                               timeout=60)
            ok(rc == 2 and word in err and one_line(err) and
               "no disks" not in out,
               "advise %s with %s: exit 2, one line (rc %d, %r)" % (
                   flag, name, rc, err))
    rc, _, err = run(["advise", "--no-probe", "--proxmox", big])
    ok(rc == 2 and "4 MiB" in err and one_line(err),
       "a 5 MiB Proxmox config: exit 2 naming the 4 MiB limit (%r)" % err)
    rc, out, err = run(["advise", "--no-probe", "--proxmox", comments])
    ok(rc == 1 and "no 'key: value' line" in err and "no disks" not in out,
       "a config of comments only: refused, not a VM without disks")
    conf = write(os.path.join(d, "103.conf"), "name: x\nscsi0: a:vm-1\n")
    rc, _, err = run(["advise", "--no-probe", "--proxmox", conf,
                      "--proxmox-storage", sub])
    ok(rc == 2 and "directory" in err and one_line(err),
       "--proxmox-storage a directory: exit 2 (%r)" % err)
    good = os.path.join(FIX, "golden", "run-qd1.json")
    for cmd in ("compare", "report"):
        for name, path, word in (("a directory", sub, "directory"),
                                 ("an empty file", empty, "empty"),
                                 ("NUL bytes", nul, "NUL"),
                                 ("a FIFO", fifo, "not a regular file")):
            args = [cmd, good, path]
            if cmd == "report":
                args += ["-o", os.path.join(d, "r.html")]
            rc, out, err = run(args, timeout=60)
            ok(rc == 2 and word in err and one_line(err),
               "%s with %s: exit 2, one line (rc %d, %r)" % (cmd, name, rc,
                                                             err))


def test_escape_process(d):
    # Another user's "QEMU": any program whose argv[0] is qemu-system-*;
    # here a shell that keeps its argv while it waits.
    evil = ["qemu-system-x86_64", "-c", "sleep 120; :", "-name",
            "evil" + ESC, "-drive",
            "file=/tmp/vm" + CSI + ".img,if=virtio,cache=none,id=d" + ESC]
    p = subprocess.Popen(evil, executable="/bin/sh")
    try:
        deadline = time.time() + 10
        while time.time() < deadline:
            with open("/proc/%d/cmdline" % p.pid, "rb") as f:
                if b"evil" in f.read():
                    break
            time.sleep(0.05)
        for extra in ([], ["--csv"]):
            rc, out, err = run(["advise", "--running", "--no-probe"] + extra,
                               timeout=120)
            ok(("process:%d" % p.pid) in out or str(p.pid) in out,
               "advise --running %s: the fake QEMU is read" % " ".join(extra))
            no_raw_escape("advise --running " + " ".join(extra), out, err)
        rc, out, err = run(["advise", "--running", "--no-probe", "--json"],
                           timeout=120)
        ok("\\u001b" in out.lower() and "\x1b" not in out,
           "advise --running --json: ESC as \\u001b")
    finally:
        p.kill()
        p.wait()


def test_escape_proxmox(d):
    conf = write(os.path.join(d, "104.conf"),
                 "name: vm" + ESC + "\nostype: l26" + CSI + "\n"
                 "scsi0: local:vm-104-disk-0" + CSI + ",cache=none\n")
    rc, out, err = run(["advise", "--no-probe", "--proxmox", conf])
    ok(rc in (0, 4) and "vm\\x1b]52" in out,
       "advise --proxmox: the name is shown escaped (rc %d)" % rc)
    no_raw_escape("advise --proxmox", out, err)
    conf = write(os.path.join(d, "105.conf"),
                 "name: x\nscsi0: local:vm-1," + ESC + "\n")
    rc, out, err = run(["advise", "--no-probe", "--proxmox", conf])
    ok(rc == 1, "advise --proxmox: a bad option with ESC is an error")
    no_raw_escape("advise --proxmox error message", out, err)


def test_escape_doctor(d):
    tree = os.path.join(d, "tree")
    shutil.copytree(os.path.join(FIX, "doctor", "tcg-lsi"), tree,
                    symlinks=True)
    n = 0
    for root, _, files in os.walk(os.path.join(tree, "sys")):
        for name in files:
            p = os.path.join(root, name)
            if name in ("model", "vendor") and not os.path.islink(p):
                write(p, "QEMU DISK" + ESC + CSI + "\n")
                n += 1
    osr = os.path.join(tree, "etc", "os-release")
    if os.path.islink(osr):
        os.unlink(osr)
    write(osr, 'NAME="Debian"\nPRETTY_NAME="Debian' + ESC + ' 12"\nID=debian\n')
    ok(n > 0, "doctor tree: %d model/vendor files rewritten" % n)
    rc, out, err = run(["doctor", "--sysroot", tree], timeout=120)
    ok(rc in (0, 4) and "\\x1b" in out,
       "doctor --sysroot: the strings are shown escaped (rc %d)" % rc)
    no_raw_escape("doctor --sysroot", out, err)


def test_escape_compare(d):
    with open(os.path.join(FIX, "golden", "run-qd1.json")) as f:
        doc = json.load(f)
    doc["environment"]["target"] = "/tmp/t" + ESC
    doc["warnings"] = [{"id": "x" + CSI, "message": "look" + ESC}]
    doc["jobs"][0]["engine"] = "sync" + CSI
    a = os.path.join(d, "a" + CSI + ".json")
    with open(a, "w") as f:
        json.dump(doc, f)
    b = os.path.join(FIX, "golden", "run-qd16.json")
    for extra in ([], ["--color", "always"], ["--csv"]):
        rc, out, err = run(["compare"] + extra + [a, b])
        ok(rc == 0, "compare %s: exit 0" % " ".join(extra))
        # compare's own colours are ESC [ ... m; nothing else may be.
        stripped = out
        for code in ("\x1b[32m", "\x1b[31m", "\x1b[2m", "\x1b[1m",
                     "\x1b[0m"):
            stripped = stripped.replace(code, "")
        no_raw_escape("compare " + " ".join(extra), stripped, err)
    rc, out, _ = run(["compare", "--json", a, b])
    ok(rc == 0 and "\x1b" not in out and "\\u001b" in out.lower(),
       "compare --json: ESC as \\u001b")
    html = os.path.join(d, "r.html")
    rc, _, err = run(["report", a, b, "-o", html])
    with open(html, encoding="utf-8", errors="replace") as f:
        page = f.read()
    ok(rc == 0, "report: exit 0")
    no_raw_escape("report page and stderr", page, err)


def test_escape_lab(d):
    # A "QEMU" whose version and refusal carry escapes: lab's progress
    # line and its report print both (the version, QEMU's message).
    kernels = glob.glob("/boot/vmlinuz-*")
    if not kernels or not shutil.which("qemu-img"):
        ok(True, "lab: no guest kernel or qemu-img here (not checked)")
        return
    bindir = os.path.join(d, "evilqemu")
    os.makedirs(bindir)
    qemu = write(os.path.join(bindir, "qemu-system-x86_64"),
                 "#!/bin/sh\n"
                 "case \"$*\" in *-version*) printf 'QEMU emulator version"
                 " 7.2.0 %s\\n'; exit 0;; esac\n"
                 "printf 'qemu-system-x86_64: %s refused\\n' >&2\n"
                 "exit 1\n" % (ESC, CSI))
    os.chmod(qemu, 0o755)
    os.symlink(shutil.which("qemu-img"), os.path.join(bindir, "qemu-img"))
    work = os.path.join(d, "labwork")
    os.makedirs(work)
    rc, out, err = run(["lab", "--qemu", qemu, "--accel", "tcg", "--aio",
                        "threads", "--cache", "none", "--tests",
                        "RND4K-Q1T1", "--disk-size", "64M", "--disk",
                        work], timeout=120)
    if rc == 2 and "no static iolab" in err:
        ok(True, "lab: no static iolab in this build (not checked)")
        return
    ok("refused" in out and "\\x1b" in out,
       "lab: QEMU's message shown, its ESC escaped (rc %d: %r)"
       % (rc, (out + err)[-300:]))
    no_raw_escape("lab", out, err)


def big_run(path, n, seed):
    with open(os.path.join(FIX, "golden", "run-qd1.json")) as f:
        doc = json.load(f)
    job = doc["jobs"][0]
    jobs = []
    for i in range(n):
        j = json.loads(json.dumps(job))
        j["read"]["iops"] = 1000 + (i * 7919 + seed) % 200
        jobs.append(j)
    doc["jobs"] = jobs
    with open(path, "w") as f:
        json.dump(doc, f)


def test_compare_many(d):
    a, b = os.path.join(d, "big-a.json"), os.path.join(d, "big-b.json")
    big_run(a, 4000, 1)
    big_run(b, 4000, 2)
    # A hang guard, not a timing: quadratic matching took minutes here.
    rc, out, err = run(["compare", a, b], timeout=240)
    ok(rc == 0 and "job 4000" in out, "compare of 2 x 4000 jobs finishes")
    rc, _, err = run(["report", a, b, "-o", os.path.join(d, "big.html")],
                     timeout=240)
    ok(rc == 0, "report of 2 x 4000 jobs finishes (%r)" % err[-200:])


def main():
    if not os.path.exists(IOLAB):
        print("no iolab binary at " + IOLAB)
        sys.exit(1)
    with tmpdir() as d:
        test_entity_bomb(d)
        test_proxmox_uaf_and_leak(d)
        test_bad_files(d)
        test_escape_process(d)
        test_escape_proxmox(d)
        test_escape_doctor(d)
        test_escape_compare(d)
        test_escape_lab(d)
        test_compare_many(d)
    done()


main()
