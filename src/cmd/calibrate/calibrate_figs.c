// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The figures of a calibrate curve point: one row each, read by the text
 * tables, the CSV and the report's curve table. See calibrate_figs.h.
 */
#include <math.h>
#include <stdio.h>

#include "calibrate_figs.h"
#include "../../report/json_read.h"

static double iops(const struct cal_point *p)
{
	return p->iops;
}

static double mbps(const struct cal_point *p)
{
	return p->mbps;
}

static double mean(const struct cal_point *p)
{
	return p->mean_ns;
}

static double p50(const struct cal_point *p)
{
	return p->p50_ns;
}

static double p99(const struct cal_point *p)
{
	return p->p99_ns;
}

/*
 * One figure to a row, laid out by hand: table column, CSV column, unit,
 * scope, text width and decimals, CSV decimals and divisor, JSON field
 * (and whether it is a latency statistic), getter. The order is every
 * view's.
 */
/* clang-format off */
#define FIG(h, c, u, sc, w, pr, dg, dv, js, l, g)                            \
	{ .head = h, .csv = c, .unit = u, .scope = sc, .width = w, .prec = pr, \
	  .digits = dg, .csv_div = dv, .json = js, .lat = l, .get = g }

const struct cal_fig cal_point_figs[] = {
	FIG("IOPS", "iops", RU_IOPS, CAL_FIG_RATE, 10, 0, 1, 1, "iops", false, iops),
	FIG("MB/s", "MB_s", RU_MBPS, CAL_FIG_RATE, 9, 1, 3, 1, "mbps", false, mbps),
	FIG("mean", "lat_mean_us", RU_NS, 0, 9, 0, 3, 1e3, "mean", true, mean),
	FIG("p50", "lat_p50_us", RU_NS, 0, 9, 0, 3, 1e3, "p50", true, p50),
	FIG("p99", "lat_p99_us", RU_NS, 0, 9, 0, 3, 1e3, "p99", true, p99),
	{ 0 }
};
#undef FIG
/* clang-format on */

double cal_fig_value(const struct cal_fig *f, const struct cal_point *p)
{
	if ((f->scope & CAL_FIG_RATE) && !cal_point_measured(p))
		return NAN;
	return f->get(p);
}

double cal_json_lat(const struct jr_node *p, const char *stat)
{
	char path[32];
	double v;

	snprintf(path, sizeof(path), "lat_ms.%s", stat);
	if (jr_num(p, path, &v))
		return v * 1e6;
	snprintf(path, sizeof(path), "lat_ns.%s", stat);
	return jr_numd(p, path, NAN);
}

double cal_fig_json(const struct cal_fig *f, const struct jr_node *p)
{
	return f->lat ? cal_json_lat(p, f->json) : jr_numd(p, f->json, NAN);
}
