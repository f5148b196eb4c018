// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab compare --csv`: one line per figure, the value of each input in
 * the unit of the "unit" column (latency in ns), then per input after A:
 * its ratio to A, the spread (95 % half-width over A), Welch's p, the
 * verdict, what the noise came from (runs, seconds) and, within noise, the
 * samples a test would need.
 */
#include <math.h>
#include <stdio.h>

#include "../../report/compare.h"
#include "../../report/csv.h"

static const char *csv_unit(enum runit u)
{
	switch (u) {
	case RU_NS:
		return "ns";
	case RU_COUNT:
		return "count";
	case RU_NONE:
		return "";
	default:
		return runit_label(u);
	}
}

static const char *better_name(enum rbetter b)
{
	return b == RB_HIGHER ? "higher" : b == RB_LOWER ? "lower" : "";
}

bool cmp_csv_write(const struct cmp *c, FILE *f, struct err *err)
{
	struct csv w;
	char h[160];

	csv_init(&w, f);
	csv_str(&w, "group");
	csv_str(&w, "figure");
	csv_str(&w, "unit");
	csv_str(&w, "better");
	for (size_t d = 0; d < c->n; d++) {
		snprintf(h, sizeof(h), "%c %s", cmp_letter(d),
			 c->docs[d]->label);
		csv_str(&w, h);
	}
	for (size_t d = 1; d < c->n; d++) {
		snprintf(h, sizeof(h), "%c/A", cmp_letter(d));
		csv_str(&w, h);
		snprintf(h, sizeof(h), "%c spread", cmp_letter(d));
		csv_str(&w, h);
		snprintf(h, sizeof(h), "%c p", cmp_letter(d));
		csv_str(&w, h);
		snprintf(h, sizeof(h), "%c verdict", cmp_letter(d));
		csv_str(&w, h);
		snprintf(h, sizeof(h), "%c noise from", cmp_letter(d));
		csv_str(&w, h);
		snprintf(h, sizeof(h), "%c needed", cmp_letter(d));
		csv_str(&w, h);
	}
	csv_end_line(&w);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		csv_str(&w, r->group);
		csv_str(&w, r->name);
		csv_str(&w, csv_unit(r->unit));
		csv_str(&w, better_name(r->better));
		for (size_t d = 0; d < c->n; d++) {
			if (r->f[d] && r->f[d]->status)
				csv_str(&w, r->f[d]->status);
			else
				csv_num(&w, r->f[d] ? r->f[d]->value : NAN);
		}
		for (size_t d = 1; d < c->n; d++) {
			csv_num(&w,
				r->unit == RU_COUNT ? r->diff[d] : r->ratio[d]);
			csv_num(&w, r->noise[d].half);
			csv_num(&w, r->noise[d].p);
			csv_str(&w, cmp_verdict_name(r->verdict[d]));
			csv_str(&w, cmp_spread_name(r->noise[d].kind));
			csv_num(&w, r->noise[d].need);
		}
		csv_end_line(&w);
	}
	return csv_finish(&w, err);
}
