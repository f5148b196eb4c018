/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The pieces of the HTML report, shared by the html_*.c files only:
 * escaping, SVG scales and colours, and the renderers of each chart kind.
 * The page is XHTML-compatible (every element closed, attributes quoted,
 * only XML's five entities) so that XML tools can check it.
 */
#ifndef IOLAB_REPORT_HTML_HTML_IMPL_H
#define IOLAB_REPORT_HTML_HTML_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../compare.h"
#include "../rdoc.h"

/* Text and attribute values, escaped (&, <, >, ", '). NULL prints nothing. */
void hx_text(FILE *f, const char *s);
/* printf, then the escaped result. */
void hx_textf(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Scales map data to pixels; ticks are "nice" (1, 2, 5 x 10^k). */
struct svg_scale {
	enum rscale kind;
	double d0, d1; /* data domain (for RSC_NINES: in nines) */
	double r0, r1; /* pixel range */
};
/* A domain covering [lo, hi] with nice ends; lin starts at 0 if @zero. */
void svg_scale_fit(struct svg_scale *s, enum rscale kind, double lo, double hi,
		   bool zero, double r0, double r1);
double svg_map(const struct svg_scale *s, double v);
/* Tick values within the domain; returns how many (at most @max). */
size_t svg_ticks(const struct svg_scale *s, double *out, size_t max);
/* A tick label in @unit: "100 us", "20k", "99.9". */
const char *svg_tick_label(enum runit unit, enum rscale kind, double v,
			   char *buf, size_t len);
/* Percent -> nines (p99 -> 2) and back. */
double svg_nines(double pct);

/* Colours. */
const char *svg_series_color(size_t i); /* distinct, colour-blind safe */
const char *svg_dir_color(const char *dir); /* Read, Write, Mix */
const char *svg_input_color(size_t i); /* A is a neutral grey */
/* Sequential heat colour for t in [0,1] and a readable text colour. */
void svg_heat_color(double t, char bg[8], const char **fg);
/* Diverging colour for a ratio: red below 1, white at 1, green above. */
void svg_ratio_color(double ratio, bool higher_better, char bg[8],
		     const char **fg);
/* Approximate width in pixels of @s at @px font size (for layout). */
double svg_text_width(const char *s, double px);

/* Renderers. */
void html_bars(FILE *f, const struct rbars *b);
void html_line(FILE *f, const struct rline *l);
/* @d: the document holding @h, whose maps may share its colour scale. */
void html_heat(FILE *f, const struct rdoc *d, const struct rheat *h,
	       const char *id);
void html_table(FILE *f, const struct rtable *t);
/* Compare view pieces. */
void html_cmp_bars(FILE *f, const struct cmp *c, const struct cmp_row *r);
void html_cmp_heat(FILE *f, const struct cmp *c, size_t doc,
		   const struct rheat *a, const struct rheat *b);
void html_cmp_lines(FILE *f, const struct cmp *c, const char *title);

void html_doc_section(FILE *f, const struct rdoc *d, const char *id,
		      size_t index);
void html_cmp_section(FILE *f, const struct cmp *c, const char *id);
/* The findings list of a document (also used by the compare view). */
void html_findings(FILE *f, const struct rfinding *fs, size_t n);
/* Warnings as a list; @prefix (or NULL) before each. */
void html_warnings(FILE *f, const struct warnings *w, const char *prefix);

#endif
