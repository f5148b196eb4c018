# SPDX-License-Identifier: GPL-2.0-or-later
"""The Debian package: scripts/deb.sh builds it from this tree with
dpkg-buildpackage -us -uc -b (DEB_BUILD_OPTIONS=nocheck: the unit suite
has run already) and lintian passes it with no error or warning; the .deb
holds the binary, the lab's static guest binary, every man page and both
completions, and its iolab runs. Skipped without dpkg-dev, debhelper or
lintian (scripts/deps.sh --test installs them) or outside a git tree."""
import glob
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, done, tmpdir  # noqa: E402

SRC = os.environ.get("IOLAB_SRC", ".")

need = ["dpkg-buildpackage", "dh", "lintian", "git"]
if any(not shutil.which(t) for t in need) or \
        not os.path.exists(os.path.join(SRC, ".git")):
    print("SKIP: needs %s and a git tree" % ", ".join(need))
    sys.exit(77)
with tmpdir() as d:
    out = os.path.join(d, "deb")
    env = dict(os.environ, DEB_BUILD_OPTIONS="nocheck parallel=2")
    env.pop("LC_ALL", None)
    p = subprocess.run([os.path.join(SRC, "scripts", "deb.sh"), out],
                       capture_output=True, text=True, env=env, timeout=1800)
    ok(p.returncode == 0, "deb.sh: built and lintian-clean (exit %d): %s" % (
        p.returncode, (p.stdout + p.stderr)[-3000:]))
    debs = glob.glob(os.path.join(out, "iolab_*.deb"))
    if debs:
        files = subprocess.run(["dpkg-deb", "-c", debs[0]],
                               capture_output=True, text=True).stdout
        mans = sorted(os.path.basename(m)
                      for m in glob.glob(os.path.join(SRC, "man", "*.1")))
        want = ["./usr/bin/iolab", "./usr/libexec/iolab/iolab-static",
                "./usr/share/bash-completion/completions/iolab",
                "./usr/share/zsh/vendor-completions/_iolab"] + [
                    "./usr/share/man/man1/%s.gz" % m for m in mans]
        missing = [w for w in want if w not in files]
        ok(not missing, "the .deb holds %d files asked for (missing %s)" % (
            len(want), missing))
        root = os.path.join(d, "root")
        subprocess.run(["dpkg-deb", "-x", debs[0], root], check=True)
        v = subprocess.run([os.path.join(root, "usr", "bin", "iolab"),
                            "--version"], capture_output=True, text=True)
        ok(v.returncode == 0 and v.stdout.startswith("iolab "),
           "the packaged iolab runs: %s" % v.stdout.strip())
        info = subprocess.run(["dpkg-deb", "-f", debs[0], "Depends"],
                              capture_output=True, text=True).stdout
        ok("libjansson" in info and "libc6" in info,
           "shlibs dependencies filled in: %s" % info.strip())
done()
