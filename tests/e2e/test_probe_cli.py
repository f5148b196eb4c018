# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab probe as cron and a shell use it: --once on stdout and into
--textfile, checked by promtool and by a strict parser of the format; the
histogram's invariants; a target that is missing, a FIFO, a sparse file;
label escaping of hostile names; the textfile never written through a
planted link; usage errors."""
import os
import shutil
import stat
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import run, ok, done, tmpdir, loopdev  # noqa
import promtext  # noqa

PROMTOOL = shutil.which("promtool")


def promtool_ok(text, what):
    if not PROMTOOL:
        print("skip promtool check of %s: promtool not installed "
              "(Debian package prometheus)" % what)
        return
    p = subprocess.run([PROMTOOL, "check", "metrics"], input=text,
                       capture_output=True, text=True, timeout=60)
    ok(p.returncode == 0 and not p.stdout.strip() and not p.stderr.strip(),
       "promtool check metrics accepts %s, no lint (%s%s)" % (
           what, p.stdout[-500:], p.stderr[-500:]))


def histogram_ok(fams, target):
    buckets = [(s[1]["le"], s[2]) for s in
               fams["iolab_probe_latency_seconds"]["samples"]
               if s[0].endswith("_bucket") and s[1]["target"] == target]
    les = [float(le) for le, _ in buckets]
    counts = [c for _, c in buckets]
    count = promtext.value(fams, "iolab_probe_latency_seconds_count",
                           target=target, op="read")
    ok(les == sorted(les) and les[-1] == float("inf") and
       abs(les[0] - 16e-6) < 1e-12 and len(les) == 23,
       "%s: buckets 16us << k up to +Inf (%s)" % (target, les[:3]))
    ok(counts == sorted(counts) and counts[-1] == count,
       "%s: buckets cumulative, +Inf = count" % target)
    return count


with tmpdir() as d:
    data = os.path.join(d, "data.img")
    with open(data, "wb") as f:
        f.write(os.urandom(4 << 20))
    sparse = os.path.join(d, "sparse.img")
    with open(sparse, "wb") as f:
        f.truncate(4 << 20)
    fifo = os.path.join(d, "fifo")
    os.mkfifo(fifo)
    hostile = os.path.join(d, 'we"ird\\na\nm\xe9')
    shutil.copy(data, hostile)
    # as the label shows it: the newline as \x0a, UTF-8 kept
    hostile_label = hostile.replace("\n", "\\x0a")
    missing = os.path.join(d, "missing.img")
    before = open(data, "rb").read()

    rc, out, err = run(["probe", "--once", "--no-doctor", data, sparse, fifo,
                        hostile, missing], timeout=60)
    ok(rc == 0, "--once: exit 0 (%s)" % err[-300:])
    promtool_ok(out, "--once output")
    try:
        fams = promtext.parse(out)
    except ValueError as e:
        ok(False, "--once output parses: %s" % e)
        done()
    for name, typ in [("iolab_build_info", "gauge"),
                      ("iolab_probe_up", "gauge"),
                      ("iolab_probe_latency_seconds", "histogram"),
                      ("iolab_probe_errors_total", "counter"),
                      ("iolab_probe_zero_reads_total", "counter"),
                      ("iolab_probe_stalled_seconds", "gauge")]:
        ok(fams.get(name, {}).get("type") == typ and fams[name].get("help"),
           "%s: a %s with HELP" % (name, typ))
    ok("iolab_finding" not in fams, "--no-doctor: no iolab_finding")
    v = promtext.value
    ok(v(fams, "iolab_probe_up", target=data) == 1 and
       histogram_ok(fams, data) == 1,
       "a written file: up, one read counted")
    ok(v(fams, "iolab_probe_zero_reads_total", target=data) == 0,
       "random data: no zero read")
    ok(v(fams, "iolab_probe_zero_reads_total", target=sparse) == 1,
       "a sparse file: its read counted as a zero read")
    ok(v(fams, "iolab_probe_up", target=hostile_label) == 1 and
       histogram_ok(fams, hostile_label) == 1,
       "a name with quote, backslash, newline and UTF-8: escaped, parsed "
       "back")
    ok(v(fams, "iolab_probe_up", target=fifo) == 0 and
       v(fams, "iolab_probe_errors_total", target=fifo, op="read") == 1,
       "a FIFO: refused without blocking, counted as an error")
    ok(v(fams, "iolab_probe_up", target=missing) == 0 and
       v(fams, "iolab_probe_latency_seconds_count", target=missing,
         op="read") == 0 and "missing.img" in err,
       "a missing target: up 0, no read, the reason on stderr")
    ok(open(data, "rb").read() == before and
       os.path.getsize(sparse) == 4 << 20,
       "targets unchanged: the probe never writes")
    ok(any(n.startswith("iolab_disk_") and n.endswith("_total")
           for n in fams) or not os.path.exists("/proc/diskstats"),
       "kernel diskstats exported as iolab_disk_*_total")

    # doctor's findings, as info-style gauges
    rc, out, err = run(["probe", "--once", data], timeout=120)
    fams = promtext.parse(out)
    ok(rc == 0 and fams.get("iolab_finding", {}).get("type") == "gauge" and
       all(s[2] == 1 and set(s[1]) == {"rule", "severity", "disk"}
           for s in fams["iolab_finding"]["samples"]) and
       all(s[2] == 1 and "disk" in s[1] and "bus" in s[1]
           for s in fams.get("iolab_disk_info", {"samples": []})["samples"]),
       "doctor: iolab_finding{rule,severity,disk} 1 and iolab_disk_info 1")
    promtool_ok(out, "--once with doctor")

    # --textfile: a new file, atomically, never through a planted link
    tf = os.path.join(d, "textfile")
    os.mkdir(tf)
    victim = os.path.join(d, "victim")
    with open(victim, "w") as f:
        f.write("keep me\n")
    os.symlink(victim, os.path.join(tf, "iolab.prom"))
    os.symlink(victim, os.path.join(tf, ".iolab.prom.%d.tmp" % 1))
    rc, out, err = run(["probe", "--once", "--no-doctor", "--textfile", tf,
                        data], timeout=60)
    prom = os.path.join(tf, "iolab.prom")
    st = os.lstat(prom)
    ok(rc == 0 and out == "" and stat.S_ISREG(st.st_mode) and
       open(victim).read() == "keep me\n",
       "--textfile: a link planted at iolab.prom is replaced, not followed")
    ok(stat.S_IMODE(st.st_mode) == 0o644, "--textfile: mode 0644")
    ok(sorted(os.listdir(tf)) == [".iolab.prom.1.tmp", "iolab.prom"],
       "--textfile: no temporary file left behind")
    text = open(prom).read()
    promtool_ok(text, "the textfile")
    ok(promtext.value(promtext.parse(text), "iolab_probe_up",
                      target=data) == 1, "--textfile: the target's series")
    link = os.path.join(d, "link")
    os.symlink(tf, link)
    rc, out, err = run(["probe", "--once", "--textfile", link, data])
    ok(rc == 2 and "symbolic link" in err,
       "--textfile through a link to a directory: refused (%s)" % err.strip())

    # a block device (root: a loop device over a file of random data)
    if os.geteuid() == 0 and shutil.which("losetup"):
        with loopdev(16, under=d) as dev:
            with open(dev, "wb") as f:
                f.write(os.urandom(16 << 20))
            rc, out, err = run(["probe", "--once", "--no-doctor", dev])
            fams = promtext.parse(out)
            ok(rc == 0 and promtext.value(fams, "iolab_probe_up",
                                          target=dev) == 1 and
               histogram_ok(fams, dev) == 1,
               "a block device: read, one read counted (%s)" % err.strip())
            ok(promtext.value(fams, "iolab_disk_reads_completed_total",
                              disk=os.path.basename(dev)) is not None,
               "its kernel counters exported with disk=%s" %
               os.path.basename(dev))
    else:
        print("skip the block device: needs root and losetup")

    # usage
    for args, what in [([data], "no output named"),
                       (["--once", "--listen", ":0", data], "--once with --listen"),
                       (["--once", "--interval", "10ms", data], "--interval below 100ms"),
                       (["--once", "--bs", "1000", data], "--bs not a multiple of 4 KiB"),
                       (["--listen", "nohost:x", data], "a bad --listen")]:
        rc, out, err = run(["probe"] + args, timeout=60)
        ok(rc == 1 and err.startswith("iolab: ") and out == "",
           "usage: %s: exit 1 (%s)" % (what, err.strip()))
done()
