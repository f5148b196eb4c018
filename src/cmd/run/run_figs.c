// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The figures of `iolab run`: one row each, read by the text table
 * (run_text.c), the CSV (run_csv.c) and the compare/report adapter
 * (run_adapt.c). See run_figs.h.
 */
#include <math.h>
#include <string.h>

#include "run_figs.h"
#include "../../report/adapt.h"
#include "../../report/json_read.h"

static double ios(const struct run_result *r, int d)
{
	return (double)r->dir[d].ios;
}

static double bytes(const struct run_result *r, int d)
{
	return (double)r->dir[d].bytes;
}

static double iops(const struct run_result *r, int d)
{
	return result_dir_fig(r, d, result_iops(r, d));
}

static double mbps(const struct run_result *r, int d)
{
	return result_dir_fig(r, d, result_mbps(r, d));
}

static double mibps(const struct run_result *r, int d)
{
	return result_dir_fig(r, d, result_mibps(r, d));
}

static double skipped(const struct run_result *r, int d)
{
	return d == DIR_FLUSH ? (double)r->flush_skipped : NAN;
}

/* Latency figures: none when no I/O of the direction completed. */
static double lat_min(const struct run_result *r, int d)
{
	return r->dir[d].lat.count ? (double)r->dir[d].lat.min : NAN;
}

static double lat_mean(const struct run_result *r, int d)
{
	return r->dir[d].lat.count ? hist_mean(&r->dir[d].lat) : NAN;
}

static double lat_stddev(const struct run_result *r, int d)
{
	return r->dir[d].lat.count ? hist_stddev(&r->dir[d].lat) : NAN;
}

static double lat_max(const struct run_result *r, int d)
{
	return r->dir[d].lat.count ? (double)r->dir[d].lat.max : NAN;
}

static double elapsed(const struct run_result *r, int d)
{
	(void)d;
	return r->elapsed_s;
}

static double cpu(const struct run_result *r, int d)
{
	(void)d;
	return result_cpu_fig(r);
}

static double errors(const struct run_result *r, int d)
{
	(void)d;
	return (double)r->errors;
}

/*
 * One figure to a row, laid out by hand. Columns: compare key and name,
 * text/report column, CSV column, unit, better, compare flags, scope,
 * text width and decimals, CSV decimals, then where the value is: the
 * JSON path and the getter (or the percentile).
 */
/* clang-format off */
#define HL (RF_CHART | RF_HEADLINE)
#define FIG(k, n, h, c, u, b, fl, sc, w, pr, dg, js, g)                     \
	{ .key = k, .name = n, .head = h, .csv = c, .unit = u, .better = b, \
	  .rflags = fl, .scope = sc, .width = w, .prec = pr, .digits = dg,  \
	  .json = js, .get = g }
#define PCT(k, n, h, fl, p)                                                 \
	{ .key = k, .name = n, .head = h, .unit = RU_NS, .better = RB_LOWER, \
	  .rflags = fl, .width = 9, .digits = -1, .pct = p }
#define JOB(k, n, grp, c, u, b, dg, js, g)                                  \
	{ .key = k, .name = n, .group = grp, .csv = c, .unit = u,           \
	  .better = b, .digits = dg, .json = js, .get = g }

const struct run_fig run_dir_figs[] = {
	FIG("ios", NULL, NULL, "ios", RU_COUNT, RB_NONE, 0,
	    0, 0, 0, -1, "ios", ios),
	FIG("count", "flushes", NULL, NULL, RU_COUNT, RB_NONE, 0,
	    RUN_FIG_FLUSH, 0, 0, -1, "count", ios),
	FIG("skipped", "flushes skipped", NULL, NULL, RU_COUNT, RB_NONE, 0,
	    RUN_FIG_FLUSH | RUN_FIG_POSITIVE, 0, 0, -1, "skipped", skipped),
	FIG("bytes", NULL, NULL, "bytes", RU_NONE, RB_NONE, 0,
	    RUN_FIG_DATA, 0, 0, -1, "bytes", bytes),
	FIG("iops", "IOPS", "IOPS", "iops", RU_IOPS, RB_HIGHER, HL,
	    RUN_FIG_DATA | RUN_FIG_COUNT_COL, 10, 0, 1, "iops", iops),
	FIG("mbps", "MB/s", "MB/s", "MB_s", RU_MBPS, RB_HIGHER, HL,
	    RUN_FIG_DATA, 9, 2, 3, "mbps", mbps),
	/* Printed as MB/s are, in 2^20 bytes per second; not compared: it
	 * says what MB/s says. */
	FIG("mibps", NULL, "MiB/s", "MiB_s", RU_MBPS, RB_NONE, 0,
	    RUN_FIG_DATA, 9, 2, 3, "mibps", mibps),
	FIG("lat_min", "min latency", NULL, "lat_min_us", RU_NS, RB_LOWER, 0,
	    0, 9, 0, -1, "lat_ns.min", lat_min),
	FIG("lat_mean", "mean latency", "mean", "lat_mean_us", RU_NS, RB_LOWER,
	    RF_HEADLINE, 0, 9, 0, 1, "lat_ns.mean", lat_mean),
	FIG("lat_stddev", NULL, NULL, "lat_stddev_us", RU_NS, RB_LOWER, 0,
	    0, 9, 0, 1, "lat_ns.stddev", lat_stddev),
	/* The CSV has every percentile asked for (--percentiles), after
	 * lat_max_us; these are the ones the tables and compare show. */
	PCT("lat_p50", "p50 latency", "p50", 0, 50),
	PCT("lat_p99", "p99 latency", "p99", HL, 99),
	PCT("lat_p99_9", "p99.9 latency", "p99.9", 0, 99.9),
	PCT("lat_p99_99", "p99.99 latency", NULL, 0, 99.99),
	FIG("lat_max", "max latency", "max", "lat_max_us", RU_NS, RB_LOWER, 0,
	    0, 9, 0, -1, "lat_ns.max", lat_max),
	{ 0 }
};

const struct run_fig run_job_figs[] = {
	JOB("elapsed_s", NULL, NULL, "elapsed_s", RU_NONE, RB_NONE, 6,
	    "elapsed_s", elapsed),
	JOB("cpu_us_per_io", "CPU per I/O", "cpu", "cpu_us_per_io", RU_US,
	    RB_LOWER, 3, "cpu.us_per_io", cpu),
	JOB("errors", "I/O errors", "errors", NULL, RU_COUNT, RB_LOWER, -1,
	    "errors.count", errors),
	{ 0 }
};
#undef FIG
#undef PCT
#undef JOB
#undef HL
/* clang-format on */

size_t run_fig_columns(void)
{
	size_t n = 0;

	for (const struct run_fig *f = run_dir_figs; f->key; f++)
		n += f->head != NULL;
	return n;
}

bool run_fig_in_dir(const struct run_fig *f, int dir)
{
	return !(f->scope & RUN_FIG_DATA) || dir != DIR_FLUSH;
}

double run_fig_value(const struct run_fig *f, const struct run_result *r,
		     int dir)
{
	const struct hist *h = &r->dir[dir].lat;

	if (!run_fig_in_dir(f, dir))
		return NAN;
	if (f->pct > 0)
		return h->count ? (double)hist_percentile(h, f->pct) : NAN;
	return f->get(r, dir);
}

bool run_fig_json(const struct run_fig *f, const struct jr_node *o, double *v)
{
	const char *dot = f->json ? strrchr(f->json, '.') : NULL;
	char parent[64];

	*v = NAN;
	if (f->pct > 0)
		return adapt_percentile(jr_get(o, "lat_ns"), f->pct, v);
	if (!f->json)
		return false;
	/* A figure inside an object the document lacks (lat_ns is null
	 * when nothing completed) is not there; one missing beside its
	 * siblings is there without a value. */
	if (dot && (size_t)(dot - f->json) < sizeof(parent)) {
		memcpy(parent, f->json, (size_t)(dot - f->json));
		parent[dot - f->json] = 0;
		if (!jr_get(o, parent))
			return false;
	}
	*v = jr_numd(o, f->json, NAN);
	return true;
}
