# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab probe's deployment pieces: the alert rules pass promtool check
rules and their unit tests (promtool test rules), and name only metrics
the probe really exports; the systemd unit passes systemd-analyze verify.
Each part skips with the reason when its tool is missing."""
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
UNIT = os.path.join(SRC, "deploy", "systemd", "iolab-probe.service")
PROMTOOL = shutil.which("promtool")
ANALYZE = shutil.which("systemd-analyze")
if not PROMTOOL and not ANALYZE:
    skip("neither promtool (Debian package prometheus) nor systemd-analyze "
         "is installed")

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
        unit = os.path.join(d, "iolab-probe.service")
        text = open(UNIT).read().replace("@BINDIR@/iolab", IOLAB)
        with open(unit, "w") as f:
            f.write(text)
        p = subprocess.run([ANALYZE, "verify", "--man=no", unit],
                           capture_output=True, text=True, timeout=120)
        said = (p.stdout + p.stderr).strip()
        ok(p.returncode == 0 and "iolab-probe.service" not in said,
           "systemd-analyze verify iolab-probe.service: %s" %
           (said[-400:] or "clean"))
else:
    print("skip the systemd unit: systemd-analyze not installed")
done()
