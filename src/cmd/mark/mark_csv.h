/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The columns a mark test contributes to a CSV line, shared by `mark`,
 * `matrix` and `lab --csv`, which put their own columns (settings, cell
 * status) before them. A line is one test in one direction; its figures
 * come from a mark result in memory (mark, matrix) or from mark's JSON
 * (the lab's guests send that), through the neutral struct mark_row, so
 * all three commands write the same columns in the same units.
 */
#ifndef IOLAB_CMD_MARK_MARK_CSV_H
#define IOLAB_CMD_MARK_MARK_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mark_figs.h"
#include "mark_suite.h"

struct csv;
struct jr_node;

/* One test in one direction. Figures are NAN where there are none. */
struct mark_row {
	char test[32]; /* "SEQ1M Q8T1" */
	bool random;
	uint64_t bs;
	unsigned int qd, threads;
	const char *dir; /* "read", "write", "mix" */
	bool started; /* false: no figures, runs/partial/... left empty */
	unsigned int runs_scored;
	double fig[MARK_NFIGS]; /* mark_figs[], in their units (ns) */
	double mix_read_pct; /* mix lines only */
	bool page_cache_reads, partial;
	char warnings[256]; /* the test's warning ids, space-separated */
};

/* A row with no figures for test @t in direction @d. */
void mark_row_init(struct mark_row *row, const struct mark_test *t,
		   enum mark_dir d);
/* Fill @row from cell @c (test @i, direction @d) of a suite run as @s;
 * @c may be NULL (or not started): then the row has no figures. */
void mark_row_from_cell(struct mark_row *row, const struct mark_spec *s,
			unsigned int i, enum mark_dir d,
			const struct mark_cell *c);

/*
 * Fill @row (initialised for its test and direction) from @dir, that
 * direction's object in mark's JSON ("tests"[i]."read" ...), as a lab
 * guest sends it; NULL or JSON null leaves the row without figures.
 */
void mark_row_from_json(struct mark_row *row, const struct jr_node *dir);

/* The test columns' names; @mix adds the mix tests' own columns. */
void mark_csv_head(struct csv *w, bool mix);
/* The test columns of @row (the line is not ended). */
void mark_csv_fields(struct csv *w, const struct mark_row *row, bool mix);

#endif
