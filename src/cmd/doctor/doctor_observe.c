// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * doctor --observe: what the disks did while doctor watched, from the
 * kernel's own counters (top's reader and rules, no I/O added), as
 * findings beside the configuration's, each pointing to the finding that
 * explains it when there is one ("it is on IDE: see emulated-ide").
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "doctor_impl.h"
#include "../top/top_report.h"
#include "../top/top_stats.h"
#include "../top/top_verdict.h"
#include "../../util/clock.h"
#include "../../util/err.h"
#include "../../util/fsread.h"
#include "../../util/sig.h"

#define OBSERVE_VERDICTS 8

/* Wait @ns or until a signal (Ctrl-C ends the watch, not doctor). */
static void watch(uint64_t ns)
{
	uint64_t end = clock_ns() + ns;

	while (!sig_pending()) {
		uint64_t now = clock_ns();

		if (now >= end)
			break;
		clock_sleep_until(
			end - now > 100000000ull ? now + 100000000ull : end);
	}
}

/* The most severe configuration finding already made about @disk. */
static const struct dr_finding *explained_by(const struct doctor_report *r,
					     const char *disk)
{
	for (size_t i = 0; i < r->nfindings; i++)
		if (!strcmp(r->findings[i].disk, disk) &&
		    r->findings[i].sev >= DR_WARNING)
			return &r->findings[i];
	return NULL;
}

static void observe_disk(struct doctor_report *r, const struct top_dev *prev,
			 const struct top_dev *cur, double secs)
{
	struct top_verdict v[OBSERVE_VERDICTS];
	const struct dr_finding *why;
	struct top_class cls;
	struct top_rate rt;
	size_t n;

	if (top_rate_of(prev, cur, secs, &rt) != TOP_OK)
		return;
	why = explained_by(r, cur->name);
	if (rt.r_s + rt.w_s + rt.f_s > 0) {
		char what[256] = "";
		size_t o = 0;
		struct dr_finding *f;

		/* Only the kinds of request that were made. */
		if (rt.r_s > 0)
			o += (size_t)snprintf(
				what + o, sizeof(what) - o,
				"%.1f reads/s answered in %.2f ms on average, ",
				rt.r_s, rt.r_await_ms);
		if (rt.w_s > 0 && o < sizeof(what))
			o += (size_t)snprintf(what + o, sizeof(what) - o,
					      "%.1f writes/s in %.2f ms, ",
					      rt.w_s, rt.w_await_ms);
		if (rt.f_s > 0 && o < sizeof(what))
			snprintf(what + o, sizeof(what) - o,
				 "%.1f flushes/s in %.2f ms, ", rt.f_s,
				 rt.f_await_ms);
		f = dr_add(
			r, DR_INFO, "observed-io", cur->name,
			"over %.1f s: %s%.2f requests in flight on average, busy %.0f%% of the time",
			secs, what, rt.aqu_sz, rt.util_pct);
		dr_why(f,
		       "what the kernel counted while doctor watched (as iostat -x); busy is activity, not saturation");
	}
	top_class_of(&fsview_host, cur, &cls);
	n = top_judge_dev(&rt, &cls, v, OBSERVE_VERDICTS);
	for (size_t i = 0; i < n; i++) {
		char id[40];
		struct dr_finding *f;

		snprintf(id, sizeof(id), "observed-%s", v[i].id);
		f = dr_add(r, v[i].sev == TOP_WARNING ? DR_WARNING : DR_INFO,
			   id, cur->name, "over %.1f s, %s%s%s%s", secs,
			   v[i].msg, why ? "; see finding " : "",
			   why ? why->id : "", why ? " about this disk" : "");
		dr_why(f,
		       "measured, not inferred: the configuration findings say why, this says how much it costs now");
	}
}

bool dr_observe(struct doctor_report *r, uint64_t ns, bool progress,
		struct err *err)
{
	struct top_snap a = { 0 }, b = { 0 };
	struct top_sys_snap sa = { 0 }, sb = { 0 };
	struct top_sys_rate sr;
	struct top_verdict v[OBSERVE_VERDICTS];
	double secs;
	size_t n;

	if (!top_read("/proc/diskstats", &a, err))
		return false;
	top_sys_read("", &sa);
	if (progress)
		fprintf(stderr,
			"iolab doctor: observing the disks for %.0f s\n",
			(double)ns / 1e9);
	watch(ns);
	if (!top_read("/proc/diskstats", &b, err)) {
		top_snap_free(&a);
		return false;
	}
	top_sys_read("", &sb);
	secs = (double)(b.t_ns - a.t_ns) / 1e9;
	for (size_t i = 0; i < r->ndisks && secs > 0; i++) {
		const struct top_dev *p = top_find(&a, r->disks[i].name);
		const struct top_dev *c = top_find(&b, r->disks[i].name);

		if (p && c)
			observe_disk(r, p, c, secs);
	}
	top_sys_rate_of(&sa, &sb, &sr);
	n = top_judge_sys(&sr, v, OBSERVE_VERDICTS);
	for (size_t i = 0; i < n; i++) {
		char id[40];

		snprintf(id, sizeof(id), "observed-%s", v[i].id);
		dr_why(dr_add(r, v[i].sev == TOP_WARNING ? DR_WARNING : DR_INFO,
			      id, NULL, "over %.1f s, %s", secs, v[i].msg),
		       "measured while doctor watched: it slows every disk's answers");
	}
	top_snap_free(&a);
	top_snap_free(&b);
	return true;
}
