// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iolab check's verdicts on synthetic histograms: pass and fail only when
 * the 95 % bounds lie on one side of the threshold; inconclusive for too
 * few samples, noise across the threshold, RAM or faked flushes; the
 * profile's verdict and exit code; and the profile table's consistency.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/check/check_profile.h"
#include "cmd/check/check_verdict.h"
#include "core/result.h"
#include "util/err.h"

#define MS 1000000ull

static struct hist *h;

static int setup(void **state)
{
	(void)state;
	h = malloc(sizeof(*h));
	hist_init(h);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(h);
	return 0;
}

static void add(uint64_t n, uint64_t ns)
{
	for (uint64_t i = 0; i < n; i++)
		hist_record(h, ns);
}

static const struct check_criterion p99_10ms = {
	.id = "p99",
	.dir = DIR_FLUSH,
	.stat = CHECK_PCT,
	.pct = 99,
	.cmp = CHECK_AT_MOST,
	.limit = 10.0 * MS,
};

static enum check_verdict judge(const struct check_criterion *c,
				struct check_input in, struct check_figure *f)
{
	in.lat = h;
	in.ios = h->count;
	if (!in.elapsed_s)
		in.elapsed_s = 10;
	check_judge(c, &in, f);
	return f->verdict;
}

static void test_min_samples(void **state)
{
	uint64_t n = check_pct_min_samples(99), lo, hi;

	(void)state;
	/* About 563 for the 99th: the man page says so. */
	assert_in_range(n, 540, 580);
	check_pct_ranks(n, 99, &lo, &hi);
	assert_true(hi <= n);
	check_pct_ranks(n - 1, 99, &lo, &hi);
	assert_true(hi > n - 1);
	assert_true(check_pct_min_samples(50) < 20);
}

static void test_pct_pass(void **state)
{
	struct check_figure f;

	(void)state;
	add(1000, 2 * MS);
	assert_int_equal(judge(&p99_10ms, (struct check_input){ 0 }, &f),
			 CHECK_PASS);
	assert_true(fabs(f.value - 2e6) < 2e6 / 100);
	assert_true(fabs(f.margin - 0.8) < 0.01);
	assert_int_equal(f.samples, 1000);
}

static void test_pct_fail(void **state)
{
	struct check_figure f;

	(void)state;
	add(950, 1 * MS);
	add(50, 20 * MS);
	assert_int_equal(judge(&p99_10ms, (struct check_input){ 0 }, &f),
			 CHECK_FAIL);
	assert_true(f.margin < 0);
	assert_true(f.lo > 10e6);
}

/* Fewer samples than bound a p99 from above still fail when enough of
 * them lie above the limit... */
static void test_pct_fail_few(void **state)
{
	struct check_figure f;

	(void)state;
	add(190, 1 * MS);
	add(10, 50 * MS);
	assert_int_equal(judge(&p99_10ms, (struct check_input){ 0 }, &f),
			 CHECK_FAIL);
}

/* ...but never pass. */
static void test_pct_too_few(void **state)
{
	struct check_figure f;

	(void)state;
	add(200, 1 * MS);
	assert_int_equal(judge(&p99_10ms, (struct check_input){ 0 }, &f),
			 CHECK_INCONCLUSIVE);
	assert_non_null(strstr(f.reason, "too few samples"));
	assert_true(isinf(f.hi));
}

/* The p99 lands on the slow mode, the bounds reach into the fast one. */
static void test_pct_noisy(void **state)
{
	struct check_figure f;

	(void)state;
	add(988, 1 * MS);
	add(12, 20 * MS);
	assert_int_equal(judge(&p99_10ms, (struct check_input){ 0 }, &f),
			 CHECK_INCONCLUSIVE);
	assert_non_null(strstr(f.reason, "noisy"));
	assert_true(f.lo < 10e6 && f.hi > 10e6);
}

/* A value a hair under the limit is not a pass: the histogram's own
 * resolution is part of the bounds. */
static void test_pct_at_limit(void **state)
{
	struct check_figure f;

	(void)state;
	add(2000, 10 * MS - 1000);
	assert_int_equal(judge(&p99_10ms, (struct check_input){ 0 }, &f),
			 CHECK_INCONCLUSIVE);
}

static void test_ram_and_faked(void **state)
{
	struct check_figure f;

	(void)state;
	add(1000, 2 * MS);
	assert_int_equal(judge(&p99_10ms,
			       (struct check_input){ .ram_backed = true }, &f),
			 CHECK_INCONCLUSIVE);
	assert_non_null(strstr(f.reason, "RAM"));
	assert_int_equal(judge(&p99_10ms,
			       (struct check_input){ .flush_faked = true }, &f),
			 CHECK_INCONCLUSIVE);
	assert_non_null(strstr(f.reason, "cache"));
}

static void test_nothing(void **state)
{
	struct check_figure f;

	(void)state;
	assert_int_equal(judge(&p99_10ms, (struct check_input){ 0 }, &f),
			 CHECK_INCONCLUSIVE);
	assert_true(isnan(f.value));
}

static void test_info(void **state)
{
	struct check_criterion c = p99_10ms;
	struct check_figure f;

	(void)state;
	c.cmp = CHECK_INFO;
	add(1000, 50 * MS);
	assert_int_equal(judge(&c, (struct check_input){ 0 }, &f),
			 CHECK_NO_THRESHOLD);
	assert_true(f.value > 49e6);
	assert_true(isnan(f.margin));
}

static void test_max(void **state)
{
	struct check_criterion c = p99_10ms;
	struct check_figure f;

	(void)state;
	c.stat = CHECK_MAX;
	c.limit = 1000.0 * MS;
	add(10, 10 * MS);
	assert_int_equal(judge(&c, (struct check_input){ 0 }, &f),
			 CHECK_INCONCLUSIVE);
	add(100, 10 * MS);
	assert_int_equal(judge(&c, (struct check_input){ 0 }, &f), CHECK_PASS);
	add(1, 1500 * MS);
	assert_int_equal(judge(&c, (struct check_input){ 0 }, &f), CHECK_FAIL);
	assert_true(fabs(f.value - 1.5e9) < 1);
}

static void test_mean(void **state)
{
	struct check_criterion c = p99_10ms;
	struct check_figure f;

	(void)state;
	c.stat = CHECK_MEAN;
	c.limit = 20.0 * MS;
	add(20, 1 * MS);
	assert_int_equal(judge(&c, (struct check_input){ 0 }, &f),
			 CHECK_INCONCLUSIVE);
	hist_init(h);
	add(20, 30 * MS); /* every one above: a fail however few */
	assert_int_equal(judge(&c, (struct check_input){ 0 }, &f), CHECK_FAIL);
	hist_init(h);
	add(500, 1 * MS);
	add(500, 3 * MS);
	assert_int_equal(judge(&c, (struct check_input){ 0 }, &f), CHECK_PASS);
	assert_true(fabs(f.value - 2e6) < 1);
}

static void test_rate(void **state)
{
	static const uint32_t steady[] = { 100, 101, 99, 100, 100,
					   100, 101, 99, 100, 100 };
	struct check_criterion c = {
		.id = "rate",
		.dir = DIR_WRITE,
		.stat = CHECK_RATE,
		.cmp = CHECK_AT_LEAST,
		.limit = 50,
	};
	struct check_input in = { .elapsed_s = 10,
				  .per_s = steady,
				  .nper_s = 10 };
	struct check_figure f;

	(void)state;
	add(1000, 10 * MS);
	assert_int_equal(judge(&c, in, &f), CHECK_PASS);
	assert_true(fabs(f.value - 100) < 1e-9);
	c.limit = 100;
	assert_int_equal(judge(&c, in, &f), CHECK_INCONCLUSIVE);
	c.limit = 200;
	assert_int_equal(judge(&c, in, &f), CHECK_FAIL);
}

/* Under 10 whole seconds, the cycle's spread bounds the rate. */
static void test_rate_short(void **state)
{
	struct check_criterion c = {
		.id = "rate",
		.dir = DIR_WRITE,
		.stat = CHECK_RATE,
		.cmp = CHECK_AT_LEAST,
		.limit = 1900,
	};
	struct check_input in = { .elapsed_s = 1, .cycle_cv = 0.5 };
	struct check_figure f;

	(void)state;
	add(2000, 500000);
	assert_int_equal(judge(&c, in, &f), CHECK_PASS);
	c.limit = 1990;
	assert_int_equal(judge(&c, in, &f), CHECK_INCONCLUSIVE);
	hist_init(h);
	add(10, 500000);
	in.elapsed_s = 0.005;
	c.limit = 100;
	assert_int_equal(judge(&c, in, &f), CHECK_INCONCLUSIVE);
	assert_non_null(strstr(f.reason, "too short"));
}

static void test_overall(void **state)
{
	struct check_figure f[3] = { 0 };

	(void)state;
	f[0].verdict = CHECK_PASS;
	f[1].verdict = CHECK_NO_THRESHOLD;
	assert_int_equal(check_overall(f, 2), CHECK_PASS);
	assert_int_equal(check_exit_code(CHECK_PASS), EXIT_OK);
	f[2].verdict = CHECK_INCONCLUSIVE;
	assert_int_equal(check_overall(f, 3), CHECK_INCONCLUSIVE);
	assert_int_equal(check_exit_code(CHECK_INCONCLUSIVE), 5);
	f[0].verdict = CHECK_FAIL;
	assert_int_equal(check_overall(f, 3), CHECK_FAIL);
	assert_int_equal(check_exit_code(CHECK_FAIL), EXIT_FINDING);
	assert_int_equal(check_overall(&f[1], 1), CHECK_NO_THRESHOLD);
	assert_int_equal(check_exit_code(CHECK_NO_THRESHOLD), EXIT_OK);
}

/* The table holds together: steps exist, limits and sources are given,
 * every name and alias finds its own profile. */
static void test_profiles(void **state)
{
	(void)state;
	assert_true(check_nprofiles >= 5);
	for (int i = 0; i < check_nprofiles; i++) {
		const struct check_profile *p = &check_profiles[i];

		assert_ptr_equal(check_profile_find(p->name), p);
		if (p->alias)
			assert_ptr_equal(check_profile_find(p->alias), p);
		assert_in_range(p->nsteps, 1, CHECK_MAX_STEPS);
		assert_in_range(p->ncrit, 1, CHECK_MAX_CRIT);
		for (int s = 0; s < p->nsteps; s++) {
			assert_true(p->steps[s].bs > 0 && p->steps[s].qd > 0);
			assert_true(rw_writes(&(struct job_spec){
					    .rw = p->steps[s].rw }) ||
				    p->steps[s].rw == RW_RANDREAD);
		}
		for (int k = 0; k < p->ncrit; k++) {
			const struct check_criterion *c = &p->crit[k];

			assert_in_range(c->step, 0, p->nsteps - 1);
			assert_in_range(c->dir, DIR_READ, DIR_FLUSH);
			assert_true(c->source && c->source[0]);
			if (c->dir == DIR_FLUSH)
				assert_true(p->steps[c->step].flush_every);
			if (c->cmp != CHECK_INFO) {
				assert_true(c->limit > 0);
				assert_non_null(c->fix);
			}
		}
	}
	assert_null(check_profile_find("sqlite"));
	assert_non_null(check_profile_find("postgres"));
	assert_non_null(check_profile_find("zk"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_min_samples),
		cmocka_unit_test_setup_teardown(test_pct_pass, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pct_fail, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pct_fail_few, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_pct_too_few, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_pct_noisy, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_pct_at_limit, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_ram_and_faked, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_info, setup, teardown),
		cmocka_unit_test_setup_teardown(test_max, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mean, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rate_short, setup,
						teardown),
		cmocka_unit_test(test_overall),
		cmocka_unit_test(test_profiles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
