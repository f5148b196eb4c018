/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `iolab matrix` reports: mark's tests under every engine x cache
 * cell, the refused cells and a recommendation; as tables, JSON or CSV.
 */
#ifndef IOLAB_CMD_MATRIX_MATRIX_REPORT_H
#define IOLAB_CMD_MATRIX_MATRIX_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "matrix_suite.h"

struct err;
struct target;
struct warnings;

struct matrix_report {
	int argc;
	char *const *argv;
	const struct target *target;
	const struct matrix_result *res;
	const struct warnings *warnings; /* the target's (preparation) */
};

void matrix_text_print(const struct matrix_report *r, FILE *f);
bool matrix_json_write(const struct matrix_report *r, FILE *f, struct err *err);
/* A line per cell, test and direction; see matrix_csv.c. */
bool matrix_csv_write(const struct matrix_report *r, FILE *f, struct err *err);

/*
 * The closing recommendation of a matrix in at most MATRIX_REC_LINES
 * sentences (cells set aside, the safe choice with its margin and noise,
 * cached writes, the fastest overall), each into its own buffer; returns
 * how many were written.
 */
#define MATRIX_REC_LINES 6
int matrix_recommend(const struct matrix_result *r, char lines[][512], int max);

/* --check (matrix_check.c): the table of verdicts per cell, the closing
 * sentences, and a cell's "check" object in JSON. */
void matrix_check_text(const struct matrix_report *r, FILE *f);
int matrix_check_recommend(const struct matrix_result *r, char lines[][512],
			   int max);
json_t *matrix_check_jcell(const struct matrix_cell *c);

#endif
