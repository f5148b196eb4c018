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
struct job_spec;
struct target;
struct warnings;

/* One of doctor's findings that bears on the disk under the target. */
struct check_hint {
	char id[40]; /* doctor's stable id: "emulated-ide" */
	char disk[64]; /* "" for the whole system */
	const char *severity; /* "info", "warning", "critical" */
	char *message, *fix;
};

struct check_result {
	const struct check_profile *profile;
	uint64_t runtime_ns; /* per step */
	/* --engine, --cache: each step as a QEMU disk would issue it */
	bool qemu_engine, qemu_cache;
	enum engine_kind engine;
	enum cache_mode cache;
	int nrun; /* steps run; fewer than the profile's when stopped */
	struct run_result run[CHECK_MAX_STEPS];
	struct check_figure fig[CHECK_MAX_CRIT]; /* judged when all ran */
	bool judged;
	enum check_verdict verdict;
	int stop_signal; /* a step was stopped by it */
	bool io_error;
	struct check_hint *hints; /* doctor's, when the profile failed */
	size_t nhints;
};

struct check_report {
	int argc;
	char *const *argv;
	const struct target *target;
	const struct check_result *res;
	const struct warnings *warnings;
};

/* The job of step @s as @r issues it (as a QEMU disk with --engine or
 * --cache). */
void check_job_of(const struct check_step *s, const struct check_result *r,
		  struct job_spec *j);
/* QEMU refuses the disk some step of @r's profile needs (native with a
 * buffered cache): true with the reason in @err. */
bool check_refused(const struct check_result *r, struct err *err);
/*
 * Run @r's profile on @t (r->profile, runtime_ns and the QEMU settings
 * set) and judge it when every step ran; the runs' warnings go to @w.
 * False with @err when a step could not start (@r freed).
 */
bool check_run(struct check_result *r, const struct target *t, bool progress,
	       const char *label_prefix, struct warnings *w, struct err *err);
/* Judge every criterion of a complete result; sets fig, verdict. */
void check_judge_all(struct check_result *r, const struct target *t);
void check_result_free(struct check_result *r);
/* Doctor's findings for the disk under @t (none on RAM), into r->hints. */
void check_hints_collect(struct check_result *r, const struct target *t);
void check_hints_free(struct check_result *r);

/* "etcd  etcd write-ahead log" and each step and criterion, for --list. */
/*
 * A profile judged in many cells (matrix --check, lab --check): @list
 * writes into @buf the cells of @r with verdict @v (@keeps 1: only those
 * that keep data on host power loss, -1 any) and returns their count.
 * The closing lines into @lines (4 at most); their count.
 */
typedef int (*check_cells_fn)(const void *r, int v, int keeps, char *buf,
			      size_t len);
int check_cells_recommend(const char *name, const char *no_pass_hint,
			  check_cells_fn list, const void *r, char lines[][512],
			  int max);

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
