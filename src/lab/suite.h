/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The suite each lab guest runs on its test disk, and what the host needs
 * to know about it (validation, time estimate, the configuration line
 * passed to the guest).
 *
 * Until `iolab mark` lands this is a stand-in built on the runner: the
 * CrystalDiskMark tests (SEQ1M Q8T1 ...) of a preset or a list, read then
 * write, N runs each, reported in mark's JSON shape ("tests":[{"name",
 * "bs_bytes","qd","threads","read":{"mbps":{max,mean,min,stddev},
 * "iops":{...},"lat_ns":{"mean","p99"},"runs":[...]},"write":{...}}]).
 */
#ifndef IOLAB_LAB_SUITE_H
#define IOLAB_LAB_SUITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../report/result.h"

struct err;

#define SUITE_MAX_TESTS 16

struct suite_test {
	char name[32]; /* "SEQ1M Q8T1" */
	bool random;
	uint64_t bs;
	unsigned int qd, threads;
};

struct lab_suite {
	char preset[32]; /* a preset name, or "" when tests[] was given */
	unsigned int ntests;
	struct suite_test tests[SUITE_MAX_TESTS];
	unsigned int runs; /* per test and direction */
	uint64_t time_ns; /* per run */
};

/* Defaults: preset cdm6, 1 run of 2 s per test and direction. */
void lab_suite_defaults(struct lab_suite *s);
/* --preset NAME. */
bool lab_suite_set_preset(struct lab_suite *s, const char *name,
			  struct err *err);
/* --tests "SEQ1M-Q8T1,RND4K-Q1T1". */
bool lab_suite_set_tests(struct lab_suite *s, const char *list,
			 struct err *err);
/* Measured time of the suite, without preparation. */
uint64_t lab_suite_estimate_ns(const struct lab_suite *s);
/* Tests x directions: the steps progress counts. */
unsigned int lab_suite_steps(const struct lab_suite *s);

/* One line of guest.conf ("suite=...\n"); caller frees. */
char *lab_suite_conf(const struct lab_suite *s);
/* Parse what lab_suite_conf() wrote (the value after "suite="). */
bool lab_suite_from_conf(struct lab_suite *s, const char *value,
			 struct err *err);

/* The guest side: results of one test in one direction. */
struct suite_dir {
	unsigned int nruns;
	struct run_result *runs;
};

struct suite_result {
	const struct lab_suite *spec;
	const char *device;
	struct suite_dir dir[SUITE_MAX_TESTS][2]; /* [test][read, write] */
	bool partial;
	char error[256];
};

/*
 * In the guest: run the suite on block device @dev, reporting each step
 * to @progress (may be NULL). Returns true if every run ran (else
 * r->partial with r->error set); free with suite_result_free().
 */
bool lab_suite_run(const struct lab_suite *s, const char *dev,
		   void (*progress)(unsigned int done, unsigned int total,
				    const char *label, void *ctx),
		   void *ctx, struct suite_result *r);
void suite_result_free(struct suite_result *r);
/* mark-shaped JSON of a result (report/lab_suite_json.c). */
bool suite_json_write(const struct suite_result *r, FILE *f, struct err *err);

#endif
