/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The figures of one mark test in one direction, described once. The text
 * table (mark_text.c), the CSV columns mark, matrix and lab share
 * (mark_csv.c) and the compare/report view (mark_adapt.c) are generated
 * from mark_figs[]: to add a figure, add a row there. jcell() (mark_json.c)
 * writes a row's value it lacks at the row's place in the JSON, inside an
 * object it writes ("mbps", "lat_ns" ...).
 */
#ifndef IOLAB_CMD_MARK_MARK_FIGS_H
#define IOLAB_CMD_MARK_MARK_FIGS_H

#include <stdbool.h>

#include "mark_suite.h"
#include "../../report/rdoc.h"

struct jr_node;

/* struct mark_fig.scope */
#define MARK_FIG_SPREAD 1u /* a spread over runs: none of a single run */
#define MARK_FIG_MIX 2u /* the mix tests' own (each side's MB/s) */
#define MARK_FIG_MARKS 4u /* the text cell carries the marks (c z w, *) */

struct mark_fig {
	const char *key; /* compare key after "RND4K Q1T1/read/" */
	const char *name; /* compare figure's name; NULL: not compared */
	const char *head; /* text table column, or NULL */
	const char *table; /* report table column, or NULL */
	const char *csv; /* CSV column, or NULL */
	enum runit unit; /* RU_NS is printed scaled */
	enum rbetter better;
	unsigned int rflags; /* RF_CHART ... of the compare figure */
	unsigned int scope; /* MARK_FIG_* */
	int width, prec; /* text table: printf width and decimals */
	int digits; /* decimals the CSV keeps */
	double csv_div; /* the CSV's unit: latency in us, from ns */
	/* In the document: adapt_stat(dir, json, stat), "mbps", "max". */
	const char *json, *stat;
	/* In memory: the value, NAN when there is none. */
	double (*get)(const struct mark_cell *c);
};

#define MARK_NFIGS 20
extern const struct mark_fig mark_figs[MARK_NFIGS];

/* Value of figure @f of cell @c, a test run in direction @d. */
double mark_fig_value(const struct mark_fig *f, const struct mark_cell *c,
		      enum mark_dir d);
/* Value of figure @f in a direction's object of mark's JSON. */
double mark_fig_json(const struct mark_fig *f, const struct jr_node *dir);

#endif
