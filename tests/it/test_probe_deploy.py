# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab probe's deployment pieces: the alert rules pass promtool check
rules and their unit tests (promtool test rules), and name only metrics
the probe really exports; the systemd units (the probe, its per-target
template, doctor's timer) pass systemd-analyze verify, the timer spreads
the fleet; the Kubernetes DaemonSet parses, holds together (selector,
volumes, an image placeholder said to be one) and its command, run as it
stands with --once, writes a textfile promtool accepts. Each part skips
with the reason when its tool is missing."""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, run, ok, done, skip, tmpdir  # noqa
import promtext  # noqa

SRC = os.environ.get("IOLAB_SRC") or os.path.join(os.path.dirname(__file__),
                                                  "..", "..")
RULES = os.path.join(SRC, "deploy", "prometheus")
SYSTEMD = os.path.join(SRC, "deploy", "systemd")
UNITS = ["iolab-probe.service", "iolab-probe@.service",
         "iolab-doctor.service", "iolab-doctor.timer"]
DAEMONSET = os.path.join(SRC, "deploy", "kubernetes",
                         "iolab-probe-daemonset.yaml")
PROMTOOL = shutil.which("promtool")
ANALYZE = shutil.which("systemd-analyze")


def promtool_ok(text, what):
    if not PROMTOOL:
        print("skip promtool check of %s: promtool not installed" % what)
        return
    p = subprocess.run([PROMTOOL, "check", "metrics"], input=text,
                       capture_output=True, text=True, timeout=60)
    ok(p.returncode == 0 and not (p.stdout + p.stderr).strip(),
       "promtool check metrics accepts %s (%s)" % (
           what, (p.stdout + p.stderr).strip()[-300:]))


def daemonset():
    try:
        import yaml
    except ImportError:
        print("skip the DaemonSet: python3-yaml not installed")
        return
    docs = [x for x in yaml.safe_load_all(open(DAEMONSET)) if x]
    ok(len(docs) == 1 and docs[0].get("kind") == "DaemonSet" and
       docs[0].get("apiVersion") == "apps/v1",
       "DaemonSet manifest: one apps/v1 DaemonSet")
    spec = docs[0]["spec"]
    pod = spec["template"]["spec"]
    ok(spec["selector"]["matchLabels"].items() <=
       spec["template"]["metadata"]["labels"].items(),
       "DaemonSet: its selector matches its pods' labels")
    (c,) = pod["containers"]
    vols = {v["name"]: v for v in pod["volumes"]}
    mounts = {m["mountPath"]: m["name"] for m in c["volumeMounts"]}
    ok(all(n in vols for n in mounts.values()),
       "DaemonSet: every volumeMount names a volume")
    ok(c["image"] == "IMAGE-PLACEHOLDER" and
       "IMAGE-PLACEHOLDER" in open(DAEMONSET).read().split("apiVersion")[0],
       "DaemonSet: the image is a placeholder, explained in the header")
    binary = c["command"][0]
    ok(os.path.dirname(binary) in mounts and
       "hostPath" in vols[mounts[os.path.dirname(binary)]],
       "DaemonSet: the binary comes from a hostPath (%s)" % binary)
    # Its command as it stands, paths in the pod mapped to a scratch tree.
    args = c["command"][1:]
    ok(args[0] == "probe", "DaemonSet: runs iolab probe")
    with tmpdir() as d:
        mapped = []
        for a in args[1:]:
            if a in mounts and a != os.path.dirname(binary):
                a = os.path.join(d, mounts[a])
                os.makedirs(a, exist_ok=True)
            mapped.append(a)
        tf = os.path.join(d, mounts["/textfile"])
        rc, out, err = run(["probe", "--once", "--no-doctor"] + mapped,
                           timeout=120)
        prom = os.path.join(tf, "iolab.prom")
        text = open(prom).read() if os.path.exists(prom) else ""
        fams = promtext.parse(text) if text else {}
        ok(rc == 0 and any(s[1].get("op") == "flush" for s in
                           fams.get("iolab_probe_latency_seconds",
                                    {}).get("samples", [])),
           "DaemonSet's command with --once: the textfile, with the "
           "write and flush series (%s)" % err.strip()[-300:])
        promtool_ok(text, "the DaemonSet's textfile")
        ok(os.listdir(os.path.join(d, mounts["/var/lib/iolab-probe"])) == [],
           "DaemonSet: the probe's own file removed on exit")


daemonset()
timer = open(os.path.join(SYSTEMD, "iolab-doctor.timer")).read()
ok(re.search(r"^RandomizedDelaySec=[1-9]\d*h$", timer, re.M) and
   re.search(r"^OnCalendar=", timer, re.M),
   "iolab-doctor.timer: periodic, RandomizedDelaySec spreads the fleet")
if not PROMTOOL and not ANALYZE:
    print("skip the rules and units: neither promtool (Debian package "
          "prometheus) nor systemd-analyze is installed")

if PROMTOOL:
    for args in (["check", "rules", "iolab-alerts.yml"],
                 ["test", "rules", "iolab-alerts.test.yml"]):
        p = subprocess.run([PROMTOOL] + args, cwd=RULES, capture_output=True,
                           text=True, timeout=120)
        ok(p.returncode == 0 and "SUCCESS" in p.stdout,
           "promtool %s: %s" % (" ".join(args),
                                (p.stdout + p.stderr).strip()[-400:]))
    with tmpdir() as d:
        data = os.path.join(d, "data.img")
        with open(data, "wb") as f:
            f.write(os.urandom(1 << 20))
        rc, out, err = run(["probe", "--once", data], timeout=120)
        fams = promtext.parse(out)
    rules = open(os.path.join(RULES, "iolab-alerts.yml")).read()
    names = set(re.findall(r"\b(iolab_[a-z_]+?)(?:_bucket)?\b(?=[\s{\[)=>]|$)",
                           rules))
    names = {n for n in names if not n.endswith("_p99_5m")}
    missing = [n for n in sorted(names) if n not in fams]
    ok(names and not missing,
       "the rules name only metrics the probe exports (%s; missing %s)" %
       (sorted(names), missing))
else:
    print("skip the alert rules: promtool not installed "
          "(Debian package prometheus)")

if ANALYZE:
    with tmpdir() as d:
        for name in UNITS:
            text = open(os.path.join(SYSTEMD, name)).read()
            with open(os.path.join(d, name), "w") as f:
                f.write(text.replace("@BINDIR@/iolab", IOLAB))
        # a template verifies as an instance: the escaped path of a target
        inst = "iolab-probe@%s.service" % "dev-vda"
        os.symlink("iolab-probe@.service", os.path.join(d, inst))
        for name in ["iolab-probe.service", inst, "iolab-doctor.service",
                     "iolab-doctor.timer"]:
            p = subprocess.run([ANALYZE, "verify", "--man=no", name], cwd=d,
                               capture_output=True, text=True, timeout=120)
            said = (p.stdout + p.stderr).strip()
            ok(p.returncode == 0 and "iolab-" not in said,
               "systemd-analyze verify %s: %s" % (name, said[-400:] or
                                                  "clean"))
    # The template's ExecStart, run as it stands on a file with --once.
    tmpl = open(os.path.join(SYSTEMD, "iolab-probe@.service")).read()
    line = re.search(r"^ExecStart=@BINDIR@/iolab (.*)$", tmpl, re.M).group(1)
    with tmpdir() as d:
        target = os.path.join(d, "data.img")
        with open(target, "wb") as f:
            f.write(os.urandom(1 << 20))
        args = (line.replace("/var/lib/prometheus/node-exporter", d)
                .replace("%i", "srv-data.img").replace("%f", target).split())
        rc, out, err = run(args[:1] + ["--once"] + args[1:], timeout=120)
        prom = os.path.join(d, "iolab-srv-data.img.prom")
        text = open(prom).read() if os.path.exists(prom) else ""
        fams = promtext.parse(text) if text else {}
        ok(rc == 0 and promtext.value(fams, "iolab_probe_up",
                                      target=target) == 1 and
           not [n for n in fams if not n.startswith("iolab_probe_")],
           "iolab-probe@.service's command: iolab-INSTANCE.prom, only the "
           "iolab_probe_* series (%s; %s)" % (sorted(fams), err.strip()))
        promtool_ok(text, "the template's textfile")
else:
    print("skip the systemd units: systemd-analyze not installed")
done()
