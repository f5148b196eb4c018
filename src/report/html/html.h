/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `iolab report`: one self-contained HTML page (inline CSS and SVG, no
 * scripts, no fonts, no network) from any number of documents: a section
 * per document with its charts, and a compare view for every command
 * given more than once.
 */
#ifndef IOLAB_REPORT_HTML_HTML_H
#define IOLAB_REPORT_HTML_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

struct err;
struct rdoc;

struct html_opts {
	const char *title; /* page title, or NULL for one made up */
	double threshold; /* compare's noise threshold, a fraction */
	time_t now; /* "generated at" */
};

bool html_write(struct rdoc *const *docs, size_t n, const struct html_opts *o,
		FILE *f, struct err *err);

#endif
