// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mark's noise rule: a test whose MB/s spreads by more than 10 % over its
 * scored runs (or, with one run, over that run's full seconds) is called
 * noisy; a steady one, too little data, or the null engine is not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/mark/mark_suite.h"
#include "core/result.h"
#include "engine/engine.h"
#include "util/warn.h"

/* A cell of @n scored runs with the given MB/s (mean and stddev as
 * mark_suite.c sums them up). */
static void runs_cell(struct mark_cell *c, struct run_result *runs,
		      const double *mbps, unsigned int n)
{
	double sum = 0, sq = 0;

	memset(c, 0, sizeof(*c));
	memset(runs, 0, n * sizeof(*runs));
	for (unsigned int i = 0; i < n; i++) {
		runs[i].spec.engine = ENGINE_IO_URING;
		sum += mbps[i];
	}
	c->procedure = MARK_FIXED;
	c->runs = runs;
	c->scored = c->nruns = n;
	c->mbps.mean = sum / n;
	for (unsigned int i = 0; i < n; i++)
		sq += (mbps[i] - c->mbps.mean) * (mbps[i] - c->mbps.mean);
	c->mbps.stddev = n > 1 ? __builtin_sqrt(sq / (n - 1)) : 0;
}

static void one_run_cell(struct mark_cell *c, struct run_result *r,
			 struct ts_point *ts, const uint32_t *ios, uint32_t nts,
			 double elapsed_s)
{
	memset(c, 0, sizeof(*c));
	memset(r, 0, sizeof(*r));
	for (uint32_t k = 0; k < nts; k++) {
		ts[k].ios[0] = ios[k];
		ts[k].ios[1] = 0;
	}
	r->spec.engine = ENGINE_IO_URING;
	r->ts = ts;
	r->nts = nts;
	r->elapsed_s = elapsed_s;
	c->procedure = MARK_FIXED;
	c->runs = r;
	c->scored = c->nruns = 1;
	c->mbps.mean = 100;
}

static bool noisy(struct mark_cell *c)
{
	struct mark_spec s;
	bool has;

	mark_spec_defaults(&s);
	mark_noise_check(c, &s);
	has = warn_has(&c->warnings, "noisy");
	warnings_free(&c->warnings);
	return has;
}

static void test_runs(void **state)
{
	struct run_result runs[3];
	struct mark_cell c;
	const double steady[] = { 100, 104, 98 };
	const double spread[] = { 100, 60, 140 }; /* cv 40 % */
	const double edge[] = { 100, 110, 90 }; /* cv exactly 10 % */

	(void)state;
	runs_cell(&c, runs, steady, 3);
	assert_false(noisy(&c));
	runs_cell(&c, runs, spread, 3);
	assert_true(noisy(&c));
	runs_cell(&c, runs, edge, 3);
	assert_false(noisy(&c)); /* above 10 %, not at it */
	runs_cell(&c, runs, spread, 3);
	for (int i = 0; i < 3; i++)
		runs[i].spec.engine = ENGINE_NULL;
	assert_false(noisy(&c)); /* no I/O: nothing of a disk's to judge */
}

static void test_one_run_seconds(void **state)
{
	struct run_result r;
	struct mark_cell c;
	struct ts_point ts[6];
	const uint32_t steady[] = { 1000, 1010, 990, 1000, 3 };
	const uint32_t jumpy[] = { 1000, 200, 1800, 1000, 3 };

	(void)state;
	/* 4 full seconds and a cut one (3 I/Os): the cut one is left out. */
	one_run_cell(&c, &r, ts, steady, 5, 4.02);
	assert_false(noisy(&c));
	one_run_cell(&c, &r, ts, jumpy, 5, 4.02);
	assert_true(noisy(&c));
	/* Two full seconds are too few to tell. */
	one_run_cell(&c, &r, ts, jumpy, 3, 2.5);
	assert_false(noisy(&c));
	/* Not one run scored. */
	one_run_cell(&c, &r, ts, jumpy, 5, 4.02);
	c.scored = 0;
	assert_false(noisy(&c));
}

/* The precision procedure: noisy means the interval did not narrow to
 * the precision asked, whatever the spread of the runs. */
static void test_precision(void **state)
{
	struct run_result runs[3];
	struct mark_cell c;
	const double spread[] = { 100, 60, 140 };

	(void)state;
	runs_cell(&c, runs, spread, 3);
	c.procedure = MARK_PRECISION;
	c.rel_ci = 0.04;
	c.precise = true;
	assert_false(noisy(&c)); /* known to +-4 %: the mean is a figure */
	c.precise = false;
	c.rel_ci = 0.12;
	assert_true(noisy(&c));
	c.rel_ci = __builtin_nan("");
	assert_true(noisy(&c)); /* no interval at all */
	c.partial = true;
	assert_false(noisy(&c)); /* cut short: PARTIAL says it */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_one_run_seconds),
		cmocka_unit_test(test_precision),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
