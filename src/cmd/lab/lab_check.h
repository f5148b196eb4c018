/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `iolab lab --check PROFILE`: iolab check's profile run inside each
 * guest on its test disk, instead of the mark suite. The guest judges the
 * profile as check does; the host then judges the cell's safety: a cell
 * whose flushes QEMU drops (cache=unsafe), or whose image lives in host
 * RAM, passes only because nothing reached storage, so it is never a
 * pass. The tables and JSON follow `matrix --check`.
 */
#ifndef IOLAB_CMD_LAB_LAB_CHECK_H
#define IOLAB_CMD_LAB_LAB_CHECK_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "../check/check_profile.h"
#include "../check/check_verdict.h"

struct err;
struct lab_cell;
struct lab_report;
struct target;
struct warnings;

/* One criterion as the guest judged it. */
struct lab_check_fig {
	enum check_verdict verdict;
	double value; /* NAN when none */
	char reason[200];
};

/* A cell's check result, read from the guest's check JSON. */
struct lab_check_cell {
	const struct check_profile *profile; /* NULL: not a check result */
	bool judged; /* every step ran and was judged */
	enum check_verdict guest_verdict; /* the guest's own verdict */
	struct lab_check_fig fig[CHECK_MAX_CRIT];
};

/*
 * Guest side: run @p on block device @dev (each step for @runtime_ns) and
 * write check's JSON document to @json_path. Returns 0 when every step
 * ran (whatever the verdict), EXIT_IO when a step stopped early, another
 * code with @err set when it could not start.
 */
int lab_check_guest_run(const struct check_profile *p, uint64_t runtime_ns,
			const char *dev, const char *json_path,
			struct err *err);

/*
 * Host side: read the guest's check document @doc (untrusted: every field
 * checked, text stripped of control characters) into @c->check. False
 * with @err when it is not check's shape or names no known profile.
 */
bool lab_check_parse(struct lab_cell *c, json_t *doc, struct err *err);

/*
 * The cell's verdict with its safety: the guest's, except that a pass in
 * a cell whose flushes reach no storage is inconclusive. -1 when the cell
 * has none (refused, failed). @why, when not NULL, gets the reason of a
 * demotion ("" when none).
 */
int lab_check_verdict(const struct lab_report *r, const struct lab_cell *c,
		      const char **why);

/*
 * After the lab: the lab's page-cache warning is about reads, so it goes
 * when the profile reads nothing (etcd's WAL appends): it would blame
 * figures the table does not have.
 */
void lab_check_settle_warnings(struct lab_report *r);

/* The closing lines: which cells pass and keep data, fail, are
 * inconclusive. Returns how many of @max lines it wrote. */
int lab_check_recommend(const struct lab_report *r, char lines[][512], int max);

void lab_check_text(const struct lab_report *r, FILE *f);
/* The "check" member of a cell in --json, null when it has none. */
json_t *lab_check_jcell(const struct lab_report *r, const struct lab_cell *c);

/* --json's additions: "check" and "check_time_s" in @opts, or the
 * "recommendation": {"text": [closing lines]} in @doc. */
void lab_check_jdoc(const struct lab_report *r, json_t *opts, json_t *doc);

#endif
