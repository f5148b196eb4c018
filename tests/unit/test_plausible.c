// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Plausibility by Little's law: a closed-loop run whose latencies summed
 * over its time say more requests were in flight than iolab had is
 * flagged; one that keeps the law, a paced run, and a short one are not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/plausible.h"
#include "core/result.h"
#include "core/target.h"
#include "util/warn.h"

/* @n reads of @lat_ns each over @elapsed_s at QD @qd. */
static bool flagged(unsigned int qd, uint64_t n, uint64_t lat_ns,
		    double elapsed_s, uint64_t rate)
{
	struct run_result r;
	struct target t;
	bool has;

	memset(&r, 0, sizeof(r));
	memset(&t, 0, sizeof(t));
	t.fd = t.dir_fd = t.loop_fd = -1;
	t.sparse = true; /* no file behind it to sample */
	t.path = "fake";
	job_defaults(&r.spec);
	r.spec.qd = qd;
	r.spec.rate_iops = rate;
	hist_init(&r.dir[DIR_READ].lat);
	hist_init(&r.dir[DIR_WRITE].lat);
	for (uint64_t i = 0; i < n; i++)
		hist_record(&r.dir[DIR_READ].lat, lat_ns);
	r.dir[DIR_READ].ios = n;
	r.dir[DIR_READ].bytes = n * 4096;
	r.elapsed_s = elapsed_s;
	plausible_check(&r, &t);
	has = warn_has(&r.warnings, "littles-law");
	warnings_free(&r.warnings);
	return has;
}

static void test_littles_law(void **state)
{
	(void)state;
	/* QD4 for 10 s, 10000 reads of 4 ms: 4 in flight, the law kept. */
	assert_false(flagged(4, 10000, 4000000, 10, 0));
	/* The same latencies at twice the IOPS: 8 in flight of 4. */
	assert_true(flagged(4, 20000, 4000000, 10, 0));
	/* 5 % over, within what the window's edges allow. */
	assert_false(flagged(4, 10400, 4000000, 10, 0));
	/* Paced: latency counts from the intended start, backlog included. */
	assert_false(flagged(4, 20000, 4000000, 10, 1000));
	/* Too short, or too few I/Os, to judge. */
	assert_false(flagged(4, 20000, 4000000, 0.4, 0));
	assert_false(flagged(4, 500, 160000000, 10, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_littles_law),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
