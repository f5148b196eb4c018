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
struct target_env;
struct warnings;

void plausible_check(struct run_result *r, const struct target *t);
/* The bus and device-class rules alone (above-bus, above-device-class),
 * for a device of @e; none apply when @virtualized. */
void plausible_physics(const struct run_result *r, const struct target_env *e,
		       bool virtualized, struct warnings *w);
/* @id names a warning that reads were of a region no disk stored
 * (unwritten-reads, zero-reads, repeated-reads). */
bool plausible_unbacked_id(const char *id);
/* Some warning of @w says so. */
bool plausible_unbacked(const struct warnings *w);
/* True when running under a hypervisor (CPUID leaf 1, ECX bit 31). */
bool plausible_virtualized(void);

#endif
