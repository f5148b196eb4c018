# SPDX-License-Identifier: GPL-2.0-or-later
"""`iolab run` as a user types it: bad input gets one clear line and the
documented exit code; files iolab did not create are never written."""
import hashlib
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, run, run_json, done, tmpdir, files_like  # noqa: E402,E501

Q = ["--no-progress"]


def refused(args, code, needle, what, cwd=None):
    rc, out, err = run(args + Q, cwd=cwd)
    lines = [l for l in err.splitlines() if l.strip()]
    ok(rc == code and needle in err and len(lines) == 1 and out == "",
       "%s: exit %d, one line: %s" % (what, rc, err.strip()))


with tmpdir() as d:
    f = os.path.join(d, "t.dat")
    refused(["run", f, "--bs", "4x"], 1, "--bs", "bad size")
    refused(["run", f, "--runtime", "5 parsecs"], 1, "--runtime",
            "bad duration")
    refused(["run", f, "--qd", "0"], 1, "--qd", "zero queue depth")
    refused(["run", f, "--batch", "0"], 1, "--batch", "zero submit batch")
    refused(["run", f, "--rw", "sideways"], 1, "randread", "bad --rw")
    refused(["run", f, "--engine", "spdk"], 1, "io_uring", "bad engine")
    refused(["run", f, "--cache", "fast"], 1, "writeback", "bad cache mode")
    refused(["run", f, "--engine", "sync", "--qd", "8"], 1,
            "--engine threads", "sync with QD>1")
    refused(["run", f, "--mix", "50"], 1, "--mix", "--mix without a mix")
    refused(["run", f, "--flush-every", "4"], 1, "needs writes",
            "flush without writes")
    refused(["run", f, "--qdepth", "4"], 1, "did you mean '--qd'",
            "misspelt flag with a suggestion")
    refused(["run", f, "extra"], 1, "extra operand", "two targets")
    refused(["run", "--runtime", "10", "sec"], 1, "reads as a unit",
            "a unit split off its value is no test file")
    refused(["run", "--cpus", "4096"], 1, "--cpus",
            "a CPU this machine does not have")
    refused(["run", f, "--engine", "native", "--cache", "writeback"], 2,
            "cache.direct=on", "native + writeback refused like QEMU")
    refused(["run", f, "--percentiles", "50,101"], 1, "--percentiles",
            "percentile above 100")
    # A directory, as fio, ioping and CrystalDiskMark take it: the test
    # file goes inside it, and is removed after.
    doc = run_json(["run", d, "--size", "8M", "--runtime", "200ms",
                    "--no-progress"])
    ok(doc and doc["environment"]["target"] ==
       os.path.join(d, "iolab-test.dat") and
       not os.path.exists(os.path.join(d, "iolab-test.dat")),
       "a directory: the test file inside it, removed after")
    refused(["run", "/dev/null"], 1, "not a regular file",
            "a character device")
    refused(["run", "/nonexistent-dir/x.dat", "--size", "1M"], 1,
            "cannot create", "missing directory")
    refused(["run", f, "--size", "100T"], 2, "not enough free space",
            "a test file larger than the disk")
    refused(["bogus"], 1, "unknown command", "unknown command")
    # A documented unit that is not a multiple of 4096: the O_DIRECT fill
    # works (the file is rounded up to 4 KiB), the region is as given.
    rc, out, err = run(["run", f, "--size", "1MB", "--runtime", "200ms",
                        "--json"] + Q)
    ok(rc == 0 and not os.path.exists(f),
       "--size 1MB creates, runs and removes the file (exit %d): %s" %
       (rc, err.strip()))
    ok(not os.path.exists(f), "no file left behind by refusals")

    # An existing file is read, never written, unless allowed.
    user = os.path.join(d, "user.dat")
    with open(user, "wb") as fh:
        fh.write(os.urandom(8 << 20))
    before = hashlib.sha256(open(user, "rb").read()).hexdigest()
    rc, out, err = run(["run", user, "--runtime", "200ms"] + Q)
    ok(rc == 0 and "IOPS" in out, "an existing file is read")
    refused(["run", user, "--rw", "write"], 2, "--allow-write-file",
            "existing file not written without the flag")
    ok(hashlib.sha256(open(user, "rb").read()).hexdigest() == before and
       os.path.exists(user), "the user's file is untouched and kept")
    rc, out, err = run(["run", user, "--rw", "randwrite", "--runtime",
                        "200ms", "--allow-write-file"] + Q)
    ok(rc == 0 and os.path.exists(user),
       "--allow-write-file writes it and keeps it")
    refused(["run", user, "--size", "16M"], 1, "past the end",
            "--size beyond an existing file")

    # Sparse files are flagged.
    sparse = os.path.join(d, "sparse.dat")
    with open(sparse, "wb") as fh:
        fh.truncate(16 << 20)
    rc, out, err = run(["run", sparse, "--runtime", "200ms"] + Q)
    ok(rc == 0 and "holes" in out, "a sparse file is flagged")

    # The default target is iolab-test.dat in the current directory,
    # created and removed; --keep keeps it.
    rc, out, err = run(["run", "--size", "8M", "--runtime", "200ms"] + Q,
                       cwd=d)
    ok(rc == 0 and "iolab-test.dat" in out and not files_like(d),
       "default target created in the cwd and removed")
    rc, out, err = run(["run", "--size", "8M", "--runtime", "200ms",
                        "--keep"] + Q, cwd=d)
    kept = os.path.join(d, "iolab-test.dat")
    ok(rc == 0 and os.path.exists(kept) and
       os.path.getsize(kept) == 8 << 20, "--keep keeps the full-size file")
    ok(os.stat(kept).st_blocks * 512 >= 8 << 20, "the test file is not sparse")
    data = open(kept, "rb").read(1 << 20)
    ok(len(set(data[i:i + 4096] for i in range(0, len(data), 4096))) == 256,
       "the test file holds distinct (incompressible) data")
    # The kept file is iolab's own: the next command writes it without
    # --allow-write-file, and leaves it there.
    rc, out, err = run(["run", "--rw", "randwrite", "--runtime", "200ms"] +
                       Q, cwd=d)
    ok(rc == 0 and "kept test file" in out and os.path.exists(kept),
       "a kept test file is reused for writes (exit %d): %s" %
       (rc, err.strip()))
    # Not a copy of it, nor the file once cut, nor a forged mark.
    copy = os.path.join(d, "copy.dat")
    subprocess.run(["cp", "--preserve=xattr", kept, copy], check=True)
    refused(["run", copy, "--rw", "randwrite"], 2, "did not create",
            "a copy of a kept file is not iolab's")
    forged = os.path.join(d, "forged.dat")
    with open(forged, "wb") as fh:
        fh.write(b"x" * (1 << 20))
    try:
        os.setxattr(forged, "user.iolab",
                    b"iolab test file 1 dev=1 ino=1 size=1048576")
    except OSError:
        pass
    refused(["run", forged, "--rw", "randwrite"], 2, "did not create",
            "a forged mark naming another inode")
    os.truncate(kept, 4 << 20)
    refused(["run", kept, "--rw", "randwrite"], 2, "did not create",
            "a kept file cut since is not recognised")
    for p in (kept, copy, forged):
        os.unlink(p)

    # --output writes the report to a file; not onto the target.
    rep = os.path.join(d, "report.txt")
    rc, out, err = run(["run", f, "--size", "8M", "--runtime", "200ms",
                        "-o", rep] + Q)
    ok(rc == 0 and out == "" and "IOPS" in open(rep).read(),
       "--output receives the report")
    refused(["run", user, "-o", user], 1, "the target itself",
            "--output onto the target")

    rc, out, err = run(["run", "--help"])
    ok(rc == 0 and "--allow-write-device" in out and "--rate-iops" in out,
       "--help lists the flags")
    rc, out, err = run(["--version"])
    ok(rc == 0 and out.startswith("iolab "), "--version")
done()
