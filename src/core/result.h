/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The result model of one job: what the runner measured, with no printing.
 * Renderers (text, JSON) and the suites (mark, matrix, calibrate) read it.
 */
#ifndef IOLAB_CORE_RESULT_H
#define IOLAB_CORE_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "job.h"
#include "hist.h"
#include "../util/warn.h"

enum { DIR_READ = 0, DIR_WRITE = 1, DIR_FLUSH = 2, DIR_COUNT = 3 };

/*
 * The directions by the names every table, CSV line and JSON key uses: a
 * run's rows (DIR_*, and enum io_op, which counts the same way) and a
 * suite's tests (mark, matrix, lab: read, write, and mix, the two at once).
 */
const char *result_dir_name(int dir); /* "read", "write", "flush" */
extern const char *const suite_dir_names[]; /* "read", "write", "mix", NULL */
extern const char *const suite_dir_labels[]; /* "Read", "Write", "Mix", NULL */

struct dir_stats {
	uint64_t ios;
	uint64_t bytes;
	struct hist lat;
};

/* One second of the measured phase. */
struct ts_point {
	uint32_t ios[2]; /* read, write */
};

struct run_result {
	struct job_spec spec;
	char engine_features[96];
	unsigned int lanes;
	struct dir_stats dir[DIR_COUNT];
	uint64_t flush_skipped; /* cache=unsafe: flushes dropped */
	/* The flush timed after a run whose writes were not durable at
	 * completion (plausible.c): the time its writes still needed to reach
	 * the storage. 0 when not measured. */
	double cache_flush_s;
	uint64_t ramp_ios; /* completed during --ramp, not counted */
	uint64_t ramp_lat_ns; /* their latencies summed (not counted either) */
	/* Measured requests: total time from due to their submit call. */
	uint64_t submit_wait_ns, submit_wait_n;
	double elapsed_s; /* measured phase */
	double user_s, sys_s; /* CPU of the whole process, measured phase */
	uint32_t nts;
	struct ts_point *ts;
	bool partial; /* stopped early */
	int stop_signal; /* the signal that stopped it, or 0 */
	uint64_t errors;
	int first_errno; /* 0 with errors > 0: a short transfer */
	int first_err_op; /* enum io_op */
	uint64_t first_err_off;
	int64_t first_err_res;
	struct warnings warnings;
};

/* Why a run or a suite stopped early, in the words of the PARTIAL line:
 * by signal @sig ("interrupted by Ctrl-C"), or by an I/O error if 0. */
const char *result_stop_words(int sig);

double result_iops(const struct run_result *r, int dir);
double result_mbps(const struct run_result *r, int dir); /* 10^6 B/s */
double result_mibps(const struct run_result *r, int dir); /* 2^20 B/s */
/* MB/s of reads and writes together that reached the storage: the
 * cache flush after the run counted in the time. */
double result_storage_mbps(const struct run_result *r);
/* That flush took a real share of the run: its write figures were a
 * cache's (the "cached-writes" warning). */
bool result_writes_cached(const struct run_result *r);
/* The time the per-second series covers: the measured phase, without
 * the drain of a timed run's last requests after its --runtime. */
double result_window_s(const struct run_result *r);
/* All reads and writes together. */
uint64_t result_total_ios(const struct run_result *r);
double result_cpu_us_per_io(const struct run_result *r);
/* Mean time a due request waited for its submit call (iolab's share of
 * the latency), ns. */
double result_submit_wait_ns(const struct run_result *r);
/*
 * For reports: @v if direction @d completed I/O in a measured time, else
 * NAN, which the renderers show as "-", null or an empty CSV field. A
 * figure nothing was measured for is never shown as 0.
 */
double result_dir_fig(const struct run_result *r, int dir, double v);
/* The same for the whole run's CPU cost and submit wait. */
double result_cpu_fig(const struct run_result *r);
double result_wait_fig(const struct run_result *r);
void result_free(struct run_result *r);

#endif
