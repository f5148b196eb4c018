# SPDX-License-Identifier: GPL-2.0-or-later
"""Every engine x cache mode reads and writes a real temp file.

The refused pair (native with a buffered cache mode) must exit 2 with QEMU's
reason, and run under --force with a warning. Writes under directsync and
writethrough, flushes and skipped flushes are checked through the JSON.
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, run, run_json, done, tmpdir  # noqa: E402

ENGINES = ["io_uring", "native", "threads", "sync", "null"]
CACHES = ["none", "directsync", "writethrough", "writeback", "unsafe"]


def short(engine):
    return ["--runtime", "300ms", "--size", "16M", "--bs", "4k",
            "--qd", "1" if engine == "sync" else "4", "--engine", engine,
            "--no-progress"]


with tmpdir() as d:
    for engine in ENGINES:
        for cache in CACHES:
            refused = engine == "native" and cache in (
                "writethrough", "writeback", "unsafe")
            f = os.path.join(d, "t-%s-%s.dat" % (engine, cache))
            args = ["run", f, "--rw", "randrw", "--flush-every", "8",
                    "--cache", cache] + short(engine)
            if refused:
                rc, out, err = run(args)
                ok(rc == 2, "%s/%s refused with exit 2 (got %d)" %
                   (engine, cache, rc))
                ok("requires cache.direct=on" in err,
                   "%s/%s refusal quotes QEMU" % (engine, cache))
                ok(not os.path.exists(f), "refused run created no file")
                doc = run_json(args + ["--force"])
                if doc:
                    ok(any(w["id"] == "native-buffered"
                           for w in doc["warnings"]),
                       "--force measures it with a warning")
                continue
            doc = run_json(args)
            if not doc:
                continue
            job = doc["jobs"][0]
            name = "%s/%s" % (engine, cache)
            ok(job["engine"] == engine and job["cache"] == cache,
               name + ": settings echoed")
            ok(job["read"]["ios"] > 0 and job["write"]["ios"] > 0,
               name + ": read %d, write %d I/Os" %
               (job["read"]["ios"], job["write"]["ios"]))
            ok(job["errors"]["count"] == 0, name + ": no I/O errors")
            w = job["write"]["ios"]
            if cache == "unsafe":
                ok(job["flush"]["count"] == 0 and
                   job["flush"]["skipped"] >= w // 8 - 4,
                   name + ": flushes skipped (%d), none issued" %
                   job["flush"]["skipped"])
            else:
                ok(job["flush"]["count"] >= w // 8 - 4 and
                   job["flush"]["skipped"] == 0,
                   name + ": %d flushes for %d writes" %
                   (job["flush"]["count"], w))
                if job["flush"]["count"]:
                    ok(job["flush"]["lat_ns"]["mean"] > 0,
                       name + ": flush latency timed apart")
            ok(job["read"]["lat_ns"]["percentiles"][-1]["p"] == 99.99,
               name + ": percentiles reported")
            ok(not os.path.exists(f), name + ": test file removed")

    # Durability: writethrough/directsync open the target O_DSYNC (every
    # write durable at completion); writeback/none do not. Checked in the
    # system calls, not by timing.
    if shutil.which("strace"):
        for cache, dsync, direct in (("writethrough", True, False),
                                     ("directsync", True, True),
                                     ("writeback", False, False),
                                     ("none", False, True)):
            f = os.path.join(d, "dsync-%s.dat" % cache)
            p = subprocess.run(
                ["strace", "-f", "-e", "trace=openat", IOLAB, "run", f,
                 "--rw", "randwrite", "--size", "4M", "--engine", "sync",
                 "--ios", "64", "--cache", cache, "--no-progress"],
                capture_output=True, text=True,
                # LeakSanitizer cannot run under ptrace.
                env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
            # Jobs reopen the file through the descriptor iolab created
            # it with, never by name (issue 13).
            opens = [l for l in p.stderr.splitlines()
                     if "/proc/self/fd/" in l and "O_RDWR" in l]
            ok(not [l for l in p.stderr.splitlines()
                    if f in l and "O_CREAT" not in l and
                    "O_PATH" not in l],
               "cache=%s: the test file is not reopened by name" % cache)
            ok(p.returncode == 0 and opens and
               all(("O_DSYNC" in l) == dsync and
                   ("O_DIRECT" in l) == direct for l in opens),
               "cache=%s opens the target with O_DSYNC=%s O_DIRECT=%s" %
               (cache, dsync, direct))
    else:
        print("note: strace not installed; O_DSYNC check skipped")
done()
