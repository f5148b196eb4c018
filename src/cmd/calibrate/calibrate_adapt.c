// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab calibrate --json` to the compare/report model, after
 * iolab-calibrate(1) of the calibrate branch (not on main yet):
 * "max_iops" (null when no load met the cap), "actual_latency_ms",
 * "max_mbps", "max_pmbps", "curve":[{"load","qd","threads","iops","mbps",
 * "lat_ms":{"mean","p50","p99"},"meets_cap","best"}], "large_curve",
 * "knee":{"load","littles_law_parallelism","qd1_latency_ms",...},
 * "classification", "budget":{"cut_short"}. Reads the spelling
 * (lat_ns, at_load, knee.concurrency) too.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../adapters.h"
#include "calibrate_figs.h"
#include "../../report/adapt.h"
#include "../../report/json_read.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

/* A curve point's load: "load", else qd x threads. */
static double point_load(const struct jr_node *p)
{
	double l;

	if (jr_num(p, "load", &l))
		return l;
	return jr_numd(p, "qd", NAN) * jr_numd(p, "threads", 1);
}

static void calib_settings(struct rdoc *d, const struct jr_node *o)
{
	char buf[64];
	double v;

	rdoc_set(d, RS_WORKLOAD, "disks", "disks (num_physical_disks)",
		 jr_scalar(o, "disks", buf, sizeof(buf)));
	if (jr_num(o, "max_latency_ms", &v)) {
		snprintf(buf, sizeof(buf), "%g ms", v);
		rdoc_set(d, RS_WORKLOAD, "max_latency", "latency cap", buf);
	}
	rdoc_set(d, RS_WORKLOAD, "bs", "block size",
		 adapt_size(o, "block_size_bytes", buf, sizeof(buf)));
	rdoc_set(d, RS_WORKLOAD, "latency_stat", "capped statistic",
		 jr_str(o, "latency_stat"));
	if (jr_num(o, "budget_s", &v)) {
		snprintf(buf, sizeof(buf), "%g s", v);
		rdoc_set(d, RS_WORKLOAD, "budget", "time budget", buf);
	}
	rdoc_set(d, RS_WORKLOAD, "engine", "engine", jr_str(o, "engine"));
	rdoc_set(d, RS_WORKLOAD, "cache", "cache", jr_str(o, "cache"));
}

/* The load of the max_iops point: "at_load", or the point marked best. */
static bool best_load(const struct jr_node *root, double *load)
{
	const struct jr_node *c = jr_get(root, "curve");

	if (jr_num(root, "at_load", load))
		return true;
	for (size_t i = 0; i < jr_len(c); i++) {
		bool b;

		if (jr_bool(jr_at(c, i), "best", &b) && b) {
			*load = point_load(jr_at(c, i));
			return isfinite(*load);
		}
	}
	return false;
}

/* The 1 MiB curve (max_mbps): MB/s and latency against load. */
static void calib_large(struct rdoc *d, const struct jr_node *root)
{
	const struct jr_node *curve = jr_get(root, "large_curve");
	size_t n = jr_len(curve), m = 0;
	double *x, *mb, *lat, v;
	struct rline *l;

	if (n < 2)
		return;
	x = xcalloc(n, sizeof(double));
	mb = xcalloc(n, sizeof(double));
	lat = xcalloc(n, sizeof(double));
	for (size_t i = 0; i < n; i++) {
		const struct jr_node *p = jr_at(curve, i);

		x[m] = point_load(p);
		mb[m] = jr_numd(p, "mbps", NAN);
		lat[m] = cal_json_lat(p, "mean") / 1e6;
		if (isfinite(x[m]) && x[m] > 0 && isfinite(mb[m]))
			m++;
	}
	if (m >= 2) {
		l = rdoc_line(d, "curve",
			      "MB/s against load (1 MiB random reads)",
			      "requests in flight", RU_LOAD, RSC_LOG, "MB/s",
			      RU_MBPS, RSC_LIN);
		rline_y2(l, "latency", RU_MS, RSC_LIN);
		rline_series(l, "MB/s", 0, false, m, x, mb);
		rline_series(l, "mean latency", 1, true, m, x, lat);
		if (jr_num(root, "max_mbps", &v))
			rline_mark(l, 'y', v, "max_mbps");
	}
	free(x);
	free(mb);
	free(lat);
}

static void calib_curve(struct rdoc *d, const struct jr_node *root,
			double cap_ms)
{
	const char **head, **row;
	char(*c)[48];
	size_t nh = 3; /* load, figures, queue depth x threads, within cap */
	const char *stat = jr_str(root, "options.latency_stat");
	bool p99_capped = stat && !strcmp(stat, "p99");
	const struct jr_node *curve = jr_get(root, "curve");
	size_t n = jr_len(curve), m = 0;
	double *x = xcalloc(n ? n : 1, sizeof(double));
	double *iops = xcalloc(n ? n : 1, sizeof(double));
	double *lat = xcalloc(n ? n : 1, sizeof(double));
	struct rtable *t;
	struct rline *l;
	double v, at;

	for (size_t i = 0; i < n; i++) {
		const struct jr_node *p = jr_at(curve, i);

		x[m] = point_load(p);
		iops[m] = jr_numd(p, "iops", NAN);
		lat[m] = cal_json_lat(p, p99_capped ? "p99" : "mean") / 1e6;
		if (isfinite(x[m]) && x[m] > 0 && isfinite(iops[m]))
			m++;
	}
	if (m >= 2) {
		l = rdoc_line(d, "curve",
			      "IOPS and latency against load (random reads)",
			      "requests in flight", RU_LOAD, RSC_LOG, "IOPS",
			      RU_IOPS, RSC_LIN);
		rline_y2(l, "latency", RU_MS, RSC_LIN);
		/* The statistic the cap applies to; the table has the rest. */
		rline_series(l, "IOPS", 0, false, m, x, iops);
		rline_series(l, p99_capped ? "p99 latency" : "mean latency", 1,
			     true, m, x, lat);
		if (isfinite(cap_ms))
			rline_mark(l, 'r', cap_ms, "latency cap");
		if (jr_num(root, "knee.load", &v))
			rline_mark(l, 'x', v, "knee");
		if (jr_num(root, "max_iops", &v) && best_load(root, &at))
			rline_dot(l, 0, at, v, "max_iops");
	}
	free(x);
	free(iops);
	free(lat);
	if (!n)
		return;
	for (const struct cal_fig *g = cal_point_figs; g->head; g++)
		nh++;
	head = xcalloc(nh, sizeof(*head));
	row = xcalloc(nh, sizeof(*row));
	c = xcalloc(nh, sizeof(*c));
	nh = 0;
	head[nh++] = "load";
	for (const struct cal_fig *g = cal_point_figs; g->head; g++)
		head[nh++] = g->head;
	head[nh++] = "queue depth x threads";
	head[nh++] = "within cap";
	t = rdoc_table(d, "table", "The curve", nh, head);
	for (size_t i = 0; i < n; i++) {
		const struct jr_node *p = jr_at(curve, i);
		size_t k = 1;
		bool meets;

		rfmt(RU_LOAD, point_load(p), c[0], 48);
		for (const struct cal_fig *g = cal_point_figs; g->head; g++)
			rfmt(g->unit, cal_fig_json(g, p), c[k++], 48);
		snprintf(c[k++], 48, "QD%.0f x %.0f", jr_numd(p, "qd", NAN),
			 jr_numd(p, "threads", 1));
		if (!jr_bool(p, "meets_cap", &meets))
			c[k++][0] = 0;
		else
			snprintf(c[k++], 48, "%s", meets ? "yes" : "no");
		for (k = 0; k < nh; k++)
			row[k] = c[k];
		rtable_row(t, row);
	}
	free(head);
	free(row);
	free(c);
}

bool adapt_calibrate(struct rdoc *d, const struct jr_node *root,
		     struct err *err)
{
	const struct jr_node *o = jr_get(root, "options");
	const struct jr_node *env = jr_get(root, "environment");
	double cap = jr_numd(o, "max_latency_ms", NAN), v;
	char bs[32], title[512], tgt[512];
	bool b;

	if (!jr_get(root, "max_iops") && !jr_get(root, "curve"))
		return err_set(
			err, EXIT_USAGE, 0,
			"a calibrate document without \"max_iops\" or \"curve\"; give the output of 'iolab calibrate --json'");
	calib_settings(d, o);
	adapt_environment(d, env);
	adapt_warnings(d, jr_get(root, "warnings"));
	if (jr_bool(root, "partial", &b) && b)
		d->partial = true;
	if ((jr_bool(root, "budget_exceeded", &b) && b) ||
	    (jr_bool(root, "budget.cut_short", &b) && b))
		warn_add(
			&d->warns, "budget-exceeded", "%s",
			"the time budget ran out before the search finished: max_iops is a lower bound");

	if (jr_num(root, "max_iops", &v)) {
		rdoc_fig(d, "max_iops", "CALIBRATE_IO", "max_iops", RU_IOPS,
			 RB_HIGHER, v, RF_CHART | RF_HEADLINE);
	} else {
		/* Oracle's ORA error: no load met the cap, even the lightest. */
		rdoc_fig_status(d, "max_iops", "CALIBRATE_IO", "max_iops",
				RU_IOPS, RB_HIGHER, "cap not met");
		d->figs[d->nfigs - 1].flags = RF_CHART | RF_HEADLINE;
		warn_add(
			&d->warns, "cap-not-met",
			"no load met the %g ms latency cap, not even one request at a time: max_iops has no value",
			cap);
	}
	rdoc_fig(d, "actual_latency", "CALIBRATE_IO", "latency", RU_MS,
		 RB_LOWER, jr_numd(root, "actual_latency_ms", NAN),
		 RF_CHART | RF_HEADLINE);
	rdoc_fig(d, "max_mbps", "CALIBRATE_IO", "max_mbps", RU_MBPS, RB_HIGHER,
		 jr_numd(root, "max_mbps", NAN), RF_CHART | RF_HEADLINE);
	rdoc_fig(d, "max_pmbps", "CALIBRATE_IO", "max_pmbps", RU_MBPS,
		 RB_HIGHER, jr_numd(root, "max_pmbps", NAN), RF_HEADLINE);
	rdoc_fig(d, "at_load", "search", "load at max_iops", RU_LOAD, RB_NONE,
		 best_load(root, &v) ? v : NAN, 0);
	rdoc_fig(d, "knee_load", "knee", "load at 80 % of max_iops", RU_LOAD,
		 RB_NONE, jr_numd(root, "knee.load", NAN), 0);
	rdoc_fig(d, "knee_concurrency", "knee", "Little's-law concurrency",
		 RU_LOAD, RB_NONE,
		 jr_num(root, "knee.littles_law_parallelism", &v) ?
			 v :
			 jr_numd(root, "knee.concurrency", NAN),
		 0);
	rdoc_fig(d, "qd1_latency", "knee", "latency at QD1", RU_MS, RB_LOWER,
		 jr_numd(root, "knee.qd1_latency_ms", NAN), 0);

	snprintf(title, sizeof(title),
		 "CALIBRATE_IO: %s random reads, cap %g ms (%s), on %s",
		 adapt_size(o, "block_size_bytes", bs, sizeof(bs)) ? bs : "?",
		 cap,
		 jr_str(o, "latency_stat") ? jr_str(o, "latency_stat") : "mean",
		 adapt_target(env, tgt, sizeof(tgt)));
	d->title = xstrdup(title);
	if (jr_str(root, "classification"))
		d->summary = xstrdup(jr_str(root, "classification"));
	calib_curve(d, root, cap);
	calib_large(d, root);
	return true;
}
