# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab probe as cron and a shell use it: --once on stdout and into
--textfile, checked by promtool and by a strict parser of the format; the
histogram's invariants; a target that is missing, a FIFO, a sparse file;
label escaping of hostile names; the textfile never written through a
planted link; --write on the probe's own file (--dir), refused on anything
else; the own file created safely and removed; --from: a real mark result and
the golden calibrate one as gauges, other documents refused; usage
errors."""
import json
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


def histogram_ok(fams, target, op="read"):
    buckets = [(s[1]["le"], s[2]) for s in
               fams["iolab_probe_latency_seconds"]["samples"]
               if s[0].endswith("_bucket") and s[1]["target"] == target and
               s[1]["op"] == op]
    les = [float(le) for le, _ in buckets]
    counts = [c for _, c in buckets]
    count = promtext.value(fams, "iolab_probe_latency_seconds_count",
                           target=target, op=op)
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

    # --write: only on the probe's own file, which it creates and removes
    own = os.path.join(d, "own")
    os.mkdir(own)
    rc, out, err = run(["probe", "--once", "--no-doctor", "--write", "--dir",
                        own], timeout=60)
    ok(rc == 0, "--write --dir: exit 0 (%s)" % err[-300:])
    promtool_ok(out, "--write output")
    fams = promtext.parse(out)
    ownfile = os.path.join(own, "iolab-probe.dat")
    ok(promtext.value(fams, "iolab_probe_up", target=ownfile) == 1 and
       histogram_ok(fams, ownfile) == 1,
       "--dir: the probe's own file read once")
    for op in ("write", "flush"):
        ok(histogram_ok(fams, ownfile, op) == 1 and
           promtext.value(fams, "iolab_probe_errors_total", target=ownfile,
                          op=op) == 0,
           "--write: one %s timed, no error" % op)
    ok(promtext.value(fams, "iolab_probe_zero_reads_total",
                      target=ownfile) == 0,
       "the own file holds random data: no zero read")
    ok(os.listdir(own) == [], "the own file removed on exit")
    rc, out, err = run(["probe", "--once", "--no-doctor", "--dir", own, data],
                       timeout=60)
    fams = promtext.parse(out)
    ok(rc == 0 and "op=\"write\"" not in out and
       promtext.value(fams, "iolab_probe_up", target=data) == 1,
       "without --write: no write or flush series, TARGETs beside --dir")

    # --write refused on what probe did not create: one line, nothing written
    refused = [(data, "an existing file")]
    if os.geteuid() == 0 and shutil.which("losetup"):
        refused.append((None, "a block device"))
    for target, what in refused:
        if target is None:
            with loopdev(16, under=d) as dev:
                with open(dev, "rb") as f:
                    dbefore = f.read(1 << 20)
                rc, out, err = run(["probe", "--once", "--write", dev])
                with open(dev, "rb") as f:
                    same = f.read(1 << 20) == dbefore
        else:
            rc, out, err = run(["probe", "--once", "--write", target])
            same = open(target, "rb").read() == before
        ok(rc == 1 and out == "" and err.count("\n") == 1 and
           "only to a file probe created itself" in err and same,
           "--write on %s: refused, the rule named (%s)" % (what, err.strip()))
    rc, out, err = run(["probe", "--once", "--write", "--disks"])
    ok(rc == 1 and "only to a file probe created itself" in err,
       "--write --disks: refused (%s)" % err.strip())

    # the own file: never an existing file, never through a link
    with open(ownfile, "w") as f:
        f.write("foreign\n")
    rc, out, err = run(["probe", "--once", "--write", "--dir", own])
    ok(rc == 2 and open(ownfile).read() == "foreign\n" and
       "not a file a probe left" in err,
       "a foreign file at the own file's name: kept, refused (%s)" %
       err.strip())
    os.unlink(ownfile)
    os.symlink(victim, ownfile)
    rc, out, err = run(["probe", "--once", "--write", "--dir", own])
    ok(rc == 2 and open(victim).read() == "keep me\n",
       "a link planted at the own file's name: not followed (%s)" %
       err.strip())
    os.unlink(ownfile)
    # a leftover of a killed probe (its magic, size, owner) is replaced
    with open(ownfile, "wb") as f:
        f.write(b"iolab-probe v1\n\0" + b"\1" * ((16 << 20) - 16))
    rc, out, err = run(["probe", "--once", "--no-doctor", "--dir", own])
    ok(rc == 0 and os.listdir(own) == [],
       "a killed probe's leftover: replaced, then removed (%s)" % err.strip())
    os.symlink(own, os.path.join(d, "ownlink"))
    rc, out, err = run(["probe", "--once", "--dir",
                        os.path.join(d, "ownlink")])
    ok(rc == 2 and "symbolic link" in err and os.listdir(own) == [],
       "--dir through a link: refused (%s)" % err.strip())

    # the default targets: an own file beside each local filesystem, here
    # a new ext4 (root: a loop device) and not the tmpfs mounted beside it
    if (os.geteuid() == 0 and shutil.which("losetup") and
            shutil.which("mkfs.ext4") and shutil.which("mount")):
        with loopdev(128, under=d) as dev:
            mnt, tmp = os.path.join(d, "mnt"), os.path.join(d, "tmpfs")
            os.mkdir(mnt)
            os.mkdir(tmp)
            mounted = []
            for cmd, where in [(["mkfs.ext4", "-q", "-F", dev], None),
                               (["mount", dev, mnt], mnt),
                               (["mount", "-t", "tmpfs", "-o", "size=40m",
                                 "none", tmp], tmp)]:
                p = subprocess.run(cmd, capture_output=True, text=True)
                if p.returncode:
                    print("skip the default targets: %s: %s" %
                          (cmd[0], p.stderr.strip()))
                    break
                if where:
                    mounted.append(where)
            try:
                if len(mounted) == 2:
                    rc, out, err = run(["probe", "--once", "--no-doctor",
                                        "--write"], timeout=120)
                    fams = promtext.parse(out)
                    targets = {x[1]["target"] for x in
                               fams["iolab_probe_up"]["samples"]}
                    own = os.path.join(mnt, "iolab-probe.dat")
                    ok(rc == 0 and own in targets and
                       all(t.endswith("/iolab-probe.dat") for t in targets)
                       and not [t for t in targets if t.startswith(tmp)],
                       "no TARGET: an own file at the top of each local "
                       "filesystem, none on tmpfs (%s; %s)" %
                       (sorted(targets), err.strip()[-300:]))
                    ok(promtext.value(fams, "iolab_probe_up", target=own) == 1
                       and histogram_ok(fams, own, "flush") == 1,
                       "no TARGET --write: the new filesystem's file read, "
                       "written and flushed")
                    ok(os.listdir(mnt) == ["lost+found"],
                       "its file removed on exit (%s)" % os.listdir(mnt))
                    rc, out, err = run(["probe", "--once", "--dir", tmp])
                    ok(rc == 2 and "must leave" in err and
                       os.listdir(tmp) == [],
                       "a filesystem the file would nearly fill (40 MiB): "
                       "refused (%s)" % err.strip())
            finally:
                for m in reversed(mounted):
                    subprocess.run(["umount", m])
    else:
        print("skip the default targets: needs root, losetup, mkfs.ext4")

    # --from: saved results as gauges, checked like every exposition
    mark_json = os.path.join(d, "mark.json")
    rc, out, err = run(["mark", "--tests", "RND4K-Q1T1", "--only", "read",
                        "--runs", "1", "--time", "300ms", "--interval", "0",
                        "--size", "16M", "--json"], cwd=d, timeout=120)
    ok(rc == 0, "a small mark run for --from (%s)" % err.strip()[-300:])
    with open(mark_json, "w") as f:
        f.write(out)
    want_iops = json.loads(out)["tests"][0]["read"]["iops"]["mean"]
    want_mbps = json.loads(out)["tests"][0]["read"]["mbps"]["max"]
    rc, out, err = run(["probe", "--from", mark_json])
    ok(rc == 0 and err == "", "--from mark.json: exit 0 (%s)" % err.strip())
    fams = promtext.parse(out)
    promtool_ok(out, "--from a mark result")
    ok(all(fams[n]["type"] == "gauge" and fams[n]["help"] for n in fams),
       "--from mark: every family a gauge with HELP (%s)" % sorted(fams))
    iops = promtext.value(fams, "iolab_mark_iops", test="RND4K Q1T1",
                          dir="read", stat="mean")
    bps = promtext.value(fams, "iolab_mark_bytes_per_second",
                         test="RND4K Q1T1", dir="read", stat="max")
    ok(iops is not None and iops > 0 and abs(iops - want_iops) < 1e-6 and
       bps is not None and abs(bps - want_mbps * 1e6) < 1,
       "--from mark: iops %s and bytes/s %s are the file's %s and %s MB/s" %
       (iops, bps, want_iops, want_mbps))
    ok(not any(s[1].get("dir") == "write"
               for s in fams["iolab_mark_iops"]["samples"]) and
       promtext.value(fams, "iolab_result_info", command="mark") == 1,
       "--from mark: no write series for a read-only run; result_info")
    tfdir = os.path.join(d, "tf-from")
    os.mkdir(tfdir)
    rc, out2, err = run(["probe", "--from", mark_json, "--textfile", tfdir,
                         "--textfile-name", "mark.prom"])
    ok(rc == 0 and out2 == "" and os.listdir(tfdir) == ["mark.prom"] and
       open(os.path.join(tfdir, "mark.prom")).read() == out,
       "--from into --textfile DIR/NAME: the same exposition, no temp left")
    golden = os.path.join(os.path.dirname(__file__), "..", "fixtures",
                          "golden", "calibrate-vda.json")
    rc, out, err = run(["probe", "--from", golden])
    ok(rc == 0, "--from calibrate-vda.json: exit 0 (%s)" % err.strip())
    fams = promtext.parse(out)
    promtool_ok(out, "--from a calibrate result")
    ok(promtext.value(fams, "iolab_calibrate_max_iops",
                      target="iolab-test.dat") == 70385 and
       promtext.value(fams, "iolab_calibrate_max_bytes_per_second") ==
       1266.8e6 and
       abs(promtext.value(fams, "iolab_calibrate_latency_seconds",
                          stat="mean") - 0.001816) < 1e-12 and
       promtext.value(fams, "iolab_calibrate_cap_met") == 1,
       "--from calibrate: max_iops 70385, 1266.8 MB/s in bytes, 1.816 ms "
       "in seconds, cap met")
    other = os.path.join(d, "doctor.json")
    rc, out, err = run(["doctor", "--json"])
    with open(other, "w") as f:
        f.write(out)
    bad = os.path.join(d, "bad.json")
    with open(bad, "w") as f:
        f.write('{"schema_version": 1, "tool": {"name": "iolab"')
    empty = os.path.join(d, "nomark.json")
    with open(empty, "w") as f:
        f.write('{"schema_version": 1, "tool": {"name": "iolab", '
                '"version": "0"}, "command": "mark", "tests": []}')
    for path, what in [(other, "a doctor document"), (bad, "truncated JSON"),
                       (empty, "a mark document without tests")]:
        rc, out, err = run(["probe", "--from", path, "--textfile", tfdir,
                            "--textfile-name", "refused.prom"])
        ok(rc == 1 and out == "" and len(err.strip().splitlines()) == 1 and
           err.startswith("iolab: ") and
           sorted(os.listdir(tfdir)) == ["mark.prom"],
           "--from %s: refused in one line, exit 1, nothing written (%s)" %
           (what, err.strip()))
    rc, out, err = run(["probe", "--from", d])
    ok(rc == 2 and out == "", "--from a directory: exit 2 (%s)" % err.strip())

    # usage
    for args, what in [(["--once", "--disks", data], "--disks with a TARGET"),
                       (["--once", "--disks", "--dir", d], "--disks with --dir"),
                       (["--once", "--textfile", d, "--textfile-name",
                         "../x.prom", data], "a --textfile-name with a /"),
                       (["--once", "--textfile", d, "--textfile-name",
                         "x.txt", data], "a --textfile-name not .prom"),
                       (["--once", "--textfile-name", "x.prom", data],
                        "--textfile-name without --textfile"),
([data], "no output named"),
                       (["--from", data, data], "--from with a TARGET"),
                       (["--from", data, "--once"], "--from with --once"),
                       (["--once", "--listen", ":0", data], "--once with --listen"),
                       (["--once", "--interval", "10ms", data], "--interval below 100ms"),
                       (["--once", "--bs", "1000", data], "--bs not a multiple of 4 KiB"),
                       (["--listen", "nohost:x", data], "a bad --listen")]:
        rc, out, err = run(["probe"] + args, timeout=60)
        ok(rc == 1 and err.startswith("iolab: ") and out == "",
           "usage: %s: exit 1 (%s)" % (what, err.strip()))
done()
