/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `iolab check` measured and judged: the profile, each step's run,
 * each criterion's figure and verdict, and the profile's verdict; with
 * its renderers (table, JSON, CSV).
 */
#ifndef IOLAB_CMD_CHECK_CHECK_REPORT_H
#define IOLAB_CMD_CHECK_CHECK_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "check_profile.h"
#include "check_verdict.h"
#include "../../core/result.h"

struct err;
struct target;

struct check_result {
	const struct check_profile *profile;
	uint64_t runtime_ns; /* per step */
	int nrun; /* steps run; fewer than the profile's when stopped */
	struct run_result run[CHECK_MAX_STEPS];
	struct check_figure fig[CHECK_MAX_CRIT]; /* judged when all ran */
	bool judged;
	enum check_verdict verdict;
	int stop_signal; /* a step was stopped by it */
	bool io_error;
};

struct check_report {
	int argc;
	char *const *argv;
	const struct target *target;
	const struct check_result *res;
	const struct warnings *warnings;
};

/* Judge every criterion of a complete result; sets fig, verdict. */
void check_judge_all(struct check_result *r, const struct target *t);
void check_result_free(struct check_result *r);

/* "etcd  etcd write-ahead log" and each step and criterion, for --list. */
void check_list_print(FILE *f);
void check_text_print(const struct check_report *r, FILE *f);
bool check_json_write(const struct check_report *r, FILE *f, struct err *err);
bool check_csv_write(const struct check_report *r, FILE *f, struct err *err);

/* "≤ 10 ms", ">= 50/s", "-" for a criterion with no threshold. */
const char *check_limit_text(const struct check_criterion *c, char *buf,
			     size_t len);
/* A figure in the criterion's unit: "2.31 ms", "451/s", "-" if none. */
const char *check_value_text(const struct check_criterion *c, double v,
			     char *buf, size_t len);

#endif
