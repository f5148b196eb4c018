/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `iolab top`: snapshots of /proc/diskstats, /proc/stat and
 * /proc/pressure/io, and the rates between two of them, computed as iostat
 * -x computes them. Nothing here opens a block device: the figures are the
 * kernel's own counters, so looking adds no load.
 */
#ifndef IOLAB_CMD_TOP_TOP_STATS_H
#define IOLAB_CMD_TOP_TOP_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct err;

/* The counters of one /proc/diskstats line, in the kernel's order. */
enum top_field {
	TF_RD_IOS,
	TF_RD_MERGES,
	TF_RD_SECT,
	TF_RD_TICKS, /* ms, 32 bits in the kernel */
	TF_WR_IOS,
	TF_WR_MERGES,
	TF_WR_SECT,
	TF_WR_TICKS,
	TF_IN_FLIGHT, /* a gauge, not a counter */
	TF_IO_TICKS, /* ms with at least one request in flight */
	TF_RQ_TICKS, /* ms x requests in flight (weighted) */
	TF_DC_IOS, /* discards: Linux 4.18 and later */
	TF_DC_MERGES,
	TF_DC_SECT,
	TF_DC_TICKS,
	TF_FL_IOS, /* flushes: Linux 5.5 and later */
	TF_FL_TICKS,
	TF_COUNT,
};

#define TOP_NAME_MAX 64
/* Bounds on what is read: a line is ~150 bytes, so room for ~7000 lines. */
#define TOP_READ_MAX (1u << 20)
#define TOP_DEVS_MAX 4096

struct top_dev {
	unsigned major, minor;
	char name[TOP_NAME_MAX]; /* control characters escaped (term.h) */
	bool name_clean; /* nothing was escaped: usable in a /sys path */
	int nfields; /* 11, 15 or 17 counters, by kernel version */
	uint64_t f[TF_COUNT];
};

struct top_snap {
	uint64_t t_ns; /* CLOCK_MONOTONIC when read */
	size_t n;
	struct top_dev *devs;
	bool truncated; /* more than TOP_READ_MAX or TOP_DEVS_MAX: the rest left */
	size_t skipped; /* lines that did not parse */
};

/*
 * Parse the text of /proc/diskstats (@len bytes, need not end in NUL) into
 * @s (its devices freed with top_snap_free). Malformed lines are counted
 * and skipped, never trusted.
 */
void top_parse(const char *buf, size_t len, struct top_snap *s);
/* Read @path (bounded) and parse it, stamping the time. */
bool top_read(const char *path, struct top_snap *s, struct err *err);
void top_snap_free(struct top_snap *s);
/* The device named @name; @hint (an index) is tried first, since the
   kernel lists devices in a stable order. */
const struct top_dev *top_find_near(const struct top_snap *s, const char *name,
				    size_t hint);
const struct top_dev *top_find(const struct top_snap *s, const char *name);

enum top_state {
	TOP_OK, /* rates over the interval */
	TOP_NEW, /* appeared since the last sample: rates from the next one */
	TOP_RESET, /* counters went back (re-attached): rates from the next */
};

/* One device over one interval; figures as iostat -x names them. */
struct top_rate {
	char name[TOP_NAME_MAX];
	unsigned major, minor;
	enum top_state state;
	int nfields;
	double interval_s;
	uint64_t d[TF_COUNT]; /* the counters' increase (in_flight: now) */
	double r_s, w_s, d_s, f_s; /* completed requests per second */
	double rrqm_s, wrqm_s; /* merged per second */
	double rmb_s, wmb_s, dmb_s; /* MB/s = 10^6 bytes per second */
	double r_await_ms, w_await_ms, d_await_ms, f_await_ms; /* 0 if none */
	double aqu_sz; /* mean requests in flight (Little's law) */
	double util_pct; /* time with a request in flight, at most 100 */
	unsigned in_flight; /* at the end of the interval */
};

/*
 * The increase of a counter from @prev to @cur. The kernel keeps the tick
 * counters in 32 bits (and all of them on 32-bit kernels), so a smaller
 * value that fits 32 bits is a wrap, if the increase it implies is below
 * 2^31; anything else going back is a reset. Returns false on a reset.
 */
bool top_delta(uint64_t prev, uint64_t cur, uint64_t *d);
/*
 * The rates of @cur against @prev (NULL: a new device) over @interval_s.
 * Returns the state written into @r.
 */
enum top_state top_rate_of(const struct top_dev *prev,
			   const struct top_dev *cur, double interval_s,
			   struct top_rate *r);

/* The whole system: CPU time shares and PSI io, where the kernel has them. */
struct top_sys_snap {
	uint64_t t_ns;
	bool cpu_ok;
	uint64_t cpu[8]; /* user nice system idle iowait irq softirq steal */
	int psi_err; /* 0, or -errno reading /proc/pressure/io */
	bool psi_full_ok;
	uint64_t psi_some_us, psi_full_us;
};

struct top_sys_rate {
	double iowait_pct, steal_pct; /* NaN if unknown */
	double psi_some_pct, psi_full_pct; /* NaN if unknown */
	int psi_err; /* why PSI is unknown: -ENOENT (not built), -EOPNOTSUPP */
};

void top_sys_parse_stat(const char *buf, struct top_sys_snap *s);
void top_sys_parse_psi(const char *buf, struct top_sys_snap *s);
/* Read /proc/stat and /proc/pressure/io under @root ("" live). */
void top_sys_read(const char *root, struct top_sys_snap *s);
void top_sys_rate_of(const struct top_sys_snap *prev,
		     const struct top_sys_snap *cur, struct top_sys_rate *r);

#endif
