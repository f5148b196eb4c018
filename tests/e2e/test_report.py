# SPDX-License-Identifier: GPL-2.0-or-later
"""`iolab report`: one self-contained, well-formed HTML page with a section
and the right charts per input, compare views for repeated commands, the
refused cells marked, and the inputs never overwritten."""
import html.parser
import json
import os
import pty
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, run, done, tmpdir  # noqa: E402

G = os.path.join(os.environ.get("IOLAB_SRC", "."), "tests", "fixtures",
                 "golden")
X = "{http://www.w3.org/1999/xhtml}"
S = "{http://www.w3.org/2000/svg}"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}


class Balance(html.parser.HTMLParser):
    """Tag balance as a browser's parser sees it (HTML, not XML, rules)."""

    def __init__(self):
        super().__init__()
        self.stack, self.errors = [], []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes <%s>" % (
                tag, self.stack[-1] if self.stack else "nothing"))
            return
        self.stack.pop()


def check_page(text, what):
    """Well-formed as XML and balanced as HTML; returns the XML tree."""
    b = Balance()
    b.feed(text)
    b.close()
    ok(not b.errors and not b.stack, what + ": tags balanced (%s%s)" % (
        b.errors[:3], b.stack[:3]))
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        ok(False, what + ": well-formed XML (%s)" % e)
        return None
    ok(root.tag == X + "html", what + ": well-formed XHTML")
    if shutil.which("xmllint"):
        p = subprocess.run(["xmllint", "--noout", "-"], input=text,
                           capture_output=True, text=True)
        ok(p.returncode == 0, what + ": xmllint agrees " + p.stderr[:200])
    return root


def self_contained(text, what):
    low = text.lower()
    ok("<script" not in low and "<link" not in low and "<iframe" not in low
       and "<img" not in low, what + ": no scripts, links, frames, images")
    ok(not re.search(r"\bsrc\s*=", low), what + ": no src= anywhere")
    ok("@import" not in low and "@font-face" not in low,
       what + ": no imported style or fonts")
    urls = re.findall(r"url\(([^)]*)\)", text)
    ok(all(u.startswith("#") for u in urls),
       what + ": url() only to its own gradients (%r)" % urls[:3])
    hosts = set(re.findall(r"https?://[^\s\"'<>)]+", text))
    ok(hosts <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xhtml"},
       what + ": no network addresses (%r)" % sorted(hosts)[:3])


def text_of(e):
    return "".join(e.itertext())


def sections(root):
    return {s.get("id"): s for s in root.iter(X + "section")}


def cls(e, name):
    return name in (e.get("class") or "").split()


def golden(name):
    return os.path.join(G, name)


names = sorted(f for f in os.listdir(G) if f.endswith(".json"))
docs = {n: json.load(open(golden(n))) for n in names}

with tmpdir() as t:
    out = os.path.join(t, "report.html")
    rc, so, se = run(["report"] + [golden(n) for n in names] + ["-o", out])
    ok(rc == 0 and os.path.exists(out), "report of every golden input")
    ok("wrote " + out in se, "says where it wrote")
    page = open(out, encoding="utf-8").read()
    root = check_page(page, "all goldens")
    self_contained(page, "all goldens")
    secs = sections(root)
    for i, n in enumerate(names):
        s = secs.get("doc%d" % (i + 1))
        if not ok(s is not None, "a section for " + n):
            continue
        cmd = docs[n]["command"]
        ok(cmd in text_of(s)[:200] and n[:-5] in text_of(s)[:400],
           n + ": section names its command and input")
        figs = [f for f in s.iter(X + "figure")]
        bars = [f for f in figs if cls(f, "bars")]
        lines = [f for f in figs if cls(f, "line")]
        heats = [f for f in figs if cls(f, "heat")]
        if cmd == "mark":
            ok(len(bars) == len(docs[n]["tests"]),
               n + ": a bar chart per test (%d)" % len(bars))
            rects = sum(1 for f in bars for r in f.iter(S + "rect"))
            dirs = sum(1 for tt in docs[n]["tests"] for d in
                       ("read", "write", "mix") if tt.get(d))
            ok(rects == dirs, n + ": a bar per test and direction")
        if cmd in ("matrix", "lab"):
            cells = docs[n]["cells"]
            ntests = max(len((c.get("tests") or (c.get("result") or {})
                              .get("tests") or [])) for c in cells)
            dirs = 2
            want = sum(1 for c in cells if c["status"] == "refused") * \
                ntests * dirs
            got = sum(1 for f in heats for td in f.iter(X + "td")
                      if cls(td, "refused"))
            ok(got == want, n + ": %d refused cells marked (want %d)" %
               (got, want))
            reasons = {c["reason"] for c in cells if c["status"] == "refused"}
            notes = " ".join(text_of(li) for f in heats
                             for li in f.iter(X + "li"))
            ok(all(r in notes for r in reasons),
               n + ": QEMU's reason given as a footnote")
            vals = [td for f in heats for td in f.iter(X + "td")
                    if cls(td, "v")]
            ok(vals and all("background:#" in (td.get("style") or "")
                            for td in vals),
               n + ": measured cells coloured (%d)" % len(vals))
        if cmd == "lab":
            with_doctor = sum(1 for c in docs[n]["cells"] if c.get("doctor"))
            rows = [tr for f in figs if "doctor saw" in text_of(f)
                    for tb in f.iter(X + "tbody") for tr in tb]
            ok(len(rows) == with_doctor,
               n + ": what doctor saw in %d guests" % with_doctor)
        if n == "matrix.json":
            ok("page cache" in " ".join(text_of(f) for f in heats),
               n + ": page-cache reads flagged")
        if cmd == "calibrate":
            svg = " ".join(text_of(f) for f in lines)
            ok(lines and "latency cap" in svg and "knee" in svg and
               "max_iops" in svg,
               n + ": the curve with the cap, the knee and max_iops")
            ok(str(docs[n]["max_iops"]) in text_of(s),
               n + ": max_iops shown")
        if cmd == "run":
            svg = " ".join(text_of(f) for f in lines)
            ok("p99.9" in svg and "percentile" in svg,
               n + ": latency percentile curve")
        if cmd in ("doctor", "advise"):
            items = [li for ul in s.iter(X + "ul") if cls(ul, "findings")
                     for li in ul.findall(X + "li")]
            ok(len(items) == len(docs[n]["findings"]),
               n + ": every finding listed (%d)" % len(items))
    ok("container (none)" not in page, "doctor's container \"none\" is no "
       "container")
    # A compare view for every command given more than once.
    counts = {}
    for n in names:
        counts[docs[n]["command"]] = counts.get(docs[n]["command"], 0) + 1
    for cmd, k in counts.items():
        s = secs.get("cmp-" + cmd)
        ok((s is not None) == (k > 1), "%s given %d times: %s compare view" %
           (cmd, k, "a" if k > 1 else "no"))
    s = secs["cmp-run"]
    ja, jb = docs["run-qd1.json"], docs["run-qd16.json"]
    r = jb["jobs"][0]["read"]["iops"] / ja["jobs"][0]["read"]["iops"]
    ok("%.2f\u00d7" % r in text_of(s), "run compare view: IOPS ratio %.2f" % r)
    ok(any(cls(td, "better") for td in s.iter(X + "td")) and
       any("no spread known" in text_of(td) and cls(td, "same")
           for td in s.iter(X + "td")),
       "run compare view: better marked, no spread known greyed")
    ok(any(cls(d, "callout") for d in s.iter(X + "div")),
       "run compare view: the differing settings called out")
    s = secs["cmp-matrix"]
    ok(any(cls(f, "heat") for f in s.iter(X + "figure")),
       "matrix compare view: ratio heat maps")
    # A ratio cell is coloured only where compare calls it better or
    # worse; its title says the verdict.
    cells = [td for f in s.iter(X + "figure") if cls(f, "heat")
             for td in f.iter(X + "td") if cls(td, "v")]
    ok(cells and all(
        ("#f7f7f7" in td.get("style")) !=
        td.get("title").endswith((": better", ": worse")) for td in cells),
       "matrix compare view: %d cells coloured by compare's verdict" %
       len(cells))
    s = secs["cmp-doctor"]
    ok("gone" in text_of(s) and "new" in text_of(s),
       "doctor compare view: findings gone and new")

    # Print style: A4 pages, charts not split.
    ok("@media print" in page and "break-inside:avoid" in page,
       "a print style sheet")

    # Text from the inputs is escaped; the page stays well-formed.
    odd = os.path.join(t, "odd.json")
    j = dict(docs["run-qd1.json"])
    j["warnings"] = [{"id": "x", "message": "<b>bold</b> & 'quoted' \"x\""}]
    with open(odd, "w") as f:
        json.dump(j, f)
    rc, so, se = run(["report", odd, "--title", "A & B <i>", "--labels",
                      "<script>alert(1)</script>", "-o",
                      os.path.join(t, "odd.html")], check=0)
    page = open(os.path.join(t, "odd.html")).read()
    check_page(page, "hostile text")
    ok("<script>" not in page and "&lt;b&gt;bold&lt;/b&gt; &amp;" in page and
       "A &amp; B &lt;i&gt;" in page, "text from inputs and flags escaped")

    # A fresh run of this build, to standard output.
    fresh = os.path.join(t, "fresh.json")
    run(["run", os.path.join(t, "f.dat"), "--engine", "null", "--runtime",
         "300ms", "--json", "--no-progress", "-o", fresh], check=0)
    p = subprocess.run([IOLAB, "report", fresh], capture_output=True,
                       text=True)
    ok(p.returncode == 0 and p.stdout.startswith("<!DOCTYPE html>"),
       "report of a fresh run to a pipe")
    check_page(p.stdout, "fresh run")

    # Never overwrite an input; never dump HTML onto a terminal.
    cp = os.path.join(t, "in.json")
    shutil.copy(golden("run-qd1.json"), cp)
    before = open(cp).read()
    rc, so, se = run(["report", cp, "-o", cp])
    ok(rc == 1 and "never overwrites" in se and open(cp).read() == before,
       "-o onto an input: refused, input unchanged")
    rc, so, se = run(["report", golden("run-qd1.json"), "-o",
                      os.path.join(t, "no", "such", "dir.html")])
    ok(rc == 2 and "cannot write" in se, "unwritable -o: exit 2")
    rc, so, se = run(["report", "-o", os.path.join(t, "x.html")])
    ok(rc == 1 and "at least one" in se, "no input: exit 1")
    rc, so, se = run(["report", golden("run-qd1.json"),
                      os.path.join(t, "nope.json"), "-o",
                      os.path.join(t, "y.html")])
    ok(rc == 2 and not os.path.exists(os.path.join(t, "y.html")),
       "a missing input: exit 2, no page written")
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(IOLAB, [IOLAB, "report", golden("run-qd1.json")])
    msg = b""
    while True:
        try:
            b = os.read(fd, 4096)
        except OSError:
            break
        if not b:
            break
        msg += b
    _, status = os.waitpid(pid, 0)
    ok(os.WEXITSTATUS(status) == 1 and b"-o report.html" in msg,
       "no -o on a terminal: exit 1, says to give -o")

done()
