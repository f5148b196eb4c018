/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `iolab check`'s profiles, as data: for each database, the I/O it issues
 * (steps, each one job), and the criteria its project publishes, each with
 * its threshold and where it comes from. A criterion with no threshold
 * (CHECK_INFO) reports the figure that matters and judges nothing.
 */
#ifndef IOLAB_CMD_CHECK_CHECK_PROFILE_H
#define IOLAB_CMD_CHECK_CHECK_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/job.h"

#define CHECK_MAX_STEPS 3
#define CHECK_MAX_CRIT 4

/* One job of a profile: the I/O a database issues, as iolab runs it. */
struct check_step {
	const char *id; /* "wal": stable, in JSON and CSV */
	const char *what; /* one line for --list and the table */
	enum rw_mode rw;
	uint64_t bs;
	unsigned int qd, threads;
	enum engine_kind engine;
	enum cache_mode cache; /* how the database opens its file */
	uint64_t flush_every; /* fdatasync after every N writes, 0 never */
	/* The first bytes of the region it uses, 0 all: a WAL page that
	 * each small commit writes again (pg_test_fsync's offset 0). */
	uint64_t span_bytes;
};

/* The statistic a criterion reads from its step. */
enum check_stat {
	CHECK_PCT, /* a percentile of a direction's latency */
	CHECK_MEAN, /* mean latency */
	CHECK_MAX, /* the slowest one */
	CHECK_RATE, /* operations per second of the direction */
};

enum check_cmp {
	CHECK_AT_MOST, /* the figure must not exceed the limit (latency) */
	CHECK_AT_LEAST, /* the figure must reach the limit (a rate) */
	CHECK_INFO, /* no published threshold: the figure only */
};

struct check_criterion {
	const char *id; /* "wal-fdatasync-p99" */
	int step; /* index into the profile's steps */
	int dir; /* DIR_READ, DIR_WRITE or DIR_FLUSH (core/result.h) */
	enum check_stat stat;
	double pct; /* CHECK_PCT: 99 */
	enum check_cmp cmp;
	double limit; /* ns for latency, per second for a rate */
	const char *what; /* "99th percentile of fdatasync after a WAL write" */
	const char *source; /* document, section, version */
	const char *fix; /* what to change when it fails */
};

struct check_profile {
	const char *name; /* "etcd": the PROFILE operand */
	const char *alias; /* another accepted name, or NULL */
	const char *title; /* "etcd 3.x write-ahead log" */
	int nsteps, ncrit;
	struct check_step steps[CHECK_MAX_STEPS];
	struct check_criterion crit[CHECK_MAX_CRIT];
};

extern const struct check_profile check_profiles[];
extern const int check_nprofiles;

/* The profile called @name (or its alias), or NULL. */
const struct check_profile *check_profile_find(const char *name);
/* "write 2300 B + fdatasync, QD1, sync engine, cache=writeback". */
const char *check_step_title(const struct check_step *s, char *buf, size_t len);

#endif
