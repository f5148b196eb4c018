#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab advise's corrected configuration, applied to every libvirt
fixture, is a domain libvirt takes: the corrected <driver>, <target>,
<iothreads> and <controller> elements replace the ones the fixture has
(as a user pasting them would), and the result must pass
virt-xml-validate and, where the fixture itself does, be defined by
`virsh -c test:///default define` (libvirt's own checks: duplicate
targets, undefined iothreads, attribute values). Needs libvirt-clients
(scripts/deps.sh --test); skipped without virt-xml-validate."""
import glob
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import ok, run, done, skip, tmpdir  # noqa: E402

FIX = os.path.join(os.environ.get("IOLAB_SRC", "."), "tests", "fixtures",
                   "advise")


def elements(text):
    """The elements of a corrected block (and whether it asks to drop the
    disk's drive address)."""
    text = text or ""
    drop_addr = "delete this disk's <address" in text
    body = "\n".join(x for x in text.splitlines()
                     if not x.lstrip().startswith("<!--"))
    if not body.strip():
        return [], drop_addr
    return list(ET.fromstring("<x>" + body + "</x>")), drop_addr


def replace_child(parent, new, match):
    for i, old in enumerate(list(parent)):
        if match(old):
            parent.remove(old)
            parent.insert(i, new)
            return True
    return False


def apply(tree, doc):
    root = tree.getroot()
    devs = root.find("devices")
    for vm in doc["vms"]:
        for d in vm["disks"]:
            els, drop_addr = elements(d["corrected"])
            disk = next(x for x in devs.findall("disk")
                        if x.find("target") is not None and
                        x.find("target").get("dev") == d["id"])
            for e in els:
                if e.tag in ("driver", "target"):
                    if not replace_child(disk, e, lambda o: o.tag == e.tag):
                        disk.insert(0, e)
                elif e.tag == "controller":
                    apply_controller(devs, e)
                else:
                    ok(False, "unexpected element <%s> for disk %s"
                       % (e.tag, d["id"]))
            if drop_addr:
                for a in disk.findall("address"):
                    disk.remove(a)
        els, _ = elements(vm["corrected"])
        for e in els:
            if e.tag == "iothreads":
                if not replace_child(root, e, lambda o: o.tag == e.tag):
                    root.insert(list(root).index(root.find("vcpu")) + 1, e)
            elif e.tag == "controller":
                apply_controller(devs, e)
            else:
                ok(False, "unexpected VM element <%s>" % e.tag)


def apply_controller(devs, e):
    if not replace_child(devs, e, lambda o: o.tag == "controller" and
                         o.get("type") == e.get("type") and
                         o.get("index", "0") == e.get("index", "0")):
        devs.append(e)


def consumers_accept(path, name, define):
    r = subprocess.run(["virt-xml-validate", path, "domain"],
                       capture_output=True, text=True, timeout=60)
    ok(r.returncode == 0, "%s: virt-xml-validate: %s" % (
        name, (r.stdout + r.stderr).strip()[-300:]))
    if not define:
        return
    r = subprocess.run(["virsh", "-q", "-c", "test:///default", "define",
                        path], capture_output=True, text=True, timeout=60)
    ok(r.returncode == 0, "%s: virsh define: %s" % (
        name, (r.stdout + r.stderr).strip()[-300:]))


def defines(path):
    if not shutil.which("virsh"):
        return False
    r = subprocess.run(["virsh", "-q", "-c", "test:///default", "define",
                        path], capture_output=True, text=True, timeout=60)
    return r.returncode == 0


def main():
    if not shutil.which("virt-xml-validate"):
        skip("virt-xml-validate missing (libvirt-clients; "
             "scripts/deps.sh --test)")
    n = ndefined = 0
    with tmpdir() as tmp:
        for src in sorted(glob.glob(os.path.join(FIX, "libvirt", "*.xml"))):
            name = os.path.relpath(src, FIX)
            rc, out, err = run(["advise", "--no-probe", "--json",
                                "--libvirt", name], cwd=FIX)
            if rc == 1:
                continue  # malformed on purpose (broken.xml)
            doc = json.loads(out)
            tree = ET.parse(src)
            root = tree.getroot()
            if root.find("memory") is None:
                # libvirt wants one; some fixtures leave it out, which
                # has nothing to do with their disks
                m = ET.Element("memory", unit="KiB")
                m.text = "1048576"
                root.insert(list(root).index(root.find("name")) + 1, m)
            orig = os.path.join(tmp, "orig-" + os.path.basename(src))
            tree.write(orig, encoding="unicode")
            apply(tree, doc)
            dst = os.path.join(tmp, os.path.basename(src))
            tree.write(dst, encoding="unicode")
            # a fixture libvirt itself refuses is only checked against
            # the schema
            define = defines(orig)
            consumers_accept(dst, name, define)
            n += 1
            ndefined += define
            targets = [t.get("dev") for t in
                       tree.getroot().iter("target") if t.get("dev")]
            ok(len(targets) == len(set(targets)),
               "%s: targets unique after the fix %s" % (name, targets))
    ok(n >= 6, "%d corrected libvirt fixtures checked, %d also defined"
       % (n, ndefined))
    done()


main()
