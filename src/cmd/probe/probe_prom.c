// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Prometheus text exposition (format 0.0.4): every family once, HELP
 * and TYPE first, base units (seconds, bytes), counters ending in _total,
 * the latency as a classic histogram. No host label: Prometheus adds the
 * instance.
 */
#include <stdlib.h>
#include <string.h>

#include "probe_impl.h"
#include "../../util/clock.h"
#include "../../util/xmem.h"

static void target_label(FILE *f, const struct probe_target *t)
{
	fputs("target=", f);
	prom_label_value(f, t->path);
}

/* Seconds as the text format wants: shortest round-trip form. */
static void seconds(FILE *f, double s)
{
	fprintf(f, "%.9g", s);
}

static void render_probe(FILE *f, const struct probe_target *t,
			 const struct probe_counts *c, size_t n, uint64_t now)
{
	prom_family(
		f, "iolab_probe_up", "gauge",
		"Whether the last probe read of the target succeeded (1) or failed (0).");
	for (size_t i = 0; i < n; i++) {
		if (c[i].up < 0)
			continue; /* not probed yet: no sample rather than a guess */
		fputs("iolab_probe_up{", f);
		target_label(f, &t[i]);
		fprintf(f, "} %d\n", c[i].up);
	}
	prom_family(f, "iolab_probe_latency_seconds", "histogram",
		    "Latency of the probe's QD1 O_DIRECT reads of one block.");
	for (size_t i = 0; i < n; i++) {
		uint64_t cum = 0;

		for (size_t b = 0; b <= PROBE_NBUCKETS; b++) {
			fputs("iolab_probe_latency_seconds_bucket{", f);
			target_label(f, &t[i]);
			fputs(",op=\"read\",le=\"", f);
			if (b < PROBE_NBUCKETS) {
				cum += c[i].buckets[b];
				seconds(f,
					(double)(PROBE_BUCKET0_NS << b) / 1e9);
			} else {
				cum = c[i].count;
				fputs("+Inf", f);
			}
			fprintf(f, "\"} %llu\n", (unsigned long long)cum);
		}
		fputs("iolab_probe_latency_seconds_sum{", f);
		target_label(f, &t[i]);
		fputs(",op=\"read\"} ", f);
		seconds(f, (double)c[i].sum_ns / 1e9);
		fputs("\niolab_probe_latency_seconds_count{", f);
		target_label(f, &t[i]);
		fprintf(f, ",op=\"read\"} %llu\n",
			(unsigned long long)c[i].count);
	}
	prom_family(
		f, "iolab_probe_errors_total", "counter",
		"Probes of the target that failed: open, size or read errors and short reads.");
	for (size_t i = 0; i < n; i++) {
		fputs("iolab_probe_errors_total{", f);
		target_label(f, &t[i]);
		fprintf(f, ",op=\"read\"} %llu\n",
			(unsigned long long)c[i].errors);
	}
	prom_family(
		f, "iolab_probe_zero_reads_total", "counter",
		"Probe reads that returned an all-zero block: maybe a hole or unwritten extent, answered without touching the medium.");
	for (size_t i = 0; i < n; i++) {
		fputs("iolab_probe_zero_reads_total{", f);
		target_label(f, &t[i]);
		fprintf(f, "} %llu\n", (unsigned long long)c[i].zero_reads);
	}
	prom_family(
		f, "iolab_probe_stalled_seconds", "gauge",
		"Age of the probe read in flight on the target, 0 when none is.");
	for (size_t i = 0; i < n; i++) {
		uint64_t since = c[i].outstanding_since_ns;

		fputs("iolab_probe_stalled_seconds{", f);
		target_label(f, &t[i]);
		fputs("} ", f);
		seconds(f,
			since && now > since ? (double)(now - since) / 1e9 : 0);
		fputc('\n', f);
	}
}

static void render_doctor(FILE *f, const struct doctor_report *r, double when)
{
	prom_family(
		f, "iolab_doctor_last_run_timestamp_seconds", "gauge",
		"When iolab doctor's rules last ran, in seconds since the epoch.");
	fprintf(f, "iolab_doctor_last_run_timestamp_seconds %.3f\n", when);
	prom_family(
		f, "iolab_disk_info", "gauge",
		"A disk as iolab doctor sees it; always 1, the facts are in the labels.");
	for (size_t i = 0; i < r->ndisks; i++) {
		const struct dr_disk *d = &r->disks[i];
		char q[24] = "";

		if (d->hw_queues >= 0)
			snprintf(q, sizeof(q), "%lld", (long long)d->hw_queues);
		fputs("iolab_disk_info{disk=", f);
		prom_label_value(f, d->name);
		fputs(",bus=", f);
		prom_label_value(f, d->bus);
		fputs(",driver=", f);
		prom_label_value(f, d->bi.driver);
		fputs(",kind=", f);
		prom_label_value(f, dr_kind_name(d->kind));
		fputs(",model=", f);
		prom_label_value(f, d->bi.model);
		fputs(",scheduler=", f);
		prom_label_value(f, d->scheduler);
		fputs(",write_cache=", f);
		prom_label_value(f, d->write_cache);
		fputs(",queues=", f);
		prom_label_value(f, q);
		fputs("} 1\n", f);
	}
	prom_family(
		f, "iolab_finding", "gauge",
		"A finding of iolab doctor's rules; always 1. count by (rule) (iolab_finding) lists a fleet's problems.");
	for (size_t i = 0; i < r->nfindings; i++) {
		const struct dr_finding *d = &r->findings[i];

		fputs("iolab_finding{rule=", f);
		prom_label_value(f, d->id);
		fputs(",severity=", f);
		prom_label_value(f, dr_sev_name(d->sev));
		fputs(",disk=", f);
		prom_label_value(f, d->disk);
		fputs("} 1\n", f);
	}
}

void probe_render(struct probe *p, FILE *f)
{
	struct probe_counts *c = xcalloc(p->nt ? p->nt : 1, sizeof(*c));
	uint64_t now;

	/* Copy under the lock, format outside it. */
	pthread_mutex_lock(&p->mu);
	for (size_t i = 0; i < p->nt; i++)
		c[i] = p->t[i].c;
	now = clock_mono_ns();
	pthread_mutex_unlock(&p->mu);

	prom_family(f, "iolab_build_info", "gauge",
		    "iolab's version; always 1.");
	fputs("iolab_build_info{version=", f);
	prom_label_value(f, p->version);
	fputs("} 1\n", f);
	render_probe(f, p->t, c, p->nt, now);
	free(c);
	/*
	 * The report is only swapped under the lock by the main thread, which
	 * also renders the textfile: holding the lock while formatting it
	 * keeps an HTTP scrape from seeing a freed report.
	 */
	pthread_mutex_lock(&p->mu);
	if (p->dr_valid)
		render_doctor(f, &p->dr, p->dr_unix_s);
	pthread_mutex_unlock(&p->mu);
	probe_diskstats(f);
}

char *probe_render_buf(struct probe *p, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return NULL;
	probe_render(p, f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}
