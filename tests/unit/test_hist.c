// SPDX-License-Identifier: GPL-2.0-or-later
/* The histogram's error bound, percentiles, merge and moments. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "core/hist.h"
#include "util/prng.h"

static struct hist *new_hist(void)
{
	struct hist *h = malloc(sizeof(*h));

	hist_init(h);
	return h;
}

/* Every value from 1 ns to ~1e12 ns: the reported value of its bucket is
 * within 1 % (the documented bound is 1/128). */
static void test_error_bound(void **state)
{
	double worst = 0;

	(void)state;
	for (uint64_t v = 1; v < (1ull << 40); v = v + v / 97 + 1) {
		struct hist *h = new_hist();
		double rel;
		uint64_t got;

		/* Two values in the same bucket so min/max clamping does not
		 * hide the bucket midpoint. */
		hist_record(h, hist_bucket_low(hist_index(v)));
		hist_record(h, hist_bucket_low(hist_index(v)) +
				       hist_bucket_width(hist_index(v)) - 1);
		hist_record(h, v);
		got = hist_percentile(h, 50);
		rel = fabs((double)got - (double)v) / (double)v;
		if (rel > worst)
			worst = rel;
		assert_true(rel <= 0.01);
		free(h);
	}
	assert_true(worst <= 1.0 / 128 + 1e-12);
	assert_true(worst > 0.002); /* the test did exercise wide buckets */
}

static void test_index_monotonic_and_contiguous(void **state)
{
	unsigned int prev = 0;

	(void)state;
	for (uint64_t v = 0; v < (1u << 20); v++) {
		unsigned int idx = hist_index(v);

		assert_true(idx == prev || idx == prev + 1);
		assert_true(hist_bucket_low(idx) <= v);
		assert_true(v < hist_bucket_low(idx) + hist_bucket_width(idx));
		prev = idx;
	}
	assert_int_equal(hist_index(UINT64_MAX), HIST_BUCKETS - 1);
}

static void test_exact_small_values_and_min_max(void **state)
{
	struct hist *h = new_hist();

	(void)state;
	for (uint64_t v = 1; v <= 100; v++)
		hist_record(h, v);
	assert_int_equal(h->min, 1);
	assert_int_equal(h->max, 100);
	assert_int_equal(hist_percentile(h, 50), 50);
	assert_int_equal(hist_percentile(h, 99), 99);
	assert_int_equal(hist_percentile(h, 100), 100);
	assert_int_equal(hist_percentile(h, 0), 1);
	assert_true(fabs(hist_mean(h) - 50.5) < 1e-9);
	/* sample stddev of 1..100 */
	assert_true(fabs(hist_stddev(h) - 29.011491975882016) < 1e-6);
	free(h);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Percentiles of 200k log-uniform values agree with the exact order
 * statistics to within the bound. */
static void test_percentiles_vs_sorted(void **state)
{
	static const double ps[] = { 1, 10, 50, 90, 99, 99.9, 99.99 };
	enum { N = 200000, NP = sizeof(ps) / sizeof(ps[0]) };
	uint64_t *vals = malloc(N * sizeof(*vals)), got[NP];
	struct hist *h = new_hist();
	struct prng r;

	(void)state;
	prng_seed(&r, 42);
	for (int i = 0; i < N; i++) {
		double u = (double)(prng_next(&r) >> 11) / 9007199254740992.0;

		vals[i] = (uint64_t)exp(log(1e3) + (log(1e8) - log(1e3)) * u);
		hist_record(h, vals[i]);
	}
	qsort(vals, N, sizeof(*vals), cmp_u64);
	hist_percentiles(h, ps, NP, got);
	for (int i = 0; i < NP; i++) {
		uint64_t exact = vals[(size_t)ceil(ps[i] / 100.0 * N) - 1];

		assert_true(fabs((double)got[i] - (double)exact) <=
			    0.01 * (double)exact);
	}
	assert_int_equal(hist_percentile(h, 100), vals[N - 1]);
	assert_int_equal(h->min, vals[0]);
	free(vals);
	free(h);
}

static void test_merge_is_lossless(void **state)
{
	struct hist *a = new_hist(), *b = new_hist(), *all = new_hist();
	struct prng r;

	(void)state;
	prng_seed(&r, 7);
	for (int i = 0; i < 50000; i++) {
		uint64_t v = prng_below(&r, 10000000) + 1;

		hist_record(i % 3 ? a : b, v);
		hist_record(all, v);
	}
	hist_add(a, b);
	assert_int_equal(a->count, all->count);
	assert_int_equal(a->sum, all->sum);
	assert_int_equal(a->min, all->min);
	assert_int_equal(a->max, all->max);
	assert_memory_equal(a->b, all->b, sizeof(a->b));
	assert_true(fabs(hist_stddev(a) - hist_stddev(all)) <
		    1e-6 * hist_stddev(all));
	free(a);
	free(b);
	free(all);
}

static void test_empty(void **state)
{
	struct hist *h = new_hist();

	(void)state;
	assert_int_equal(hist_percentile(h, 99), 0);
	assert_true(hist_mean(h) == 0);
	assert_true(hist_stddev(h) == 0);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_bound),
		cmocka_unit_test(test_index_monotonic_and_contiguous),
		cmocka_unit_test(test_exact_small_values_and_min_max),
		cmocka_unit_test(test_percentiles_vs_sorted),
		cmocka_unit_test(test_merge_is_lossless),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
