// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab run --json` to the compare/report model; schema in iolab-run(1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../adapters.h"
#include "run_figs.h"
#include "../../report/adapt.h"
#include "../../report/json_read.h"
#include "../../core/result.h"
#include "../../util/err.h"
#include "../../util/parse.h"
#include "../../util/xmem.h"

/* The figures of direction @dir (k): run_dir_figs[] in the document. */
static void run_dir_figs_add(struct rdoc *d, const char *prefix,
			     const char *group, const struct jr_node *dir,
			     int k)
{
	bool is_flush = k == DIR_FLUSH;
	char key[160];
	double v;

	for (const struct run_fig *f = run_dir_figs; f->key; f++) {
		if (!f->name || !run_fig_in_dir(f, k) ||
		    ((f->scope & RUN_FIG_FLUSH) && !is_flush) ||
		    !run_fig_json(f, dir, &v) ||
		    ((f->scope & RUN_FIG_POSITIVE) && !(v > 0)))
			continue;
		snprintf(key, sizeof(key), "%s%s", prefix, f->key);
		rdoc_fig(d, key, group, f->name, f->unit, f->better, v,
			 is_flush ? 0 : f->rflags);
	}
}

/* The latency percentile curves of one job: one series per direction. */
static void run_pct_chart(struct rdoc *d, const struct jr_node *job,
			  const char *title)
{
	struct rline *l = NULL;

	for (int k = 0; k < DIR_COUNT; k++) {
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
			rline_series(l, result_dir_name(k), 0, k == DIR_FLUSH,
				     m, x, y);
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

/* The text table's columns (run_text.c), from the document. */
static void run_summary_table(struct rdoc *d, const struct jr_node *job,
			      const char *title)
{
	size_t ncols = run_fig_columns() + 1, i;
	const char **head = xcalloc(ncols, sizeof(*head));
	char(*c)[48] = xcalloc(ncols, sizeof(*c));
	const char **row = xcalloc(ncols, sizeof(*row));
	struct rtable *t;

	head[0] = "";
	i = 1;
	for (const struct run_fig *f = run_dir_figs; f->key; f++)
		if (f->head)
			head[i++] = f->head;
	t = rdoc_table(d, "table", title, ncols, head);
	for (int k = 0; k < DIR_COUNT; k++) {
		const struct jr_node *dir = jr_get(job, result_dir_name(k));
		double v;

		if (!dir || (k == DIR_FLUSH && jr_numd(dir, "count", 0) <= 0))
			continue;
		snprintf(c[0], sizeof(c[0]), "%s", result_dir_name(k));
		i = 1;
		for (const struct run_fig *f = run_dir_figs; f->key; f++) {
			if (!f->head)
				continue;
			if (k == DIR_FLUSH && (f->scope & RUN_FIG_COUNT_COL))
				snprintf(c[i], sizeof(c[i]), "%.0f flushes",
					 jr_numd(dir, "count", 0));
			else if (!run_fig_in_dir(f, k))
				c[i][0] = 0;
			else {
				run_fig_json(f, dir, &v);
				rfmt(f->unit, v, c[i], sizeof(c[i]));
			}
			i++;
		}
		for (i = 0; i < ncols; i++)
			row[i] = c[i];
		rtable_row(t, row);
	}
	free(head);
	free(c);
	free(row);
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
	for (int k = 0; k < DIR_COUNT; k++) {
		const struct jr_node *dir = jr_get(job, result_dir_name(k));

		if (!dir || (k == DIR_FLUSH && jr_numd(dir, "count", 0) <= 0))
			continue;
		snprintf(key, sizeof(key), "%s%s/", prefix, result_dir_name(k));
		snprintf(group, sizeof(group), "%s%s", gp, result_dir_name(k));
		run_dir_figs_add(d, key, group, dir, k);
		if (k < DIR_FLUSH) {
			/* compare's noise: the job's own seconds. */
			const char *one[] = { result_dir_name(k), NULL };
			char ki[128], km[128];

			snprintf(ki, sizeof(ki), "%siops", key);
			snprintf(km, sizeof(km), "%smbps", key);
			adapt_seconds_samples(d, job, one, ki, km);
		}
	}
	for (const struct run_fig *f = run_job_figs; f->key; f++) {
		double v;

		if (!f->name)
			continue;
		run_fig_json(f, job, &v);
		snprintf(key, sizeof(key), "%s%s", prefix, f->key);
		snprintf(group, sizeof(group), "%s%s", gp, f->group);
		rdoc_fig(d, key, group, f->name, f->unit, f->better, v, 0);
	}
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
