// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The arithmetic of iostat -x (sysstat's compute_ext_disk_stats) on two
 * diskstats snapshots: per-second counts, MB/s, await = time spent by the
 * requests completed in the interval / their number, aqu-sz = weighted
 * time / interval (Little's law), %util = busy time / interval.
 */
#include <math.h>
#include <string.h>

#include "top_stats.h"

bool top_delta(uint64_t prev, uint64_t cur, uint64_t *d)
{
	if (cur >= prev) {
		*d = cur - prev;
		return true;
	}
	if (prev <= UINT32_MAX) {
		uint64_t w = (UINT32_MAX - prev) + cur + 1;

		if (w < (1ull << 31)) {
			*d = w;
			return true;
		}
	}
	*d = 0;
	return false;
}

static double per_s(uint64_t n, double s)
{
	return s > 0 ? (double)n / s : 0;
}

static double await_ms(uint64_t ticks, uint64_t ios)
{
	/* iostat prints 0.00 for a kind with no request completed. */
	return ios ? (double)ticks / (double)ios : 0;
}

enum top_state top_rate_of(const struct top_dev *prev,
			   const struct top_dev *cur, double interval_s,
			   struct top_rate *r)
{
	const uint64_t *d = r->d;
	double ms = interval_s * 1000;

	memset(r, 0, sizeof(*r));
	memcpy(r->name, cur->name, sizeof(r->name));
	r->major = cur->major;
	r->minor = cur->minor;
	r->nfields = cur->nfields;
	r->interval_s = interval_s;
	r->in_flight = (unsigned)cur->f[TF_IN_FLIGHT];
	r->state = TOP_NEW;
	if (!prev || prev->major != cur->major || prev->minor != cur->minor)
		return r->state;
	/* A device re-created with another layout starts over too. */
	if (prev->nfields != cur->nfields)
		return r->state = TOP_RESET;
	for (int i = 0; i < cur->nfields; i++) {
		if (i == TF_IN_FLIGHT)
			r->d[i] = cur->f[i];
		else if (!top_delta(prev->f[i], cur->f[i], &r->d[i]))
			return r->state = TOP_RESET;
	}
	r->state = TOP_OK;
	r->r_s = per_s(d[TF_RD_IOS], interval_s);
	r->w_s = per_s(d[TF_WR_IOS], interval_s);
	r->d_s = per_s(d[TF_DC_IOS], interval_s);
	r->f_s = per_s(d[TF_FL_IOS], interval_s);
	r->rrqm_s = per_s(d[TF_RD_MERGES], interval_s);
	r->wrqm_s = per_s(d[TF_WR_MERGES], interval_s);
	/* Sectors of diskstats are 512 bytes whatever the device's size. */
	r->rmb_s = per_s(d[TF_RD_SECT], interval_s) * 512 / 1e6;
	r->wmb_s = per_s(d[TF_WR_SECT], interval_s) * 512 / 1e6;
	r->dmb_s = per_s(d[TF_DC_SECT], interval_s) * 512 / 1e6;
	r->r_await_ms = await_ms(d[TF_RD_TICKS], d[TF_RD_IOS]);
	r->w_await_ms = await_ms(d[TF_WR_TICKS], d[TF_WR_IOS]);
	r->d_await_ms = await_ms(d[TF_DC_TICKS], d[TF_DC_IOS]);
	r->f_await_ms = await_ms(d[TF_FL_TICKS], d[TF_FL_IOS]);
	r->aqu_sz = ms > 0 ? (double)d[TF_RQ_TICKS] / ms : 0;
	/*
	 * Our instants are not the kernel's accounting instants, so busy
	 * time can come out a little above the interval: that is 100 %.
	 */
	r->util_pct = ms > 0 ? fmin(100.0, (double)d[TF_IO_TICKS] / ms * 100) :
			       0;
	return r->state;
}
