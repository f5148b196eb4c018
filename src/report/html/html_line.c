// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Line charts in SVG: latency percentile curves (x on a "nines" scale so
 * p99, p99.9, p99.99 are evenly spaced), IOPS per second, and the
 * calibrate curve with IOPS on the left axis, latency on the right, the
 * latency cap and the knee drawn as lines and max_iops as a dot. The
 * compare view overlays the same chart of every input.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html_impl.h"
#include "../../util/xmem.h"

#define LW 640.0
#define FONT 12.0

struct line_style {
	const char *color;
	int dash; /* 0 solid, 1 dashed, 2 dotted */
	const char *name;
};

static const char *const dash_attr[] = { "", " stroke-dasharray=\"7 4\"",
					 " stroke-dasharray=\"2 3\"" };

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The distinct x values of all series, if few: ticks for a load axis. */
static size_t data_ticks(const struct rline *l, double *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < l->ns; i++)
		for (size_t j = 0; j < l->s[i].n; j++) {
			double v = l->s[i].x[j];
			size_t k;

			for (k = 0; k < n && out[k] != v; k++)
				;
			if (k < n)
				continue;
			if (n == max)
				return 0;
			out[n++] = v;
		}
	qsort(out, n, sizeof(double), cmp_double);
	return n;
}

static bool whole_x(const struct rline *l)
{
	for (size_t i = 0; i < l->ns; i++)
		for (size_t j = 0; j < l->s[i].n; j++)
			if (l->s[i].x[j] != floor(l->s[i].x[j]))
				return false;
	return true;
}

/*
 * Latency that spans more than a factor of 30 (a saturated device's queue)
 * goes on a log scale, or the interesting part is a flat line at 0.
 */
static enum rscale auto_log(enum rscale s, enum runit u, double lo, double hi)
{
	if (s == RSC_LIN && (u == RU_MS || u == RU_NS) && lo > 0 &&
	    hi / lo > 30)
		return RSC_LOG;
	return s;
}

static void range(const struct rline *l, int axis, bool x, double *lo,
		  double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < l->ns; i++) {
		if (!x && l->s[i].axis != axis)
			continue;
		for (size_t j = 0; j < l->s[i].n; j++) {
			double v = x ? l->s[i].x[j] : l->s[i].y[j];

			if (!isfinite(v))
				continue;
			*lo = fmin(*lo, v);
			*hi = fmax(*hi, v);
		}
	}
	for (size_t i = 0; i < l->nm; i++) {
		const struct rmark *m = &l->m[i];

		/* A cap or a knee must be inside the plot to be seen. */
		if ((x && m->axis == 'x') ||
		    (!x && axis == 0 && m->axis == 'y') ||
		    (!x && axis == 1 && m->axis == 'r')) {
			*lo = fmin(*lo, m->v);
			*hi = fmax(*hi, x ? m->v : m->v * 1.15);
		}
	}
}

static void yaxis(FILE *f, const struct svg_scale *s, enum runit unit, double x,
		  bool right, double gx0, double gx1)
{
	double t[24];
	size_t n = svg_ticks(s, t, 24);
	char buf[32];

	for (size_t i = 0; i < n; i++) {
		double y = svg_map(s, t[i]);

		if (!right)
			fprintf(f,
				"<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
				gx0, y, gx1, y);
		fprintf(f,
			"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">",
			right ? x + 6 : x - 6, y + 4, right ? "start" : "end");
		hx_text(f,
			svg_tick_label(unit, s->kind, t[i], buf, sizeof(buf)));
		fputs("</text>", f);
	}
}

static void xaxis(FILE *f, const struct rline *l, const struct svg_scale *s,
		  double y, double gy0)
{
	double t[24];
	size_t n = 0;
	char buf[32];

	if (s->kind == RSC_LOG)
		n = data_ticks(l, t, 12);
	if (!n)
		n = svg_ticks(s, t, 24);
	/* Whole seconds (or loads) get whole ticks: drop 1.5 and 2.5. */
	if (s->kind == RSC_LIN && whole_x(l)) {
		size_t m = 0;

		for (size_t i = 0; i < n; i++)
			if (t[i] == floor(t[i]))
				t[m++] = t[i];
		n = m;
	}
	for (size_t i = 0; i < n; i++) {
		double x = svg_map(s, t[i]);

		fprintf(f,
			"<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
			x, gy0, x, y);
		fprintf(f,
			"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			x, y + 15);
		hx_text(f, svg_tick_label(l->xunit, s->kind, t[i], buf,
					  sizeof(buf)));
		fputs("</text>", f);
	}
}

static void legend_name(const struct rline *l, const struct line_style *style,
			bool two, size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", style[i].name,
		 two ? (l->s[i].axis ? " (right)" : " (left)") : "");
}

static int legend_rows(const struct rline *l, const struct line_style *style,
		       bool two)
{
	double lx = 70;
	int rows = 1;

	for (size_t i = 0; i < l->ns; i++) {
		char full[160];
		double w;

		legend_name(l, style, two, i, full, sizeof(full));
		w = 27 + svg_text_width(full, FONT) + 18;
		if (lx > 70 && lx + w > LW - 8) {
			lx = 70;
			rows++;
		}
		lx += w;
	}
	return rows;
}

static void draw(FILE *f, const struct rline *l, const struct line_style *style)
{
	bool two = l->y2label != NULL;
	double ml = 70, mr = two ? 84 : 24, mb = 46, lh;
	double x0 = ml, x1 = LW - mr, y0, y1, lo, hi, lx, ly;
	struct svg_scale sx, sy, sy2;
	int rows = legend_rows(l, style, two);

	/* Room above the plot for the legend's rows and a mark's label. */
	y1 = 22 + rows * 18 + 12;
	lh = y1 + 250 + mb;
	y0 = lh - mb;
	range(l, 0, true, &lo, &hi);
	svg_scale_fit(&sx, l->xscale, lo, hi, false, x0, x1);
	if (l->xscale != RSC_NINES && hi > lo) {
		/* Time and load axes span the data, not whole decades. */
		sx.d0 = lo;
		sx.d1 = hi;
	}
	range(l, 0, false, &lo, &hi);
	svg_scale_fit(&sy, auto_log(l->yscale, l->yunit, lo, hi), lo, hi, true,
		      y0, y1);
	if (two) {
		range(l, 1, false, &lo, &hi);
		svg_scale_fit(&sy2, auto_log(l->y2scale, l->y2unit, lo, hi), lo,
			      hi, true, y0, y1);
	}

	fputs("<figure class=\"chart line\"><figcaption><b>", f);
	hx_text(f, l->title);
	fputs("</b></figcaption>", f);
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\"><title>",
		LW, lh, LW, lh);
	hx_text(f, l->title);
	fputs("</title>", f);
	yaxis(f, &sy, l->yunit, x0, false, x0, x1);
	if (two)
		yaxis(f, &sy2, l->y2unit, x1, true, x0, x1);
	xaxis(f, l, &sx, y0, y1);
	fprintf(f, "<path class=\"axis\" d=\"M%.1f %.1fV%.1fH%.1f%s\"/>", x0,
		y1, y0, x1, two ? "V" : "");
	if (two)
		fprintf(f, "<path class=\"axis\" d=\"M%.1f %.1fV%.1f\"/>", x1,
			y0, y1);
	/* Axis titles. */
	fprintf(f,
		"<text class=\"axt\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		(x0 + x1) / 2, lh - 8);
	hx_text(f, l->xlabel);
	fprintf(f,
		"</text><text class=\"axt\" transform=\"translate(16 %.1f) rotate(-90)\" text-anchor=\"middle\">",
		(y0 + y1) / 2);
	hx_text(f, l->ylabel);
	fputs("</text>", f);
	if (two) {
		fprintf(f,
			"<text class=\"axt\" transform=\"translate(%.1f %.1f) rotate(90)\" text-anchor=\"middle\">",
			LW - 14, (y0 + y1) / 2);
		hx_text(f, l->y2label);
		fputs("</text>", f);
	}

	for (size_t i = 0; i < l->ns; i++) {
		const struct rseries *s = &l->s[i];
		const struct svg_scale *ys = s->axis && two ? &sy2 : &sy;
		bool pen = false;

		fprintf(f,
			"<path class=\"series\" fill=\"none\" stroke=\"%s\"%s d=\"",
			style[i].color, dash_attr[style[i].dash % 3]);
		for (size_t j = 0; j < s->n; j++) {
			if (!isfinite(s->y[j]) || !isfinite(s->x[j]) ||
			    (ys->kind == RSC_LOG && s->y[j] <= 0)) {
				pen = false;
				continue;
			}
			fprintf(f, "%s%.1f %.1f", pen ? "L" : "M",
				svg_map(&sx, s->x[j]), svg_map(ys, s->y[j]));
			pen = true;
		}
		fputs("\"/>", f);
		if (s->n <= 40)
			for (size_t j = 0; j < s->n; j++)
				if (isfinite(s->y[j]) && isfinite(s->x[j]) &&
				    (ys->kind != RSC_LOG || s->y[j] > 0))
					fprintf(f,
						"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.6\" fill=\"%s\"/>",
						svg_map(&sx, s->x[j]),
						svg_map(ys, s->y[j]),
						style[i].color);
	}
	/*
	 * Marks over the series, so that their labels stay readable: the cap
	 * (a horizontal line), the knee (a vertical one).
	 */
	for (size_t i = 0; i < l->nm; i++) {
		const struct rmark *m = &l->m[i];

		if (m->axis == 'x') {
			double x = svg_map(&sx, m->v);

			fprintf(f,
				"<path class=\"mark\" d=\"M%.1f %.1fV%.1f\"/><text class=\"marklab\" x=\"%.1f\" y=\"%.1f\">",
				x, y0, y1 - 2, x + 4, y1 + 10);
		} else {
			const struct svg_scale *s =
				m->axis == 'r' && two ? &sy2 : &sy;
			double y = svg_map(s, m->v);
			char v[32];

			fprintf(f,
				"<path class=\"mark cap\" d=\"M%.1f %.1fH%.1f\"/><text class=\"marklab cap\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
				x0, y, x1, x1 - 4, y - 4);
			svg_tick_label(m->axis == 'r' ? l->y2unit : l->yunit,
				       RSC_LIN, m->v, v, sizeof(v));
			hx_textf(f, "%s %s", m->label ? m->label : "", v);
			fputs("</text>", f);
			continue;
		}
		hx_text(f, m->label);
		fputs("</text>", f);
	}

	for (size_t i = 0; i < l->nd; i++) {
		const struct rdot *d = &l->d[i];
		const struct svg_scale *ys = d->axis && two ? &sy2 : &sy;
		double cx = svg_map(&sx, d->x), cy = svg_map(ys, d->y);
		char v[32];

		fprintf(f,
			"<circle class=\"dot\" cx=\"%.1f\" cy=\"%.1f\" r=\"5.5\"/><text class=\"dotlab\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">",
			cx, cy, cx + (cx > (x0 + x1) / 2 ? -9 : 9), cy - 9,
			cx > (x0 + x1) / 2 ? "end" : "start");
		hx_textf(f, "%s %s", d->label ? d->label : "",
			 rfmt(d->axis ? l->y2unit : l->yunit, d->y, v,
			      sizeof(v)));
		fputs("</text>", f);
	}

	/* Legend along the top, wrapped into rows. */
	lx = x0;
	ly = 12;
	for (size_t i = 0; i < l->ns; i++) {
		char full[160];
		double w;

		legend_name(l, style, two, i, full, sizeof(full));
		w = 27 + svg_text_width(full, FONT) + 18;
		if (lx > x0 && lx + w > LW - 8) {
			lx = x0;
			ly += 18;
		}
		fprintf(f,
			"<path stroke=\"%s\" stroke-width=\"2.5\"%s d=\"M%.1f %.1fh22\"/><text class=\"legend\" x=\"%.1f\" y=\"%.1f\">",
			style[i].color, dash_attr[style[i].dash % 3], lx, ly,
			lx + 27, ly + 4);
		hx_text(f, full);
		fputs("</text>", f);
		lx += w;
	}
	fputs("</svg></figure>\n", f);
}

void html_line(FILE *f, const struct rline *l)
{
	struct line_style *st = xcalloc(l->ns ? l->ns : 1, sizeof(*st));

	for (size_t i = 0; i < l->ns; i++) {
		st[i].color = l->ns <= 3 && !l->y2label ?
				      svg_dir_color(l->s[i].name) :
				      svg_series_color(i);
		st[i].dash = l->s[i].dashed ? 1 : 0;
		st[i].name = l->s[i].name;
	}
	/* read/write/flush: the direction colours, flush in grey. */
	for (size_t i = 0; i < l->ns; i++)
		if (!strcmp(l->s[i].name, "flush"))
			st[i].color = "#555555";
	draw(f, l, st);
	free(st);
}

static const struct rline *find_line(const struct rdoc *d, const char *title)
{
	return rdoc_find_line(d, title);
}

void html_cmp_lines(FILE *f, const struct cmp *c, const char *title)
{
	const struct rline *base = find_line(c->docs[0], title);
	struct rline l;
	struct line_style *st;
	char **names;
	size_t n = 0, k = 0;

	if (!base)
		return;
	for (size_t d = 0; d < c->n; d++) {
		const struct rline *x = find_line(c->docs[d], title);

		n += x ? x->ns : 0;
	}
	/* A chart whose series are all the inputs' series, by input colour. */
	l = *base;
	l.s = xcalloc(n, sizeof(*l.s));
	l.ns = n;
	l.d = NULL;
	l.nd = 0;
	/*
	 * A's knee or max_iops dot would stand for every input; only
	 * horizontal marks (a latency cap) are shared, and only if every
	 * input has the same.
	 */
	l.m = xcalloc(base->nm ? base->nm : 1, sizeof(*l.m));
	l.nm = 0;
	for (size_t i = 0; i < base->nm; i++) {
		bool same = base->m[i].axis != 'x';

		for (size_t d = 1; d < c->n && same; d++) {
			const struct rline *x = find_line(c->docs[d], title);
			bool found = false;

			for (size_t j = 0; x && j < x->nm; j++)
				found |= x->m[j].axis == base->m[i].axis &&
					 x->m[j].v == base->m[i].v;
			same = found;
		}
		if (same)
			l.m[l.nm++] = base->m[i];
	}
	st = xcalloc(n, sizeof(*st));
	names = xcalloc(n, sizeof(char *));
	for (size_t d = 0; d < c->n; d++) {
		const struct rline *x = find_line(c->docs[d], title);

		for (size_t i = 0; x && i < x->ns; i++, k++) {
			l.s[k] = x->s[i];
			names[k] =
				xasprintf("%c %s", cmp_letter(d), x->s[i].name);
			st[k].name = names[k];
			st[k].color = svg_input_color(d);
			/* Within an input: solid, dashed, dotted by series. */
			st[k].dash = (int)(i % 3);
		}
	}
	draw(f, &l, st);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(st);
	free(l.s);
	free(l.m);
}
