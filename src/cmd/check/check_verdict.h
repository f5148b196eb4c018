/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The verdict on one criterion from what a step measured: pass or fail
 * only when the data bound the figure on one side of the threshold;
 * inconclusive when too few samples bound it, when its uncertainty
 * straddles the threshold, or when a cache answered what should have
 * reached the disk. Pure: no I/O, no printing, so unit tests feed it
 * synthetic histograms.
 */
#ifndef IOLAB_CMD_CHECK_CHECK_VERDICT_H
#define IOLAB_CMD_CHECK_CHECK_VERDICT_H

#include <stdbool.h>
#include <stdint.h>

#include "check_profile.h"
#include "../../core/hist.h"

enum check_verdict {
	CHECK_PASS,
	CHECK_FAIL,
	CHECK_INCONCLUSIVE,
	CHECK_NO_THRESHOLD, /* a figure the project sets no limit for */
	CHECK_VERDICTS
};

extern const char *const check_verdict_names[]; /* "pass", "fail", ... */

/* What a criterion is judged on: one direction of one step's result. */
struct check_input {
	const struct hist *lat; /* that direction's latency */
	uint64_t ios; /* its operations */
	double elapsed_s; /* the measured time */
	const uint32_t *per_s; /* its operations in each whole second */
	int nper_s;
	/* Spread of one operation's cycle (stddev / mean of its latency,
	 * or of its flush's where each is followed by one): bounds a rate
	 * measured over fewer than CHECK_MIN_SECONDS. */
	double cycle_cv;
	/* Set by the caller when the target cannot keep data: a RAM-backed
	 * file (tmpfs), so no figure says anything about a disk. */
	bool ram_backed;
	/* Flushes were dropped (cache=unsafe) or faster than any device
	 * round trip: a cache acknowledged them. */
	bool flush_faked;
};

struct check_figure {
	enum check_verdict verdict;
	double value; /* ns for latency, per second for a rate; NAN if none */
	double lo, hi; /* 95 % bounds of value; INFINITY where unbounded */
	double margin; /* (limit - value) / limit, sign: + passes */
	uint64_t samples;
	char reason[200]; /* why inconclusive, or how it was bounded */
};

/* Fewest samples below which a mean or a maximum is not judged. */
#define CHECK_MIN_SAMPLES 30
/* Fewest whole seconds whose counts bound a rate on their own. */
#define CHECK_MIN_SECONDS 10

/*
 * Ranks (1-based) of the order statistics that bound the @pct percentile
 * of @n samples with 95 % confidence (normal approximation of the
 * binomial). *hi > n when @n samples cannot bound it from above.
 */
void check_pct_ranks(uint64_t n, double pct, uint64_t *lo, uint64_t *hi);
/* Fewest samples whose upper bound of @pct is a sample. */
uint64_t check_pct_min_samples(double pct);

void check_judge(const struct check_criterion *c, const struct check_input *in,
		 struct check_figure *f);

/*
 * The profile's verdict: fail if any criterion fails, else inconclusive
 * if any is, else pass (criteria with no threshold do not count).
 */
enum check_verdict check_overall(const struct check_figure *f, int n);
/* Its exit code: 0 pass, 4 fail, 5 inconclusive. */
int check_exit_code(enum check_verdict v);

#define CHECK_EXIT_INCONCLUSIVE 5

#endif
