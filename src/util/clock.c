// SPDX-License-Identifier: GPL-2.0-or-later
/* Choosing and calibrating the run's clock; see clock.h. */
#include <stdio.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "clock.h"

struct clock_tsc clock_tsc;
static int chosen = -1;

/* Invariant TSC: CPUID 0x80000007 EDX bit 8 (constant and non-stop). */
static bool tsc_invariant(void)
{
#if defined(__x86_64__)
	unsigned int a, b, c, d;

	if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000007 &&
	    __get_cpuid(0x80000007, &a, &b, &c, &d))
		return (d >> 8) & 1;
#endif
	return false;
}

/* Mean cost of one clock_gettime(), in ns. */
static double gettime_cost_ns(void)
{
	uint64_t t0 = clock_mono_ns(), t1;
	int n = 256;

	for (int i = 0; i < n; i++)
		(void)clock_mono_ns();
	t1 = clock_mono_ns();
	return (double)(t1 - t0) / n;
}

static void tsc_calibrate(void)
{
#if defined(__x86_64__)
	struct timespec pause = { 0, 20000000 }; /* 20 ms */
	uint64_t c0, n0, c1, n1;

	n0 = clock_mono_ns();
	c0 = __builtin_ia32_rdtsc();
	nanosleep(&pause, NULL);
	n1 = clock_mono_ns();
	c1 = __builtin_ia32_rdtsc();
	if (c1 <= c0 || n1 <= n0)
		return;
	clock_tsc.mult =
		(uint64_t)(((unsigned __int128)(n1 - n0) << 32) / (c1 - c0));
	clock_tsc.base_cycles = c1;
	clock_tsc.base_ns = n1;
	clock_tsc.on = true;
#endif
}

enum clock_source clock_setup(int force)
{
	if (force >= 0) {
		clock_tsc.on = false;
		if (force == CLOCK_SRC_TSC && tsc_invariant())
			tsc_calibrate();
		chosen = clock_tsc.on		? CLOCK_SRC_TSC :
			 force == CLOCK_SRC_TSC ? CLOCK_SRC_SYSCALL :
						  force;
		return (enum clock_source)chosen;
	}
	if (chosen >= 0)
		return (enum clock_source)chosen;
	/* A vDSO read is tens of ns; a syscall hundreds at least. */
	if (gettime_cost_ns() < 150) {
		chosen = CLOCK_SRC_VDSO;
	} else if (tsc_invariant()) {
		tsc_calibrate();
		chosen = clock_tsc.on ? CLOCK_SRC_TSC : CLOCK_SRC_SYSCALL;
	} else {
		chosen = CLOCK_SRC_SYSCALL;
	}
	return (enum clock_source)chosen;
}

const char *clock_source_name(enum clock_source s)
{
	switch (s) {
	case CLOCK_SRC_VDSO:
		return "clock_gettime (vDSO)";
	case CLOCK_SRC_SYSCALL:
		return "clock_gettime (system call)";
	case CLOCK_SRC_TSC:
		return "invariant TSC";
	}
	return "?";
}
