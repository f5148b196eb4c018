/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `iolab run` reports: the target, the result, the warnings and the
 * command line; rendered as a table or as JSON.
 */
#ifndef IOLAB_CMD_RUN_RUN_REPORT_H
#define IOLAB_CMD_RUN_RUN_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "../../core/result.h"

struct err;
struct target;

struct run_report {
	int argc;
	char *const *argv;
	const struct target *target;
	const struct run_result *res;
	const struct warnings *warnings; /* target's and result's, merged */
};

void run_text_print(const struct run_report *r, FILE *f);
bool run_json_write(const struct run_report *r, FILE *f, struct err *err);
/* One CSV line per direction; see run_csv.c. */
bool run_csv_write(const struct run_report *r, FILE *f, struct err *err);

/* Shared by the text renderers: "randread 4 KiB QD1 T1". */
const char *text_job_title(const struct job_spec *j, char *buf, size_t len);
/* Print warnings as "  ! message" lines. */
void text_warnings(const struct warnings *w, FILE *f);

#endif
