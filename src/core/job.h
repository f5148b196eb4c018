/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A job: one workload on one target, as `iolab run` takes it and as mark,
 * matrix and calibrate build them. job_validate() checks what can be checked
 * without the target; target-dependent checks are in target.c.
 */
#ifndef IOLAB_CORE_JOB_H
#define IOLAB_CORE_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/engine.h"

struct err;

enum rw_mode {
	RW_READ,
	RW_WRITE,
	RW_RANDREAD,
	RW_RANDWRITE,
	RW_RW,
	RW_RANDRW,
};

/* QEMU's cache= modes; see design.md section 3. */
enum cache_mode {
	CACHE_NONE,
	CACHE_DIRECTSYNC,
	CACHE_WRITETHROUGH,
	CACHE_WRITEBACK,
	CACHE_UNSAFE,
	CACHE_COUNT,
};

enum data_pattern {
	PATTERN_RANDOM, /* incompressible, changed on every write */
	PATTERN_ZERO,
};

#define JOB_MAX_PERCENTILES 24
/* Shorter runs end before an I/O can complete: nothing is measured. */
#define JOB_MIN_RUNTIME_NS 1000000ull

struct job_spec {
	enum rw_mode rw;
	unsigned int mix_read_pct; /* for rw/randrw: share of reads */
	uint64_t bs;
	unsigned int qd;
	unsigned int submit_batch; /* most I/Os per submit call, 0 = auto */
	unsigned int threads;
	uint64_t runtime_ns; /* 0 = until ios (then required) */
	uint64_t ramp_ns;
	uint64_t ios; /* 0 = until runtime */
	enum engine_kind engine;
	enum cache_mode cache;
	uint64_t flush_every; /* fdatasync every N writes, 0 = never */
	uint64_t rate_iops; /* 0 = closed loop */
	enum data_pattern pattern;
	uint64_t seed;
	bool warm_cache; /* keep the page cache before buffered reads */
	bool force; /* measure what QEMU would refuse */
	int npercentiles;
	double percentiles[JOB_MAX_PERCENTILES];
	const char *cpus; /* CPU list to pin lanes to, or NULL */
};

/* Defaults: randread 4k QD1 T1, 10 s, io_uring or best, cache none. */
void job_defaults(struct job_spec *j);
/* Check the spec for contradictions (not the target). */
bool job_validate(const struct job_spec *j, struct err *err);

bool rw_is_random(enum rw_mode rw);
bool rw_reads(const struct job_spec *j);
bool rw_writes(const struct job_spec *j);
const char *rw_name(enum rw_mode rw);
extern const char *const rw_names[];

/* The three knobs behind a cache mode (reference/qemu.md 1.1). */
bool cache_direct(enum cache_mode c); /* O_DIRECT */
bool cache_dsync(enum cache_mode c); /* writes durable at completion */
bool cache_no_flush(enum cache_mode c); /* flushes dropped */
const char *cache_name(enum cache_mode c);
/* How the target is opened, in words: "O_DIRECT", "page cache, O_DSYNC". */
const char *cache_words(enum cache_mode c);
/* What the cache mode risks on host power loss, one short phrase. */
const char *cache_risk(enum cache_mode c);
extern const char *const cache_names[];

/*
 * QEMU refuses aio=native without cache.direct=on. Returns true (and fills
 * @err with QEMU's reason) when this engine/cache pair is such a refusal.
 */
bool job_qemu_refuses(enum engine_kind e, enum cache_mode c, struct err *err);
/* The pair as QEMU's options say it: "aio=native cache=none". */
const char *job_qemu_words(enum engine_kind e, enum cache_mode c, char *buf,
			   size_t len);

/*
 * Bytes of I/O buffers the runner maps for @j: a 4 KiB-rounded block per
 * request in flight, on every lane; 0 for an engine that needs none.
 */
uint64_t job_buffer_bytes(const struct job_spec *j);
/*
 * Refuse @j (EXIT_ENV) when its buffers would not fit in the memory
 * available (resources.h); @fix names the flags that shrink them.
 */
bool job_check_memory(const struct job_spec *j, const char *fix,
		      struct err *err);
/*
 * Parse j->cpus into @cpus (at most @max) and check every CPU is one this
 * process may run on. Returns the count (0 without --cpus) or -1 with
 * @err set (EXIT_USAGE, naming the CPUs it may use).
 */
int job_cpus(const struct job_spec *j, int *cpus, int max, struct err *err);

/* Number of lanes (threads doing I/O) and depth per lane. */
unsigned int job_lanes(const struct job_spec *j);
unsigned int job_lane_depth(const struct job_spec *j);
/*
 * Most I/Os one submit call hands to the kernel. A whole queue submitted
 * at once reaches a virtio disk in one burst and comes back in one, and
 * the burst repeats; an eighth of the depth (1 to 4) keeps it streaming.
 */
unsigned int job_submit_batch(const struct job_spec *j);

#endif
