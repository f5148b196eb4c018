// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab run --csv`: the result table for spreadsheets. One line per
 * direction (read, write, flush), each carrying the job's settings so that
 * lines of several runs can be pasted under one another; latency in us to
 * the ns (the unit of every iolab CSV: mark, matrix, lab, calibrate),
 * throughput in MB/s (10^6) and MiB/s (2^20). The figure columns are
 * run_figs.c's.
 */
#include <math.h>
#include <stdio.h>

#include "../../report/csv.h"
#include "run_figs.h"
#include "run_report.h"

/* The job's settings, repeated on every line. */
static const char *const setting_cols[] = { "engine",  "cache",	   "rw",
					    "pattern", "bs_bytes", "qd",
					    "threads", "direction" };

static void header(struct csv *w, const struct job_spec *j)
{
	char name[48];

	for (size_t i = 0; i < sizeof(setting_cols) / sizeof(setting_cols[0]);
	     i++)
		csv_str(w, setting_cols[i]);
	for (const struct run_fig *f = run_dir_figs; f->key; f++)
		if (f->csv)
			csv_str(w, f->csv);
	for (int i = 0; i < j->npercentiles; i++) {
		snprintf(name, sizeof(name), "lat_p%g_us", j->percentiles[i]);
		csv_str(w, name);
	}
	for (const struct run_fig *f = run_job_figs; f->key; f++)
		if (f->csv)
			csv_str(w, f->csv);
	csv_str(w, "partial");
	csv_end_line(w);
}

/* Nanoseconds as microseconds, to the nanosecond; NAN stays empty. */
static void us(struct csv *w, double ns)
{
	csv_num(w, round(ns) / 1e3);
}

/* @v rounded to the figure's decimals; NAN stays empty. */
static void num(struct csv *w, const struct run_fig *f, double v)
{
	double scale = pow(10, f->digits);

	if (f->unit == RU_NS)
		us(w, v);
	else
		csv_num(w, f->digits < 0 ? v : round(v * scale) / scale);
}

static void row(struct csv *w, const struct run_result *r, int d)
{
	const struct job_spec *j = &r->spec;
	const struct hist *h = &r->dir[d].lat;
	uint64_t v[JOB_MAX_PERCENTILES];

	csv_str(w, engine_name(j->engine));
	csv_str(w, cache_name(j->cache));
	csv_str(w, rw_name(j->rw));
	csv_str(w, rw_is_random(j->rw) ? "random" : "sequential");
	csv_num(w, (double)j->bs);
	csv_num(w, j->qd);
	csv_num(w, j->threads);
	csv_str(w, result_dir_name(d));
	for (const struct run_fig *f = run_dir_figs; f->key; f++)
		if (f->csv)
			num(w, f, run_fig_value(f, r, d));
	if (h->count)
		hist_percentiles(h, j->percentiles, j->npercentiles, v);
	for (int i = 0; i < j->npercentiles; i++)
		us(w, h->count ? (double)v[i] : NAN);
	for (const struct run_fig *f = run_job_figs; f->key; f++)
		if (f->csv)
			num(w, f, run_fig_value(f, r, d));
	csv_str(w, r->partial ? "true" : "false");
	csv_end_line(w);
}

bool run_csv_write(const struct run_report *rep, FILE *f, struct err *err)
{
	const struct run_result *r = rep->res;
	struct csv w;

	csv_init(&w, f);
	header(&w, &r->spec);
	if (rw_reads(&r->spec))
		row(&w, r, DIR_READ);
	if (rw_writes(&r->spec))
		row(&w, r, DIR_WRITE);
	if (r->dir[DIR_FLUSH].ios)
		row(&w, r, DIR_FLUSH);
	return csv_finish(&w, err);
}
