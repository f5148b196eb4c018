// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scales, ticks and colours for the report's SVG charts; see html_impl.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "html_impl.h"
#include "../../util/parse.h"

double svg_nines(double pct)
{
	if (pct >= 100)
		return 6;
	return -log10(1 - pct / 100);
}

/* The nice step (1, 2, 5 x 10^k) for about @n intervals over @span. */
static double nice_step(double span, int n)
{
	double raw = span / n, mag = pow(10, floor(log10(raw))), r = raw / mag;

	return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * mag;
}

void svg_scale_fit(struct svg_scale *s, enum rscale kind, double lo, double hi,
		   bool zero, double r0, double r1)
{
	s->kind = kind;
	s->r0 = r0;
	s->r1 = r1;
	if (!isfinite(lo) || !isfinite(hi)) {
		lo = 0;
		hi = 1;
	}
	switch (kind) {
	case RSC_LOG:
		if (lo <= 0)
			lo = hi > 0 ? hi / 10 : 1;
		if (hi <= 0)
			hi = 1;
		s->d0 = pow(10, floor(log10(lo)));
		s->d1 = pow(10, ceil(log10(hi)));
		if (s->d1 <= s->d0)
			s->d1 = s->d0 * 10;
		break;
	case RSC_NINES:
		/* From p0 to the last nine drawn, at least p99. */
		s->d0 = 0;
		s->d1 = ceil(svg_nines(hi) - 1e-9);
		if (s->d1 < 2)
			s->d1 = 2;
		break;
	case RSC_LIN: {
		double step;

		if (zero && lo > 0)
			lo = 0;
		if (hi <= lo)
			hi = lo + (lo ? fabs(lo) : 1);
		step = nice_step(hi - lo, 5);
		s->d0 = floor(lo / step) * step;
		s->d1 = ceil(hi / step) * step;
		break;
	}
	}
}

double svg_map(const struct svg_scale *s, double v)
{
	double t;

	switch (s->kind) {
	case RSC_LOG:
		if (v <= 0)
			v = s->d0;
		t = (log10(v) - log10(s->d0)) / (log10(s->d1) - log10(s->d0));
		break;
	case RSC_NINES:
		t = (svg_nines(v) - s->d0) / (s->d1 - s->d0);
		break;
	default:
		t = (v - s->d0) / (s->d1 - s->d0);
		break;
	}
	/* Absurd input must not put "nan" into an SVG attribute. */
	if (!isfinite(t))
		t = 0;
	return s->r0 + t * (s->r1 - s->r0);
}

size_t svg_ticks(const struct svg_scale *s, double *out, size_t max)
{
	size_t n = 0;

	if (s->kind == RSC_NINES) {
		static const double pcts[] = { 0,    50,    90,	    99,
					       99.9, 99.99, 99.999, 99.9999 };

		for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
			if (svg_nines(pcts[i]) <= s->d1 + 1e-9 && n < max)
				out[n++] = pcts[i];
		return n;
	}
	if (s->kind == RSC_LOG) {
		int decades = (int)lround(log10(s->d1 / s->d0));
		static const double mult[] = { 1, 2, 5 };

		for (double p = s->d0; p <= s->d1 * 1.0001 && n < max; p *= 10)
			for (int m = 0; m < 3; m++) {
				double v = p * mult[m];

				/* 2 and 5 only when there are few decades. */
				if ((m && decades > 2) || v > s->d1 * 1.0001)
					continue;
				if (n < max)
					out[n++] = v;
			}
		return n;
	}
	{
		double step = nice_step(s->d1 - s->d0, 5);

		for (double v = s->d0; v <= s->d1 + step * 1e-6 && n < max;
		     v += step)
			out[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	}
	return n;
}

/* "20k", "1.5M": large counts in a little room. */
static const char *compact(double v, char *buf, size_t len)
{
	double a = fabs(v);

	if (a >= 1e6)
		snprintf(buf, len, "%gM", round(v / 1e5) / 10);
	else if (a >= 1e4)
		snprintf(buf, len, "%gk", round(v / 1e2) / 10);
	else
		snprintf(buf, len, "%g", round(v * 1000) / 1000);
	return buf;
}

const char *svg_tick_label(enum runit unit, enum rscale kind, double v,
			   char *buf, size_t len)
{
	if (kind == RSC_NINES) {
		snprintf(buf, len, "p%g", v);
		return buf;
	}
	switch (unit) {
	case RU_MS:
		snprintf(buf, len, "%g ms", round(v * 1000) / 1000);
		return buf;
	case RU_NS:
		if (v < 1e3)
			snprintf(buf, len, "%g ns", v);
		else if (v < 1e6)
			snprintf(buf, len, "%g us", round(v / 1e1) / 1e2);
		else if (v < 1e9)
			snprintf(buf, len, "%g ms", round(v / 1e4) / 1e2);
		else
			snprintf(buf, len, "%g s", round(v / 1e7) / 1e2);
		return buf;
	default:
		return compact(v, buf, len);
	}
}

const char *svg_series_color(size_t i)
{
	/* Okabe-Ito, without the yellow that vanishes on white. */
	static const char *const c[] = { "#0072b2", "#e69f00", "#009e73",
					 "#cc79a7", "#d55e00", "#56b4e9",
					 "#555555" };

	return c[i % (sizeof(c) / sizeof(c[0]))];
}

const char *svg_dir_color(const char *dir)
{
	if (dir && (!strcmp(dir, "Write") || !strcmp(dir, "write")))
		return "#e69f00";
	if (dir && (!strcmp(dir, "Mix") || !strcmp(dir, "mix")))
		return "#cc79a7";
	return "#0072b2";
}

const char *svg_input_color(size_t i)
{
	/* The baseline in grey, the others in the series colours. */
	return i ? svg_series_color(i - 1) : "#9aa0a8";
}

struct rgb {
	double r, g, b;
};

static void mix(const struct rgb *stops, size_t n, double t, char bg[8],
		struct rgb *out)
{
	double x;
	size_t i;

	if (!isfinite(t) || t < 0)
		t = 0;
	if (t > 1)
		t = 1;
	x = t * (double)(n - 1);
	i = (size_t)floor(x);
	if (i >= n - 1)
		i = n - 2;
	x -= (double)i;
	out->r = stops[i].r + (stops[i + 1].r - stops[i].r) * x;
	out->g = stops[i].g + (stops[i + 1].g - stops[i].g) * x;
	out->b = stops[i].b + (stops[i + 1].b - stops[i].b) * x;
	snprintf(bg, 8, "#%02x%02x%02x", (int)lround(out->r),
		 (int)lround(out->g), (int)lround(out->b));
}

static const char *text_on(const struct rgb *c)
{
	/* Relative luminance (sRGB, roughly): dark text on light cells. */
	double l = 0.2126 * c->r + 0.7152 * c->g + 0.0722 * c->b;

	return l > 140 ? "#111111" : "#ffffff";
}

void svg_heat_color(double t, char bg[8], const char **fg)
{
	/* ColorBrewer YlGnBu: pale for slow, deep blue for fast. */
	static const struct rgb stops[] = {
		{ 255, 255, 217 }, { 199, 233, 180 }, { 127, 205, 187 },
		{ 65, 182, 196 },  { 34, 94, 168 },   { 8, 29, 88 },
	};
	struct rgb c;

	mix(stops, sizeof(stops) / sizeof(stops[0]), t, bg, &c);
	*fg = text_on(&c);
}

void svg_ratio_color(double ratio, bool higher_better, char bg[8],
		     const char **fg)
{
	/* Red for worse, green for better (ColorBrewer RdYlGn's ends). */
	static const struct rgb stops[] = {
		{ 215, 48, 39 },  { 252, 141, 89 }, { 247, 247, 247 },
		{ 145, 207, 96 }, { 26, 152, 80 },
	};
	struct rgb c;
	double t;

	if (!isfinite(ratio) || ratio <= 0) {
		snprintf(bg, 8, "#f2f2f2");
		*fg = "#111111";
		return;
	}
	/* log2 ratio in [-3, 3] (1/8x .. 8x) onto [0, 1], 1x in the middle. */
	t = log2(ratio) / 6 + 0.5;
	if (!higher_better)
		t = 1 - t;
	mix(stops, sizeof(stops) / sizeof(stops[0]), t, bg, &c);
	*fg = text_on(&c);
}

double svg_text_width(const char *s, double px)
{
	double w = 0;

	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if ((ch & 0xc0) == 0x80)
			continue;
		/* Narrow, wide and average glyphs of a sans-serif font. */
		w += strchr("il.,:;|!' ", ch) ? 0.3 :
		     strchr("mwMW@", ch)      ? 0.85 :
		     (ch >= 'A' && ch <= 'Z') ? 0.68 :
						0.56;
	}
	return w * px;
}
