#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Dependencies run one way (HACKING.md, "Layers").

Two checks over the tree as built:
1. includes: a file may include only headers of its own layer or a lower one
   (util < engine < core < report < cmd < main.c); a command folder may use
   another command's header (lab runs mark in its guests), never in a loop;
2. calls: no two source files call each other in a loop. The call graph is the
   linker's: which object file defines each symbol another one uses (nm), so
   it is what the code does, not what the headers say.
A cycle found in ALLOWED is known debt being paid off; any other fails.
"""
import os, re, subprocess, sys

src_root = os.environ.get('IOLAB_SRC', os.path.join(os.path.dirname(__file__), '..', '..'))
build = os.environ.get('IOLAB_BUILD')
os.chdir(src_root)

# Cycles that exist today and are to go; the check fails on any other, and on
# an entry here that no longer is a cycle (so the list only shrinks).
ALLOWED = set()

RANK = {'util': 0, 'engine': 1, 'core': 2, 'report': 3, 'cmd': 4}

def layer(path):
    parts = path.split('/')
    if parts[0] != 'src':
        return None, None
    if len(parts) == 2:
        return 5, 'main'
    top = parts[1]
    if top not in RANK:
        return -1, top
    sub = parts[2] if top == 'cmd' and len(parts) > 3 else None
    return RANK[top], sub

inc_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
problems = []
cmd_edges = {}
for dirpath, _, names in os.walk('src'):
    for n in names:
        if not n.endswith(('.c', '.h')):
            continue
        f = os.path.join(dirpath, n)
        r, sub = layer(f)
        if r == -1:
            problems.append('%s: folder src/%s has no place in the layers; add it to RANK in %s' % (f, sub, __file__))
            continue
        for inc in inc_re.findall(open(f, errors='replace').read()):
            t = os.path.normpath(os.path.join(dirpath, inc))
            if not os.path.exists(t):
                continue  # config.h and the like
            tr, tsub = layer(t)
            if tr > r:
                problems.append('%s includes %s: a lower layer must not use a higher one' % (f, t))
            if r == 4 and tr == 4 and sub and tsub and sub != tsub:
                cmd_edges.setdefault(sub, set()).add(tsub)
            if r == 4 and tr == 4 and sub is None and tsub:
                pass  # cmd/ root (dispatchers) may use every command

def cycles(graph):
    """Strongly connected components with more than one member (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)
    def visit(v):
        index[v] = low[v] = counter[0]; counter[0] += 1
        stack.append(v); on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(frozenset(comp))
    for v in list(graph):
        if v not in index:
            visit(v)
    return out

for comp in cycles(cmd_edges):
    problems.append('command folders use each other in a loop: %s' % ', '.join(sorted(comp)))

found = set()
if build:
    objdir = os.path.join(build, 'libiolab.a.p')
    # meson names an object after its source path with '/' as '_'
    mangled = {}
    for dirpath, _, names in os.walk('src'):
        for n in names:
            if n.endswith('.c'):
                p = os.path.join(dirpath, n)
                mangled[p.replace('/', '_') + '.o'] = p
    defs, uses = {}, {}
    for o in sorted(os.listdir(objdir)):
        if not o.endswith('.o'):
            continue
        name = mangled.get(o, o)
        out = subprocess.run(['nm', os.path.join(objdir, o)], capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in 'TDBR':
                defs[p[2]] = name
            elif len(p) == 2 and p[0] == 'U':
                uses.setdefault(name, set()).add(p[1])
    calls = {}
    for f, syms in uses.items():
        for s in syms:
            t = defs.get(s)
            if t and t != f:
                calls.setdefault(f, set()).add(t)
    for comp in cycles(calls):
        key = ' '.join(sorted(comp))
        found.add(key)
        if key not in ALLOWED:
            problems.append('files call each other in a loop: %s; split the dispatcher from the helpers it dispatches to' % key)
    for key in sorted(ALLOWED - found):
        problems.append('no longer a loop, remove it from ALLOWED: %s' % key)
else:
    print('IOLAB_BUILD not set: call graph not checked', file=sys.stderr)

for p in problems:
    print(p)
print('%d problem(s)' % len(problems))
sys.exit(1 if problems else 0)
