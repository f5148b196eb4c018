// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The compare view of the HTML report, for a command given more than once:
 * the inputs, the settings that differ, bars of the key figures per input
 * with their ratios, ratio heat maps (matrix, lab), overlaid curves, the
 * full table of figures with better and worse marked, and the findings
 * that came or went.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "html_impl.h"

static void inputs(FILE *f, const struct cmp *c)
{
	fputs("<table class=\"inputs\"><tbody>", f);
	for (size_t d = 0; d < c->n; d++) {
		const struct rdoc *doc = c->docs[d];

		fprintf(f,
			"<tr><td><span class=\"swatch\" style=\"background:%s\"></span><b>%c</b></td><td><b>",
			svg_input_color(d), cmp_letter(d));
		hx_text(f, doc->label);
		fputs("</b>", f);
		if (!d)
			fputs(" <span class=\"sub\">(baseline)</span>", f);
		fputs("</td><td>", f);
		hx_text(f, doc->title);
		fputs("<br/><span class=\"path\">", f);
		hx_text(f, doc->path);
		fputs("</span></td></tr>", f);
	}
	fputs("</tbody></table>\n", f);
}

static void diffs(FILE *f, const struct cmp *c, enum rset_kind kind)
{
	bool any = false;

	for (size_t i = 0; i < c->ndiffs; i++) {
		const struct cmp_setdiff *x = &c->diffs[i];

		if (x->kind != kind)
			continue;
		if (!any) {
			fprintf(f, "<div class=\"%s\"><p><b>%s</b></p>",
				kind == RS_WORKLOAD ? "callout" : "envdiff",
				kind == RS_WORKLOAD ?
					"Settings that differ: the figures are not like for like" :
					"Where they ran differs");
			fputs("<table class=\"data diff\"><thead><tr><th></th>",
			      f);
			for (size_t d = 0; d < c->n; d++)
				fprintf(f, "<th>%c</th>", cmp_letter(d));
			fputs("</tr></thead><tbody>", f);
		}
		any = true;
		fputs("<tr><th>", f);
		hx_text(f, x->label);
		fputs("</th>", f);
		for (size_t d = 0; d < c->n; d++) {
			fputs("<td>", f);
			hx_text(f, x->value[d] ? x->value[d] : "-");
			fputs("</td>", f);
		}
		fputs("</tr>", f);
	}
	if (any)
		fputs("</tbody></table></div>\n", f);
}

static const char *verdict_class(enum cmp_verdict v)
{
	return v == CV_BETTER ? "better" :
	       v == CV_WORSE  ? "worse" :
	       v == CV_NONE   ? "" :
				"same";
}

static void full_table(FILE *f, const struct cmp *c)
{
	const char *last = NULL;

	fputs("<div class=\"scroll\"><table class=\"data cmp\"><thead><tr><th></th><th></th>",
	      f);
	for (size_t d = 0; d < c->n; d++) {
		fprintf(f, "<th class=\"num\">%c ", cmp_letter(d));
		hx_text(f, c->docs[d]->label);
		fputs("</th>", f);
	}
	for (size_t d = 1; d < c->n; d++)
		fprintf(f, "<th>%c / A</th>", cmp_letter(d));
	fputs("</tr></thead><tbody>", f);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		bool first = !last || strcmp(last, r->group);

		fprintf(f, "<tr%s><th>", first ? " class=\"gstart\"" : "");
		if (first)
			hx_text(f, r->group);
		last = r->group;
		fputs("</th><td>", f);
		hx_text(f, r->name);
		fputs("</td>", f);
		for (size_t d = 0; d < c->n; d++) {
			const struct rfig *x = r->f[d];
			char buf[48];

			fputs("<td class=\"num\">", f);
			hx_text(f, !x	     ? "-" :
				   x->status ? x->status :
					       rfmt_unit(r->unit, x->value, buf,
							 sizeof(buf)));
			fputs("</td>", f);
		}
		for (size_t d = 1; d < c->n; d++) {
			char buf[96];

			fprintf(f, "<td class=\"ratio %s\">",
				verdict_class(r->verdict[d]));
			hx_text(f, cmp_ratio_text(r, d, buf, sizeof(buf)));
			if (r->verdict[d] != CV_SAME &&
			    r->verdict[d] != CV_NONE) {
				fputs(" <span class=\"vw\">", f);
				hx_text(f, cmp_verdict_text(r, d, buf,
							    sizeof(buf)));
				fputs("</span>", f);
			}
			fputs("</td>", f);
		}
		fputs("</tr>", f);
	}
	fputs("</tbody></table></div>\n", f);
}

static void findings(FILE *f, const struct cmp *c)
{
	fputs("<h3>Findings</h3><div class=\"scroll\"><table class=\"data\"><thead><tr><th>severity</th><th>finding</th>",
	      f);
	for (size_t d = 0; d < c->n; d++)
		fprintf(f, "<th>%c</th>", cmp_letter(d));
	fputs("<th></th></tr></thead><tbody>", f);
	for (size_t i = 0; i < c->nfinds; i++) {
		const struct cmp_find *x = &c->finds[i];
		bool a = x->present[0], z = x->present[c->n - 1];

		fprintf(f, "<tr><td><span class=\"sevb sev%d\">", x->f->rank);
		hx_text(f, x->f->severity);
		fputs("</span></td><td>", f);
		if (x->f->subject) {
			hx_text(f, x->f->subject);
			fputs(": ", f);
		}
		hx_text(f, x->f->message);
		fputs(" <code class=\"id\">", f);
		hx_text(f, x->f->id);
		fputs("</code></td>", f);
		for (size_t d = 0; d < c->n; d++)
			fprintf(f, "<td>%s</td>",
				x->present[d] ? "\u25cf" : "\u2013");
		fprintf(f, "<td class=\"ratio %s\">%s</td></tr>",
			a && !z ? "better" :
			!a && z ? "worse" :
				  "",
			a && !z ? "gone" :
			!a && z ? "new" :
				  "");
	}
	fputs("</tbody></table></div>\n", f);
}

static const struct rheat *find_heat(const struct rdoc *d, const char *title)
{
	return rdoc_find_heat(d, title);
}

/* How many inputs have a value for this figure: a bar chart needs two. */
static size_t measured(const struct cmp *c, const struct cmp_row *r)
{
	size_t n = 0;

	for (size_t d = 0; d < c->n; d++)
		n += r->f[d] && !r->f[d]->status;
	return n;
}

static void charts(FILE *f, const struct cmp *c)
{
	const struct rdoc *a = c->docs[0];
	bool any = false;

	for (size_t i = 0; i < c->nrows; i++)
		if ((c->rows[i].flags & RF_CHART) &&
		    measured(c, &c->rows[i]) >= 2) {
			if (!any)
				fputs("<div class=\"grid\">", f);
			any = true;
			html_cmp_bars(f, c, &c->rows[i]);
		}
	if (any)
		fputs("</div>\n", f);
	any = false;
	for (size_t i = 0; i < a->ncharts; i++)
		if (a->charts[i]->kind == RC_LINE) {
			if (!any)
				fputs("<div class=\"grid lines\">", f);
			any = true;
			html_cmp_lines(f, c, a->charts[i]->line.title);
		}
	if (any)
		fputs("</div>\n", f);
	for (size_t i = 0; i < a->ncharts; i++) {
		const struct rchart *ch = a->charts[i];

		if (ch->kind == RC_HEAT) {
			for (size_t d = 1; d < c->n; d++) {
				const struct rheat *b =
					find_heat(c->docs[d], ch->heat.title);

				if (b)
					html_cmp_heat(f, c, d, &ch->heat, b);
			}
		}
	}
}

void html_cmp_section(FILE *f, const struct cmp *c, const char *id)
{
	fprintf(f,
		"<section class=\"card compare\" id=\"%s\"><div class=\"head\"><span class=\"cmd\">compare</span><h2>",
		id);
	hx_textf(f, "%zu %s results side by side", c->n, c->docs[0]->command);
	fputs("</h2></div>\n", f);
	inputs(f, c);
	if (c->nrows) {
		fputs("<p class=\"tally\">", f);
		for (size_t d = 1; d < c->n; d++) {
			struct cmp_tally t;

			cmp_tally(c, d, &t);
			fprintf(f,
				"<span><b>%c</b> against A: <span class=\"better\">%zu better</span>, <span class=\"worse\">%zu worse</span>, %zu the same, %zu within noise, %zu no spread known</span>",
				cmp_letter(d), t.better, t.worse, t.same,
				t.noise, t.nospread);
		}
		fputs("</p>\n", f);
	}
	diffs(f, c, RS_WORKLOAD);
	diffs(f, c, RS_ENV);
	{
		/* The callout above says what settings-differ says. */
		struct warnings w = { 0 };

		for (size_t i = 0; i < c->warns.n; i++)
			if (strcmp(c->warns.v[i].id, "settings-differ"))
				warn_add(&w, c->warns.v[i].id, "%s",
					 c->warns.v[i].msg);
		html_warnings(f, &w, NULL);
		warnings_free(&w);
	}
	charts(f, c);
	if (c->nrows) {
		fputs("<h3>Every figure</h3>", f);
		fprintf(f,
			"<p class=\"fine\">Ratios are each input over A; \u00b1 is the 95 %% interval of the change over A, from the per-run values (the per-second values of a single run). <span class=\"same\">same</span> within %g %%; beyond it <span class=\"better\">better</span> or <span class=\"worse\">worse</span> when Welch's t-test on those values is significant at the 5 %% level, <span class=\"same\">within noise</span> when not (with the runs, or seconds of one run, a test of 80 %% power would need), <span class=\"same\">no spread known</span> without them. Counts are exact. Latency ratios also give the change in percent.</p>",
			c->threshold * 100);
		full_table(f, c);
	}
	if (c->nfinds)
		findings(f, c);
	fputs("</section>\n", f);
}
