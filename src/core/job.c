// SPDX-License-Identifier: GPL-2.0-or-later
/* Job specs: defaults, validation, names; see job.h. */
#include <stdio.h>

#include "job.h"
#include "resources.h"
#include "../util/fsread.h"
#include "../util/err.h"
#include "../util/parse.h"

const char *const rw_names[] = { "read", "write",  "randread", "randwrite",
				 "rw",	 "randrw", NULL };
const char *const cache_names[] = { "none",	 "directsync", "writethrough",
				    "writeback", "unsafe",     NULL };

/* fio's default percentile list. */
static const double default_percentiles[] = { 1,  5,	10,   20,    30,   40,
					      50, 60,	70,   80,    90,   95,
					      99, 99.5, 99.9, 99.95, 99.99 };

void job_defaults(struct job_spec *j)
{
	*j = (struct job_spec){
		.rw = RW_RANDREAD,
		.mix_read_pct = 70,
		.bs = 4096,
		.qd = 1,
		.threads = 1,
		.runtime_ns = 10000000000ull,
		.engine = engine_best(),
		.cache = CACHE_NONE,
		.pattern = PATTERN_RANDOM,
		.seed = 0x10ab,
	};
	j->npercentiles = (int)(sizeof(default_percentiles) /
				sizeof(default_percentiles[0]));
	for (int i = 0; i < j->npercentiles; i++)
		j->percentiles[i] = default_percentiles[i];
}

bool rw_is_random(enum rw_mode rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW;
}

bool rw_reads(const struct job_spec *j)
{
	switch (j->rw) {
	case RW_READ:
	case RW_RANDREAD:
		return true;
	case RW_RW:
	case RW_RANDRW:
		return j->mix_read_pct > 0;
	default:
		return false;
	}
}

bool rw_writes(const struct job_spec *j)
{
	switch (j->rw) {
	case RW_WRITE:
	case RW_RANDWRITE:
		return true;
	case RW_RW:
	case RW_RANDRW:
		return j->mix_read_pct < 100;
	default:
		return false;
	}
}

const char *rw_name(enum rw_mode rw)
{
	return rw_names[rw];
}

bool cache_direct(enum cache_mode c)
{
	return c == CACHE_NONE || c == CACHE_DIRECTSYNC;
}

bool cache_dsync(enum cache_mode c)
{
	return c == CACHE_DIRECTSYNC || c == CACHE_WRITETHROUGH;
}

bool cache_no_flush(enum cache_mode c)
{
	return c == CACHE_UNSAFE;
}

const char *cache_name(enum cache_mode c)
{
	return cache_names[c];
}

const char *cache_words(enum cache_mode c)
{
	if (cache_direct(c))
		return cache_dsync(c) ? "O_DIRECT, O_DSYNC" : "O_DIRECT";
	return cache_dsync(c) ? "page cache, O_DSYNC" : "page cache";
}

const char *cache_risk(enum cache_mode c)
{
	switch (c) {
	case CACHE_NONE:
		return "safe if the guest flushes";
	case CACHE_DIRECTSYNC:
	case CACHE_WRITETHROUGH:
		return "safe: every write durable";
	case CACHE_WRITEBACK:
		return "host RAM: safe if the guest flushes";
	case CACHE_UNSAFE:
		return "data loss: flushes ignored";
	default:
		return "";
	}
}

bool job_qemu_refuses(enum engine_kind e, enum cache_mode c, struct err *err)
{
	const char *aio = engine_qemu_aio(e);

	if (!engine_has(e, ENGINE_NEEDS_DIRECT) || cache_direct(c))
		return false;
	err_set(err, EXIT_ENV, 0,
		"QEMU refuses aio=%s with cache=%s: \"aio=%s was specified, but it requires cache.direct=on, which was not specified.\" Linux AIO is only asynchronous with O_DIRECT; use --cache none or directsync, another --engine, or --force to measure it anyway",
		aio, cache_name(c), aio);
	return true;
}

const char *job_qemu_words(enum engine_kind e, enum cache_mode c, char *buf,
			   size_t len)
{
	snprintf(buf, len, "aio=%s cache=%s", engine_name(e), cache_name(c));
	return buf;
}

unsigned int job_lanes(const struct job_spec *j)
{
	/* QEMU's thread pool: one blocking worker per outstanding request. */
	if (engine_has(j->engine, ENGINE_THREAD_PER_IO))
		return j->threads * j->qd;
	return j->threads;
}

unsigned int job_lane_depth(const struct job_spec *j)
{
	return engine_has(j->engine, ENGINE_THREAD_PER_IO) ? 1 : j->qd;
}

unsigned int job_submit_batch(const struct job_spec *j)
{
	unsigned int depth = job_lane_depth(j), b = j->submit_batch;

	if (!b) {
		b = depth / 8;
		b = b < 1 ? 1 : b > 4 ? 4 : b;
	}
	return b < depth ? b : depth;
}

uint64_t job_buffer_bytes(const struct job_spec *j)
{
	uint64_t stride = (j->bs + 4095) & ~4095ull;

	if (!engine_uses_buffers(j->engine))
		return 0;
	/* At most 256 x 4096 x 64 MiB = 2^46: no overflow. */
	return stride * job_lane_depth(j) * job_lanes(j);
}

bool job_check_memory(const struct job_spec *j, const char *fix,
		      struct err *err)
{
	char desc[96], bs[16];

	snprintf(desc, sizeof(desc), "QD %u x %u thread%s x %s blocks", j->qd,
		 j->threads, j->threads == 1 ? "" : "s",
		 fmt_size(j->bs, bs, sizeof(bs)));
	return res_check_buffers(&fsview_host, job_buffer_bytes(j), desc, fix,
				 err);
}

int job_cpus(const struct job_spec *j, int *cpus, int max, struct err *err)
{
	static bool allowed[PARSE_MAX_CPU];
	char list[256];
	int n;

	if (!j->cpus)
		return 0;
	n = parse_cpu_list(j->cpus, cpus, max, err);
	if (n < 0) {
		err_prefix(err, "--cpus");
		return -1;
	}
	if (!res_cpus_allowed(allowed))
		return n; /* unknown: pthread_setaffinity_np will tell */
	for (int i = 0; i < n; i++) {
		if (allowed[cpus[i]])
			continue;
		err_set(err, EXIT_USAGE, 0,
			"--cpus %s: CPU %d is not one this process can run on; the online CPUs it may use are %s",
			j->cpus, cpus[i],
			fmt_cpu_list(allowed, list, sizeof(list)));
		return -1;
	}
	return n;
}

bool job_validate(const struct job_spec *j, struct err *err)
{
	int cpus[PARSE_MAX_CPU];

	if (!j->bs)
		return err_set(err, EXIT_USAGE, 0,
			       "--bs must be at least 1 byte");
	if (j->bs > (64u << 20))
		return err_set(err, EXIT_USAGE, 0,
			       "--bs %llu is above the 64 MiB limit",
			       (unsigned long long)j->bs);
	if (!j->qd || j->qd > 4096)
		return err_set(err, EXIT_USAGE, 0,
			       "--qd must be between 1 and 4096");
	if (!j->threads || j->threads > 256)
		return err_set(err, EXIT_USAGE, 0,
			       "--threads must be between 1 and 256");
	if (engine_has(j->engine, ENGINE_ONE_AT_A_TIME) && j->qd > 1)
		return err_set(
			err, EXIT_USAGE, 0,
			"--engine %s does one I/O at a time, so --qd must be 1; use --engine threads (a pool, like QEMU's aio=threads) or io_uring for QD %u",
			engine_name(j->engine), j->qd);
	if (engine_has(j->engine, ENGINE_THREAD_PER_IO) &&
	    j->qd * j->threads > 1024)
		return err_set(
			err, EXIT_USAGE, 0,
			"--engine %s runs one worker per outstanding I/O: --qd %u x --threads %u is above 1024 workers",
			engine_name(j->engine), j->qd, j->threads);
	if (j->runtime_ns && j->runtime_ns < JOB_MIN_RUNTIME_NS)
		return err_set(
			err, EXIT_USAGE, 0,
			"--runtime below 1ms ends before an I/O can complete, so nothing would be measured; give at least 1ms");
	if (!j->runtime_ns && !j->ios)
		return err_set(err, EXIT_USAGE, 0,
			       "give --runtime or --ios (a run needs an end)");
	if (j->mix_read_pct > 100)
		return err_set(err, EXIT_USAGE, 0,
			       "--mix is a percentage of reads: 0 to 100");
	if (j->flush_every && !rw_writes(j))
		return err_set(
			err, EXIT_USAGE, 0,
			"--flush-every needs writes; use --rw write, randwrite, rw or randrw");
	if (j->rate_iops && j->rate_iops > 100000000)
		return err_set(
			err, EXIT_USAGE, 0,
			"--rate-iops above 100 million is not a rate limit");
	if (j->ios && j->ios < job_lanes(j))
		return err_set(
			err, EXIT_USAGE, 0,
			"--ios %llu is fewer than the %u workers; give at least one I/O each",
			(unsigned long long)j->ios, job_lanes(j));
	if (!j->force && job_qemu_refuses(j->engine, j->cache, err))
		return false;
	if (job_cpus(j, cpus, PARSE_MAX_CPU, err) < 0)
		return false;
	return true;
}
