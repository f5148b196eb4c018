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

void mark_row_from_json(struct mark_row *row, const struct jr_node *dir)
{
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
	if (jr_num(dir, "read_pct", &v))
		row->mix_read_pct = v;
	for (int k = 0; k < MARK_NFIGS; k++)
		row->fig[k] = mark_fig_json(&mark_figs[k], dir);
	w = jr_get(dir, "warnings");
	for (size_t i = 0; i < jr_len(w); i++) {
		const char *id = jr_str(jr_at(w, i), "id");

		if (id && n < sizeof(row->warnings))
			n += (size_t)snprintf(row->warnings + n,
					      sizeof(row->warnings) - n, "%s%s",
					      n ? " " : "", id);
	}
}
