// SPDX-License-Identifier: GPL-2.0-or-later
/* The run's clock: the automatic choice, and the TSC path agreeing with
 * CLOCK_MONOTONIC (a check of the conversion, with a generous bound). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "util/clock.h"

static void test_auto_is_monotonic(void **state)
{
	uint64_t prev;

	(void)state;
	clock_setup(-1);
	prev = clock_ns();
	for (int i = 0; i < 100000; i++) {
		uint64_t t = clock_ns();

		assert_true(t >= prev);
		prev = t;
	}
}

static void test_tsc_tracks_monotonic(void **state)
{
	struct timespec pause = { 0, 50000000 };
	uint64_t c0, m0, c1, m1;
	double drift;

	(void)state;
	if (clock_setup(CLOCK_SRC_TSC) != CLOCK_SRC_TSC)
		skip(); /* no invariant TSC here */
	c0 = clock_ns();
	m0 = clock_mono_ns();
	nanosleep(&pause, NULL);
	c1 = clock_ns();
	m1 = clock_mono_ns();
	drift = ((double)(c1 - c0) - (double)(m1 - m0)) / (double)(m1 - m0);
	assert_true(drift < 0.01 && drift > -0.01);
	/* Absolute values stay close to CLOCK_MONOTONIC too. */
	assert_true(c1 > m1 - 5000000 && c1 < m1 + 5000000);
	clock_setup(CLOCK_SRC_VDSO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_auto_is_monotonic),
		cmocka_unit_test(test_tsc_tracks_monotonic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
