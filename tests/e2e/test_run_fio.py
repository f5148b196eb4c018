# SPDX-License-Identifier: GPL-2.0-or-later
"""fio's files and output: `run --fio-job FILE` and `--output-format json`.

The same job file is run by fio (when installed) and by iolab; iolab's
document must have fio's keys where the tools built on fio's JSON read
them, and fio's own json+ consumer (fio_jsonplus_clat2csv) must read it.
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, run, done, tmpdir  # noqa: E402

JOBS = """; two jobs, as people write them
[global]
ioengine=psync
bs=4k
size=8m
filename=t.dat
runtime=300ms
time_based
# stonewall for all: one job after the other
stonewall

[seq-read]
rw=read

[rand-mix]
rw=randrw
rwmixread=70
fdatasync=16
"""

# fio writes these, iolab measures no counterpart (context switches, page
# faults, queue-depth histograms, latency targets): absent, not invented.
NOT_MEASURED = {"ctx", "majf", "minf", "iodepth_level", "iodepth_submit",
                "iodepth_complete", "latency_depth", "latency_target",
                "latency_percentile", "latency_window"}


def write(d, name, text):
    p = os.path.join(d, name)
    with open(p, "w") as f:
        f.write(text)
    return p


def refused(d, body, needle, what):
    p = write(d, "r.fio", body)
    rc, out, err = run(["run", "--fio-job", p, "--no-progress"], cwd=d)
    lines = err.strip().splitlines()
    ok(rc == 1 and len(lines) == 1 and needle in err and
       not os.path.exists(os.path.join(d, "r.dat")) and
       not os.path.exists(os.path.join(d, "iolab-test.dat")),
       "%s: refused in one line naming %r (rc %d: %r)" % (what, needle, rc,
                                                           err))


with tmpdir() as d:
    jf = write(d, "two.fio", JOBS)

    # Text: each job announced with its translation, then run's report.
    rc, out, err = run(["run", "--fio-job", jf, "--no-progress"], cwd=d)
    ok(rc == 0, "job file runs (rc %d, %s)" % (rc, err.strip()[-300:]))
    ok("fio job 'seq-read' (1 of 2): iolab run --rw=read --bs=4096 --qd=1"
       in out and "--engine=sync --cache=writeback" in out,
       "job 1 announced with fio's defaults written out")
    ok("fio job 'rand-mix' (2 of 2)" in out and "--mix=70" in out and
       "--flush-every=16" in out, "job 2: rwmixread, fdatasync translated")
    ok(out.count("measured ") == 2, "two reports")
    ok(not os.path.exists(os.path.join(d, "t.dat")),
       "the test file iolab made is removed")

    # `iolab run JOB.fio`, as `fio JOB.fio`; a NAME.fio that is no job
    # file stays a target.
    rc, out, err = run(["run", "two.fio", "--no-progress", "--runtime",
                        "100ms"], cwd=d)
    ok(rc == 0 and out.count("fio job '") == 2, "iolab run JOB.fio")
    plain = write(d, "plain.fio", "x" * 8192)
    rc, out, err = run(["run", "plain.fio", "--no-progress", "--runtime",
                        "100ms"], cwd=d)
    ok(rc == 0 and "fio job" not in out and "target %s" % "plain.fio" in out,
       "a NAME.fio that is not a job file is a target (%s)" % err.strip())
    os.remove(plain)
    # An operand is the target of the jobs that name none.
    sub = os.path.join(d, "sub")
    os.mkdir(sub)
    nf = write(d, "nf.fio", "[j]\nrw=read\nsize=1m\n")
    rc, out, err = run(["run", "--fio-job", nf, sub, "--no-progress"], cwd=d)
    ok(rc == 0 and "target %s/iolab-test.dat" % sub in out,
       "TARGET on the command line for a job without filename=")

    # The command line wins over the file.
    rc, out, err = run(["run", "--fio-job", jf, "--no-progress", "--bs",
                        "8k"], cwd=d)
    ok(rc == 0 and out.count("read 8 KiB") >= 1,
       "a flag of the command line overrides the job file")

    # fio's JSON, one document for both jobs.
    rc, out, err = run(["run", "--fio-job", jf, "--no-progress",
                        "--output-format", "json"], cwd=d)
    doc = json.loads(out) if rc == 0 else {}
    jobs = doc.get("jobs", [])
    ok([j["jobname"] for j in jobs] == ["seq-read", "rand-mix"],
       "fio JSON: both jobs, in order")
    # The spelling, --json-format fio, is the same layout.
    rc2, out2, _ = run(["run", "--fio-job", jf, "--no-progress",
                        "--json-format", "fio"], cwd=d)
    doc2 = json.loads(out2) if rc2 == 0 else {}
    ok([j["jobname"] for j in doc2.get("jobs", [])] ==
       ["seq-read", "rand-mix"] and sorted(doc2) == sorted(doc),
       "--json-format fio: the same document layout")
    ok(doc.get("global options", {}).get("ioengine") == "psync" and
       jobs and jobs[1]["job options"] == {"rw": "randrw", "rwmixread": "70",
                                   "fdatasync": "16"},
       "global options and job options as written")
    for j in jobs:
        for dn in ("read", "write"):
            dd = j[dn]
            if not dd["total_ios"]:
                continue
            secs = dd["runtime"] / 1000.0
            ok(dd["io_bytes"] == dd["total_ios"] * 4096,
               "%s %s: io_bytes = total_ios x bs" % (j["jobname"], dn))
            ok(abs(dd["iops"] * secs - dd["total_ios"]) <=
               0.01 * dd["total_ios"] + 1,
               "%s %s: iops x runtime = total_ios" % (j["jobname"], dn))
            ok(abs(dd["bw"] - dd["io_bytes"] / 1024.0 / secs) <=
               0.01 * dd["bw"] + 1, "%s %s: bw in KiB/s" % (j["jobname"], dn))
            c = dd["clat_ns"]
            ps = [c["percentile"][k] for k in sorted(c["percentile"],
                                                     key=float)]
            ok(ps == sorted(ps) and c["min"] <= ps[0] and ps[-1] <= c["max"],
               "%s %s: percentiles ascending in [min, max]" % (j["jobname"],
                                                               dn))
            ok(c["N"] == dd["total_ios"], "clat N = total_ios")
    ok(len(jobs) == 2 and jobs[0]["write"]["total_ios"] == 0 and
       jobs[1]["write"]["total_ios"] > 0 and
       jobs[1]["sync"]["total_ios"] > 0,
       "a read job wrote nothing; the mix flushed (sync)")

    # json+ read by fio's own consumer of it.
    conv = shutil.which("fio_jsonplus_clat2csv")
    rc, out, err = run(["run", "--fio-job", jf, "--no-progress",
                        "--output-format", "json+", "-o",
                        os.path.join(d, "plus.json")], cwd=d)
    ok(rc == 0, "json+ to a file")
    if conv:
        p = subprocess.run([conv, "plus.json", "plus.csv"], cwd=d,
                           capture_output=True, text=True)
        v = subprocess.run([conv, "plus.json", "plus.csv", "--validate"],
                           cwd=d, capture_output=True, text=True)
        ok(p.returncode == 0 and v.returncode == 0 and
           v.stdout.count("validated") == 2,
           "fio_jsonplus_clat2csv converts and validates iolab's json+ (%s)"
           % (p.stderr + v.stderr).strip()[-300:])
    else:
        print("skip fio_jsonplus_clat2csv not installed")

    # The same job with fio: the same keys where the tools read them.
    if shutil.which("fio"):
        one = write(d, "one.fio", JOBS.split("[seq-read]")[0] +
                    "[rand-mix]\nrw=randrw\nrwmixread=70\n")
        p = subprocess.run(["fio", "--output-format=json", one], cwd=d,
                           capture_output=True, text=True, timeout=120)
        # fio leaves its file; iolab would rightly refuse to write it.
        if os.path.exists(os.path.join(d, "t.dat")):
            os.remove(os.path.join(d, "t.dat"))
        rc, out, err = run(["run", "--fio-job", one, "--no-progress",
                            "--output-format", "json"], cwd=d)
        if p.returncode == 0 and rc == 0:
            f, i = json.loads(p.stdout[p.stdout.index("{"):]), json.loads(out)
            fj, ij = f["jobs"][0], i["jobs"][0]
            ok(set(f) == set(i), "top-level keys as fio's: %s" %
               sorted(set(f) ^ set(i)))
            ok(set(fj) - NOT_MEASURED == set(ij),
               "job keys as fio's but the unmeasured: %s" %
               sorted((set(fj) - NOT_MEASURED) ^ set(ij)))
            for dn in ("read", "write", "trim"):
                ok(set(fj[dn]) == set(ij[dn]), "%s keys as fio's: %s" % (
                    dn, sorted(set(fj[dn]) ^ set(ij[dn]))))
                for lat in ("slat_ns", "clat_ns", "lat_ns"):
                    ok(set(fj[dn][lat]) == set(ij[dn][lat]),
                       "%s.%s keys as fio's" % (dn, lat))
            ok(set(fj["read"]["clat_ns"]["percentile"]) ==
               set(ij["read"]["clat_ns"]["percentile"]),
               "percentile keys as fio's (%s)" %
               sorted(ij["read"]["clat_ns"]["percentile"]))
            for k in ("latency_ns", "latency_us", "latency_ms"):
                ok(set(fj[k]) == set(ij[k]), k + " keys as fio's")
            ok(set(fj["sync"]) == set(ij["sync"]), "sync keys as fio's")
            ok(fj["job options"] == ij["job options"],
               "job options as fio echoes them")
        else:
            ok(False, "fio and iolab ran the job (fio %d: %s; iolab %d: %s)"
               % (p.returncode, p.stderr[-200:], rc, err[-200:]))
    else:
        print("skip fio not installed")

    # A plain run in fio's JSON.
    rc, out, err = run(["run", "t.dat", "--size", "4m", "--runtime", "200ms",
                        "--qd", "4", "--output-format", "json",
                        "--no-progress"], cwd=d)
    doc = json.loads(out) if rc == 0 else {}
    jo = doc.get("jobs", [{}])[0].get("job options", {})
    ok(jo.get("iodepth") == "4" and jo.get("rw") == "randread" and
       jo.get("bs") == "4096" and doc["jobs"][0]["read"]["iops"] > 0,
       "run --output-format json: one job, its options in fio's words")
    rc, out, err = run(["run", "t.dat", "--output-format", "json", "--json"],
                       cwd=d)
    ok(rc == 1 and "exclude" in err, "--output-format json with --json")
    rc, out, err = run(["run", "--fio-job", jf, "--json"], cwd=d)
    ok(rc == 1 and "--output-format" in err, "--fio-job with --json")

    # Refused by name, in one line, before anything is created.
    base = "[global]\nsize=1m\nfilename=r.dat\n[j]\nrw=randread\n"
    refused(d, base + "verify=crc32c\n", "verify", "an unsupported option")
    refused(d, base + "bs=4KiB\n", "bs=4KiB", "fio's ambiguous KiB")
    refused(d, base + "rw=trim\n", "rw=trim", "trim")
    refused(d, base + "fsync=4\n", "fdatasync", "fsync")
    refused(d, base + "bs=4k,8k\n", "bs=4k,8k", "sizes per direction")
    refused(d, "[j]\nsize=1m\nnumjobs=2\n", "numjobs=2", "clones' own files")
    refused(d, base + "[k]\nrw=read\n", "job 'k'", "a job fio runs at once")
    refused(d, "[j]\nrw=read\n", "size=", "no size and not time_based")
    refused(d, "[j]\ntime_based\n", "runtime=", "time_based alone")
    refused(d, base + "size=${SIZE}\n", "${VAR}", "fio's variables")
    refused(d, "include other.fio\n[j]\n", "section", "before a section")
    refused(d, "[j\x01]\nsize=1m\n", "control", "a control character")
    refused(d, "[j]\nsize=1m\nfilename=" + "x" * 1100 + "\n", "longer",
            "a long line")
    refused(d, "".join("[j%d]\nsize=1m\nstonewall\n" % i for i in range(65)),
            "more than 64 jobs", "too many jobs")
    refused(d, "; pad\n" * 12000, "larger than", "a large file")
    refused(d, "; nothing\n", "no job", "no job")
    rc, out, err = run(["run", "--fio-job", d], cwd=d)
    ok(rc == 1 and "not a regular file" in err, "a directory as job file")

    # Write safety: the file's filename= goes through the target checks.
    mine = write(d, "mine.dat", "keep me\n")
    wf = write(d, "w.fio", "[w]\nrw=write\nsize=4k\nfilename=%s\n" % mine)
    rc, out, err = run(["run", "--fio-job", wf, "--no-progress"], cwd=d)
    ok(rc == 2 and "--allow-write-file" in err and
       open(mine).read() == "keep me\n",
       "a job file cannot write a file iolab did not create")

done()
