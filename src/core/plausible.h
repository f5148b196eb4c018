/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Truth rule 2 of design.md: flag results a device of this kind cannot
 * produce (page-cache reads, latency below any disk, throughput above the
 * bus) and runs whose figures are weaker than they look. Adds warnings to
 * the result; never changes a figure.
 */
#ifndef IOLAB_CORE_PLAUSIBLE_H
#define IOLAB_CORE_PLAUSIBLE_H

#include <stdbool.h>

struct run_result;
struct target;

void plausible_check(struct run_result *r, const struct target *t);
/* True when running under a hypervisor (CPUID leaf 1, ECX bit 31). */
bool plausible_virtualized(void);

#endif
