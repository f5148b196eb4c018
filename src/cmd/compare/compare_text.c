// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab compare` as tables a person reads: the inputs, what differs in
 * their settings, every figure side by side with its ratio to A, the
 * findings that came or went, and the warnings. Colour (green better, red
 * worse) only when the caller says so (a terminal, NO_COLOR unset).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../report/compare.h"
#include "../../util/term.h"

#define C_GREEN "\033[32m"
#define C_RED "\033[31m"
#define C_DIM "\033[2m"
#define C_BOLD "\033[1m"
#define C_OFF "\033[0m"

/* Display width of UTF-8 text: code points, not bytes ("×" is one). */
static size_t dwidth(const char *s)
{
	size_t n = 0;

	s = term_safe(s); /* as pad() prints it */
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/*
 * Labels, names and values come from the input files: escaped here, so
 * that only this file's own colour sequences reach the terminal.
 */
static void pad(FILE *f, const char *s, size_t w, bool right)
{
	size_t n = dwidth(s);

	s = term_safe(s);
	if (right)
		for (; n < w; n++)
			fputc(' ', f);
	fputs(s, f);
	if (!right)
		for (; n < w; n++)
			fputc(' ', f);
}

static size_t max_sz(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* A value cell: numbers for units named in the row, with units else. */
static const char *value_text(const struct cmp_row *r, size_t d, char *buf,
			      size_t len)
{
	const struct rfig *f = r->f[d];

	if (!f)
		return "-";
	if (f->status)
		return f->status;
	if (r->unit == RU_IOPS || r->unit == RU_MBPS || r->unit == RU_COUNT ||
	    r->unit == RU_NONE || r->unit == RU_LOAD)
		return rfmt(r->unit, f->value, buf, len);
	return rfmt_unit(r->unit, f->value, buf, len);
}

static const char *verdict_color(enum cmp_verdict v)
{
	return v == CV_BETTER ? C_GREEN : v == CV_WORSE ? C_RED : "";
}

static void print_inputs(const struct cmp *c, FILE *f)
{
	size_t wl = 5;

	for (size_t d = 0; d < c->n; d++)
		wl = max_sz(wl, dwidth(c->docs[d]->label));
	for (size_t d = 0; d < c->n; d++) {
		const struct rdoc *doc = c->docs[d];

		fprintf(f, "  %c  ", cmp_letter(d));
		pad(f, doc->label, wl, false);
		fprintf(f, "  %s\n",
			term_safe(doc->title ? doc->title : doc->path));
		if (strcmp(doc->label, doc->path))
			fprintf(f, "     %*s  %s\n", (int)wl, "",
				term_safe(doc->path));
	}
}

static void print_diffs(const struct cmp *c, enum rset_kind kind,
			const char *heading, FILE *f)
{
	size_t wl = 0, wv = 0;
	bool any = false;

	for (size_t i = 0; i < c->ndiffs; i++) {
		if (c->diffs[i].kind != kind)
			continue;
		any = true;
		wl = max_sz(wl, dwidth(c->diffs[i].label));
		for (size_t d = 0; d < c->n; d++)
			wv = max_sz(wv, c->diffs[i].value[d] ?
						dwidth(c->diffs[i].value[d]) :
						1);
	}
	if (!any)
		return;
	fprintf(f, "\n%s\n", heading);
	for (size_t i = 0; i < c->ndiffs; i++) {
		const struct cmp_setdiff *x = &c->diffs[i];

		if (x->kind != kind)
			continue;
		fputs("  ", f);
		pad(f, x->label, wl, false);
		for (size_t d = 0; d < c->n; d++) {
			fprintf(f, "  %c ", cmp_letter(d));
			pad(f, x->value[d] ? x->value[d] : "-",
			    d + 1 < c->n ? wv : 0, false);
		}
		fputc('\n', f);
	}
}

static void print_figures(const struct cmp *c, const struct cmp_text_opts *o,
			  FILE *f)
{
	size_t wg = 0, wn = 0, wv[CMP_MAX_DOCS] = { 0 },
	       wr[CMP_MAX_DOCS] = { 0 };
	char buf[96], head[96];
	const char *last = NULL;

	if (!c->nrows)
		return;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		wg = max_sz(wg, dwidth(r->group));
		wn = max_sz(wn, dwidth(r->name));
		for (size_t d = 0; d < c->n; d++) {
			wv[d] = max_sz(wv[d], dwidth(value_text(r, d, buf,
								sizeof(buf))));
			if (d) {
				size_t w;

				cmp_ratio_text(r, d, buf, sizeof(buf));
				w = dwidth(term_ascii(buf, sizeof(buf)));
				w += 1 + dwidth(cmp_verdict_text(r, d, buf,
								 sizeof(buf)));
				wr[d] = max_sz(wr[d], w);
			}
		}
	}
	for (size_t d = 0; d < c->n; d++) {
		snprintf(head, sizeof(head), "%c %s", cmp_letter(d),
			 c->docs[d]->label);
		/* Long labels are in the inputs list; the letter suffices. */
		if (dwidth(head) > max_sz(wv[d], 14))
			snprintf(head, sizeof(head), "%c", cmp_letter(d));
		wv[d] = max_sz(wv[d], dwidth(head));
		if (d) {
			snprintf(head, sizeof(head), "%c/A", cmp_letter(d));
			wr[d] = max_sz(wr[d], dwidth(head));
		}
	}
	fputc('\n', f);
	if (o->color)
		fputs(C_BOLD, f);
	pad(f, "", wg + 2 + wn, false);
	for (size_t d = 0; d < c->n; d++) {
		snprintf(head, sizeof(head), "%c %s", cmp_letter(d),
			 c->docs[d]->label);
		if (dwidth(head) > wv[d])
			snprintf(head, sizeof(head), "%c", cmp_letter(d));
		fputs("  ", f);
		pad(f, head, wv[d], true);
	}
	for (size_t d = 1; d < c->n; d++) {
		snprintf(head, sizeof(head), "%c/A", cmp_letter(d));
		fputs("   ", f);
		pad(f, head, d + 1 < c->n ? wr[d] : 0, false);
	}
	if (o->color)
		fputs(C_OFF, f);
	fputc('\n', f);

	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		bool new_group = !last || strcmp(last, r->group);

		pad(f, new_group ? r->group : "", wg, false);
		last = r->group;
		fputs("  ", f);
		pad(f, r->name, wn, false);
		for (size_t d = 0; d < c->n; d++) {
			fputs("  ", f);
			pad(f, value_text(r, d, buf, sizeof(buf)), wv[d], true);
		}
		for (size_t d = 1; d < c->n; d++) {
			char cell[192], vb[96];
			const char *v = cmp_verdict_text(r, d, vb, sizeof(vb));
			bool col = o->color && (r->verdict[d] == CV_BETTER ||
						r->verdict[d] == CV_WORSE);

			cmp_ratio_text(r, d, buf, sizeof(buf));
			term_ascii(buf, sizeof(buf));
			snprintf(cell, sizeof(cell), "%s%s%s", buf,
				 *buf && *v ? " " : "", v);
			fputs("   ", f);
			if (col)
				fputs(verdict_color(r->verdict[d]), f);
			else if (o->color && r->verdict[d] != CV_NONE)
				fputs(C_DIM, f);
			/* No trailing blanks after the last column. */
			pad(f, cell, d + 1 < c->n ? wr[d] : 0, false);
			if (o->color && r->verdict[d] != CV_NONE)
				fputs(C_OFF, f);
		}
		fputc('\n', f);
	}
	fprintf(f,
		"\nRatios are each input over A; %s is the 95 %% interval of the change over A, from the\n"
		"per-run values (per-second values of a single run). same: within %g %% (--threshold);\n"
		"beyond it, better/worse when Welch's t-test on those values is significant at the\n"
		"5 %% level, within noise when not (with the runs, or seconds of one run, a test of\n"
		"80 %% power would need to tell a change of that size), no spread known without them.\n"
		"Counts are exact. Latency ratios also show the change in percent. MB/s = 10^6 bytes/s.\n",
		term_glyph("\u00b1"), c->threshold * 100);
}

static void print_findings(const struct cmp *c, const struct cmp_text_opts *o,
			   FILE *f)
{
	if (!c->nfinds)
		return;
	fprintf(f, "\nFindings:\n");
	for (size_t i = 0; i < c->nfinds; i++) {
		const struct cmp_find *x = &c->finds[i];
		const char *change = "";
		enum cmp_verdict v = CV_NONE;
		bool in_a = x->present[0], in_last = x->present[c->n - 1];

		if (in_a && !in_last) {
			change = "gone";
			v = CV_BETTER;
		} else if (!in_a && in_last) {
			change = "new";
			v = CV_WORSE;
		}
		fprintf(f, "  %-8s ", term_safe(x->f->severity));
		for (size_t d = 0; d < c->n; d++)
			fprintf(f, "%c", x->present[d] ? cmp_letter(d) : '.');
		fprintf(f, " %s%s%s%s: %s", term_safe(x->f->id),
			x->f->subject ? " (" : "",
			x->f->subject ? term_safe(x->f->subject) : "",
			x->f->subject ? ")" : "", term_safe(x->f->message));
		if (*change) {
			fputs("  ", f);
			if (o->color)
				fputs(verdict_color(v), f);
			fprintf(f, "[%s in %c]", change, cmp_letter(c->n - 1));
			if (o->color)
				fputs(C_OFF, f);
		}
		fputc('\n', f);
	}
	fprintf(f,
		"(the letters say which inputs have the finding; '.' where it is absent)\n");
}

static void print_warnings(const struct cmp *c, FILE *f)
{
	bool any = c->warns.n > 0;

	for (size_t d = 0; d < c->n; d++)
		any |= c->docs[d]->warns.n > 0;
	if (!any)
		return;
	fprintf(f, "\nWarnings:\n");
	for (size_t i = 0; i < c->warns.n; i++)
		fprintf(f, "  ! %s\n", term_safe(c->warns.v[i].msg));
	for (size_t d = 0; d < c->n; d++)
		for (size_t i = 0; i < c->docs[d]->warns.n; i++)
			fprintf(f, "  ! %c: %s\n", cmp_letter(d),
				term_safe(c->docs[d]->warns.v[i].msg));
}

void cmp_text_print(const struct cmp *c, const struct cmp_text_opts *o, FILE *f)
{
	fprintf(f, "iolab compare: %zu %s results, each against A\n\n", c->n,
		term_safe(c->docs[0]->command));
	print_inputs(c, f);
	if (c->nrows) {
		char buf[96];

		fputc('\n', f);
		for (size_t d = 1; d < c->n; d++)
			fprintf(f, "  %c against A: %s\n", cmp_letter(d),
				cmp_tally_text(c, d, buf, sizeof(buf)));
	}
	print_diffs(
		c, RS_WORKLOAD,
		"Settings that differ (the figures are not like for like):", f);
	print_diffs(c, RS_ENV, "Where they ran differs:", f);
	print_figures(c, o, f);
	print_findings(c, o, f);
	print_warnings(c, f);
}
