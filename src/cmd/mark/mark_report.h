/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `iolab mark` reports, rendered as tables, JSON or CSV, and the pieces
 * of its text that matrix and lab reuse.
 * None of this depends on the CLI: the lab renders a mark result from its
 * guest with mark_json_write() (argc 0 and argv NULL are fine), or embeds
 * it in its own document with jmark_tests() (mark_json.h).
 */
#ifndef IOLAB_CMD_MARK_MARK_REPORT_H
#define IOLAB_CMD_MARK_MARK_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "mark_suite.h"

struct err;
struct target;

struct mark_report {
	int argc;
	char *const *argv;
	const struct target *target;
	const struct mark_result *res;
	const struct warnings *warnings; /* the target's (preparation) */
};

void mark_text_print(const struct mark_report *r, FILE *f);
bool mark_json_write(const struct mark_report *r, FILE *f, struct err *err);
/* A line per test and direction; see mark_csv.c. */
bool mark_csv_write(const struct mark_report *r, FILE *f, struct err *err);

/* "CrystalDiskMark 6 (--preset cdm6)" or "tests SEQ1M Q8T1, ...". */
const char *mark_suite_title(const struct mark_spec *s, char *buf, size_t len);
/* "1 warm-up + 5 runs of 5 s per test, 5 s between tests". */
const char *mark_procedure_text(const struct mark_spec *s, char *buf,
				size_t len);

/* Wall time for a header: "7.3 s", "4 min 35 s". */
const char *mark_fmt_took(double s, char *buf, size_t len);

#endif
