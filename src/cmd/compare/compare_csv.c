// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab compare --csv`: one line per figure, the value of each input in
 * the unit of the "unit" column (latency in us, as in every iolab CSV),
 * then per input after A: its ratio to A, the spread (95 % half-width
 * over A), Welch's p, the verdict, what the noise came from (runs,
 * seconds) and, within noise, the samples a test would need; last, each
 * input's label. The header names inputs by letter only (a, b_over_a ...),
 * so a script reads the same columns whatever the files are called.
 */
#include <math.h>
#include <stdio.h>

#include "../../report/compare.h"
#include "../../report/csv.h"

static const char *csv_unit(enum runit u)
{
	switch (u) {
	case RU_NS:
		return "us"; /* written from ns, see value() */
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

/* One input's figure in the CSV's unit: latency from ns to us. */
static double value(const struct cmp_row *r, size_t d)
{
	double v = r->f[d] ? r->f[d]->value : NAN;

	return r->unit == RU_NS ? v / 1e3 : v;
}

/* "b_over_a": the header's words for input @d, lower case. */
static void col(struct csv *w, size_t d, const char *what)
{
	char h[48];

	snprintf(h, sizeof(h), "%c%s", cmp_letter(d) - 'A' + 'a', what);
	csv_str(w, h);
}

bool cmp_csv_write(const struct cmp *c, FILE *f, struct err *err)
{
	struct csv w;

	csv_init(&w, f);
	csv_str(&w, "group");
	csv_str(&w, "figure");
	csv_str(&w, "unit");
	csv_str(&w, "better");
	for (size_t d = 0; d < c->n; d++)
		col(&w, d, "");
	for (size_t d = 1; d < c->n; d++) {
		col(&w, d, "_over_a");
		col(&w, d, "_spread");
		col(&w, d, "_p");
		col(&w, d, "_verdict");
		col(&w, d, "_noise_from");
		col(&w, d, "_needed");
	}
	for (size_t d = 0; d < c->n; d++)
		col(&w, d, "_label");
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
				csv_num(&w, value(r, d));
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
		for (size_t d = 0; d < c->n; d++)
			csv_str(&w, c->docs[d]->label);
		csv_end_line(&w);
	}
	return csv_finish(&w, err);
}
