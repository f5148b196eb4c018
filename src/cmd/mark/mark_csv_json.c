// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A mark CSV row from mark's JSON (see mark_csv.h): what the lab has of
 * each guest's suite. The JSON's figures are already rounded as the CSV
 * writes them; a missing or null figure stays empty.
 */
#include <math.h>
#include <stdio.h>

#include "../../report/json_read.h"
#include "mark_csv.h"

static double get(const struct jr_node *n, const char *path)
{
	return jr_numd(n, path, NAN);
}

static void stat4(double *out, const struct jr_node *dir, const char *what)
{
	static const char *const keys[] = { "max", "mean", "min", "stddev" };
	char path[48];

	for (int k = 0; k < 4; k++) {
		snprintf(path, sizeof(path), "%s.%s", what, keys[k]);
		out[k] = get(dir, path);
	}
}

void mark_row_from_json(struct mark_row *row, const struct jr_node *dir)
{
	static const char *const lat[] = { "lat_ns.min", "lat_ns.mean",
					   "lat_ns.p50", "lat_ns.p99",
					   "lat_ns.max" };
	const struct jr_node *w;
	double v;
	bool b;
	size_t n = 0;

	if (!dir || !jr_is_object(dir))
		return;
	row->started = true;
	row->runs_scored =
		jr_num(dir, "runs_scored", &v) && v >= 0 ? (unsigned int)v : 0;
	row->partial = jr_bool(dir, "partial", &b) && b;
	row->page_cache_reads = jr_bool(dir, "page_cache_reads", &b) && b;
	stat4(row->mbps, dir, "mbps");
	stat4(row->iops, dir, "iops");
	for (int k = 0; k < 5; k++)
		row->lat_us[k] = get(dir, lat[k]) / 1e3;
	if (jr_num(dir, "read_pct", &v))
		row->mix_read_pct = v;
	row->mix_read_mbps[0] = get(dir, "read_mbps.max");
	row->mix_read_mbps[1] = get(dir, "read_mbps.mean");
	row->mix_write_mbps[0] = get(dir, "write_mbps.max");
	row->mix_write_mbps[1] = get(dir, "write_mbps.mean");
	w = jr_get(dir, "warnings");
	for (size_t i = 0; i < jr_len(w); i++) {
		const char *id = jr_str(jr_at(w, i), "id");

		if (id && n < sizeof(row->warnings))
			n += (size_t)snprintf(row->warnings + n,
					      sizeof(row->warnings) - n, "%s%s",
					      n ? " " : "", id);
	}
}
