// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab run --csv`: the result table for spreadsheets. One line per
 * direction (read, write, flush), each carrying the job's settings so that
 * lines of several runs can be pasted under one another; latency in ns,
 * throughput in MB/s (10^6) and MiB/s (2^20).
 */
#include <math.h>
#include <stdio.h>

#include "../../report/csv.h"
#include "run_report.h"

static void header(struct csv *w, const struct job_spec *j)
{
	static const char *const cols[] = {
		"engine",     "cache",	     "rw",
		"bs_bytes",   "qd",	     "threads",
		"direction",  "ios",	     "bytes",
		"iops",	      "mbps",	     "mibps",
		"lat_min_ns", "lat_mean_ns", "lat_stddev_ns",
		"lat_max_ns",
	};
	char name[48];

	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		csv_str(w, cols[i]);
	for (int i = 0; i < j->npercentiles; i++) {
		snprintf(name, sizeof(name), "lat_p%g_ns", j->percentiles[i]);
		csv_str(w, name);
	}
	csv_str(w, "elapsed_s");
	csv_str(w, "cpu_us_per_io");
	csv_str(w, "partial");
	csv_end_line(w);
}

static void row(struct csv *w, const struct run_result *r, int d)
{
	const struct job_spec *j = &r->spec;
	const struct hist *h = &r->dir[d].lat;
	uint64_t v[JOB_MAX_PERCENTILES];

	csv_str(w, engine_name(j->engine));
	csv_str(w, cache_name(j->cache));
	csv_str(w, rw_name(j->rw));
	csv_num(w, (double)j->bs);
	csv_num(w, j->qd);
	csv_num(w, j->threads);
	csv_str(w, result_dir_name(d));
	csv_num(w, (double)r->dir[d].ios);
	if (d == DIR_FLUSH) {
		/* A flush moves no data of its own. */
		for (int i = 0; i < 4; i++)
			csv_num(w, NAN);
	} else {
		csv_num(w, (double)r->dir[d].bytes);
		csv_num(w, round(result_dir_fig(r, d, result_iops(r, d)) * 10) /
				   10);
		csv_num(w,
			round(result_dir_fig(r, d, result_mbps(r, d)) * 1000) /
				1000);
		csv_num(w,
			round(result_dir_fig(r, d, result_mibps(r, d)) * 1000) /
				1000);
	}
	if (h->count) {
		csv_num(w, (double)h->min);
		csv_num(w, round(hist_mean(h) * 10) / 10);
		csv_num(w, round(hist_stddev(h) * 10) / 10);
		csv_num(w, (double)h->max);
		hist_percentiles(h, j->percentiles, j->npercentiles, v);
		for (int i = 0; i < j->npercentiles; i++)
			csv_num(w, (double)v[i]);
	} else {
		for (int i = 0; i < 4 + j->npercentiles; i++)
			csv_num(w, NAN);
	}
	csv_num(w, round(r->elapsed_s * 1e6) / 1e6);
	csv_num(w, round(result_cpu_fig(r) * 1000) / 1000);
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
