# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab lab --check PROFILE end to end with real QEMU guests under TCG.

Two booted cells (aio=threads with cache=none and cache=unsafe, etcd's
profile, 1 s per step, a 32 MiB disk) in JSON: each guest ran iolab check
on its own disk and sent check's document back; each cell's verdict is
the guest's, except that cache=unsafe (QEMU drops the flushes) is never a
pass and never named among the passing. Then a refused cell in the text
table, and the usage errors before any guest boots.
"""
import glob
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import done, fail, ok, run, skip, tmpdir  # noqa: E402

QEMU = shutil.which("qemu-system-x86_64")
STATIC = os.environ.get("IOLAB_STATIC")
if not QEMU or not shutil.which("qemu-img"):
    skip("qemu-system-x86_64 or qemu-img not installed")
if not glob.glob("/boot/vmlinuz-*"):
    skip("no guest kernel in /boot")
if not STATIC or not os.access(STATIC, os.X_OK):
    skip("no static iolab (IOLAB_STATIC); this build cannot link one")

SHORT = ["--accel", "tcg", "--disk-size", "32M", "--time", "1s",
         "--iolab-static", STATIC, "--no-progress"]
CRIT = ["wal-fdatasync-p99", "wal-appends-rate"]


def env_with_tmp(d):
    e = dict(os.environ)
    e["TMPDIR"] = d
    return e


def check_json():
    with tmpdir() as d:
        disk = os.path.join(d, "images")
        tmp = os.path.join(d, "tmp")
        os.mkdir(disk)
        os.mkdir(tmp)
        rc, out, err = run(["lab", "--check", "etcd"] + SHORT + [
            "--aio", "threads", "--cache", "none,unsafe", "--disk", disk,
            "--json"], env=env_with_tmp(tmp), timeout=600)
        ok(rc == 0, "2-cell lab --check exits 0 whatever the verdicts "
           "(rc %d; stderr %s)" % (rc, err[-800:]))
        try:
            doc = json.loads(out)
        except ValueError:
            fail("lab --check --json is not JSON: %r" % out[:300])
            return
        ok(doc["options"].get("check") == "etcd" and
           doc["options"].get("check_time_s") == 1.0,
           "options: check etcd, 1 s per step")
        by = {c["cache"]: c for c in doc.get("cells", [])}
        for cache in ("none", "unsafe"):
            c = by.get(cache, {})
            if not ok(c.get("status") == "ok",
                      "%s: ok (%r)" % (cache, c.get("reason"))):
                continue
            r = c.get("result") or {}
            ok(r.get("command") == "check" and r.get("profile") == "etcd"
               and r.get("partial") is False,
               "%s: the guest sent iolab check's document" % cache)
            ok(r.get("environment", {}).get("target_type") == "block" and
               r["environment"].get("driver") == "virtio_blk",
               "%s: check ran on the guest's virtio-blk disk" % cache)
            steps = r.get("steps") or [{}]
            res = steps[0].get("result") or {}
            wr = (res.get("write") or {}).get("ios", 0)
            fl = (res.get("flush") or {}).get("count", 0)
            ok(wr > 0 and wr - 1 <= fl <= wr,
               "%s: the guest flushed after each write (%r writes, %r "
               "flushes)" % (cache, wr, fl))
            k = c.get("check") or {}
            ok([x["id"] for x in k.get("criteria", [])] == CRIT,
               "%s: both criteria, in the profile's order" % cache)
            guest = {x["id"]: x for x in r.get("criteria", [])}
            for x in k.get("criteria", []):
                g = guest.get(x["id"], {})
                ok(x["verdict"] == g.get("verdict") and
                   x["value"] is not None and
                   abs(x["value"] - g.get("value", -1)) <= 1e-3 * x["value"],
                   "%s %s: the guest's figure %.4g and verdict %s" % (
                       cache, x["id"], x["value"] or 0, x["verdict"]))
            ok(k.get("guest_verdict") == r.get("verdict"),
               "%s: the guest's own verdict kept (%s)" % (
                   cache, r.get("verdict")))
        none = (by.get("none") or {}).get("check") or {}
        ok(none.get("verdict") == none.get("guest_verdict") and
           none.get("keeps_data_on_power_loss") is True and
           none.get("not_a_pass_because") is None,
           "cache=none: the guest's verdict stands (%s)" % none.get(
               "verdict"))
        unsafe = (by.get("unsafe") or {}).get("check") or {}
        ok(unsafe.get("verdict") in ("fail", "inconclusive") and
           unsafe.get("keeps_data_on_power_loss") is False,
           "cache=unsafe is never a pass (%s; the guest said %s)" % (
               unsafe.get("verdict"), unsafe.get("guest_verdict")))
        if unsafe.get("guest_verdict") == "pass":
            ok("unsafe" in (unsafe.get("not_a_pass_because") or ""),
               "a guest's pass under unsafe says why it is none")
        text = doc.get("recommendation", {}).get("text") or []
        ok(text and not any("unsafe" in line for line in text
                            if line.startswith("Pass")),
           "unsafe is never named among the passing: %r" % text)
        ok(os.listdir(disk) == [], "no image left (%r)" % os.listdir(disk))
        ok(os.listdir(tmp) == [], "no initramfs left (%r)" % os.listdir(tmp))


def check_text_refused():
    with tmpdir() as d:
        rc, out, err = run(["lab", "--check", "etcd"] + SHORT + [
            "--aio", "native", "--cache", "unsafe", "--disk", d],
            env=env_with_tmp(d), timeout=300)
        ok(rc == 0 and "refused[1]" in out and "wal-fdatasync-p99" in out
           and "on host power loss" in out and
           "aio=native was specified" in out,
           "text table with QEMU's refusal (rc %d %s)" % (rc, err[-300:]))
        ok("No cell that keeps data on host power loss passes etcd" in out,
           "nothing passes when nothing ran")
        ok(os.listdir(d) == [], "nothing left behind (%r)" % os.listdir(d))


def check_usage():
    for extra, words in [(["--csv"], "--json"),
                         (["--time", "500ms"], "at least 1s"),
                         (["--preset", "cdm6"], "drop --preset")]:
        rc, out, err = run(["lab", "--check", "etcd"] + extra)
        ok(rc == 1 and words in err, "%s refused: %s" % (
            " ".join(extra), err.strip()))
    rc, out, err = run(["lab", "--check", "nosuch"])
    ok(rc == 1 and "check --list" in err, "an unknown profile is refused")


check_usage()
check_text_refused()
check_json()
done()
