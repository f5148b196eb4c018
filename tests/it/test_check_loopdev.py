# SPDX-License-Identifier: GPL-2.0-or-later
"""Every `iolab check` profile on a loop device (written only with
--allow-write-device): each step runs with its engine and cache mode on a
block device (O_DIRECT, O_DSYNC, fdatasync of a device), every criterion
is judged or said to have no threshold, and the exit code follows the
verdict. The verdicts themselves depend on the machine, not checked."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, run, done, loopdev  # noqa

PROFILES = ["etcd", "postgresql", "mysql", "oracle", "zookeeper"]
VERDICT_RC = {"pass": 0, "fail": 4, "inconclusive": 5, "no-threshold": 0}

with loopdev(64) as dev:
    rc, out, err = run(["check", "etcd", dev, "--runtime", "1s",
                        "--no-progress"])
    ok(rc == 2 and "--allow-write-device" in err,
       "a device without --allow-write-device is refused: %d %s" % (
           rc, err.strip()[:160]))
    for p in PROFILES:
        rc, out, err = run(["check", p, dev, "--allow-write-device",
                            "--runtime", "1s", "--no-progress", "--json"])
        try:
            doc = json.loads(out)
        except ValueError:
            ok(False, "%s: JSON on stdout (%d): %r %s" % (p, rc, out[:200],
                                                        err[:300]))
            continue
        ok(doc["verdict"] in VERDICT_RC and rc == VERDICT_RC[doc["verdict"]],
           "%s: exit %d follows the verdict %s" % (p, rc, doc["verdict"]))
        ok(all(s["result"] and not s["result"]["errors"]["count"]
               for s in doc["steps"]),
           "%s: every step ran without an I/O error" % p)
        ok(all(c["verdict"] in VERDICT_RC and c["value"] is not None
               for c in doc["criteria"]),
           "%s: every criterion measured and judged: %s" % (
               p, [(c["id"], c["verdict"]) for c in doc["criteria"]]))
done()
