# SPDX-License-Identifier: GPL-2.0-or-later
"""iolab probe against the real parts, all on loopback and started here:
Debian's prometheus scrapes `iolab probe --listen` and answers
histogram_quantile(0.99, ...) over the probe's histogram and every query
of the Grafana dashboard (deploy/grafana); Debian's
prometheus-node-exporter serves the file `iolab probe --textfile` keeps.
Skips with the reason when a binary is missing."""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from iolabtest import IOLAB, ok, done, skip, tmpdir  # noqa
import promtext  # noqa

SRC = os.environ.get("IOLAB_SRC") or os.path.join(os.path.dirname(__file__),
                                                  "..", "..")
DASHBOARD = os.path.join(SRC, "deploy", "grafana", "iolab-probe.json")
PROM = shutil.which("prometheus")
NODE = shutil.which("prometheus-node-exporter") or shutil.which("node_exporter")
if not PROM and not NODE:
    skip("neither prometheus nor prometheus-node-exporter is installed "
         "(Debian packages prometheus, prometheus-node-exporter)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url, timeout=10):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read().decode()


def wait_for(what, fn, limit=90):
    """Poll fn() until it returns something true, at most @limit s."""
    end, last = time.time() + limit, None
    while time.time() < end:
        try:
            last = fn()
            if last:
                return last
        except (OSError, ValueError) as e:
            last = e
        time.sleep(0.5)
    print("  %s: gave up after %d s; last: %r" % (what, limit, last))
    return None


def stop(p):
    if p.poll() is None:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    return p.returncode


def probe_port(p):
    """The port `iolab probe --listen :0` says it serves on (stderr)."""
    line = p.stderr.readline()
    return int(line.rsplit(" ", 1)[1]) if "serving /metrics" in line else None


with tmpdir() as d:
    data = os.path.join(d, "data.img")
    with open(data, "wb") as f:
        f.write(os.urandom(8 << 20))

    if not PROM:
        print("skip the Prometheus scrape: prometheus not installed")
    else:
        probe = subprocess.Popen(
            [IOLAB, "probe", "--listen", "127.0.0.1:0", "--interval", "100ms",
             data], stderr=subprocess.PIPE, text=True)
        port = probe_port(probe)
        ok(port, "probe --listen 127.0.0.1:0: says its port")
        web = free_port()
        cfg = os.path.join(d, "prometheus.yml")
        with open(cfg, "w") as f:
            f.write("global:\n  scrape_interval: 1s\n"
                    "scrape_configs:\n  - job_name: iolab\n"
                    "    static_configs:\n"
                    "      - targets: ['127.0.0.1:%d']\n" % port)
        log = open(os.path.join(d, "prometheus.log"), "w")
        prom = subprocess.Popen(
            [PROM, "--config.file", cfg, "--storage.tsdb.path",
             os.path.join(d, "tsdb"), "--web.listen-address",
             "127.0.0.1:%d" % web], stdout=log, stderr=log)
        base = "http://127.0.0.1:%d" % web
        try:
            def query(q):
                r = json.loads(get(base + "/api/v1/query?" +
                                   urllib.parse.urlencode({"query": q})))
                return r["data"]["result"] if r["status"] == "success" else None

            up = wait_for("the scrape target up",
                          lambda: [s for s in query('up{job="iolab"}')
                                   if s["value"][1] == "1"])
            ok(up, "prometheus scrapes the probe (up == 1)")
            q = ('histogram_quantile(0.99, sum by (le, target) '
                 '(rate(iolab_probe_latency_seconds_bucket[10s])))')
            res = wait_for("the p99 query", lambda: [
                s for s in query(q)
                if s["metric"].get("target") == data and
                0 < float(s["value"][1]) < 40])
            ok(res, "histogram_quantile(0.99) of the probe: %s s" %
               (res[0]["value"][1] if res else None))
            n = query('iolab_probe_latency_seconds_count{target="%s"}' % data)
            ok(n and float(n[0]["value"][1]) >= 5,
               "the series counts reads as they come (%s)" %
               (n[0]["value"][1] if n else None))
            meta = json.loads(get(base + "/api/v1/metadata?metric="
                                  "iolab_probe_latency_seconds"))
            ok(meta["data"].get("iolab_probe_latency_seconds", [{}])[0]
               .get("type") == "histogram",
               "prometheus sees iolab_probe_latency_seconds as a histogram")
            # every query of the Grafana dashboard, Grafana's variables
            # filled in, is valid PromQL and has data
            dash = json.load(open(DASHBOARD))
            for panel in dash["panels"]:
                for t in panel["targets"]:
                    expr = t["expr"].replace("$instance", ".*").replace(
                        "$__rate_interval", "10s")
                    try:
                        res = wait_for(panel["title"], lambda: query(expr), 20)
                    except OSError as e:
                        res = None
                        print("  %s: %s" % (expr, e))
                    ok(res, "dashboard panel '%s': its query answers" %
                       panel["title"])
            var = dash["templating"]["list"][1]["definition"]
            ok(var == "label_values(iolab_build_info, instance)" and
               query("iolab_build_info"),
               "dashboard variable: iolab_build_info carries the instance")
            bad = query("scrape_samples_post_metric_relabeling"
                        '{job="iolab"} == 0')
            ok(bad == [], "no scrape came back empty")
        finally:
            stop(prom)
            log.close()
            rc = stop(probe)
        ok(rc == 143, "probe: SIGTERM ends it with 143 (%s)" % rc)

    if not NODE:
        print("skip node_exporter: prometheus-node-exporter not installed")
    else:
        tf = os.path.join(d, "textfile")
        os.mkdir(tf)
        probe = subprocess.Popen(
            [IOLAB, "probe", "--textfile", tf, "--textfile-interval", "1s",
             "--interval", "100ms", data], stderr=subprocess.PIPE, text=True)
        web = free_port()
        log = open(os.path.join(d, "node.log"), "w")
        node = subprocess.Popen(
            [NODE, "--collector.disable-defaults", "--collector.textfile",
             "--collector.textfile.directory", tf, "--web.listen-address",
             "127.0.0.1:%d" % web], stdout=log, stderr=log)
        try:
            def scrape():
                fams = promtext.parse(get("http://127.0.0.1:%d/metrics" % web))
                n = promtext.value(fams, "iolab_probe_latency_seconds_count",
                                   target=data, op="read")
                return (fams, n) if n else None

            got = wait_for("node_exporter serving the textfile", scrape)
            fams = got[0] if got else {}
            ok(got and got[1] >= 1,
               "node_exporter serves iolab_probe_latency_seconds_count "
               "from the textfile (%s)" % (got and got[1]))
            ok(promtext.value(fams, "node_textfile_scrape_error") == 0,
               "node_exporter: node_textfile_scrape_error 0")
            ok(fams.get("iolab_probe_latency_seconds", {}).get("type") ==
               "histogram", "node_exporter keeps the histogram type")
            ok("iolab_finding" in fams and "iolab_disk_info" in fams,
               "node_exporter serves doctor's iolab_finding and "
               "iolab_disk_info")
        finally:
            stop(node)
            log.close()
            rc = stop(probe)
        ok(rc == 143 and not os.path.exists(os.path.join(tf, "iolab.prom")),
           "probe: SIGTERM removes its textfile, so nothing stale stays "
           "(exit %s)" % rc)
done()
