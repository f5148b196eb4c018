// SPDX-License-Identifier: GPL-2.0-or-later
/* Derived figures of a run result; see result.h. */
#include <math.h>
#include <signal.h>
#include <stdlib.h>

#include "result.h"

const char *const suite_dir_names[] = { "read", "write", "mix", NULL };
const char *const suite_dir_labels[] = { "Read", "Write", "Mix", NULL };

const char *result_dir_name(int dir)
{
	static const char *const names[DIR_COUNT] = { "read", "write",
						      "flush" };

	return dir >= 0 && dir < DIR_COUNT ? names[dir] : "?";
}

const char *result_stop_words(int sig)
{
	if (sig == SIGINT)
		return "interrupted by Ctrl-C";
	return sig ? "stopped by a signal" : "stopped by an I/O error";
}

double result_iops(const struct run_result *r, int dir)
{
	return r->elapsed_s > 0 ? (double)r->dir[dir].ios / r->elapsed_s : 0;
}

double result_mbps(const struct run_result *r, int dir)
{
	return r->elapsed_s > 0 ?
		       (double)r->dir[dir].bytes / r->elapsed_s / 1e6 :
		       0;
}

double result_mibps(const struct run_result *r, int dir)
{
	return r->elapsed_s > 0 ?
		       (double)r->dir[dir].bytes / r->elapsed_s / 1048576.0 :
		       0;
}

double result_storage_mbps(const struct run_result *r)
{
	double s = r->elapsed_s + r->cache_flush_s;

	if (s <= 0)
		return 0;
	return (double)(r->dir[DIR_READ].bytes + r->dir[DIR_WRITE].bytes) / s /
	       1e6;
}

double result_window_s(const struct run_result *r)
{
	double rt = (double)r->spec.runtime_ns / 1e9;

	return r->spec.runtime_ns && r->elapsed_s > rt ? rt : r->elapsed_s;
}

bool result_writes_cached(const struct run_result *r)
{
	return r->cache_flush_s >= 0.05 &&
	       r->cache_flush_s >= 0.1 * r->elapsed_s;
}

uint64_t result_total_ios(const struct run_result *r)
{
	return r->dir[DIR_READ].ios + r->dir[DIR_WRITE].ios;
}

double result_cpu_us_per_io(const struct run_result *r)
{
	uint64_t n = result_total_ios(r) + r->dir[DIR_FLUSH].ios;

	return n ? (r->user_s + r->sys_s) * 1e6 / (double)n : 0;
}

double result_submit_wait_ns(const struct run_result *r)
{
	return r->submit_wait_n ?
		       (double)r->submit_wait_ns / (double)r->submit_wait_n :
		       0;
}

double result_dir_fig(const struct run_result *r, int dir, double v)
{
	return r->dir[dir].ios && r->elapsed_s > 0 ? v : NAN;
}

double result_cpu_fig(const struct run_result *r)
{
	return result_total_ios(r) + r->dir[DIR_FLUSH].ios ?
		       result_cpu_us_per_io(r) :
		       NAN;
}

double result_wait_fig(const struct run_result *r)
{
	return r->submit_wait_n ? result_submit_wait_ns(r) : NAN;
}

void result_free(struct run_result *r)
{
	free(r->ts);
	r->ts = NULL;
	warnings_free(&r->warnings);
}
