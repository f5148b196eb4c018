// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Mark presets checked against CrystalDiskMark's tables
 * (reference/calibrate.md 5.2, features.md 2.2), the test-name parser,
 * the jobs a suite runs, its time estimate, and the matrix's cells.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/mark/mark_suite.h"
#include "cmd/matrix/matrix_suite.h"
#include "util/err.h"

#define SEC 1000000000ull

/* The reference tables, written out as CrystalDiskMark labels them. */
static const struct {
	const char *preset, *tests;
	uint64_t time_ns, interval_ns; /* 0: the defaults (5 s, 5 s) */
} reference[] = {
	{ "default", "SEQ1M Q8T1,SEQ1M Q1T1,RND4K Q32T1,RND4K Q1T1" },
	{ "nvme", "SEQ1M Q8T1,SEQ128K Q32T1,RND4K Q32T16,RND4K Q1T1" },
	{ "cdm7", "SEQ1M Q8T1,SEQ1M Q1T1,RND4K Q32T16,RND4K Q1T1" },
	{ "cdm6", "SEQ128K Q32T1,RND4K Q8T8,RND4K Q32T1,RND4K Q1T1" },
	{ "peak", "SEQ1M Q8T1,RND4K Q32T1" },
	{ "real", "SEQ1M Q1T1,RND4K Q1T1" },
	{ "flash", "SEQ1M Q8T1,SEQ1M Q1T1,RND4K Q32T1,RND4K Q1T1", 1 * SEC,
	  30 * SEC },
};

static void test_presets_match_reference(void **state)
{
	size_t n = sizeof(reference) / sizeof(reference[0]), count = 0;

	(void)state;
	for (const struct mark_preset *p = mark_presets; p->name; p++)
		count++;
	assert_int_equal(count, n);
	for (size_t i = 0; i < n; i++) {
		const struct mark_preset *p =
			mark_preset_find(reference[i].preset);
		struct mark_spec s;
		char got[256] = "", name[32];

		assert_non_null(p);
		for (unsigned int k = 0; k < p->ntests; k++) {
			if (k)
				strcat(got, ",");
			strcat(got, mark_test_name(&p->tests[k], name,
						   sizeof(name)));
		}
		assert_string_equal(got, reference[i].tests);
		/* CrystalDiskMark's procedure, as its presets state it. */
		mark_spec_defaults(&s);
		mark_spec_set_fixed(&s, 5);
		mark_spec_set_preset(&s, p);
		assert_int_equal(s.time_ns, reference[i].time_ns ?
						    reference[i].time_ns :
						    5 * SEC);
		assert_int_equal(s.interval_ns,
				 reference[i].interval_ns ?
					 reference[i].interval_ns :
					 5 * SEC);
	}
	/* Sequential tests are sequential, random ones random. */
	assert_false(mark_preset_find("cdm6")->tests[0].random);
	assert_int_equal(mark_preset_find("cdm6")->tests[0].bs, 128 * 1024);
	assert_true(mark_preset_find("nvme")->tests[2].random);
	assert_int_equal(mark_preset_find("nvme")->tests[2].threads, 16);
	assert_null(mark_preset_find("cdm5"));
	assert_non_null(mark_preset_find("NVMe"));
}

static void test_defaults(void **state)
{
	struct mark_spec s;

	(void)state;
	mark_spec_defaults(&s);
	assert_string_equal(s.preset, "default");
	/* Runs of 500 ms until +-5 %, 3 at least, 20 s per test at most. */
	assert_int_equal(s.procedure, MARK_PRECISION);
	assert_int_equal(s.time_ns, SEC / 2);
	assert_int_equal(s.interval_ns, 0);
	assert_true(s.precision == 0.05);
	assert_int_equal(s.min_runs, 3);
	assert_int_equal(s.max_ns, 20 * SEC);
	/* The warm-up takes one run's time of the 20 s: 39 runs at most. */
	assert_int_equal(mark_max_runs(&s), 39);
	assert_int_equal(s.mix_read_pct, 70);
	assert_true(s.dir[MARK_READ] && s.dir[MARK_WRITE]);
	assert_false(s.dir[MARK_MIX]);
	assert_int_equal(s.base.cache, CACHE_NONE);
	/* 8 tests x (1 warm-up + 3 runs) x 500 ms at least, no pauses; at
	 * most 8 x 40 x 500 ms. */
	assert_int_equal(mark_count(&s), 8);
	assert_int_equal(mark_estimate_ns(&s), 8 * 4 * SEC / 2);
	assert_int_equal(mark_estimate_max_ns(&s), 8 * 40 * SEC / 2);
	/* CrystalDiskMark's: 8 tests x (1 warm-up + 5 runs) x 5 s + 7
	 * pauses of 5 s. */
	mark_spec_set_fixed(&s, 5);
	assert_int_equal(s.runs, 5);
	assert_int_equal(mark_max_runs(&s), 5);
	assert_int_equal(s.time_ns, 5 * SEC);
	assert_int_equal(s.interval_ns, 5 * SEC);
	assert_int_equal(mark_estimate_ns(&s), (8 * 6 * 5 + 7 * 5) * SEC);
	assert_int_equal(mark_estimate_max_ns(&s), mark_estimate_ns(&s));
	assert_true(mark_needs_write(&s));
	s.dir[MARK_WRITE] = false;
	assert_false(mark_needs_write(&s));
	s.dir[MARK_MIX] = true;
	assert_true(mark_needs_write(&s));
	s.mix_read_pct = 100;
	assert_false(mark_needs_write(&s));
}

static void good(const char *in, bool random, uint64_t bs, unsigned int q,
		 unsigned int t, const char *name)
{
	struct mark_test x, y;
	struct err err = { 0 };
	char buf[32];

	if (!mark_test_parse(in, &x, &err))
		fail_msg("'%s' refused: %s", in, err.msg);
	assert_int_equal(x.random, random);
	assert_int_equal(x.bs, bs);
	assert_int_equal(x.qd, q);
	assert_int_equal(x.threads, t);
	assert_string_equal(mark_test_name(&x, buf, sizeof(buf)), name);
	/* The label parses back to the same test. */
	assert_true(mark_test_parse(buf, &y, &err));
	assert_memory_equal(&x, &y, sizeof(x));
}

static void bad(const char *in, const char *needle)
{
	struct mark_test x;
	struct err err = { 0 };

	if (mark_test_parse(in, &x, &err))
		fail_msg("'%s' accepted", in);
	assert_int_equal(err.exit_code, EXIT_USAGE);
	if (!strstr(err.msg, needle))
		fail_msg("'%s': message '%s' lacks '%s'", in, err.msg, needle);
	assert_non_null(strstr(err.msg, "SEQ1M-Q8T1"));
}

static void test_parse_names(void **state)
{
	(void)state;
	good("SEQ1M-Q8T1", false, 1 << 20, 8, 1, "SEQ1M Q8T1");
	good("RND4K-Q32T16", true, 4096, 32, 16, "RND4K Q32T16");
	good("seq128k q32t1", false, 128 << 10, 32, 1, "SEQ128K Q32T1");
	good("SEQ1MiB_Q1T1", false, 1 << 20, 1, 1, "SEQ1M Q1T1");
	good("RND8KiBQ4T2", true, 8192, 4, 2, "RND8K Q4T2");
	good("RND1024K-Q1T1", true, 1 << 20, 1, 1, "RND1M Q1T1");
	bad("FOO1M-Q1T1", "start with SEQ or RND");
	bad("SEQ-Q8T1", "block size");
	bad("SEQ1-Q8T1", "unit");
	bad("SEQ1G-Q8T1", "unit");
	bad("SEQ128M-Q1T1", "64 MiB");
	bad("SEQ1M-8T1", "queue depth");
	bad("SEQ1M-Q0T1", "queue depth");
	bad("SEQ1M-Q5000T1", "queue depth");
	bad("SEQ1M-Q8", "thread count");
	bad("SEQ1M-Q8T0", "thread count");
	bad("SEQ1M-Q8T300", "thread count");
	bad("SEQ1M-Q8T1x", "at the end");
	bad("", "SEQ or RND");
}

static void test_parse_list(void **state)
{
	struct mark_test t[MARK_MAX_TESTS];
	struct err err = { 0 };

	(void)state;
	assert_int_equal(mark_tests_parse("SEQ1M-Q8T1, RND4K-Q32T16", t,
					  MARK_MAX_TESTS, &err),
			 2);
	assert_true(t[1].random);
	assert_int_equal(mark_tests_parse("SEQ1M-Q8T1,,RND4K-Q1T1", t,
					  MARK_MAX_TESTS, &err),
			 -1);
	assert_int_equal(mark_tests_parse("SEQ1M-Q8T1,RND4X-Q1T1", t,
					  MARK_MAX_TESTS, &err),
			 -1);
	assert_non_null(strstr(err.msg, "RND4X-Q1T1"));
}

static void test_jobs(void **state)
{
	struct mark_spec s;
	struct job_spec j, k;

	(void)state;
	mark_spec_defaults(&s);
	s.base.flush_every = 8;
	mark_job(&s, 0, MARK_READ, 1, &j);
	assert_int_equal(j.rw, RW_READ);
	assert_int_equal(j.bs, 1 << 20);
	assert_int_equal(j.qd, 8);
	assert_int_equal(j.threads, 1);
	assert_int_equal(j.runtime_ns, SEC / 2);
	assert_int_equal(j.ramp_ns, 0);
	assert_int_equal(j.flush_every, 0); /* reads never flush */
	mark_job(&s, 2, MARK_WRITE, 1, &j);
	assert_int_equal(j.rw, RW_RANDWRITE);
	assert_int_equal(j.flush_every, 8);
	mark_job(&s, 2, MARK_MIX, 1, &j);
	assert_int_equal(j.rw, RW_RANDRW);
	assert_int_equal(j.mix_read_pct, 70);
	mark_job(&s, 0, MARK_MIX, 1, &j);
	assert_int_equal(j.rw, RW_RW);
	/* Every run draws new offsets, reproducibly. */
	mark_job(&s, 2, MARK_READ, 1, &j);
	mark_job(&s, 2, MARK_READ, 2, &k);
	assert_true(j.seed != k.seed);
	mark_job(&s, 2, MARK_READ, 2, &j);
	assert_true(j.seed == k.seed);
}

static void test_validate(void **state)
{
	struct mark_spec s;
	struct err err = { 0 };

	(void)state;
	mark_spec_defaults(&s);
	assert_true(mark_spec_validate(&s, &err));
	s.base.engine = ENGINE_SYNC;
	assert_false(mark_spec_validate(&s, &err));
	assert_int_equal(err.exit_code, EXIT_USAGE);
	assert_non_null(strstr(err.msg, "SEQ1M Q8T1"));
	mark_spec_defaults(&s);
	s.base.engine = ENGINE_NATIVE;
	s.base.cache = CACHE_WRITEBACK;
	memset(&err, 0, sizeof(err));
	assert_false(mark_spec_validate(&s, &err));
	assert_int_equal(err.exit_code, EXIT_ENV);
	assert_non_null(strstr(err.msg, "cache.direct=on"));
	s.base.force = true;
	assert_true(mark_spec_validate(&s, &err));
	mark_spec_defaults(&s);
	s.runs = 0;
	assert_false(mark_spec_validate(&s, &err));
	mark_spec_defaults(&s);
	s.time_ns = 0;
	assert_false(mark_spec_validate(&s, &err));
	mark_spec_defaults(&s);
	memset(s.dir, 0, sizeof(s.dir));
	assert_false(mark_spec_validate(&s, &err));
}

static void test_matrix_cells(void **state)
{
	struct matrix_spec m;
	struct err err = { 0 };

	(void)state;
	matrix_spec_defaults(&m);
	assert_string_equal(m.mark.preset, "cdm6");
	assert_int_equal(m.mark.procedure, MARK_PRECISION);
	assert_int_equal(m.mark.max_ns, 7 * SEC / 2);
	assert_int_equal(m.nengines, 3);
	assert_int_equal(m.engines[0], ENGINE_THREADS);
	assert_int_equal(m.engines[1], ENGINE_NATIVE);
	assert_int_equal(m.engines[2], ENGINE_IO_URING);
	assert_int_equal(m.ncaches, 5);
	/* native x writethrough, writeback, unsafe: refused as QEMU does. */
	assert_int_equal(matrix_cells_to_run(&m), 12);
	/* No pauses: 12 cells x 8 tests x 4 runs of 500 ms at least, x 3.5 s
	 * at most, and the leader once more at most. */
	assert_int_equal(matrix_estimate_ns(&m), 12 * 8 * 4 * SEC / 2);
	assert_int_equal(matrix_estimate_max_ns(&m), 13 * 8 * 7 * SEC / 2);
	m.mark.base.force = true;
	assert_int_equal(matrix_cells_to_run(&m), 15);
	assert_true(matrix_spec_validate(&m, &err));
	assert_true(matrix_cache_keeps_data(CACHE_WRITEBACK));
	assert_true(matrix_cache_keeps_data(CACHE_NONE));
	assert_false(matrix_cache_keeps_data(CACHE_UNSAFE));
	m.engines[1] = ENGINE_THREADS;
	assert_false(matrix_spec_validate(&m, &err));
	assert_non_null(strstr(err.msg, "twice"));
	matrix_spec_defaults(&m);
	m.engines[0] = ENGINE_SYNC; /* cdm6 has QD > 1 */
	assert_false(matrix_spec_validate(&m, &err));
	assert_int_equal(err.exit_code, EXIT_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_presets_match_reference),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_parse_names),
		cmocka_unit_test(test_parse_list),
		cmocka_unit_test(test_jobs),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_matrix_cells),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
