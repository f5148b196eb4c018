// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rules behind top's verdicts. Little's law joins the three figures:
 * requests in flight = rate x time per request. A slow answer with about
 * one request in flight is the device; a long queue is the load; %util
 * counts time with anything in flight, so on a multi-queue device it says
 * busy, never full (the kernel's iostats.rst says so since 5.0).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "top_verdict.h"

/* At or above this many requests in flight on average, the load queues. */
#define QUEUED 2.0

const char *top_sev_label(enum top_sev s)
{
	return s == TOP_WARNING ? "WARNING" : "INFO";
}

__attribute__((format(printf, 8, 9))) static size_t
add(struct top_verdict *out, size_t n, size_t max, enum top_sev sev,
    const char *id, double value, const char *unit, const char *fmt, ...)
{
	va_list ap;
	struct top_verdict *v;

	if (n >= max)
		return n;
	v = &out[n];
	memset(v, 0, sizeof(*v));
	v->sev = sev;
	snprintf(v->id, sizeof(v->id), "%s", id);
	v->value = value;
	v->unit = unit;
	va_start(ap, fmt);
	vsnprintf(v->msg, sizeof(v->msg), fmt, ap);
	va_end(ap);
	return n + 1;
}

static const char *kind_words(const struct top_class *c)
{
	if (!strcmp(c->kind, "rotational"))
		return "a rotational device";
	if (!strcmp(c->kind, "nvme"))
		return "an NVMe device";
	return "a non-rotational device";
}

size_t top_judge_dev(const struct top_rate *r, const struct top_class *c,
		     struct top_verdict *out, size_t max)
{
	size_t n = 0;
	const char *what = "reads";
	double lat = r->r_await_ms;
	uint64_t ios = r->d[TF_RD_IOS];
	uint64_t dev_ms;

	if (r->state != TOP_OK)
		return 0;
	/* The slower of reads and writes, if either had enough requests. */
	if (r->d[TF_WR_IOS] >= TOP_MIN_IOS &&
	    (ios < TOP_MIN_IOS || r->w_await_ms > lat)) {
		what = "writes";
		lat = r->w_await_ms;
		ios = r->d[TF_WR_IOS];
	}
	if (ios >= TOP_MIN_IOS && lat > c->slow_ms) {
		if (r->aqu_sz < QUEUED)
			n = add(out, n, max, TOP_WARNING, "slow-device", lat,
				"ms",
				"%s answered %s in %.1f ms on average (%llu in %.1f s) with %.1f requests in flight: the device is slow, not the load (%.0f ms is slow for %s)",
				r->name, what, lat, (unsigned long long)ios,
				r->interval_s, r->aqu_sz, c->slow_ms,
				kind_words(c));
		else
			n = add(out, n, max, TOP_WARNING, "saturated", lat,
				"ms",
				"%s kept %.1f requests in flight on average and answered %s in %.1f ms, busy %.0f %% of the time: the load is more than the device takes, requests wait in its queue",
				r->name, r->aqu_sz, what, lat, r->util_pct);
	} else if (r->util_pct >= 90 && ios >= TOP_MIN_IOS) {
		n = add(out, n, max, TOP_NOTE, "busy", r->util_pct, "%",
			"%s had requests in flight %.0f %% of the time yet answered in %.2f ms with %.1f in flight: %%util is activity, not saturation; a multi-queue or RAID device takes more",
			r->name, r->util_pct, lat, r->aqu_sz);
	}
	/* Flushes: their share of the time the device spent on requests. */
	dev_ms = r->d[TF_RD_TICKS] + r->d[TF_WR_TICKS];
	if (r->nfields >= TF_FL_TICKS + 1 && r->d[TF_FL_IOS] >= TOP_MIN_IOS) {
		double share = 100.0 * (double)r->d[TF_FL_TICKS] /
			       (double)(dev_ms + r->d[TF_FL_TICKS]);

		if (share >= 50)
			n = add(out, n, max, TOP_WARNING, "flush-heavy", share,
				"%",
				"%s spent %.0f %% of its request time in flushes (%.1f/s at %.1f ms each, against %.1f writes/s): the load forces data to stable storage often (fsync, O_DSYNC, or a writethrough or directsync cache on the host)",
				r->name, share, r->f_s, r->f_await_ms, r->w_s);
	}
	for (size_t i = 0; i < n; i++)
		memcpy(out[i].disk, r->name, sizeof(out[i].disk));
	return n;
}

size_t top_judge_sys(const struct top_sys_rate *s, struct top_verdict *out,
		     size_t max)
{
	size_t n = 0;

	if (!isnan(s->steal_pct) && s->steal_pct >= 10)
		n = add(out, n, max, TOP_WARNING, "steal", s->steal_pct, "%",
			"the hypervisor gave %.0f %% of this guest's CPU time to others (steal): every latency here includes waiting for a host CPU, so the disks may look slower than they are",
			s->steal_pct);
	if (!isnan(s->psi_full_pct) && s->psi_full_pct >= 10)
		n = add(out, n, max, TOP_WARNING, "io-pressure",
			s->psi_full_pct, "%",
			"every runnable task waited on I/O %.0f %% of the time (PSI io full): work stalls on the disks",
			s->psi_full_pct);
	return n;
}
