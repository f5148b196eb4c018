# SPDX-License-Identifier: GPL-2.0-or-later
"""`iolab report` rendered by a real browser (headless Chromium): the page
draws its charts and heat maps, and prints to PDF on several pages; no
<text> of an SVG lies past its box (clipped labels), as Chromium's own
layout measures it; a lab report's buses share each column's colour range.
The screenshots stay in the build directory for a person to look at. Skips
only where Chromium is not installed."""
import html as htmlmod
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, run, done, skip  # noqa: E402

G = os.path.join(os.environ.get("IOLAB_SRC", "."), "tests", "fixtures",
                 "golden")
OUT = os.path.join(os.environ.get("IOLAB_BUILD", "build"),
                   "report-screenshots")

browser = next((shutil.which(b) for b in ("chromium", "chromium-browser",
                                          "google-chrome") if shutil.which(b)),
               None)
if not browser:
    skip("Chromium is not installed (Debian: apt-get install chromium)")


def chromium(args, profile):
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu",
           "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--hide-scrollbars",
           "--user-data-dir=" + profile] + args
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180)


# Run in the page once laid out: every <text> of every SVG against the
# SVG's box (client rectangles include transforms; getBBox, in the SVG's
# own units, against the viewBox where the text is not transformed), and the
# colour ranges under each heat map's column heads.
PROBE = r"""<script>
window.addEventListener('load', function () {
  var bad = [], n = 0, heats = [];
  document.querySelectorAll('svg').forEach(function (svg, si) {
    var vb = svg.viewBox && svg.viewBox.baseVal;
    var box = svg.getBoundingClientRect();
    svg.querySelectorAll('text').forEach(function (t) {
      var b = t.getBBox(), r = t.getBoundingClientRect(), out;
      n++;
      out = r.left < box.left - 0.5 || r.right > box.right + 0.5 ||
            r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5;
      if (vb && vb.width && !t.closest('[transform]'))
        out = out || b.x < vb.x - 0.5 || b.y < vb.y - 0.5 ||
              b.x + b.width > vb.x + vb.width + 0.5 ||
              b.y + b.height > vb.y + vb.height + 0.5;
      if (out)
        bad.push({svg: si, text: t.textContent,
                  bbox: [b.x, b.y, b.width, b.height].map(Math.round),
                  box: [box.width, box.height].map(Math.round)});
    });
  });
  document.querySelectorAll('figure.heat').forEach(function (fig) {
    var cap = fig.querySelector('figcaption b');
    var cols = {};
    fig.querySelectorAll('thead th').forEach(function (th) {
      var rng = th.querySelector('.rng');
      if (rng)
        cols[th.firstChild.textContent] = rng.textContent;
    });
    heats.push({title: cap ? cap.textContent : '', cols: cols});
  });
  var p = document.createElement('pre');
  p.id = 'iolab-probe';
  p.textContent = JSON.stringify({texts: n, clipped: bad, heats: heats});
  document.body.appendChild(p);
});
</script>"""


def probe(html, profile):
    """The PROBE's findings on @html, or None if Chromium gave none."""
    src = open(html, encoding="utf-8").read()
    path = html + ".probe.html"
    with open(path, "w", encoding="utf-8") as f:
        f.write(src.replace("</body>", PROBE + "</body>", 1))
    p = chromium(["--window-size=1280,7000", "--virtual-time-budget=5000",
                  "--dump-dom", "file://" + os.path.abspath(path)], profile)
    m = re.search(r'<pre id="iolab-probe">(.*?)</pre>', p.stdout, re.S)
    return json.loads(htmlmod.unescape(m.group(1))) if m else None


def png_pixels(path):
    """Decode an 8-bit RGB(A), non-interlaced PNG: (width, height, rows)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, lace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or lace:
                raise ValueError("unsupported PNG %d/%d/%d" %
                                 (depth, ctype, lace))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    lo7 = int.from_bytes(b"\x7f" * stride, "big")
    hi1 = int.from_bytes(b"\x80" * stride, "big")
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ft in (0, 2):
            if ft == 2:
                # Bytewise addition mod 256 of whole rows at once (SWAR).
                a = int.from_bytes(line, "big")
                b = int.from_bytes(prev, "big")
                v = ((a & lo7) + (b & lo7)) ^ ((a ^ b) & hi1)
                line = bytearray(v.to_bytes(stride, "big"))
            rows.append(bytes(line))
            prev = line
            continue
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def colours(path):
    """Counts of each colour of a screenshot."""
    w, h, bpp, rows = png_pixels(path)
    seen = {}
    for y in range(h):
        r = rows[y]
        for x in range(w):
            px = r[x * bpp:x * bpp + 3]
            seen[px] = seen.get(px, 0) + 1
    return w, h, seen


def near(seen, rgb, tol=8):
    return sum(n for px, n in seen.items()
               if all(abs(px[i] - rgb[i]) <= tol for i in range(3)))


os.makedirs(OUT, exist_ok=True)
profile = tempfile.mkdtemp(prefix="iolab-chromium-")
try:
    names = sorted(f for f in os.listdir(G) if f.endswith(".json"))
    pages = {
        "all": names,
        "run": ["run-qd1.json", "run-qd16.json", "run-randrw.json"],
        "story1": ["mark-ide.json", "mark-virtio.json", "calibrate-ide.json",
                   "calibrate-virtio.json", "doctor-ide.json",
                   "doctor-virtio.json"],
        "matrix": ["matrix.json", "lab.json"],
        "lab": ["lab.json"],
        "compare-lab": ["lab.json", "lab-tcg.json"],
        "compare-matrix": ["matrix.json", "matrix-vda.json"],
    }
    # The probe can fail: a label drawn past its SVG's edge is caught.
    with open(os.path.join(OUT, "clipped.html"), "w") as f:
        f.write('<!DOCTYPE html><html><body><svg xmlns="http://www.w3.org/'
                '2000/svg" viewBox="0 0 100 40" width="100" height="40">'
                '<text x="90" y="20">qd32-threads</text>'
                '<text x="4" y="20">in</text></svg></body></html>')
    r = probe(os.path.join(OUT, "clipped.html"), profile)
    ok(r is not None and r["texts"] == 2 and len(r["clipped"]) == 1 and
       r["clipped"][0]["text"] == "qd32-threads",
       "the clip probe finds a label past its SVG's edge (%s)" % r)
    for page, inputs in pages.items():
        html = os.path.join(OUT, page + ".html")
        run(["report"] + [os.path.join(G, n) for n in inputs] +
            ["-o", html], check=0)
        # Full size for people; half size for the checks (decoding is
        # pure Python).
        png = os.path.join(OUT, page + ".png")
        small = os.path.join(OUT, page + "-half.png")
        for f in (png, small):
            if os.path.exists(f):
                os.unlink(f)
        p = chromium(["--screenshot=" + png, "--window-size=1280,7000",
                      "file://" + os.path.abspath(html)], profile)
        ok(p.returncode == 0 and os.path.exists(png),
           page + ": Chromium took a screenshot" +
           ("" if p.returncode == 0 else " (%s)" % p.stderr.strip()[-300:]))
        r = probe(html, profile)
        # Pages of heat maps alone have none (they are tables).
        if ok(r is not None and (r["texts"] > 0 or
                                 page not in ("all", "run", "story1")),
              page + ": Chromium laid out %s SVG texts" %
              (r["texts"] if r else "no")):
            ok(not r["clipped"], page + ": no text past its SVG's box%s" %
               "".join("\n  %r at %s in %s" % (c["text"], c["bbox"],
                                                c["box"])
                       for c in r["clipped"][:20]))
            # Lab: each direction's maps (one per bus) share every
            # column's range, and columns differ (tests are not alike).
            for d in ("Read", "Write"):
                maps = [h for h in r["heats"]
                        if re.match(r"(virtio-blk|ide): %s," % d, h["title"])]
                if page == "lab":
                    ok(len(maps) == 2 and maps[0]["cols"] and
                       maps[0]["cols"] == maps[1]["cols"] and
                       len(set(maps[0]["cols"].values())) > 1,
                       "lab: both buses' %s maps share each column's "
                       "colour range, one per test (%s)" %
                       (d, [m["cols"] for m in maps]))
        p = chromium(["--screenshot=" + small, "--window-size=1280,7000",
                      "--force-device-scale-factor=0.5",
                      "file://" + os.path.abspath(html)], profile)
        if not ok(p.returncode == 0 and os.path.exists(small),
                  page + ": and a half-size one"):
            continue
        w, h, seen = colours(small)
        ok(w == 640 and h == 3500, page + ": 1280 x 7000 CSS pixels, at half"
           " size %d x %d" % (w, h))
        ok(len(seen) > 300, page + ": a drawn page, %d colours" % len(seen))
        # The header bar, then the bars and heat maps in their colours.
        ok(near(seen, (0x1d, 0x24, 0x33)) > 2000, page + ": header drawn")
        if page in ("all", "story1", "run"):
            ok(near(seen, (0x00, 0x72, 0xb2)) > 500,
               page + ": blue bars or curves drawn")
        if page in ("all", "story1"):
            ok(near(seen, (0xe6, 0x9f, 0x00)) > 300,
               page + ": orange (write) bars drawn")
        if page == "matrix":
            dark = near(seen, (0x08, 0x1d, 0x58), 40)
            pale = near(seen, (0xff, 0xff, 0xd9), 12)
            ok(dark > 200 and pale > 200,
               page + ": heat map from pale to dark (%d, %d)" % (pale, dark))
        pdf = os.path.join(OUT, page + ".pdf")
        if os.path.exists(pdf):
            os.unlink(pdf)
        p = chromium(["--print-to-pdf=" + pdf, "--no-pdf-header-footer",
                      "file://" + os.path.abspath(html)], profile)
        if ok(p.returncode == 0 and os.path.exists(pdf),
              page + ": printed to PDF" +
              ("" if p.returncode == 0 else " (%s)" % p.stderr[-300:])):
            data = open(pdf, "rb").read()
            n = data.count(b"/Type /Page") - data.count(b"/Type /Pages")
            if n <= 0:
                n = data.count(b"/Type/Page") - data.count(b"/Type/Pages")
            ok(n >= len(inputs) // 2 + 1,
               page + ": %d printed pages for %d inputs" % (n, len(inputs)))
    print("screenshots and PDFs in " + OUT)
finally:
    shutil.rmtree(profile, ignore_errors=True)

done()
