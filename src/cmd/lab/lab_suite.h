/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The suite each lab guest runs on its test disk: `iolab mark`
 * (cmd/mark/mark_suite.h) with the lab's settings, and what the host needs to know
 * about it (validation, time estimate, the line passed to the guest).
 *
 * The lab's defaults differ from mark's: preset cdm6 (the second story's
 * table), 1 scored run of 2 s after mark's warm-up run, no pause between
 * tests (a guest has no SSD to let cool; the host's storage is shared by
 * every cell anyway), read then write.
 */
#ifndef IOLAB_CMD_LAB_LAB_SUITE_H
#define IOLAB_CMD_LAB_LAB_SUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../mark/mark_suite.h"

struct err;

struct check_profile;

struct lab_suite {
	struct mark_spec spec;
	/* --check: iolab check's profile instead of mark (lab_check.h),
	 * each step for check_runtime_ns. */
	const struct check_profile *check;
	uint64_t check_runtime_ns;
};

/* Defaults: preset cdm6; per test and direction runs of 250 ms until the
 * mean MB/s is known to +-5 %, 2 s at most (mark's precision procedure,
 * sized for guests: a TCG guest's cells must not take minutes each). */
void lab_suite_defaults(struct lab_suite *s);
/* --preset NAME (mark's presets). */
bool lab_suite_set_preset(struct lab_suite *s, const char *name,
			  struct err *err);
/* --tests "SEQ1M-Q8T1,RND4K-Q1T1". */
bool lab_suite_set_tests(struct lab_suite *s, const char *list,
			 struct err *err);
/* --check NAME: the profile instead of mark's tests, each step for
 * @runtime_ns (at least 1 s, as check). */
bool lab_suite_set_check(struct lab_suite *s, const char *name,
			 uint64_t runtime_ns, struct err *err);
/*
 * --runs N (CrystalDiskMark's fixed procedure, 0 = the precision one),
 * --time, --precision PCT and --max-time (0 = the default each); then
 * everything checked as mark checks it.
 */
bool lab_suite_finish(struct lab_suite *s, unsigned int runs, uint64_t time_ns,
		      double precision_pct, uint64_t max_ns, struct err *err);
/* The mark spec the guests run. */
const struct mark_spec *lab_suite_spec(const struct lab_suite *s);

/* The preset's name, or NULL for a list of tests. */
const char *lab_suite_preset(const struct lab_suite *s);
unsigned int lab_suite_ntests(const struct lab_suite *s);
/* "SEQ128K Q32T1", as mark names it (and as its JSON does). */
const char *lab_suite_test_name(const struct lab_suite *s, unsigned int i,
				char *buf, size_t len);
unsigned int lab_suite_runs(const struct lab_suite *s);
uint64_t lab_suite_time_ns(const struct lab_suite *s);
/* Time the suite takes, warm-up runs included, without preparation. */
uint64_t lab_suite_estimate_ns(const struct lab_suite *s);
/* The longest it may take: every test at its --max-time. */
uint64_t lab_suite_estimate_max_ns(const struct lab_suite *s);
/* One measured step (a run, warm-up or scored): the longest silence. */
uint64_t lab_suite_step_ns(const struct lab_suite *s);
/* "cdm6 (SEQ128K Q32T1, ...), read and write, 1 warm-up + 1 run of 2 s". */
const char *lab_suite_title(const struct lab_suite *s, char *buf, size_t len);

/* The "suite=" line of guest.conf; caller frees. */
char *lab_suite_conf(const struct lab_suite *s);
/* Parse the value of that line back. */
bool lab_suite_from_conf(struct lab_suite *s, const char *value,
			 struct err *err);

/*
 * In the guest: run the suite on block device @dev and write mark's JSON
 * document to @json_path. Its live line goes to stderr (the guest init
 * relays it to the host). Returns the exit code: 0, or EXIT_IO when the
 * suite stopped early, or another code when it could not start (then
 * @err says why and nothing may have been written).
 */
int lab_suite_run(const struct lab_suite *s, const char *dev,
		  const char *json_path, struct err *err);

#endif
