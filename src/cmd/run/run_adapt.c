// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab run --json` to the compare/report model; schema in iolab-run(1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../adapters.h"
#include "../../report/adapt.h"
#include "../../report/json_read.h"
#include "../../core/result.h"
#include "../../util/err.h"
#include "../../util/parse.h"
#include "../../util/xmem.h"

/* Percentiles shown as figures when the document has them. */
static const struct {
	double p;
	const char *key, *name;
	unsigned int flags;
} run_pcts[] = {
	{ 50, "lat_p50", "p50 latency", 0 },
	{ 99, "lat_p99", "p99 latency", RF_CHART | RF_HEADLINE },
	{ 99.9, "lat_p99_9", "p99.9 latency", 0 },
	{ 99.99, "lat_p99_99", "p99.99 latency", 0 },
};

static void run_dir_figs(struct rdoc *d, const char *prefix, const char *group,
			 const struct jr_node *dir, bool is_flush)
{
	const struct jr_node *lat = jr_get(dir, "lat_ns");
	char key[160];
	double v;

#define KEY(s) (snprintf(key, sizeof(key), "%s%s", prefix, s), key)
	if (is_flush) {
		rdoc_fig(d, KEY("count"), group, "flushes", RU_COUNT, RB_NONE,
			 jr_numd(dir, "count", NAN), 0);
		if (jr_num(dir, "skipped", &v) && v > 0)
			rdoc_fig(d, KEY("skipped"), group, "flushes skipped",
				 RU_COUNT, RB_NONE, v, 0);
	} else {
		rdoc_fig(d, KEY("iops"), group, "IOPS", RU_IOPS, RB_HIGHER,
			 jr_numd(dir, "iops", NAN), RF_CHART | RF_HEADLINE);
		rdoc_fig(d, KEY("mbps"), group, "MB/s", RU_MBPS, RB_HIGHER,
			 jr_numd(dir, "mbps", NAN), RF_CHART | RF_HEADLINE);
	}
	if (!lat)
		return;
	rdoc_fig(d, KEY("lat_min"), group, "min latency", RU_NS, RB_LOWER,
		 jr_numd(lat, "min", NAN), 0);
	rdoc_fig(d, KEY("lat_mean"), group, "mean latency", RU_NS, RB_LOWER,
		 jr_numd(lat, "mean", NAN), is_flush ? 0 : RF_HEADLINE);
	for (size_t i = 0; i < sizeof(run_pcts) / sizeof(run_pcts[0]); i++)
		if (adapt_percentile(lat, run_pcts[i].p, &v))
			rdoc_fig(d, KEY(run_pcts[i].key), group,
				 run_pcts[i].name, RU_NS, RB_LOWER, v,
				 is_flush ? 0 : run_pcts[i].flags);
	rdoc_fig(d, KEY("lat_max"), group, "max latency", RU_NS, RB_LOWER,
		 jr_numd(lat, "max", NAN), 0);
#undef KEY
}

/* The latency percentile curves of one job: one series per direction. */
static void run_pct_chart(struct rdoc *d, const struct jr_node *job,
			  const char *title)
{
	struct rline *l = NULL;

	for (int k = 0; k < 3; k++) {
		const struct jr_node *ps = jr_get(
			jr_get(job, result_dir_name(k)), "lat_ns.percentiles");
		size_t n = jr_len(ps), m = 0;
		double *x, *y;

		if (!n)
			continue;
		x = xcalloc(n, sizeof(double));
		y = xcalloc(n, sizeof(double));
		for (size_t i = 0; i < n; i++)
			if (jr_num(jr_at(ps, i), "p", &x[m]) &&
			    jr_num(jr_at(ps, i), "ns", &y[m]) && x[m] < 100)
				m++;
		if (m >= 2) {
			if (!l)
				l = rdoc_line(d, "latency", title, "percentile",
					      RU_PCT, RSC_NINES, "latency",
					      RU_NS, RSC_LOG);
			rline_series(l, result_dir_name(k), 0, k == 2, m, x, y);
		}
		free(x);
		free(y);
	}
}

static void run_ts_chart(struct rdoc *d, const struct jr_node *job,
			 const char *title)
{
	const struct jr_node *ts = jr_get(job, "timeseries");
	size_t n = jr_len(ts), m = 0;
	double *x, *r, *w;
	bool reads = jr_get(job, "read") != NULL,
	     writes = jr_get(job, "write") != NULL;
	struct rline *l;

	if (n < 2)
		return;
	x = xcalloc(n, sizeof(double));
	r = xcalloc(n, sizeof(double));
	w = xcalloc(n, sizeof(double));
	for (size_t i = 0; i < jr_len(ts); i++) {
		const struct jr_node *p = jr_at(ts, i);
		double span = jr_numd(p, "span_s", 1);

		/* A cut second is plotted at its end and as a rate over its
		 * span; one too short to be a rate (an older iolab's drain
		 * second, span 0) is left out rather than drawn as a dive. */
		if (span < 0.25)
			continue;
		x[m] = jr_numd(p, "t_s", (double)i + 1) - 1 +
		       (span < 1 ? span : 1);
		r[m] = jr_numd(p, "read_iops", 0);
		w[m] = jr_numd(p, "write_iops", 0);
		m++;
	}
	n = m;
	if (n < 2)
		goto out;
	l = rdoc_line(d, "timeline", title, "time (s)", RU_NONE, RSC_LIN,
		      "IOPS", RU_IOPS, RSC_LIN);
	if (reads)
		rline_series(l, "read", 0, false, n, x, r);
	if (writes)
		rline_series(l, "write", 0, false, n, x, w);
out:
	free(x);
	free(r);
	free(w);
}

static void run_summary_table(struct rdoc *d, const struct jr_node *job,
			      const char *title)
{
	static const char *const head[] = { "",	     "IOPS",  "MB/s",
					    "MiB/s", "mean",  "p50",
					    "p99",   "p99.9", "max" };
	struct rtable *t = rdoc_table(d, "table", title, 9, head);

	for (int k = 0; k < 3; k++) {
		const struct jr_node *dir = jr_get(job, result_dir_name(k));
		const struct jr_node *lat = jr_get(dir, "lat_ns");
		char c[9][48];
		const char *row[9];
		double v;

		if (!dir || (k == 2 && jr_numd(dir, "count", 0) <= 0))
			continue;
		snprintf(c[0], sizeof(c[0]), "%s", result_dir_name(k));
		if (k == 2) {
			snprintf(c[1], sizeof(c[1]), "%.0f flushes",
				 jr_numd(dir, "count", 0));
			c[2][0] = c[3][0] = 0;
		} else {
			rfmt(RU_IOPS, jr_numd(dir, "iops", NAN), c[1], 48);
			rfmt(RU_MBPS, jr_numd(dir, "mbps", NAN), c[2], 48);
			rfmt(RU_MBPS, jr_numd(dir, "mibps", NAN), c[3], 48);
		}
		rfmt(RU_NS, jr_numd(lat, "mean", NAN), c[4], 48);
		rfmt(RU_NS, adapt_percentile(lat, 50, &v) ? v : NAN, c[5], 48);
		rfmt(RU_NS, adapt_percentile(lat, 99, &v) ? v : NAN, c[6], 48);
		rfmt(RU_NS, adapt_percentile(lat, 99.9, &v) ? v : NAN, c[7],
		     48);
		rfmt(RU_NS, jr_numd(lat, "max", NAN), c[8], 48);
		for (int i = 0; i < 9; i++)
			row[i] = c[i];
		rtable_row(t, row);
	}
}

/* "randread 4 KiB QD1 T1, io_uring, cache=none" */
static void run_title(struct rdoc *d, const struct jr_node *job,
		      const struct jr_node *env)
{
	char bs[32], title[512];
	const char *target = jr_str(env, "target");
	const char *dev = jr_str(env, "device"), *drv = jr_str(env, "driver");
	const char *fs = jr_str(env, "fs_type");
	int n;

	n = snprintf(title, sizeof(title), "%s %s QD%.0f T%.0f, %s, cache=%s",
		     jr_str(job, "rw") ? jr_str(job, "rw") : "?",
		     adapt_size(job, "bs_bytes", bs, sizeof(bs)) ? bs : "?",
		     jr_numd(job, "qd", 0), jr_numd(job, "threads", 0),
		     jr_str(job, "engine") ? jr_str(job, "engine") : "?",
		     jr_str(job, "cache") ? jr_str(job, "cache") : "?");
	if (target && n > 0 && (size_t)n < sizeof(title))
		n += snprintf(title + n, sizeof(title) - (size_t)n, " on %s",
			      target);
	if ((fs || dev) && n > 0 && (size_t)n < sizeof(title))
		snprintf(title + n, sizeof(title) - (size_t)n, " (%s%s%s%s%s)",
			 fs ? fs : "", fs && dev ? " on " : "", dev ? dev : "",
			 drv ? ", " : "", drv ? drv : "");
	d->title = xstrdup(title);
}

/*
 * One entry of "jobs". @num is its 1-based number when there are several,
 * 0 when it is the only one (today's run): then no "job N" anywhere.
 */
static void run_job(struct rdoc *d, const struct jr_node *job, size_t num)
{
	char prefix[32] = "", gp[32] = "", key[96], group[96], title[96];
	bool b;

	if (num) {
		snprintf(prefix, sizeof(prefix), "job%zu/", num);
		snprintf(gp, sizeof(gp), "job %zu ", num);
	}
	for (int k = 0; k < 3; k++) {
		const struct jr_node *dir = jr_get(job, result_dir_name(k));

		if (!dir || (k == 2 && jr_numd(dir, "count", 0) <= 0))
			continue;
		snprintf(key, sizeof(key), "%s%s/", prefix, result_dir_name(k));
		snprintf(group, sizeof(group), "%s%s", gp, result_dir_name(k));
		run_dir_figs(d, key, group, dir, k == 2);
		if (k < 2) {
			/* compare's noise: the job's own seconds. */
			const char *one[] = { result_dir_name(k), NULL };
			char ki[128], km[128];

			snprintf(ki, sizeof(ki), "%siops", key);
			snprintf(km, sizeof(km), "%smbps", key);
			adapt_seconds_samples(d, job, one, ki, km);
		}
	}
	snprintf(key, sizeof(key), "%scpu_us_per_io", prefix);
	snprintf(group, sizeof(group), "%scpu", gp);
	rdoc_fig(d, key, group, "CPU per I/O", RU_US, RB_LOWER,
		 jr_numd(job, "cpu.us_per_io", NAN), 0);
	snprintf(key, sizeof(key), "%serrors", prefix);
	snprintf(group, sizeof(group), "%serrors", gp);
	rdoc_fig(d, key, group, "I/O errors", RU_COUNT, RB_LOWER,
		 jr_numd(job, "errors.count", NAN), 0);
	if (jr_bool(job, "partial", &b) && b)
		d->partial = true;

	snprintf(title, sizeof(title), "%sResult", gp);
	run_summary_table(d, job, title);
	snprintf(title, sizeof(title), "%sLatency percentiles", gp);
	run_pct_chart(d, job, title);
	snprintf(title, sizeof(title), "%sIOPS per second", gp);
	run_ts_chart(d, job, title);
}

bool adapt_run(struct rdoc *d, const struct jr_node *root, struct err *err)
{
	const struct jr_node *jobs = jr_get(root, "jobs");
	const struct jr_node *env = jr_get(root, "environment");
	size_t njobs = jr_len(jobs);
	bool b;

	if (!njobs || !jr_is_object(jr_at(jobs, 0)))
		return err_set(
			err, EXIT_USAGE, 0,
			"a run document without \"jobs\"; give the output of 'iolab run --json'");
	adapt_job_settings(d, jr_get(root, "options"));
	adapt_environment(d, env);
	adapt_warnings(d, jr_get(root, "warnings"));
	if (jr_bool(root, "partial", &b) && b)
		d->partial = true;
	run_title(d, jr_at(jobs, 0), env);
	for (size_t j = 0; j < njobs; j++)
		run_job(d, jr_at(jobs, j), njobs > 1 ? j + 1 : 0);
	return true;
}
