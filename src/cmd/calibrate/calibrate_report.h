/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `iolab calibrate` reports: Oracle's figures, the curves behind them,
 * the knee and a reading; rendered as text or as JSON.
 */
#ifndef IOLAB_CMD_CALIBRATE_CALIBRATE_REPORT_H
#define IOLAB_CMD_CALIBRATE_CALIBRATE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "calibrate_suite.h"

struct err;
struct target;

struct calibrate_report {
	int argc;
	char *const *argv;
	const struct target *target;
	const struct cal_opts *opts;
	const struct cal_result *res;
	const struct warnings *warnings; /* target's and result's, merged */
};

void calibrate_text_print(const struct calibrate_report *r, FILE *f);
bool calibrate_json_write(const struct calibrate_report *r, FILE *f,
			  struct err *err);
/* A line per point of the curves, the headline on each; see
 * calibrate_csv.c. */
bool calibrate_csv_write(const struct calibrate_report *r, FILE *f,
			 struct err *err);

#endif
