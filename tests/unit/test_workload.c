// SPDX-License-Identifier: GPL-2.0-or-later
/* Offset generators: aligned, in range, sequential wrap, lane interleave,
 * the read/write mix; and how many I/Os a lane submits at once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/job.h"
#include "core/workload.h"

static struct job_spec spec(enum rw_mode rw, uint64_t bs, unsigned int qd,
			    unsigned int threads, enum engine_kind e)
{
	struct job_spec j;

	job_defaults(&j);
	j.rw = rw;
	j.bs = bs;
	j.qd = qd;
	j.threads = threads;
	j.engine = e;
	return j;
}

static void test_random_aligned_in_range(void **state)
{
	struct job_spec j = spec(RW_RANDREAD, 4096, 32, 1, ENGINE_NULL);
	uint64_t off0 = 1 << 20, len = 10 * 4096 + 100; /* ragged end */
	unsigned int seen[10] = { 0 };
	struct workload w;

	(void)state;
	workload_init(&w, &j, off0, len, 0, 1);
	for (int i = 0; i < 100000; i++) {
		uint64_t off = workload_next_off(&w);

		assert_true(off >= off0);
		assert_true(off + 4096 <= off0 + len);
		assert_int_equal((off - off0) % 4096, 0);
		seen[(off - off0) / 4096]++;
	}
	for (int b = 0; b < 10; b++) /* uniform: each ~10000 */
		assert_true(seen[b] > 9000 && seen[b] < 11000);
}

static void test_sequential_wraps(void **state)
{
	struct job_spec j = spec(RW_READ, 1 << 20, 8, 1, ENGINE_IO_URING);
	struct workload w;

	(void)state;
	workload_init(&w, &j, 0, 4 << 20, 0, 1);
	for (int pass = 0; pass < 3; pass++)
		for (uint64_t b = 0; b < 4; b++)
			assert_int_equal(workload_next_off(&w), b << 20);
}

static void test_threads_stripes(void **state)
{
	struct job_spec j = spec(RW_READ, 4096, 1, 2, ENGINE_IO_URING);
	struct workload w0, w1;

	(void)state;
	workload_init(&w0, &j, 0, 100 * 4096, 0, 2);
	workload_init(&w1, &j, 0, 100 * 4096, 1, 2);
	assert_int_equal(workload_next_off(&w0), 0);
	assert_int_equal(workload_next_off(&w1), 50 * 4096);
	for (int i = 1; i < 50; i++)
		assert_int_equal(workload_next_off(&w0), (uint64_t)i * 4096);
	assert_int_equal(workload_next_off(&w0), 0); /* wrapped in stripe */
}

/* The threads engine: Q lanes of one job thread interleave into one
 * sequential stream, together covering each block once per pass. */
static void test_pool_lanes_interleave(void **state)
{
	struct job_spec j = spec(RW_READ, 4096, 4, 1, ENGINE_THREADS);
	unsigned int lanes = job_lanes(&j), hits[64] = { 0 };
	struct workload w[4];

	(void)state;
	assert_int_equal(lanes, 4);
	for (unsigned int l = 0; l < lanes; l++)
		workload_init(&w[l], &j, 0, 64 * 4096, l, lanes);
	for (int i = 0; i < 16; i++)
		for (unsigned int l = 0; l < lanes; l++) {
			uint64_t off = workload_next_off(&w[l]);

			assert_int_equal(off / 4096, (uint64_t)i * 4 + l);
			hits[off / 4096]++;
		}
	for (int b = 0; b < 64; b++)
		assert_int_equal(hits[b], 1);
}

static void test_mix(void **state)
{
	struct job_spec j = spec(RW_RANDRW, 4096, 1, 1, ENGINE_NULL);
	struct workload w;
	int reads = 0;

	(void)state;
	j.mix_read_pct = 70;
	workload_init(&w, &j, 0, 1 << 20, 0, 1);
	for (int i = 0; i < 100000; i++)
		reads += workload_next_is_read(&w);
	assert_true(reads > 69000 && reads < 71000);
	j.rw = RW_WRITE;
	workload_init(&w, &j, 0, 1 << 20, 0, 1);
	assert_false(workload_next_is_read(&w));
	j.rw = RW_RANDRW;
	j.mix_read_pct = 100;
	workload_init(&w, &j, 0, 1 << 20, 0, 1);
	for (int i = 0; i < 1000; i++)
		assert_true(workload_next_is_read(&w));
}

static void test_same_seed_same_offsets(void **state)
{
	struct job_spec j = spec(RW_RANDREAD, 4096, 1, 1, ENGINE_NULL);
	struct workload a, b;

	(void)state;
	workload_init(&a, &j, 0, 1 << 30, 0, 1);
	workload_init(&b, &j, 0, 1 << 30, 0, 1);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(workload_next_off(&a), workload_next_off(&b));
}

static void test_submit_batch(void **state)
{
	struct job_spec j = spec(RW_RANDREAD, 4096, 32, 1, ENGINE_IO_URING);

	(void)state;
	assert_int_equal(job_submit_batch(&j), 4); /* QD/8 */
	j.qd = 16;
	assert_int_equal(job_submit_batch(&j), 2);
	j.qd = 4;
	assert_int_equal(job_submit_batch(&j), 1); /* at least 1 */
	j.qd = 256;
	assert_int_equal(job_submit_batch(&j), 4); /* at most 4 */
	j.submit_batch = 300; /* never more than the queue */
	assert_int_equal(job_submit_batch(&j), 256);
	j.submit_batch = 3;
	assert_int_equal(job_submit_batch(&j), 3);
	/* A thread pool's lane holds one request. */
	j = spec(RW_RANDREAD, 4096, 32, 1, ENGINE_THREADS);
	assert_int_equal(job_submit_batch(&j), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_aligned_in_range),
		cmocka_unit_test(test_sequential_wraps),
		cmocka_unit_test(test_threads_stripes),
		cmocka_unit_test(test_pool_lanes_interleave),
		cmocka_unit_test(test_mix),
		cmocka_unit_test(test_same_seed_same_offsets),
		cmocka_unit_test(test_submit_batch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
