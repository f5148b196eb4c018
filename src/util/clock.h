/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The run's clock: CLOCK_MONOTONIC through the vDSO (no syscall), in
 * nanoseconds. Every timestamp of a run comes from here.
 */
#ifndef IOLAB_UTIL_CLOCK_H
#define IOLAB_UTIL_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Sleep until the monotonic time @t_ns (returns early on a signal). */
static inline void clock_sleep_until(uint64_t t_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(t_ns / 1000000000ull),
		.tv_nsec = (long)(t_ns % 1000000000ull),
	};

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

#endif
