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

/* Before the figures: the test; after them, its flags. */
static const char *const test_cols[] = { "test",       "pattern", "bs_bytes",
					 "qd",	       "threads", "direction",
					 "runs_scored" };

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
	for (int k = 0; k < MARK_NFIGS; k++)
		row->fig[k] = NAN;
	row->mix_read_pct = NAN;
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
	for (int k = 0; k < MARK_NFIGS; k++)
		row->fig[k] = mark_fig_value(&mark_figs[k], c, d);
}

/* The figures' columns: the shared ones, or the mix tests' own. */
static bool csv_fig(const struct mark_fig *f, bool mix_own)
{
	return f->csv && !(f->scope & MARK_FIG_MIX) == !mix_own;
}

void mark_csv_head(struct csv *w, bool mix)
{
	for (size_t i = 0; i < N(test_cols); i++)
		csv_str(w, test_cols[i]);
	for (int k = 0; k < MARK_NFIGS; k++)
		if (csv_fig(&mark_figs[k], false))
			csv_str(w, mark_figs[k].csv);
	if (mix) {
		csv_str(w, "mix_read_pct");
		for (int k = 0; k < MARK_NFIGS; k++)
			if (csv_fig(&mark_figs[k], true))
				csv_str(w, mark_figs[k].csv);
	}
	for (size_t i = 0; i < N(tail_cols); i++)
		csv_str(w, tail_cols[i]);
}

/* @v rounded to @digits decimals, as the JSON has it; NAN stays empty. */
static void num(struct csv *w, double v, int digits)
{
	double scale = pow(10, digits);

	csv_num(w, isfinite(v) ? round(v * scale) / scale : NAN);
}

/* A figure in the CSV's unit. A deviation of one run is undefined: empty,
 * not 0. */
static void fig(struct csv *w, const struct mark_fig *f, double v, bool spread)
{
	num(w, (f->scope & MARK_FIG_SPREAD) && !spread ? NAN : v / f->csv_div,
	    f->digits);
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
	for (int k = 0; k < MARK_NFIGS; k++)
		if (csv_fig(&mark_figs[k], false))
			fig(w, &mark_figs[k], row->fig[k], spread);
	if (mix) {
		num(w, row->mix_read_pct, 0);
		for (int k = 0; k < MARK_NFIGS; k++)
			if (csv_fig(&mark_figs[k], true))
				fig(w, &mark_figs[k], row->fig[k], spread);
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
