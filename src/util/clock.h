/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The run's clock, in nanoseconds of CLOCK_MONOTONIC. Normally
 * clock_gettime() through the vDSO (~20 ns, no syscall). Where the kernel's
 * clocksource has no vDSO path (hpet, acpi_pm: every read is a syscall of a
 * microsecond or more, which a load generator would measure as latency),
 * clock_setup() switches to the CPU's invariant TSC, calibrated against
 * CLOCK_MONOTONIC; without an invariant TSC it stays on clock_gettime().
 */
#ifndef IOLAB_UTIL_CLOCK_H
#define IOLAB_UTIL_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

enum clock_source {
	CLOCK_SRC_VDSO, /* clock_gettime, cheap */
	CLOCK_SRC_SYSCALL, /* clock_gettime, slow, no invariant TSC */
	CLOCK_SRC_TSC, /* calibrated invariant TSC */
};

struct clock_tsc {
	bool on;
	uint64_t base_cycles, base_ns;
	uint64_t mult; /* ns per cycle, << 32 */
};

extern struct clock_tsc clock_tsc;

static inline uint64_t clock_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t clock_ns(void)
{
#if defined(__x86_64__)
	if (__builtin_expect(clock_tsc.on, 0))
		return clock_tsc.base_ns +
		       (uint64_t)(((unsigned __int128)(__builtin_ia32_rdtsc() -
						       clock_tsc.base_cycles) *
				   clock_tsc.mult) >>
				  32);
#endif
	return clock_mono_ns();
}

/*
 * Choose the source once per process (cheap after the first call). @force
 * may be -1 (decide), or an enum clock_source to force (tests). Returns the
 * source in use.
 */
enum clock_source clock_setup(int force);
const char *clock_source_name(enum clock_source s);

/* Sleep until the monotonic time @t_ns (returns early on a signal). */
static inline void clock_sleep_until(uint64_t t_ns)
{
	struct timespec ts;
	uint64_t now = clock_ns(), mono = clock_mono_ns();

	/* The TSC clock and CLOCK_MONOTONIC differ by a small offset. */
	if (t_ns > now)
		t_ns = mono + (t_ns - now);
	else
		t_ns = mono;
	ts.tv_sec = (time_t)(t_ns / 1000000000ull);
	ts.tv_nsec = (long)(t_ns % 1000000000ull);
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

#endif
