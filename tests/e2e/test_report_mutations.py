# SPDX-License-Identifier: GPL-2.0-or-later
"""compare and report on damaged documents: the golden inputs with keys
deleted and values replaced by the wrong types (seeded, so repeatable).
Every run must end with 0, 1 or 2, one line on error, never a crash, and
every page written must be valid UTF-8 and well-formed. Under the ASan
build this also checks for memory errors."""
import copy
import json
import os
import random
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, done, tmpdir  # noqa: E402

G = os.path.join(os.environ.get("IOLAB_SRC", "."), "tests", "fixtures",
                 "golden")
names = sorted(n for n in os.listdir(G) if n.endswith(".json") and
               os.path.getsize(os.path.join(G, n)) < 200000)
rng = random.Random(20261130)
WRONG = [None, "text", -1, 1e300, 0, True, [], {}, [None], {"x": None}]


def mutate(x):
    if isinstance(x, dict):
        for k in list(x):
            r = rng.random()
            if r < 0.07:
                del x[k]
            elif r < 0.13:
                x[k] = rng.choice(WRONG)
            else:
                mutate(x[k])
    elif isinstance(x, list):
        for i in range(len(x)):
            if rng.random() < 0.08:
                x[i] = rng.choice(WRONG)
            else:
                mutate(x[i])


bad = []
with tmpdir() as t:
    for it in range(36):
        n = names[it % len(names)]
        src = json.load(open(os.path.join(G, n)))
        doc = copy.deepcopy(src)
        mutate(doc)
        # Keep the envelope, or only the envelope check is exercised.
        doc.update(schema_version=1, command=src["command"],
                   tool={"name": "iolab", "version": "0.1.0"})
        p = os.path.join(t, "m%d.json" % it)
        with open(p, "w") as f:
            json.dump(doc, f)
        page = os.path.join(t, "m%d.html" % it)
        for args in (["compare", os.path.join(G, n), p],
                     ["compare", "--json", p, os.path.join(G, n)],
                     ["compare", "--csv", p, p],
                     ["report", p, os.path.join(G, n), "-o", page]):
            r = subprocess.run([IOLAB] + args, capture_output=True,
                               timeout=120)
            err = r.stderr.decode("utf-8", "replace")
            what = "%s %s (from %s)" % (args[0], os.path.basename(p), n)
            if r.returncode not in (0, 1, 2) or "Sanitizer" in err or \
                    "runtime error" in err:
                bad.append("%s: exit %d %s" % (what, r.returncode, err[:300]))
                continue
            if r.returncode and err.count("\n") != 1:
                bad.append("%s: not one line: %r" % (what, err[:300]))
            try:
                r.stdout.decode("utf-8")
            except UnicodeDecodeError as e:
                bad.append("%s: output not UTF-8 (%s)" % (what, e))
            if args[0] == "report" and r.returncode == 0:
                try:
                    ET.parse(page)
                except ET.ParseError as e:
                    bad.append("%s: page not well-formed (%s)" % (what, e))
for b in bad:
    print(b)
ok(not bad, "36 damaged documents x 4 runs: no crash, no bad output")
done()
