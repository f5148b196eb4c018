// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Heat maps as HTML tables (matrix, lab): rows engine x cache, columns
 * tests, each cell coloured by its MB/s on one scale per test column,
 * shared by the maps of a document with the same scale group (lab: every
 * bus), since tests differ by orders of magnitude and buses are what the
 * reader compares; refused
 * and failed cells hatched with the reason as a footnote; reads served
 * from the page cache flagged. The compare view colours the ratio of each
 * cell to the same cell of A instead.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html_impl.h"
#include "../../util/xmem.h"

/* The row label's parts: "threads\tnone" -> "threads", "none". */
static size_t split(const char *label, char parts[2][64])
{
	const char *tab = strchr(label, '\t');

	if (!tab) {
		snprintf(parts[0], 64, "%s", label);
		parts[1][0] = 0;
		return 1;
	}
	snprintf(parts[0], 64, "%.*s", (int)(tab - label), label);
	snprintf(parts[1], 64, "%s", tab + 1);
	return 2;
}

/* How many rows from @r on share the first label part (for rowspan). */
static size_t run_of(const struct rheat *h, size_t r)
{
	char a[2][64], b[2][64];
	size_t n = 1;

	split(h->rows[r], a);
	while (r + n < h->nrows) {
		split(h->rows[r + n], b);
		if (strcmp(a[0], b[0]))
			break;
		n++;
	}
	return n;
}

/* A column's colour range: from 0, or by order of magnitude (@logs). */
struct col_scale {
	double lo, hi;
	bool logs;
};

static void head_row(FILE *f, const struct rheat *h, size_t *nparts,
		     const struct col_scale *cs)
{
	char parts[2][64], a[32], b[32];

	*nparts = split(h->corner, parts);
	fputs("<thead><tr>", f);
	for (size_t i = 0; i < *nparts; i++) {
		fputs("<th class=\"rh\">", f);
		hx_text(f, parts[i]);
		fputs("</th>", f);
	}
	for (size_t c = 0; c < h->ncols; c++) {
		fputs("<th>", f);
		hx_text(f, h->cols[c]);
		if (cs && isfinite(cs[c].lo))
			fprintf(f, "<span class=\"rng\">%s\u2013%s%s</span>",
				rfmt(h->unit, cs[c].lo, a, sizeof(a)),
				rfmt(h->unit, cs[c].hi, b, sizeof(b)),
				cs[c].logs ? " log" : "");
		fputs("</th>", f);
	}
	if (h->extra_head) {
		fputs("<th class=\"extra\">", f);
		hx_text(f, h->extra_head);
		fputs("</th>", f);
	}
	fputs("</tr></thead>", f);
}

static void row_head(FILE *f, const struct rheat *h, size_t r, size_t nparts)
{
	char parts[2][64];

	split(h->rows[r], parts);
	if (nparts == 2) {
		bool first = r == 0;
		char prev[2][64];

		if (!first) {
			split(h->rows[r - 1], prev);
			first = strcmp(prev[0], parts[0]) != 0;
		}
		if (first) {
			fprintf(f, "<th class=\"rg\" rowspan=\"%zu\">",
				run_of(h, r));
			hx_text(f, parts[0]);
			fputs("</th>", f);
		}
		fputs("<th class=\"rl\">", f);
		hx_text(f, parts[1]);
		fputs("</th>", f);
	} else {
		fputs("<th class=\"rl\">", f);
		hx_text(f, parts[0]);
		fputs("</th>", f);
	}
}

static void status_cell(FILE *f, const char *status, int note)
{
	fprintf(f, "<td class=\"st %s\">",
		!strcmp(status, "refused") ? "refused" : "failed");
	hx_text(f, status);
	if (note)
		fprintf(f, "<sup>%d</sup>", note);
	fputs("</td>", f);
}

static void notes(FILE *f, const struct rheat *h)
{
	if (!h->nnotes)
		return;
	fputs("<ol class=\"notes\">", f);
	for (size_t i = 0; i < h->nnotes; i++) {
		fputs("<li>", f);
		hx_text(f, h->notes[i]);
		fputs("</li>", f);
	}
	fputs("</ol>", f);
}

static void legend(FILE *f, const char *id, bool shared, enum runit unit)
{
	char bg[8];
	const char *fg;

	fprintf(f,
		"<span class=\"scale\">low <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"120\" height=\"10\" viewBox=\"0 0 120 10\"><defs><linearGradient id=\"%s-g\">",
		id);
	for (int i = 0; i <= 4; i++) {
		svg_heat_color(i / 4.0, bg, &fg);
		fprintf(f, "<stop offset=\"%d%%\" stop-color=\"%s\"/>", i * 25,
			bg);
	}
	fprintf(f,
		"</linearGradient></defs><rect width=\"120\" height=\"10\" fill=\"url(#%s-g)\"/></svg> high %s, on each column's range (under its name; log where it spans over a decade)%s</span>",
		id, runit_label(unit),
		shared ? ", the same range in every map of this result" : "");
}

/* Whether @o shares @h's colour scale (@h itself always does). */
static bool same_scale(const struct rheat *h, const struct rheat *o)
{
	return o == h || (h->scale && o->scale && !strcmp(h->scale, o->scale) &&
			  o->unit == h->unit);
}

/* Widen @cs over the cells of @o under the column named @col. */
static void span_col(struct col_scale *cs, const struct rheat *o,
		     const char *col)
{
	for (size_t c = 0; c < o->ncols; c++) {
		if (strcmp(o->cols[c], col))
			continue;
		for (size_t r = 0; r < o->nrows; r++) {
			const struct rcell *x = &o->cells[r * o->ncols + c];

			if (!x->status && isfinite(x->v) && x->v > 0) {
				cs->lo = fmin(cs->lo, x->v);
				cs->hi = fmax(cs->hi, x->v);
			}
		}
	}
}

/*
 * Each column's range over every map sharing the scale. Across more than a
 * decade, colour by order of magnitude; else from zero, so that 12 against
 * 15 MB/s does not look like night and day. Returns whether another map
 * shares it.
 */
static bool col_scales(const struct rdoc *d, const struct rheat *h,
		       struct col_scale *cs)
{
	bool shared = false;

	for (size_t c = 0; c < h->ncols; c++) {
		cs[c].lo = INFINITY;
		cs[c].hi = -INFINITY;
		span_col(&cs[c], h, h->cols[c]);
		for (size_t i = 0; d && i < d->ncharts; i++) {
			const struct rchart *o = d->charts[i];

			if (o->kind != RC_HEAT || &o->heat == h ||
			    !same_scale(h, &o->heat))
				continue;
			shared = true;
			span_col(&cs[c], &o->heat, h->cols[c]);
		}
		cs[c].logs = isfinite(cs[c].lo) && cs[c].hi / cs[c].lo > 10;
		if (!cs[c].logs && isfinite(cs[c].lo))
			cs[c].lo = 0;
	}
	return shared;
}

void html_heat(FILE *f, const struct rdoc *d, const struct rheat *h,
	       const char *id)
{
	struct col_scale *cs = xcalloc(h->ncols ? h->ncols : 1, sizeof(*cs));
	bool flags = false, any = false, shared;
	size_t nparts;

	for (size_t i = 0; i < h->nrows * h->ncols; i++)
		flags |= h->cells[i].flag != NULL;
	shared = col_scales(d, h, cs);
	for (size_t c = 0; c < h->ncols; c++)
		any |= isfinite(cs[c].lo);
	fputs("<figure class=\"chart heat\"><figcaption><b>", f);
	hx_text(f, h->title);
	fputs("</b> ", f);
	if (any)
		legend(f, id, shared, h->unit);
	fputs("</figcaption><div class=\"scroll\"><table class=\"heat\">", f);
	head_row(f, h, &nparts, cs);
	fputs("<tbody>", f);
	for (size_t r = 0; r < h->nrows; r++) {
		fputs("<tr>", f);
		row_head(f, h, r, nparts);
		for (size_t c = 0; c < h->ncols; c++) {
			const struct rcell *x = &h->cells[r * h->ncols + c];
			char bg[8], buf[32];
			const char *fg;
			const struct col_scale *k = &cs[c];
			double t;

			if (x->status) {
				status_cell(f, x->status, x->note);
				continue;
			}
			if (!isfinite(x->v)) {
				fputs("<td class=\"st\">-</td>", f);
				continue;
			}
			t = !isfinite(k->lo) || k->hi <= k->lo ? 1 :
			    k->logs ? log(x->v / k->lo) / log(k->hi / k->lo) :
				      (x->v - k->lo) / (k->hi - k->lo);
			svg_heat_color(t, bg, &fg);
			fprintf(f,
				"<td class=\"v\" style=\"background:%s;color:%s\">%s",
				bg, fg, rfmt(h->unit, x->v, buf, sizeof(buf)));
			if (x->flag) {
				fputs("<span class=\"flag\">", f);
				hx_text(f, x->flag);
				fputs("</span>", f);
			}
			fputs("</td>", f);
		}
		if (h->extra) {
			fputs("<td class=\"extra\">", f);
			hx_text(f, h->extra[r]);
			fputs("</td>", f);
		}
		fputs("</tr>", f);
	}
	fputs("</tbody></table></div>", f);
	notes(f, h);
	if (flags)
		fputs("<p class=\"fine\"><span class=\"flag\">page cache</span> these reads were served from the host's page cache, not the disk: they measure memory.</p>",
		      f);
	fputs("</figure>\n", f);
	free(cs);
}

static const struct rcell *cell_by_label(const struct rheat *h, const char *row,
					 const char *col)
{
	for (size_t r = 0; r < h->nrows; r++)
		if (!strcmp(h->rows[r], row))
			for (size_t c = 0; c < h->ncols; c++)
				if (!strcmp(h->cols[c], col))
					return &h->cells[r * h->ncols + c];
	return NULL;
}

void html_cmp_heat(FILE *f, const struct cmp *c, size_t doc,
		   const struct rheat *a, const struct rheat *b)
{
	struct strmap rows = { 0 };
	size_t nparts, ri;

	/* Cells find their figure's verdict by key: linear time. */
	for (size_t i = 0; i < c->nrows; i++)
		strmap_put(&rows, c->rows[i].key, i);
	fputs("<figure class=\"chart heat\"><figcaption><b>", f);
	hx_textf(f, "%s: %c / A", a->title, cmp_letter(doc));
	fputs("</b> <span class=\"sub\">", f);
	hx_textf(
		f,
		"each cell of %c (%s) over the same cell of A (%s); green faster, red slower beyond %g %% and the noise of its runs, white otherwise (the verdicts of the table below)",
		cmp_letter(doc), c->docs[doc]->label, c->docs[0]->label,
		c->threshold * 100);
	fputs("</span></figcaption><div class=\"scroll\"><table class=\"heat\">",
	      f);
	head_row(f, a, &nparts, NULL);
	fputs("<tbody>", f);
	for (size_t r = 0; r < a->nrows; r++) {
		fputs("<tr>", f);
		row_head(f, a, r, nparts);
		for (size_t k = 0; k < a->ncols; k++) {
			const struct rcell *x = &a->cells[r * a->ncols + k];
			const struct rcell *y =
				cell_by_label(b, a->rows[r], a->cols[k]);
			char bg[8], buf[48], va[32], vb[32];
			const struct cmp_row *row = NULL;
			const char *fg;
			double ratio;

			if (x->status || !y || y->status) {
				status_cell(f,
					    x->status	   ? x->status :
					    y && y->status ? y->status :
							     "not in both",
					    0);
				continue;
			}
			ratio = x->v > 0 ? y->v / x->v : NAN;
			if (x->key && strmap_get(&rows, x->key, &ri))
				row = &c->rows[ri];
			/* Coloured only where compare calls it better or
			 * worse; by ratio alone for a cell with no figure. */
			if ((row && row->verdict[doc] != CV_BETTER &&
			     row->verdict[doc] != CV_WORSE) ||
			    (!row && isfinite(ratio) &&
			     fabs(log(ratio)) < log(1 + c->threshold))) {
				snprintf(bg, sizeof(bg), "#f7f7f7");
				fg = "#111111";
			} else {
				svg_ratio_color(ratio, true, bg, &fg);
			}
			fprintf(f,
				"<td class=\"v\" style=\"background:%s;color:%s\" title=\"",
				bg, fg);
			hx_textf(f, "A %s, %c %s", rfmt(a->unit, x->v, va, 32),
				 cmp_letter(doc), rfmt(a->unit, y->v, vb, 32));
			if (row && row->verdict[doc] != CV_NONE) {
				char vt[96];

				hx_textf(f, ": %s",
					 cmp_verdict_text(row, doc, vt,
							  sizeof(vt)));
			}
			if (isfinite(ratio))
				snprintf(buf, sizeof(buf),
					 ratio < 10 ? "%.2f\u00d7" :
						      "%.1f\u00d7",
					 ratio);
			else
				snprintf(buf, sizeof(buf), "-");
			fprintf(f, "\">%s</td>", buf);
		}
		if (a->extra) {
			fputs("<td class=\"extra\">", f);
			hx_text(f, a->extra[r]);
			fputs("</td>", f);
		}
		fputs("</tr>", f);
	}
	fputs("</tbody></table></div></figure>\n", f);
	strmap_free(&rows);
}
