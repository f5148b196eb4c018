#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab top --vms against monitors that misbehave, played by fake QEMU
processes (python3 named qemu-system-x86_64, with -name and -qmp on their
command lines): one that accepts and never greets, one that greets as
something other than QMP, one whose greeting never ends. top must report
each VM with the reason, within its 2 s budget per monitor, exit 0, and
send nothing to a peer that did not greet as QMP."""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, done, ok, tmpdir  # noqa: E402

FAKE = r'''
import os, socket, sys, time
with open("/proc/self/comm", "w") as f:
    f.write("qemu-fake")
path, mode, log = sys.argv[sys.argv.index("-qmp") + 1][5:].split(",")[0], \
    sys.argv[-2], sys.argv[-1]
s = socket.socket(socket.AF_UNIX)
s.bind(path)
s.listen(4)
open(log, "w").close()
while True:
    c, _ = s.accept()
    if mode == "hello":
        c.sendall(b"HELLO I AM NOT QMP\n")
    elif mode == "endless":
        c.sendall(b'{"QMP": {"version": "' + b"x" * 100000)
    c.settimeout(3)
    try:
        data = c.recv(4096)
    except OSError:
        data = b""
    with open(log, "a") as f:
        f.write(repr(data) + "\n")
    c.close()
'''


def main():
    with tmpdir() as d:
        script = os.path.join(d, "fake.py")
        with open(script, "w") as f:
            f.write(FAKE)
        procs = {}
        for mode in ("silent", "hello", "endless"):
            sock = os.path.join(d, mode + ".sock")
            log = os.path.join(d, mode + ".log")
            p = subprocess.Popen(
                ["qemu-system-x86_64", script, "-name", "fake-" + mode,
                 "-qmp", "unix:%s,server=on,wait=off" % sock, mode, log],
                executable=sys.executable,
                # Named otherwise, Python cannot find its own library.
                env=dict(os.environ, PYTHONHOME="%s:%s" % (
                    sys.base_prefix, sys.base_exec_prefix)))
            procs[mode] = (p, sock, log)
        try:
            for _ in range(50):
                if all(os.path.exists(v[2]) for v in procs.values()):
                    break
                time.sleep(0.1)
            t = time.monotonic()
            rc = subprocess.run([IOLAB, "top", "--vms", "--json", "--count",
                                 "1", "--interval", "200ms"],
                                capture_output=True, text=True, timeout=60)
            took = time.monotonic() - t
            ok(rc.returncode == 0, "top --vms exits 0 (%s)" % rc.stderr)
            doc = json.loads(rc.stdout)
            vms = {v["pid"]: v for v in doc["vms"]}
            # Two queries of up to 2 s each per monitor, plus sampling.
            ok(took < 3 * 2 * 2 + 5, "bounded in time (%.1f s)" % took)
            for mode, (p, sock, log) in procs.items():
                v = vms.get(p.pid)
                if not ok(v is not None, "%s: the fake VM is listed" % mode):
                    continue
                ok(v["name"] == "fake-" + mode and v["qmp"] == sock,
                   "%s: named by -name, its socket found" % mode)
                ok(v["error"] and not v["disks"],
                   "%s: no figures, and why: %s" % (mode, v["error"]))
            ok("greet as QMP" in vms[procs["hello"][0].pid]["error"],
               "a peer that is not QMP is named so")
            time.sleep(0.5)
            sent = open(procs["hello"][2]).read()
            ok("b''" in sent and "execute" not in sent,
               "nothing sent to a peer that did not greet as QMP (%r)" % sent)
        finally:
            for p, _, _ in procs.values():
                p.kill()
                p.wait()
    done()


main()
