#!/usr/bin/env python3
"""Count meson test results from testlog.json files and print the plain
summary line CI reads: "N passed, N failed" (skips are listed above it)."""
import json
import os
import sys

passed = failed = skipped = 0
for path in sys.argv[1:]:
    if not os.path.exists(path):
        failed += 1
        print("no test log at %s (build failed?)" % path)
        continue
    build = path.split("/")[0]
    with open(path) as f:
        for line in f:
            try:
                t = json.loads(line)
            except ValueError:
                continue
            r = t.get("result")
            if r in ("OK", "EXPECTEDFAIL"):
                passed += 1
            elif r == "SKIP":
                skipped += 1
                print("skipped: %s %s" % (build, t.get("name")))
            else:
                failed += 1
                print("failed:  %s %s (%s)" % (build, t.get("name"), r))
print("%d skipped" % skipped)
print("%d passed, %d failed" % (passed, failed))
