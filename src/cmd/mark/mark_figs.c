// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The figures of a mark test: one row each, read by the text table, the
 * CSV and the compare/report adapter. See mark_figs.h.
 */
#include <math.h>
#include <string.h>

#include "mark_figs.h"
#include "../../report/adapt.h"

/* MB/s and IOPS over the scored runs: none before a run was scored. */
#define STAT(fn, field, which)                           \
	static double fn(const struct mark_cell *c)      \
	{                                                \
		return c->scored ? c->field.which : NAN; \
	}
STAT(mbps_max, mbps, max)
STAT(mbps_mean, mbps, mean)
STAT(mbps_min, mbps, min)
STAT(mbps_stddev, mbps, stddev)
STAT(iops_max, iops, max)
STAT(iops_mean, iops, mean)
STAT(iops_min, iops, min)
STAT(iops_stddev, iops, stddev)
STAT(read_mbps_max, read_mbps, max)
STAT(read_mbps_mean, read_mbps, mean)
STAT(write_mbps_max, write_mbps, max)
STAT(write_mbps_mean, write_mbps, mean)
#undef STAT

/* The headline: the mean of the runs, or the best run's (CDM's). */
static double mbps_headline(const struct mark_cell *c)
{
	return c->scored ? mark_cell_mbps(c) : NAN;
}

static double iops_headline(const struct mark_cell *c)
{
	return c->scored ? mark_cell_iops(c) : NAN;
}

/* The 95 % interval of the mean, in percent of it: the precision the
 * headline is known to. None for CDM's best run (not a mean). */
static double mbps_ci_pct(const struct mark_cell *c)
{
	if (!c->scored || c->procedure == MARK_FIXED || isnan(c->rel_ci))
		return NAN;
	return 100 * c->rel_ci;
}

/* Latency over every scored I/O. */
static bool has_lat(const struct mark_cell *c)
{
	return c->lat && c->lat->count;
}

static double lat_min(const struct mark_cell *c)
{
	return has_lat(c) ? (double)c->lat->min : NAN;
}

static double lat_mean(const struct mark_cell *c)
{
	return has_lat(c) ? hist_mean(c->lat) : NAN;
}

static double lat_p50(const struct mark_cell *c)
{
	return has_lat(c) ? (double)hist_percentile(c->lat, 50) : NAN;
}

static double lat_p99(const struct mark_cell *c)
{
	return has_lat(c) ? (double)hist_percentile(c->lat, 99) : NAN;
}

static double lat_max(const struct mark_cell *c)
{
	return has_lat(c) ? (double)c->lat->max : NAN;
}

/*
 * One figure to a row, laid out by hand. Columns: compare key and name,
 * text column, report table column, CSV column, unit, better, scope, text
 * width and decimals, CSV decimals and divisor, JSON object and field,
 * getter, compare flags. The order is every view's.
 */
/* clang-format off */
#define MB RU_MBPS, RB_HIGHER
#define IO RU_IOPS, RB_HIGHER
#define NS RU_NS, RB_LOWER
#define PC RU_PCT, RB_LOWER
#define SP MARK_FIG_SPREAD
#define MX MARK_FIG_MIX
#define FIG(k, n, h, t, c, u, sc, w, pr, dg, dv, js, st, g, fl)            \
	{ .key = k, .name = n, .head = h, .table = t, .csv = c, .unit = u, \
	  .scope = sc, .width = w, .prec = pr, .digits = dg,               \
	  .csv_div = dv, .json = js, .stat = st, .get = g, .rflags = fl }

const struct mark_fig mark_figs[MARK_NFIGS] = {
	/* The headline, drawn in compare's bar charts. */
	FIG("mbps", "MB/s", "MB/s", "MB/s", "MB_s", MB,
	    MARK_FIG_MARKS, 10, 2, 3, 1, "mbps", "headline", mbps_headline,
	    RF_CHART),
	FIG("mbps_ci95", NULL, "+-%", "+-% (95%)", "MB_s_ci95_pct", PC,
	    SP, 5, 1, 2, 1, "mbps", "ci95_pct", mbps_ci_pct, 0),
	FIG("mbps_max", NULL, NULL, "MB/s best", "MB_s_max", MB,
	    0, 0, 0, 3, 1, "mbps", "max", mbps_max, 0),
	FIG("mbps_mean", "MB/s (mean of runs)", NULL, "MB/s mean", "MB_s_mean",
	    MB, 0, 0, 0, 3, 1, "mbps", "mean", mbps_mean, 0),
	FIG("mbps_min", NULL, NULL, "MB/s min", "MB_s_min", MB,
	    0, 0, 0, 3, 1, "mbps", "min", mbps_min, 0),
	FIG("mbps_stddev", NULL, NULL, "MB/s stddev", "MB_s_stddev", MB,
	    SP, 0, 0, 3, 1, "mbps", "stddev", mbps_stddev, 0),
	FIG("iops", "IOPS", "IOPS", "IOPS", "iops", IO,
	    0, 9, 0, 1, 1, "iops", "headline", iops_headline, 0),
	FIG("iops_max", NULL, NULL, NULL, "iops_max", IO,
	    0, 0, 0, 1, 1, "iops", "max", iops_max, 0),
	FIG("iops_mean", NULL, NULL, NULL, "iops_mean", IO,
	    0, 0, 0, 1, 1, "iops", "mean", iops_mean, 0),
	FIG("iops_min", NULL, NULL, NULL, "iops_min", IO,
	    0, 0, 0, 1, 1, "iops", "min", iops_min, 0),
	FIG("iops_stddev", NULL, NULL, NULL, "iops_stddev", IO,
	    SP, 0, 0, 1, 1, "iops", "stddev", iops_stddev, 0),
	FIG("lat_min", NULL, NULL, NULL, "lat_min_us", NS,
	    0, 0, 0, 3, 1e3, "lat_ns", "min", lat_min, 0),
	FIG("lat_mean", "mean latency", "mean", "mean latency", "lat_mean_us",
	    NS, 0, 9, 0, 3, 1e3, "lat_ns", "mean", lat_mean, 0),
	FIG("lat_p50", NULL, NULL, NULL, "lat_p50_us", NS,
	    0, 0, 0, 3, 1e3, "lat_ns", "p50", lat_p50, 0),
	FIG("lat_p99", "p99 latency", "p99", "p99 latency", "lat_p99_us", NS,
	    0, 9, 0, 3, 1e3, "lat_ns", "p99", lat_p99, 0),
	FIG("lat_max", NULL, NULL, NULL, "lat_max_us", NS,
	    0, 0, 0, 3, 1e3, "lat_ns", "max", lat_max, 0),
	/* The mix tests': each side's MB/s, after the shared ones. */
	FIG("read_mbps", NULL, "read MB/s", NULL, "mix_read_MB_s_max", MB,
	    MX, 10, 2, 3, 1, "read_mbps", "max", read_mbps_max, 0),
	FIG("read_mbps_mean", NULL, NULL, NULL, "mix_read_MB_s_mean", MB,
	    MX, 0, 0, 3, 1, "read_mbps", "mean", read_mbps_mean, 0),
	FIG("write_mbps", NULL, "write MB/s", NULL, "mix_write_MB_s_max", MB,
	    MX, 10, 2, 3, 1, "write_mbps", "max", write_mbps_max, 0),
	FIG("write_mbps_mean", NULL, NULL, NULL, "mix_write_MB_s_mean", MB,
	    MX, 0, 0, 3, 1, "write_mbps", "mean", write_mbps_mean, 0),
};
#undef FIG
#undef MB
#undef IO
#undef NS
#undef PC
#undef SP
#undef MX
/* clang-format on */

double mark_fig_value(const struct mark_fig *f, const struct mark_cell *c,
		      enum mark_dir d)
{
	if (!c || !c->started || ((f->scope & MARK_FIG_MIX) && d != MARK_MIX))
		return NAN;
	return f->get(c);
}

double mark_fig_json(const struct mark_fig *f, const struct jr_node *dir)
{
	if (!strcmp(f->stat, "headline"))
		return adapt_headline(dir, f->json);
	return adapt_stat(dir, f->json, f->stat);
}
