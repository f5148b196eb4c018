# SPDX-License-Identifier: GPL-2.0-or-later
"""A strict reader of the Prometheus text exposition format, for the probe's
tests: families with their HELP and TYPE, samples with their labels. It
raises ValueError on anything the format does not allow, so a test that
parses an exposition also checks it, beside promtool."""
import re

NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
SAMPLE = re.compile(r"^(%s)(\{(.*)\})? (\S+)$" % NAME)
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)')


def _labels(text):
    out, pos = {}, 0
    while pos < len(text):
        m = LABEL.match(text, pos)
        if not m:
            raise ValueError("bad labels: %r" % text)
        val = re.sub(r"\\(.)", lambda x: {"n": "\n"}.get(x.group(1), x.group(1)),
                     m.group(2))
        out[m.group(1)] = val
        pos = m.end()
    return out


def parse(text):
    """{family: {"type", "help", "samples": [(name, labels, value)]}}"""
    fams, cur = {}, None
    for line in text.splitlines():
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            kind, name, rest = line[2:6], *line[7:].split(" ", 1)
            f = fams.setdefault(name, {"samples": []})
            if kind == "TYPE" and "type" in f or kind == "HELP" and "help" in f:
                raise ValueError("family %s: second %s" % (name, kind))
            f[kind.lower()] = rest
            cur = name
            continue
        if not line or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if not m:
            raise ValueError("bad sample line: %r" % line)
        name = m.group(1)
        fam = name
        for suf in ("_bucket", "_sum", "_count"):
            if name.endswith(suf) and fams.get(name[:-len(suf)], {}).get("type") in ("histogram", "summary"):
                fam = name[:-len(suf)]
        if fam != cur:
            raise ValueError("sample %s outside its family (after %s)" % (name, cur))
        fams[fam]["samples"].append((name, _labels(m.group(3) or ""),
                                     float(m.group(4))))
    return fams


def value(fams, name, **labels):
    """The value of the one sample of @name with these labels, or None."""
    fam = name
    for suf in ("_bucket", "_sum", "_count"):
        if name.endswith(suf) and name[:-len(suf)] in fams:
            fam = name[:-len(suf)]
    for n, l, v in fams.get(fam, {}).get("samples", []):
        if n == name and all(l.get(k) == w for k, w in labels.items()):
            return v
    return None
