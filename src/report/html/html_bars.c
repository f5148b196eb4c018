// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Horizontal bar charts in SVG: a document's bars (mark: one chart per
 * test, best run as the bar, the spread of the runs as a whisker, the mean
 * as a tick) and the compare view's bars (one per input, with the ratio).
 */
#include <math.h>
#include <stdio.h>

#include "html_impl.h"

#define BAR_W 560.0
#define BAR_H 20.0
#define NOTE_H 15.0
#define FONT 12.0
#define MIN_PLOT 160.0 /* narrowest bar area before the chart widens */
#define LAB_MAX 240.0 /* widest label gutter of the compare view */

/*
 * Room for @s in a bold 12px label: the width estimate is of a regular
 * sans-serif, and bold glyphs and unknown fonts run wider, so be generous
 * rather than let the SVG's edge cut a label.
 */
static double room(const char *s)
{
	return svg_text_width(s, FONT) * 1.2 + 6;
}

static void axis(FILE *f, const struct svg_scale *sx, enum runit unit,
		 double y0, double y1)
{
	double ticks[16];
	size_t n = svg_ticks(sx, ticks, 16);
	char buf[32];

	for (size_t i = 0; i < n; i++) {
		double x = svg_map(sx, ticks[i]);

		fprintf(f,
			"<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
			x, y0, x, y1);
		fprintf(f,
			"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			x, y1 + 13);
		hx_text(f, svg_tick_label(unit, RSC_LIN, ticks[i], buf,
					  sizeof(buf)));
		fputs("</text>", f);
	}
}

/* Width of the value label at a bar's end, for the right margin. */
static double value_room(enum runit unit, double v)
{
	char buf[48];

	return room(rfmt_unit(unit, v, buf, sizeof(buf))) + 8;
}

void html_bars(FILE *f, const struct rbars *b)
{
	double lw = 0, right = 0, hi = 0, notew = 0, rowh, h, y, w;
	struct svg_scale sx;
	char buf[64];
	bool notes = false;

	for (size_t i = 0; i < b->n; i++) {
		const struct rbar *r = &b->b[i];
		double top = isfinite(r->hi) && r->hi > r->v ? r->hi : r->v;

		lw = fmax(lw, room(r->label) + 8);
		if (isfinite(top))
			hi = fmax(hi, top);
		right = fmax(right, value_room(b->unit, r->v));
		if (r->status || !isfinite(r->v))
			notew = fmax(notew,
				     room(r->status ? r->status : "no result"));
		if (r->note)
			notew = fmax(notew, room(r->note));
		notes |= r->note != NULL;
	}
	rowh = BAR_H + (notes ? NOTE_H : 0) + 10;
	h = (double)b->n * rowh + 22;
	right = fmax(right, 70);
	/* Wider than usual rather than a label or note past the edge. */
	w = fmax(BAR_W, fmax(lw + MIN_PLOT + right, lw + notew + 8));
	svg_scale_fit(&sx, RSC_LIN, 0, hi > 0 ? hi : 1, true, lw, w - right);
	fputs("<figure class=\"chart bars\"><figcaption><b>", f);
	hx_text(f, b->title);
	fputs("</b>", f);
	if (b->subtitle) {
		fputs(" <span class=\"sub\">", f);
		hx_text(f, b->subtitle);
		fputs("</span>", f);
	}
	fprintf(f,
		"</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\"><title>",
		w, h, w, h);
	hx_text(f, b->title);
	fputs("</title>", f);
	axis(f, &sx, b->unit, 2, h - 20);
	y = 6;
	for (size_t i = 0; i < b->n; i++, y += rowh) {
		const struct rbar *r = &b->b[i];
		double x0 = svg_map(&sx, 0), cy = y + BAR_H / 2;

		fprintf(f,
			"<text class=\"lab\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			lw - 8, cy + 4);
		hx_text(f, r->label);
		fputs("</text>", f);
		if (r->status || !isfinite(r->v)) {
			fprintf(f,
				"<text class=\"status\" x=\"%.1f\" y=\"%.1f\">",
				x0 + 4, cy + 4);
			hx_text(f, r->status ? r->status : "no result");
			fputs("</text>", f);
			continue;
		}
		fprintf(f,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"2\" fill=\"%s\"/>",
			x0, y, fmax(svg_map(&sx, r->v) - x0, 1), BAR_H,
			svg_dir_color(r->label));
		if (isfinite(r->lo) && isfinite(r->hi) && r->hi > r->lo) {
			double a = svg_map(&sx, r->lo), z = svg_map(&sx, r->hi);

			fprintf(f,
				"<path class=\"whisker\" d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\"/>",
				a, cy, z, a, cy - 5, cy + 5, z, cy - 5, cy + 5);
		}
		if (isfinite(r->mean)) {
			double m = svg_map(&sx, r->mean);

			fprintf(f,
				"<path class=\"mean\" d=\"M%.1f %.1fV%.1f\"/>",
				m, y + 2, y + BAR_H - 2);
		}
		fprintf(f, "<text class=\"val\" x=\"%.1f\" y=\"%.1f\">",
			fmax(svg_map(&sx, r->v),
			     isfinite(r->hi) ? svg_map(&sx, r->hi) : 0) +
				6,
			cy + 4);
		hx_text(f, rfmt_unit(b->unit, r->v, buf, sizeof(buf)));
		fputs("</text>", f);
		if (r->note) {
			fprintf(f,
				"<text class=\"note\" x=\"%.1f\" y=\"%.1f\">",
				x0, y + BAR_H + 12);
			hx_text(f, r->note);
			fputs("</text>", f);
		}
	}
	fputs("</svg></figure>\n", f);
}

/* The ratio and verdict after a compare bar's value, as drawn. */
static const char *ratio_tail(const struct cmp_row *r, size_t d, char *buf,
			      size_t len)
{
	char ratio[64];

	buf[0] = 0;
	if (d && *cmp_ratio_text(r, d, ratio, sizeof(ratio)))
		snprintf(buf, len, "  %s %s", ratio,
			 r->verdict[d] != CV_SAME && r->verdict[d] != CV_NONE ?
				 cmp_verdict_name(r->verdict[d]) :
				 "");
	return buf;
}

void html_cmp_bars(FILE *f, const struct cmp *c, const struct cmp_row *r)
{
	double lw = 0, right = 80, hi = 0, rowh = BAR_H + 8, h, y, w;
	struct svg_scale sx;
	char buf[64], ratio[64], lab[96], tail[160];

	for (size_t d = 0; d < c->n; d++) {
		const struct rfig *x = r->f[d];

		snprintf(lab, sizeof(lab), "%c %s", cmp_letter(d),
			 c->docs[d]->label);
		lw = fmax(lw, room(lab) + 8);
		if (x && !x->status && isfinite(x->value)) {
			hi = fmax(hi, x->value);
			right = fmax(right,
				     value_room(r->unit, x->value) +
					     room(ratio_tail(r, d, tail,
							     sizeof(tail))) +
					     8);
		} else {
			right = fmax(right, room(x && x->status ?
							 x->status :
							 "not in this input"));
		}
	}
	/* Long labels are cut to their letter; the inputs list has them. */
	if (lw > LAB_MAX)
		lw = LAB_MAX;
	h = (double)c->n * rowh + 24;
	w = fmax(BAR_W, lw + MIN_PLOT + right);
	svg_scale_fit(&sx, RSC_LIN, 0, hi > 0 ? hi : 1, true, lw, w - right);
	fputs("<figure class=\"chart bars\"><figcaption><b>", f);
	hx_text(f, r->group);
	fputs("</b> <span class=\"sub\">", f);
	hx_text(f, r->name);
	fputs("</span></figcaption>", f);
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\"><title>",
		w, h, w, h);
	hx_textf(f, "%s %s", r->group, r->name);
	fputs("</title>", f);
	axis(f, &sx, r->unit, 2, h - 20);
	y = 6;
	for (size_t d = 0; d < c->n; d++, y += rowh) {
		const struct rfig *x = r->f[d];
		double x0 = svg_map(&sx, 0), cy = y + BAR_H / 2, end;

		snprintf(lab, sizeof(lab), "%c %s", cmp_letter(d),
			 c->docs[d]->label);
		fprintf(f,
			"<text class=\"lab\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			lw - 8, cy + 4);
		/* Long labels are cut; the inputs list has them whole. */
		if (room(lab) + 8 > lw)
			snprintf(lab, sizeof(lab), "%c", cmp_letter(d));
		hx_text(f, lab);
		fputs("</text>", f);
		if (!x || x->status || !isfinite(x->value)) {
			fprintf(f,
				"<text class=\"status\" x=\"%.1f\" y=\"%.1f\">",
				x0 + 4, cy + 4);
			hx_text(f, x && x->status ? x->status :
						    "not in this input");
			fputs("</text>", f);
			continue;
		}
		end = svg_map(&sx, x->value);
		fprintf(f,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"2\" fill=\"%s\"/>",
			x0, y, fmax(end - x0, 1), BAR_H, svg_input_color(d));
		fprintf(f, "<text class=\"val\" x=\"%.1f\" y=\"%.1f\">",
			end + 6, cy + 4);
		hx_text(f, rfmt_unit(r->unit, x->value, buf, sizeof(buf)));
		if (d && *cmp_ratio_text(r, d, ratio, sizeof(ratio))) {
			fprintf(f, "<tspan class=\"v-%s\" dx=\"8\">",
				r->verdict[d] == CV_BETTER ? "better" :
				r->verdict[d] == CV_WORSE  ? "worse" :
							     "same");
			hx_text(f, ratio);
			if (r->verdict[d] != CV_SAME &&
			    r->verdict[d] != CV_NONE) {
				fputc(' ', f);
				hx_text(f, cmp_verdict_name(r->verdict[d]));
			}
			fputs("</tspan>", f);
		}
		fputs("</text>", f);
	}
	fputs("</svg></figure>\n", f);
}
