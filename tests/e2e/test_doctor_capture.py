# SPDX-License-Identifier: GPL-2.0-or-later
"""--capture then --sysroot: a support ticket diagnoses exactly as live.

The JSON of a live run that captured must equal the JSON of the capture
diagnosed with --sysroot, everything but argv, options and source; the
same for a capture of a capture, and for recorded probe results.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import done, ok, run, tmpdir  # noqa: E402

VOLATILE = ("argv", "options", "source", "time_utc")


def body(text):
    doc = json.loads(text)
    for k in VOLATILE:
        doc.pop(k, None)
    return doc


def diff(a, b, path=""):
    """First difference between two JSON values, for the failure message."""
    if type(a) is not type(b):
        return path
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return path + "/" + k
            d = diff(a[k], b[k], path + "/" + k)
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return path + "[len]"
        for i, (x, y) in enumerate(zip(a, b)):
            d = diff(x, y, "%s[%d]" % (path, i))
            if d:
                return d
        return None
    return None if a == b else path


def round_trip(extra, what, check=None):
    """Capture with @extra flags, replay with those that apply to a tree;
    then @check(capture_dir, live_doc)."""
    replay = [a for a in extra if a in ("--all",)]
    with tmpdir() as d:
        cap = os.path.join(d, "cap")
        rc1, live, err = run(["doctor", "--json", "--capture", cap] + extra)
        ok(rc1 in (0, 4) and "captured what doctor read into" in err,
           what + ": capture ran (exit %d)" % rc1)
        rc2, tree, _ = run(["doctor", "--json", "--sysroot", cap] + replay)
        a, b = body(live), body(tree)
        ok(a == b, what + ": --sysroot on the capture reproduces the live "
           "JSON (first difference: %s)" % diff(a, b))
        ok(rc1 == rc2, what + ": same exit status")
        src = json.loads(tree)["source"]
        ok(src["live"] is False and src["captured_by"] and
           src["captured_by"].startswith("iolab "), what + ": source says "
           "captured by iolab")
        # A capture of the capture diagnoses the same again.
        cap2 = os.path.join(d, "cap2")
        rc3, again, _ = run(["doctor", "--json", "--sysroot", cap,
                             "--capture", cap2] + replay)
        rc4, tree2, _ = run(["doctor", "--json", "--sysroot", cap2] +
                            replay)
        ok(body(again) == a and body(tree2) == a and rc3 == rc4 == rc1,
           what + ": a capture of the capture diagnoses the same")
        if check:
            check(cap, json.loads(live))


def check_tree(cap, doc):
    facts = os.path.join(cap, ".iolab")
    ok(all(os.path.isfile(os.path.join(facts, f))
           for f in ("cpuid", "processes", "container", "capture")),
       "non-file facts saved under /.iolab")
    ok(not os.path.exists(os.path.join(cap, "proc", "1", "environ")),
       "PID 1's environment is not captured")
    ok(os.path.islink(os.path.join(cap, "sys", "block", doc["disks"][0][
        "name"])) if doc["disks"] else True,
       "/sys/block entries captured as symlinks")
    total = 0
    for root, _, files in os.walk(cap):
        for f in files:
            p = os.path.join(root, f)
            if not os.path.islink(p):
                total += os.path.getsize(p)
    ok(total < 1 << 20, "the capture is small (%d bytes of files)" % total)


def test_live_round_trip():
    round_trip([], "live", check_tree)


def test_probe_round_trip():
    if os.geteuid() != 0 or not os.path.exists("/dev/loop-control"):
        print("SKIP probe round trip: needs root and loop devices")
        return
    with tmpdir() as d:
        back = os.path.join(d, "p.img")
        with open(back, "wb") as f:
            f.write(os.urandom(8 << 20))
        p = subprocess.run(["losetup", "--find", "--show", back],
                           capture_output=True, text=True)
        if p.returncode:
            print("SKIP probe round trip: " + p.stderr.strip())
            return
        dev = p.stdout.strip()
        def probed(cap, doc):
            loops = [x for x in doc["disks"]
                     if x["name"] == os.path.basename(dev)]
            ok(loops and loops[0]["probe"]["ios"] > 0 and os.path.isfile(
                os.path.join(cap, ".iolab", "probe", loops[0]["name"])),
               "probe: the loop device's results recorded and replayed")
        try:
            round_trip(["--all", "--probe", "--probe-time", "200ms",
                        "--no-progress"], "probe", probed)
        finally:
            subprocess.run(["losetup", "-d", dev])


def test_refusals():
    with tmpdir() as d:
        busy = os.path.join(d, "busy")
        os.mkdir(busy)
        with open(os.path.join(busy, "keep.txt"), "w") as f:
            f.write("mine\n")
        rc, out, err = run(["doctor", "--capture", busy])
        ok(rc == 1 and "not empty" in err and out == "",
           "--capture into a non-empty directory refused")
        ok(os.listdir(busy) == ["keep.txt"], "nothing written there")
        f = os.path.join(d, "file")
        open(f, "w").close()
        rc, _, err = run(["doctor", "--capture", f])
        ok(rc == 1 and "not a directory" in err, "--capture onto a file")
        rc, _, err = run(["doctor", "--capture",
                          os.path.join(d, "no", "such", "parent")])
        ok(rc == 1 and "cannot create" in err, "--capture without parent")
        empty = os.path.join(d, "empty")
        os.mkdir(empty)
        rc, _, _ = run(["doctor", "--capture", empty, "--json"])
        ok(rc in (0, 4) and os.listdir(empty), "an empty directory is used")
        rc, _, err = run(["doctor", "--sysroot", empty, "--capture", empty])
        ok(rc == 1, "--capture and --sysroot the same directory refused")


def test_planted_links():
    """Nothing is written through a link planted at or in the capture."""
    with tmpdir() as d:
        victim = os.path.join(d, "victim")
        os.mkdir(victim)
        link = os.path.join(d, "cap")
        os.symlink(victim, link)
        rc, out, err = run(["doctor", "--capture", link])
        ok(rc == 1 and "symbolic link" in err and out == "",
           "--capture onto a link to an empty directory refused (%d: %s)"
           % (rc, err.strip()))
        ok(os.listdir(victim) == [], "nothing written where the link points")
        # A directory others may write to: they could plant links in it.
        shared = os.path.join(d, "shared")
        os.mkdir(shared)
        os.chmod(shared, 0o777)
        rc, out, err = run(["doctor", "--capture", shared])
        ok(rc == 2 and "others may write" in err,
           "--capture into a world-writable directory refused (%d: %s)"
           % (rc, err.strip()))
        ok(os.listdir(shared) == [], "nothing written into it")
        if os.geteuid() == 0:
            theirs = os.path.join(d, "theirs")
            os.mkdir(theirs, 0o755)
            os.chown(theirs, 65534, 65534)
            rc, out, err = run(["doctor", "--capture", theirs])
            ok(rc == 2 and "another user" in err and
               os.listdir(theirs) == [],
               "--capture into another user's directory refused")
        # -o inside the capture tree's parent through a planted link: the
        # report replaces the link; the file it pointed to is untouched.
        target = os.path.join(d, "precious")
        with open(target, "w") as f:
            f.write("precious\n")
        olink = os.path.join(d, "report.txt")
        os.symlink(target, olink)
        rc, out, err = run(["doctor", "--capture", os.path.join(d, "c2"),
                            "-o", olink])
        ok(rc in (0, 4) and open(target).read() == "precious\n" and
           not os.path.islink(olink) and os.path.getsize(olink) > 0,
           "-o through a planted link replaces the link, not its target")


test_live_round_trip()
test_probe_round_trip()
test_refusals()
test_planted_links()
done()
