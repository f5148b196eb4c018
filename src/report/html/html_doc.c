// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One document's section of the HTML report: what it is, its headline
 * figures as tiles, its summary, warnings and findings, its charts and
 * tables in order, and the settings it was measured with.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "html_impl.h"
#include "../../util/xmem.h"

/* Right-align cells that hold a number ("12.3", "-", "4.56 ms"). */
static bool numeric(const char *s)
{
	if (!s || !*s)
		return false;
	if (!strcmp(s, "-"))
		return true;
	if (*s == '-' || *s == '+')
		s++;
	return isdigit((unsigned char)*s);
}

void html_table(FILE *f, const struct rtable *t)
{
	fputs("<figure class=\"chart table\">", f);
	if (t->title) {
		fputs("<figcaption><b>", f);
		hx_text(f, t->title);
		fputs("</b></figcaption>", f);
	}
	fputs("<div class=\"scroll\"><table class=\"data\"><thead><tr>", f);
	for (size_t c = 0; c < t->ncols; c++) {
		bool num = false;

		/* A column of numbers gets a right-aligned heading. */
		for (size_t r = 0; r < t->nrows && !num; r++)
			num = numeric(t->cells[r * t->ncols + c]);
		fprintf(f, "<th%s>", num && c ? " class=\"num\"" : "");
		hx_text(f, t->head[c]);
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>", f);
	for (size_t r = 0; r < t->nrows; r++) {
		fputs("<tr>", f);
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = t->cells[r * t->ncols + c];

			fprintf(f, "<td%s>",
				c && numeric(s) ? " class=\"num\"" : "");
			hx_text(f, s);
			fputs("</td>", f);
		}
		fputs("</tr>", f);
	}
	fputs("</tbody></table></div></figure>\n", f);
}

void html_findings(FILE *f, const struct rfinding *fs, size_t n)
{
	if (!n)
		return;
	fputs("<ul class=\"findings\">", f);
	/* Most severe first, in document order within a severity. */
	for (int rank = 3; rank >= 1; rank--)
		for (size_t i = 0; i < n; i++) {
			const struct rfinding *x = &fs[i];

			if (x->rank != rank)
				continue;
			fprintf(f, "<li class=\"sev%d\"><span class=\"sev\">",
				x->rank);
			hx_text(f, x->severity);
			fputs("</span> ", f);
			if (x->subject) {
				fputs("<span class=\"subj\">", f);
				hx_text(f, x->subject);
				fputs("</span> ", f);
			}
			fputs("<b class=\"msg\">", f);
			hx_text(f, x->message);
			fputs("</b> <code class=\"id\">", f);
			hx_text(f, x->id);
			fputs("</code>", f);
			if (x->why) {
				fputs("<p class=\"why\">", f);
				hx_text(f, x->why);
				fputs("</p>", f);
			}
			if (x->fix || x->commands || x->nhosts)
				fputs("<div class=\"fixlab\">fix</div>", f);
			if (x->fix && x->fix_prose) {
				/* A summary, then the exact commands. */
				fputs("<p class=\"fixsum\">", f);
				hx_text(f, x->fix);
				fputs("</p>", f);
			} else if (x->fix) {
				fputs("<pre class=\"fix\">", f);
				hx_text(f, x->fix);
				fputs("</pre>", f);
			}
			if (x->commands) {
				fputs("<pre class=\"fix\">", f);
				hx_text(f, x->commands);
				fputs("</pre>", f);
			}
			if (x->nhosts) {
				fputs("<dl class=\"hosts\">", f);
				for (size_t k = 0; k < x->nhosts; k++) {
					fputs("<dt>", f);
					hx_text(f, x->hosts[k].where);
					fputs("</dt><dd>", f);
					hx_text(f, x->hosts[k].what);
					fputs("</dd>", f);
				}
				fputs("</dl>", f);
			}
			fputs("</li>", f);
		}
	fputs("</ul>\n", f);
}

/*
 * Headline figures as tiles, one row per group (read, then write), so
 * that the same figure of each direction lines up.
 */
static void tiles(FILE *f, const struct rdoc *d)
{
	const char *row = NULL;

	for (size_t i = 0; i < d->nfigs; i++) {
		const struct rfig *x = &d->figs[i];
		char num[48], full[64];
		const char *unit = "";

		if (!(x->flags & RF_HEADLINE))
			continue;
		if (!row || strcmp(row, x->group)) {
			fputs(row ? "</div>\n<div class=\"tiles\">" :
				    "<div class=\"tiles\">",
			      f);
			row = x->group;
		}
		if (x->status) {
			snprintf(num, sizeof(num), "%s", x->status);
		} else if (x->unit == RU_NS) {
			/* "49.3 us": split the number from its unit. */
			char *sp;

			rfmt(RU_NS, x->value, full, sizeof(full));
			sp = strchr(full, ' ');
			if (sp) {
				*sp = 0;
				unit = sp + 1;
			}
			snprintf(num, sizeof(num), "%s", full);
		} else {
			rfmt(x->unit, x->value, num, sizeof(num));
			unit = runit_label(x->unit);
		}
		fputs("<div class=\"tile\"><div class=\"k\">", f);
		if (strcmp(x->group, "CALIBRATE_IO") &&
		    strcmp(x->group, "findings"))
			hx_textf(f, "%s %s", x->group, x->name);
		else
			hx_text(f, x->name);
		fputs("</div><div class=\"v\">", f);
		hx_text(f, num);
		fputs("<span class=\"u\">", f);
		hx_text(f, unit);
		fputs("</span></div></div>", f);
	}
	if (row)
		fputs("</div>\n", f);
}

static void paragraphs(FILE *f, const char *cls, const char *text)
{
	const char *p = text;

	fprintf(f, "<div class=\"%s\">", cls);
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xmalloc(len + 1);

		memcpy(line, p, len);
		line[len] = 0;
		fputs("<p>", f);
		hx_text(f, line);
		fputs("</p>", f);
		free(line);
		p = nl ? nl + 1 : NULL;
	}
	fputs("</div>\n", f);
}

void html_warnings(FILE *f, const struct warnings *w, const char *prefix)
{
	if (!w->n)
		return;
	fputs("<ul class=\"warnings\">", f);
	for (size_t i = 0; i < w->n; i++) {
		fputs("<li>", f);
		if (prefix)
			hx_text(f, prefix);
		hx_text(f, w->v[i].msg);
		fputs(" <code class=\"id\">", f);
		hx_text(f, w->v[i].id);
		fputs("</code></li>", f);
	}
	fputs("</ul>\n", f);
}

static void settings(FILE *f, const struct rdoc *d)
{
	static const char *const heads[] = { "Workload", "Where it ran" };

	fputs("<div class=\"settings\">", f);
	for (int k = 0; k < 2; k++) {
		bool any = false;

		for (size_t i = 0; i < d->nsets; i++) {
			const struct rset *s = &d->sets[i];

			if ((int)s->kind != k || s->detail)
				continue;
			if (!any)
				fprintf(f, "<div><h4>%s</h4><dl>", heads[k]);
			any = true;
			fputs("<dt>", f);
			hx_text(f, s->label);
			fputs("</dt><dd>", f);
			hx_text(f, s->value);
			fputs("</dd>", f);
		}
		if (any)
			fputs("</dl></div>", f);
	}
	fputs("</div>\n", f);
}

static void charts(FILE *f, const struct rdoc *d, const char *id)
{
	size_t i = 0;

	while (i < d->ncharts) {
		const struct rchart *c = d->charts[i];
		enum rchart_kind kind = c->kind;
		bool grid = kind == RC_BARS || kind == RC_LINE;

		/* Consecutive bar or line charts share a grid. */
		if (grid)
			fprintf(f, "<div class=\"grid%s\">",
				kind == RC_LINE ? " lines" : "");
		do {
			char hid[64];

			c = d->charts[i];
			switch (c->kind) {
			case RC_BARS:
				html_bars(f, &c->bars);
				break;
			case RC_LINE:
				html_line(f, &c->line);
				break;
			case RC_HEAT:
				snprintf(hid, sizeof(hid), "%s-h%zu", id, i);
				html_heat(f, d, &c->heat, hid);
				break;
			case RC_TABLE:
				html_table(f, &c->table);
				break;
			}
			i++;
		} while (grid && i < d->ncharts && d->charts[i]->kind == kind);
		if (grid)
			fputs("</div>\n", f);
	}
}

void html_doc_section(FILE *f, const struct rdoc *d, const char *id,
		      size_t index)
{
	char date[64] = "";

	if (d->mtime) {
		struct tm tm;

		/* UTC, as the page's "generated" time. */
		gmtime_r(&d->mtime, &tm);
		strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", &tm);
	}
	fprintf(f, "<section class=\"card doc\" id=\"%s\"><div class=\"head\">",
		id);
	fprintf(f, "<span class=\"badge\">%zu</span><span class=\"cmd\">",
		index);
	hx_text(f, d->command);
	fputs("</span><h2>", f);
	hx_text(f, d->label);
	fputs("</h2><span class=\"path\">", f);
	hx_text(f, d->path);
	if (*date)
		hx_textf(f, ", written %s", date);
	hx_textf(f, ", iolab %s", d->tool_version ? d->tool_version : "?");
	fputs("</span></div>\n", f);
	if (d->title) {
		fputs("<p class=\"what\">", f);
		hx_text(f, d->title);
		fputs("</p>\n", f);
	}
	if (d->partial)
		fputs("<p class=\"partial\">Partial result: the run was stopped early (interrupted or an I/O error); the figures cover only the time it ran.</p>\n",
		      f);
	tiles(f, d);
	if (d->summary)
		paragraphs(f, "summary", d->summary);
	html_warnings(f, &d->warns, NULL);
	if (d->nfinds) {
		fputs("<h3>Findings</h3>", f);
		html_findings(f, d->finds, d->nfinds);
	}
	charts(f, d, id);
	for (size_t i = 0; i < d->nsets; i++)
		if (!d->sets[i].detail) {
			fputs("<h3>Settings</h3>", f);
			settings(f, d);
			break;
		}
	fputs("</section>\n", f);
}
