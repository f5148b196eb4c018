# SPDX-License-Identifier: GPL-2.0-or-later
"""Shell completion generated from the option tables, and `iolab help CMD`
showing the man page at a terminal (the --help text elsewhere)."""
import os
import pty
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, run, done, tmpdir  # noqa: E402

BUILD = os.environ.get("IOLAB_BUILD", os.path.dirname(IOLAB))
SRC = os.environ.get("IOLAB_SRC", ".")
BASH = os.path.join(BUILD, "completions", "iolab")
ZSH = os.path.join(BUILD, "completions", "_iolab")


def complete(*words):
    """What bash completes for the last of @words, from the built file."""
    script = ("source %s; COMP_WORDS=(%s); COMP_CWORD=%d; _iolab; "
              "printf '%%s\\n' \"${COMPREPLY[@]}\"" % (
                  BASH, " ".join("'%s'" % w for w in words), len(words) - 1))
    p = subprocess.run(["bash", "-c", script], capture_output=True,
                       text=True)
    return p.stdout.split()


if not os.path.exists(BASH):
    print("SKIP: completion not built (-Dcompletions=false)")
    sys.exit(77)
ok(subprocess.run(["bash", "-n", BASH]).returncode == 0, "bash: syntax")
ok(complete("iolab", "ma") == ["mark", "matrix"], "bash: commands")
ok(complete("iolab", "run", "--engine", "n") == ["native", "null"],
   "bash: an enum's values")
ok(complete("iolab", "lab", "--aio", "threads,n") == ["threads,native"],
   "bash: a list's next value")
ok("etcd" in complete("iolab", "check", ""), "bash: check's profiles")
# Every option of every command's table is offered.
rc, out, err = run(["--help"])
cmds = re.findall(r"^  (\w+)  ", out, re.M)
missing = []
for c in cmds:
    rc, h, err = run(["help", c])
    want = set(re.findall(r"^  (?:-\w, )?\s*(--[\w-]+)", h, re.M))
    got = set(complete("iolab", c, "--"))
    missing += ["%s %s" % (c, o) for o in sorted(want - got)]
ok(cmds and not missing, "bash: every option of %d commands (missing %s)" %
   (len(cmds), missing))
if shutil.which("zsh"):
    ok(subprocess.run(["zsh", "-n", ZSH]).returncode == 0, "zsh: syntax")
    text = open(ZSH).read()
    ok(text.startswith("#compdef iolab") and "--allow-write-device" in text
       and "(io_uring native threads sync null)" in text,
       "zsh: options and values")

# help at a terminal: the man page when man has it; else the text.
if shutil.which("man"):
    with tmpdir() as d:
        os.makedirs(os.path.join(d, "man1"))
        shutil.copy(os.path.join(SRC, "man", "iolab-run.1"),
                    os.path.join(d, "man1"))
        env = dict(os.environ, MANPATH=d, MANPAGER="cat", PAGER="cat",
                   MANWIDTH="80")
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(IOLAB, [IOLAB, "help", "run"], env)
        buf = b""
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
        os.waitpid(pid, 0)
        text = re.sub(r".\x08", "", buf.decode(errors="replace"))
        ok("IOLAB-RUN(1)" in text, "help run at a terminal: the man page")
rc, out, err = run(["help", "run"])
ok(rc == 0 and out.startswith("Usage: iolab run"),
   "help run into a pipe: the --help text")
done()
