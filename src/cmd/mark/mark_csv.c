// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab mark --csv`, and the test columns matrix and lab share (see
 * mark_csv.h). Long form, one line per test and direction, so that a pivot
 * table lays it out either way. MB/s is 10^6 bytes per second; latency in
 * microseconds, as CrystalDiskMark shows it; the headline (max) and the
 * mean, minimum and standard deviation over the scored runs side by side.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../report/csv.h"
#include "mark_csv.h"
#include "mark_report.h"
#include "../../core/target.h"

static const char *const test_cols[] = {
	"test",	       "pattern",     "bs_bytes",   "qd",	  "threads",
	"direction",   "runs_scored", "mbps_max",   "mbps_mean",  "mbps_min",
	"mbps_stddev", "iops_max",    "iops_mean",  "iops_min",	  "iops_stddev",
	"lat_min_us",  "lat_mean_us", "lat_p50_us", "lat_p99_us", "lat_max_us",
};

static const char *const mix_cols[] = {
	"mix_read_pct",	      "mix_read_mbps_max",   "mix_read_mbps_mean",
	"mix_write_mbps_max", "mix_write_mbps_mean",
};

static const char *const tail_cols[] = { "page_cache_reads", "partial",
					 "warnings" };

#define N(a) (sizeof(a) / sizeof((a)[0]))

void mark_row_init(struct mark_row *row, const struct mark_test *t,
		   enum mark_dir d)
{
	memset(row, 0, sizeof(*row));
	mark_test_name(t, row->test, sizeof(row->test));
	row->random = t->random;
	row->bs = t->bs;
	row->qd = t->qd;
	row->threads = t->threads;
	row->dir = suite_dir_names[d];
	for (int k = 0; k < 4; k++)
		row->mbps[k] = row->iops[k] = NAN;
	for (int k = 0; k < 5; k++)
		row->lat_us[k] = NAN;
	row->mix_read_pct = NAN;
	row->mix_read_mbps[0] = row->mix_read_mbps[1] = NAN;
	row->mix_write_mbps[0] = row->mix_write_mbps[1] = NAN;
}

static void stat4(double *out, const struct mark_stat *s)
{
	out[0] = s->max;
	out[1] = s->mean;
	out[2] = s->min;
	out[3] = s->stddev;
}

void mark_row_from_cell(struct mark_row *row, const struct mark_spec *s,
			unsigned int i, enum mark_dir d,
			const struct mark_cell *c)
{
	size_t n = 0;

	mark_row_init(row, &s->tests[i], d);
	if (d == MARK_MIX)
		row->mix_read_pct = s->mix_read_pct;
	if (!c || !c->started)
		return;
	row->started = true;
	row->runs_scored = c->scored;
	row->partial = c->partial;
	row->page_cache_reads = c->page_cache_reads;
	for (size_t k = 0; k < c->warnings.n; k++)
		n += (size_t)snprintf(row->warnings + n,
				      n < sizeof(row->warnings) ?
					      sizeof(row->warnings) - n :
					      0,
				      "%s%s", n ? " " : "",
				      c->warnings.v[k].id);
	if (c->scored) {
		stat4(row->mbps, &c->mbps);
		stat4(row->iops, &c->iops);
		if (d == MARK_MIX) {
			row->mix_read_mbps[0] = c->read_mbps.max;
			row->mix_read_mbps[1] = c->read_mbps.mean;
			row->mix_write_mbps[0] = c->write_mbps.max;
			row->mix_write_mbps[1] = c->write_mbps.mean;
		}
	}
	if (c->lat && c->lat->count) {
		row->lat_us[0] = (double)c->lat->min / 1e3;
		row->lat_us[1] = hist_mean(c->lat) / 1e3;
		row->lat_us[2] = (double)hist_percentile(c->lat, 50) / 1e3;
		row->lat_us[3] = (double)hist_percentile(c->lat, 99) / 1e3;
		row->lat_us[4] = (double)c->lat->max / 1e3;
	}
}

void mark_csv_head(struct csv *w, bool mix)
{
	for (size_t i = 0; i < N(test_cols); i++)
		csv_str(w, test_cols[i]);
	for (size_t i = 0; mix && i < N(mix_cols); i++)
		csv_str(w, mix_cols[i]);
	for (size_t i = 0; i < N(tail_cols); i++)
		csv_str(w, tail_cols[i]);
}

/* @v rounded to @digits decimals, as the JSON has it; NAN stays empty. */
static void num(struct csv *w, double v, int digits)
{
	double scale = pow(10, digits);

	csv_num(w, isfinite(v) ? round(v * scale) / scale : NAN);
}

static void flag(struct csv *w, bool have, bool v)
{
	csv_str(w, !have ? NULL : v ? "true" : "false");
}

void mark_csv_fields(struct csv *w, const struct mark_row *row, bool mix)
{
	bool spread = row->runs_scored > 1;

	csv_str(w, row->test);
	csv_str(w, row->random ? "random" : "sequential");
	csv_num(w, (double)row->bs);
	csv_num(w, row->qd);
	csv_num(w, row->threads);
	csv_str(w, row->dir);
	csv_num(w, row->started ? row->runs_scored : NAN);
	/* A deviation of one run is undefined: empty, not 0. */
	for (int k = 0; k < 4; k++)
		num(w, k < 3 || spread ? row->mbps[k] : NAN, 3);
	for (int k = 0; k < 4; k++)
		num(w, k < 3 || spread ? row->iops[k] : NAN, 1);
	for (int k = 0; k < 5; k++)
		num(w, row->lat_us[k], 3);
	if (mix) {
		num(w, row->mix_read_pct, 0);
		num(w, row->mix_read_mbps[0], 3);
		num(w, row->mix_read_mbps[1], 3);
		num(w, row->mix_write_mbps[0], 3);
		num(w, row->mix_write_mbps[1], 3);
	}
	flag(w, row->started, row->page_cache_reads);
	flag(w, row->started, row->partial);
	csv_str(w, row->started ? row->warnings : NULL);
}

bool mark_csv_write(const struct mark_report *rep, FILE *f, struct err *err)
{
	const struct mark_result *r = rep->res;
	const struct mark_spec *s = &r->spec;
	bool mix = s->dir[MARK_MIX];
	struct mark_row row;
	struct csv w;

	csv_init(&w, f);
	csv_str(&w, "engine");
	csv_str(&w, "cache");
	mark_csv_head(&w, mix);
	csv_end_line(&w);
	/* The JSON's order: test by test, read, write, mix; a test the
	 * suite never reached (Ctrl-C) has no line, as it is null there. */
	for (unsigned int i = 0; i < s->ntests; i++)
		for (int d = 0; d < MARK_DIRS; d++) {
			const struct mark_cell *c = &r->cell[i][d];

			if (!s->dir[d] || !c->started)
				continue;
			mark_row_from_cell(&row, s, i, (enum mark_dir)d, c);
			csv_str(&w, engine_name(s->base.engine));
			csv_str(&w, cache_name(s->base.cache));
			mark_csv_fields(&w, &row, mix);
			csv_end_line(&w);
		}
	return csv_finish(&w, err);
}
