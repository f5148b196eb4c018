// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab calibrate --csv`: the curves behind Oracle's figures, for a chart
 * in a spreadsheet. One table, so that LibreOffice and pandas read it
 * as is: a line per measured load of each phase (small reads, 1 MiB
 * reads, the lone 1 MiB reader), and the headline figures repeated on
 * every line as the last columns (a second section with other columns
 * would break read_csv and a sheet's autofilter). Latency in us, the unit
 * of every iolab CSV (Oracle's ms are in the text and JSON); MB/s is 10^6
 * bytes per second. A figure that does not
 * exist (no load met the cap, no knee) is an empty field, never a 0.
 */
#include <math.h>
#include <stdio.h>

#include "calibrate_figs.h"
#include "calibrate_report.h"
#include "../../report/csv.h"

static const char *const phase_names[] = { "small", "large", "single" };

/* The point: these, its figures (cal_point_figs[]), then the rest. */
static const char *const point_cols[] = {
	"phase", "block_size_bytes", "load", "qd", "threads",
};

static const char *const cols[] = {
	/* the point, after its figures */
	"windows",
	"spread",
	"noisy",
	"meets_cap",
	"best",
	/* the calibration, the same on every line */
	"engine",
	"cache",
	"disks",
	"max_latency_us",
	"latency_stat",
	"cap_met",
	"max_iops",
	"actual_latency_us",
	"max_MB_s",
	"max_pMB_s",
	"knee_load",
	"knee_iops",
	"knee_lat_mean_us",
	"qd1_lat_mean_us",
	"budget_cut_short",
	"partial",
};

static void num(struct csv *w, double v, int digits)
{
	double scale = pow(10, digits);

	csv_num(w, isfinite(v) ? round(v * scale) / scale : NAN);
}

static void flag(struct csv *w, bool v)
{
	csv_str(w, v ? "true" : "false");
}

static void headline(struct csv *w, const struct calibrate_report *rep)
{
	const struct cal_result *r = rep->res;
	const struct cal_opts *o = rep->opts;
	const struct cal_knee *k = &r->knee;

	csv_str(w, engine_name(o->engine));
	csv_str(w, cache_name(o->cache));
	csv_num(w, r->disks);
	num(w, o->max_latency_ms * 1e3, 3);
	csv_str(w, cal_stat_name(o->stat));
	flag(w, r->cap_met);
	num(w, r->cap_met ? round(r->max_iops) : NAN, 0);
	num(w, r->cap_met ? r->actual_latency_ms * 1e3 : NAN, 3);
	num(w, r->ph[CAL_PHASE_LARGE].s.best >= 0 ? r->max_mbps : NAN, 1);
	num(w, r->ph[CAL_PHASE_SINGLE].s.best >= 0 ? r->max_pmbps : NAN, 1);
	num(w, k->valid ? k->load : NAN, 2);
	num(w, k->valid ? k->iops : NAN, 1);
	num(w, k->valid ? k->mean_ns / 1e3 : NAN, 3);
	num(w, k->valid && k->qd1_mean_ns > 0 ? k->qd1_mean_ns / 1e3 : NAN, 3);
	flag(w, r->cut_short);
	flag(w, r->stop_signal || r->io_error);
}

static void point(struct csv *w, const struct calibrate_report *rep,
		  enum cal_phase_id id, unsigned int i)
{
	const struct cal_phase *ph = &rep->res->ph[id];
	const struct cal_point *p = &ph->s.pts[i];

	csv_str(w, phase_names[id]);
	csv_num(w, (double)ph->bs);
	csv_num(w, p->load);
	csv_num(w, p->qd);
	csv_num(w, p->threads);
	for (const struct cal_fig *g = cal_point_figs; g->head; g++)
		num(w, cal_fig_value(g, p) / g->csv_div, g->digits);
	csv_num(w, p->nsamples);
	num(w, p->spread, 4);
	flag(w, p->noisy);
	/* Only the small reads have a cap to meet. */
	if (ph->p.cap_ns > 0)
		flag(w, p->meets_cap);
	else
		csv_str(w, NULL);
	flag(w, (int)i == ph->s.best);
	headline(w, rep);
	csv_end_line(w);
}

bool calibrate_csv_write(const struct calibrate_report *rep, FILE *f,
			 struct err *err)
{
	struct csv w;

	csv_init(&w, f);
	for (size_t i = 0; i < sizeof(point_cols) / sizeof(point_cols[0]); i++)
		csv_str(&w, point_cols[i]);
	for (const struct cal_fig *g = cal_point_figs; g->head; g++)
		csv_str(&w, g->csv);
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		csv_str(&w, cols[i]);
	csv_end_line(&w);
	for (int id = 0; id < CAL_PHASES; id++)
		for (unsigned int i = 0; i < rep->res->ph[id].s.n; i++)
			point(&w, rep, (enum cal_phase_id)id, i);
	return csv_finish(&w, err);
}
