/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a run may take from the machine, checked before anything is
 * allocated or created: memory for the I/O buffers (MemAvailable and the
 * cgroup limits above this process) and the CPUs it may run on.
 */
#ifndef IOLAB_CORE_RESOURCES_H
#define IOLAB_CORE_RESOURCES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct err;
struct fsview;

/*
 * Memory this process may still take: the lesser of /proc/meminfo's
 * MemAvailable and, for each cgroup (v2 memory.max, v1
 * memory.limit_in_bytes) from this process's group up to the root, the
 * limit less what the group holds beyond its page cache. @what gets the
 * figure that bound it ("MemAvailable", "cgroup /a/b memory.max").
 * Returns false when not even MemAvailable could be read.
 */
bool res_mem_available(const struct fsview *v, uint64_t *bytes, char *what,
		       size_t len);

/*
 * Refuse (EXIT_ENV) @bytes of I/O buffers above RES_MEM_SHARE of the
 * memory available; @desc says what they are ("QD 8 x 1 thread x 1 MiB"),
 * @fix the flags that shrink them. Nothing is refused when the memory
 * figures cannot be read.
 */
#define RES_MEM_SHARE_PCT 75
bool res_check_buffers(const struct fsview *v, uint64_t bytes, const char *desc,
		       const char *fix, struct err *err);

/*
 * The CPUs this process may run on (sched_getaffinity: online and allowed
 * by its cpuset), @set with PARSE_MAX_CPU flags. False if unknown.
 */
bool res_cpus_allowed(bool *set);

#endif
