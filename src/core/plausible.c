// SPDX-License-Identifier: GPL-2.0-or-later
/* Plausibility warnings; see plausible.h. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "plausible.h"
#include "target.h"
#include "result.h"
#include "unbacked.h"
#include "../util/clock.h"
#include "../util/parse.h"
#include "../util/xmem.h"

/* No disk answers a read faster than this; below it is a cache (RAM). */
#define DISK_FLOOR_NS 5000
/* SATA 6 Gb/s carries at most 600 MB/s of data. */
#define SATA_MBPS 600.0
/* A 15k rpm disk seeks some 200-400 times a second at QD1; a full queue
 * over a short stroke (a small test region) may double that. */
#define HDD_MAX_RANDOM_IOPS 2000
/* What sampling the read data may cost after a run. */
#define SAMPLE_BUDGET_NS 200000000ull

bool plausible_unbacked_id(const char *id)
{
	return !strcmp(id, "unwritten-reads") || !strcmp(id, "zero-reads") ||
	       !strcmp(id, "repeated-reads");
}

bool plausible_unbacked(const struct warnings *w)
{
	for (size_t i = 0; i < w->n; i++)
		if (plausible_unbacked_id(w->v[i].id))
			return true;
	return false;
}

bool plausible_virtualized(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;

	if (__get_cpuid(1, &a, &b, &c, &d))
		return (c >> 31) & 1;
#endif
	return false;
}

/* Fraction of the region's pages resident in the page cache, or -1. */
static double resident_fraction(const struct target *t)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t off = t->region_off & ~(uint64_t)(page - 1);
	uint64_t len = t->region_len + (t->region_off - off);
	size_t pages, hits = 0;
	unsigned char *vec;
	void *map;
	int fd;

	if (len > (64ull << 30))
		return -1; /* the vector would be too large to be worth it */
	fd = target_reopen(t, O_RDONLY, NULL);
	if (fd < 0)
		return -1;
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	pages = (len + (uint64_t)page - 1) / (uint64_t)page;
	vec = xmalloc(pages);
	if (mincore(map, len, vec)) {
		free(vec);
		munmap(map, len);
		return -1;
	}
	for (size_t i = 0; i < pages; i++)
		hits += vec[i] & 1;
	free(vec);
	munmap(map, len);
	return (double)hits / (double)pages;
}

/*
 * Truth rule: a read answered with zeros the disk never stored. Asked of
 * the filesystem where it can tell (unwritten extents of a fallocated
 * file); else seen in a sample of what the region holds. A region iolab
 * filled with --pattern zero is zeros on purpose.
 */
static void unbacked_check(const struct job_spec *j, const struct target *t,
			   struct warnings *w)
{
	struct unbacked_sample s;
	double frac;
	int fd;

	if (t->sparse || j->pattern == PATTERN_ZERO)
		return; /* said already, or zeros on purpose */
	fd = target_reopen(t, O_RDONLY | O_DIRECT, NULL);
	if (fd < 0)
		fd = target_reopen(t, O_RDONLY, NULL);
	if (fd < 0)
		return;
	if (!t->is_bdev &&
	    unbacked_extents(fd, t->region_off, t->region_len, &frac)) {
		if (frac >= 0.1) {
			warn_add(
				w, "unwritten-reads",
				"%.0f%% of the test region of %s is allocated but never written (fallocate, qemu-img preallocation=falloc): the filesystem answers those reads with zeros without reading the disk; let iolab create its own test file, or write the region first",
				100 * frac, t->path);
			close(fd);
			return;
		}
	}
	if (unbacked_sample(fd, t->region_off, t->region_len, SAMPLE_BUDGET_NS,
			    &s) &&
	    s.blocks >= 8) {
		if (s.zero * 10 >= s.blocks * 9)
			warn_add(
				w, "zero-reads",
				"%u of %u blocks sampled from the test region of %s read back as zeros: a thin or sparse device (a thin LV, a sparse or falloc image behind a virtual disk) answers blocks never written without reading the disk; write the region first (--allow-write-device and a write run) or measure a file iolab creates",
				s.zero, s.blocks, t->path);
		else if ((s.zero + s.repeated) * 10 >= s.blocks * 9)
			warn_add(
				w, "repeated-reads",
				"%u of %u blocks sampled from the test region of %s hold the same data: storage that deduplicates serves such blocks from one copy, often from its cache; write varied data first or measure a file iolab creates",
				s.zero + s.repeated, s.blocks, t->path);
	}
	close(fd);
}

/*
 * Truth rule: writes acknowledged from a cache. Unless each write was
 * durable at completion (directsync, writethrough), what a run wrote may
 * sit in a cache (the page cache with writeback/unsafe; the host's page
 * cache under a guest's cache=none on a host with cache=writeback; a
 * drive's volatile cache). One flush at the end makes it reach the
 * storage: when that flush takes a real share of the run's time, the
 * write figures were the cache's, and the rate counting it is given.
 */
static void cached_writes(struct run_result *r, const struct target *t,
			  struct warnings *w)
{
	const struct dir_stats *wr = &r->dir[DIR_WRITE];
	uint64_t t0;
	double flush_s;
	char size[32];
	int fd;

	if (!wr->ios || cache_dsync(r->spec.cache) || r->elapsed_s <= 0)
		return;
	fd = target_reopen(t, O_RDONLY, NULL);
	if (fd < 0)
		return;
	t0 = clock_mono_ns();
	if (fdatasync(fd)) {
		close(fd);
		return;
	}
	flush_s = (double)(clock_mono_ns() - t0) / 1e9;
	close(fd);
	r->cache_flush_s = flush_s;
	if (!result_writes_cached(r))
		return;
	warn_add(
		w, "cached-writes",
		"the writes were acknowledged from a cache: %s written in %.2f s, but the flush after the run took %.2f s more to put them on the storage; counting it, the writes ran at %.0f MB/s, not %.0f (cache=%s%s)",
		fmt_size(wr->bytes, size, sizeof(size)), r->elapsed_s, flush_s,
		(double)wr->bytes / (r->elapsed_s + flush_s) / 1e6,
		result_mbps(r, DIR_WRITE), cache_name(r->spec.cache),
		cache_direct(r->spec.cache) ?
			": the device's or the host's write cache" :
			": the page cache");
}

/*
 * Little's law as a self-check: in a closed loop the requests in flight on
 * average (the measured latencies summed over the measured time) cannot
 * exceed the slots iolab had, except by the requests that straddle the
 * window's edges. More means a clock or an accounting fault, and no figure
 * of the run can be trusted.
 */
static void littles_law(const struct run_result *r, struct warnings *w)
{
	const struct job_spec *j = &r->spec;
	double slots = (double)job_lanes(j) * job_lane_depth(j);
	double busy_s = 0, max_s = 0, allowed;
	uint64_t ios = 0;

	if (j->rate_iops || r->elapsed_s < 0.5)
		return; /* paced: latency counts the backlog, by design */
	for (int d = DIR_READ; d <= DIR_WRITE; d++) {
		const struct hist *h = &r->dir[d].lat;

		ios += h->count;
		busy_s += (double)h->sum / 1e9;
		if ((double)h->max / 1e9 > max_s)
			max_s = (double)h->max / 1e9;
	}
	if (ios < 1000)
		return;
	allowed = slots * (1.05 + max_s / r->elapsed_s);
	if (busy_s / r->elapsed_s > allowed)
		warn_add(
			w, "littles-law",
			"IOPS x mean latency says %.1f requests were in flight on average, more than the %.0f iolab keeps in flight: the figures contradict each other (a clock or accounting fault); do not use them, and report it",
			busy_s / r->elapsed_s, slots);
}

/*
 * The bus and the device class: on bare metal (in a guest, the device's
 * bus is emulated and its limits are the host's), no disk delivers more
 * than its link carries, and no single rotating disk on a SATA port seeks
 * thousands of times a second.
 */
void plausible_physics(const struct run_result *r, const struct target_env *e,
		       bool virtualized, struct warnings *w)
{
	const struct job_spec *j = &r->spec;
	double mbps = result_mbps(r, DIR_READ) + result_mbps(r, DIR_WRITE);
	double iops = result_iops(r, DIR_READ) + result_iops(r, DIR_WRITE);
	bool sata = !strcmp(e->driver, "ahci") ||
		    !strcmp(e->driver, "ata_piix");

	if (virtualized || r->elapsed_s <= 0)
		return;
	if (sata && mbps > SATA_MBPS)
		warn_add(
			w, "above-bus",
			"%.0f MB/s is more than a SATA link carries (600 MB/s): part of it came from a cache",
			mbps);
	else if (e->link_mbps > 0 && mbps > e->link_mbps)
		warn_add(
			w, "above-bus",
			"%.0f MB/s is more than %s's PCIe link carries (%s: %.0f MB/s): part of it came from a cache",
			mbps, e->device, e->link, e->link_mbps);
	if (sata && e->rotational == 1 && rw_is_random(j->rw) &&
	    j->bs <= (64u << 10) && iops > HDD_MAX_RANDOM_IOPS)
		warn_add(
			w, "above-device-class",
			"%.0f random IOPS from a rotating disk on a SATA port, which seeks a few hundred times a second (at most ~%d with a full queue on a short stroke): a cache (the drive's, a controller's, the page cache) served them",
			iops, HDD_MAX_RANDOM_IOPS);
}

void plausible_check(struct run_result *r, const struct target *t)
{
	const struct job_spec *j = &r->spec;
	struct warnings *w = &r->warnings;
	const struct dir_stats *rd = &r->dir[DIR_READ];
	bool direct = cache_direct(j->cache);

	if (engine_has(j->engine, ENGINE_NO_IO)) {
		warn_add(
			w, "null-engine",
			"--engine %s does no I/O: these figures are iolab's own cost, not a device's",
			engine_name(j->engine));
		return;
	}
	if (t->env.ram_backed)
		warn_add(
			w, "ram-target",
			"%s is backed by RAM (%s): the figures measure memory and the software path, not a disk",
			t->path,
			t->env.fs_type[0] ? t->env.fs_type : t->env.device);
	if (engine_has(j->engine, ENGINE_NEEDS_DIRECT) && !direct)
		warn_add(
			w, "native-buffered",
			"aio=%s without O_DIRECT (forced): io_submit() blocks until each request is done, so the queue depth is effectively 1; QEMU refuses this setting",
			engine_qemu_aio(j->engine));
	if (j->pattern == PATTERN_ZERO && rw_writes(j))
		warn_add(
			w, "zero-data",
			"--pattern zero writes zeros: compressing or deduplicating storage (ZFS, btrfs compress, VDO, thin arrays) completes them without writing, so write figures may flatter");

	if (rd->ios && !direct && !j->warm_cache) {
		double f = resident_fraction(t);

		if (f > 0.1)
			warn_add(
				w, "page-cache-reads",
				"%.0f%% of the test region was in the host page cache at the end: buffered reads (cache=%s) were served from memory after the first pass, not from the disk",
				100 * f, cache_name(j->cache));
	}
	if (rd->ios)
		unbacked_check(j, t, w);
	if (rd->ios >= 100 && !t->env.ram_backed && direct &&
	    hist_percentile(&rd->lat, 50) < DISK_FLOOR_NS)
		warn_add(
			w, "below-disk-latency",
			"median read latency %.1f us is below what any disk can do: reads were served from a cache (host page cache, array cache, or a RAM disk)",
			hist_percentile(&rd->lat, 50) / 1e3);
	plausible_physics(r, &t->env, plausible_virtualized(), w);
	littles_law(r, w);
	cached_writes(r, t, w);
	if (j->rate_iops && r->elapsed_s > 0 &&
	    (double)result_total_ios(r) / r->elapsed_s <
		    0.95 * (double)j->rate_iops &&
	    !r->partial)
		warn_add(
			w, "rate-not-met",
			"the target could not sustain --rate-iops %llu (%.0f achieved); latency counts from each request's intended start, so the backlog shows in it",
			(unsigned long long)j->rate_iops,
			(double)result_total_ios(r) / r->elapsed_s);
	for (int d = DIR_READ; d <= DIR_WRITE; d++) {
		const char *name = d == DIR_READ ? "read" : "write";
		uint64_t n = r->dir[d].ios;

		if (n && n <= 100) {
			warn_add(
				w, "few-samples",
				"only %llu %s I/Os were measured: too few for percentiles to mean much; run longer",
				(unsigned long long)n, name);
			break;
		}
		if (n && n < 10000) {
			warn_add(
				w, "few-samples",
				"only %llu %s I/Os were measured: percentiles above p%.4g rest on fewer than 10 samples",
				(unsigned long long)n, name,
				100.0 * (1.0 - 10.0 / (double)n));
			break;
		}
	}
}
