// SPDX-License-Identifier: GPL-2.0-or-later
/* The calibration search; see calibrate_search.h. No I/O, no clock. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate_search.h"
#include "../../util/xmem.h"

const char *const cal_stat_names[] = { "mean", "p99", NULL };

static const char *const end_names[] = {
	[CAL_END_CAP] = "cap",		 [CAL_END_PLATEAU] = "plateau",
	[CAL_END_MAX_LOAD] = "max-load", [CAL_END_NOT_MET] = "not-met",
	[CAL_END_BUDGET] = "budget",	 [CAL_END_STOPPED] = "stopped",
};

const char *cal_stat_name(enum cal_stat stat)
{
	return cal_stat_names[stat];
}

const char *cal_end_name(enum cal_end e)
{
	return end_names[e];
}

void cal_search_defaults(struct cal_search_params *p)
{
	*p = (struct cal_search_params){
		.max_load = 32,
		.stat = CAL_STAT_MEAN,
		.tolerance = 0.10,
		.plateau_gain = 0.05,
		.plateau_doublings = 3,
		.resolution = 1.0 / 16,
		.near_cap = 1.3,
		.max_samples = CAL_MAX_SAMPLES,
	};
}

double cal_point_stat(const struct cal_point *pt, enum cal_stat stat)
{
	return stat == CAL_STAT_P99 ? pt->p99_ns : pt->mean_ns;
}

static double med3(double a, double b, double c)
{
	if (a > b) {
		double t = a;

		a = b;
		b = t;
	}
	/* now a <= b */
	if (c <= a)
		return a;
	return c < b ? c : b;
}

/* Two samples: their mean; three: the median of each figure. */
static double agg(const struct cal_point *pt, size_t off)
{
#define F(i) (*(const double *)((const char *)&pt->s[i] + off))
	switch (pt->nsamples) {
	case 1:
		return F(0);
	case 2:
		return (F(0) + F(1)) / 2;
	default:
		return med3(F(0), F(1), F(2));
	}
#undef F
}

static void point_aggregate(const struct cal_search_params *p,
			    struct cal_point *pt)
{
	double lo = pt->s[0].iops, hi = lo, noise = 0;

	pt->iops = agg(pt, offsetof(struct cal_sample, iops));
	pt->mbps = agg(pt, offsetof(struct cal_sample, mbps));
	pt->mean_ns = agg(pt, offsetof(struct cal_sample, mean_ns));
	pt->p50_ns = agg(pt, offsetof(struct cal_sample, p50_ns));
	pt->p99_ns = agg(pt, offsetof(struct cal_sample, p99_ns));
	pt->wait_ns = agg(pt, offsetof(struct cal_sample, wait_ns));
	for (unsigned int i = 0; i < pt->nsamples; i++) {
		if (pt->s[i].iops < lo)
			lo = pt->s[i].iops;
		if (pt->s[i].iops > hi)
			hi = pt->s[i].iops;
		if (pt->s[i].noise > noise)
			noise = pt->s[i].noise;
		pt->unbacked |= pt->s[i].unbacked;
		pt->cache_reads |= pt->s[i].cache_reads;
	}
	pt->spread = pt->iops > 0 ? (hi - lo) / pt->iops : 0;
	pt->noisy = pt->spread > p->tolerance || noise > p->tolerance;
	/* A load whose windows completed no read has no IOPS and no latency
	 * inside them: it meets no cap (its 0 would meet every one). */
	pt->meets_cap =
		cal_point_measured(pt) &&
		(p->cap_ns <= 0 || cal_point_stat(pt, p->stat) <= p->cap_ns);
}

static int point_index(const struct cal_search *s, unsigned int load)
{
	for (unsigned int i = 0; i < s->n; i++)
		if (s->pts[i].load == load)
			return (int)i;
	return -1;
}

const struct cal_point *cal_search_at(const struct cal_search *s,
				      unsigned int load)
{
	int i = point_index(s, load);

	return i < 0 ? NULL : &s->pts[i];
}

/* The point for @load, inserted in load order if new. */
static int point_get(struct cal_search *s, unsigned int load)
{
	int i = point_index(s, load);
	unsigned int at = 0;

	if (i >= 0)
		return i;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->pts = xrealloc(s->pts, s->cap * sizeof(*s->pts));
	}
	while (at < s->n && s->pts[at].load < load)
		at++;
	memmove(&s->pts[at + 1], &s->pts[at], (s->n - at) * sizeof(*s->pts));
	memset(&s->pts[at], 0, sizeof(*s->pts));
	s->pts[at].load = load;
	s->n++;
	return (int)at;
}

/* One window; *idx is the point it went to. */
static int take_sample(struct cal_search *s, const struct cal_search_params *p,
		       cal_measure_fn fn, void *ctx, unsigned int load,
		       enum cal_stage stage, int *idx)
{
	struct cal_sample smp;
	struct cal_point *pt;
	int rc, i;

	memset(&smp, 0, sizeof(smp));
	rc = fn(ctx, load, stage, &smp);
	if (rc != CAL_MEASURED)
		return rc;
	s->nsamples++;
	if (!smp.load)
		smp.load = load;
	i = point_get(s, smp.load);
	pt = &s->pts[i];
	/* A full point keeps its samples: the median of three is settled. */
	if (pt->nsamples < CAL_MAX_SAMPLES) {
		pt->s[pt->nsamples++] = smp;
		pt->qd = smp.qd;
		pt->threads = smp.threads;
		point_aggregate(p, pt);
	}
	*idx = i;
	return CAL_MEASURED;
}

static bool near_cap(const struct cal_search_params *p, double v)
{
	return p->cap_ns > 0 && v > p->cap_ns / p->near_cap &&
	       v < p->cap_ns * p->near_cap;
}

/* Is one window not enough to trust this point? */
static bool wants_second(const struct cal_search *s,
			 const struct cal_search_params *p, int i)
{
	const struct cal_point *pt = &s->pts[i];

	if (pt->s[0].noise > p->tolerance)
		return true;
	/* Load 1 of a capped search is the reference: the cap decision
	 * ("not met") and the reading of the result rest on it. */
	if (p->cap_ns > 0 && pt->load == 1)
		return true;
	if (near_cap(p, cal_point_stat(pt, p->stat)))
		return true;
	/* Missing the cap decides the bracket (or "not met"): make sure.
	 * A load whose throughput merely fell is not repeated here: the
	 * ramp does not stop on a fall, and time spent re-measuring low
	 * loads on a busy machine is time the high loads do not get. */
	return !pt->meets_cap;
}

/* Two windows that disagree need a third, and the median decides. */
static bool disagree(const struct cal_search_params *p,
		     const struct cal_point *pt)
{
	double a = pt->s[0].iops, b = pt->s[1].iops;
	double m = a > b ? a : b;
	bool ca, cb;

	if (m > 0 && fabs(a - b) / m > p->tolerance)
		return true;
	if (p->cap_ns <= 0)
		return false;
	ca = (p->stat == CAL_STAT_P99 ? pt->s[0].p99_ns : pt->s[0].mean_ns) <=
	     p->cap_ns;
	cb = (p->stat == CAL_STAT_P99 ? pt->s[1].p99_ns : pt->s[1].mean_ns) <=
	     p->cap_ns;
	return ca != cb;
}

/* A load on the curve, sampled as often as the decision needs. */
static int measure_point(struct cal_search *s,
			 const struct cal_search_params *p, cal_measure_fn fn,
			 void *ctx, unsigned int load, enum cal_stage stage,
			 int *idx)
{
	int rc = take_sample(s, p, fn, ctx, load, stage, idx);

	if (rc != CAL_MEASURED)
		return rc;
	if (s->pts[*idx].nsamples == 1 && p->max_samples >= 2 &&
	    wants_second(s, p, *idx)) {
		rc = take_sample(s, p, fn, ctx, s->pts[*idx].load, stage, idx);
		if (rc != CAL_MEASURED)
			return rc;
	}
	if (s->pts[*idx].nsamples == 2 && p->max_samples >= 3 &&
	    disagree(p, &s->pts[*idx]))
		rc = take_sample(s, p, fn, ctx, s->pts[*idx].load, stage, idx);
	return rc;
}

static int pick_best(const struct cal_search *s)
{
	int best = -1;

	for (unsigned int i = 0; i < s->n; i++) {
		const struct cal_point *pt = &s->pts[i];

		if (!pt->nsamples || !pt->meets_cap || !cal_point_measured(pt))
			continue;
		if (best < 0 || pt->iops > s->pts[best].iops)
			best = (int)i;
	}
	return best;
}

static void cut(struct cal_search *s, int rc, enum cal_stage stage,
		bool set_end)
{
	if (rc == CAL_BUDGET) {
		s->cut_short = true;
		s->cut_stage = stage;
		if (set_end)
			s->end = CAL_END_BUDGET;
	} else {
		s->end = CAL_END_STOPPED;
	}
}

/* Between lo (meets the cap) and hi (misses it). */
static int bisect(struct cal_search *s, const struct cal_search_params *p,
		  cal_measure_fn fn, void *ctx)
{
	while (s->hi - s->lo > 1) {
		unsigned int step = (unsigned int)(s->lo * p->resolution);
		unsigned int mid = s->lo + (s->hi - s->lo) / 2, m;
		int rc, i;

		if (s->hi - s->lo <= (step ? step : 1))
			break;
		rc = measure_point(s, p, fn, ctx, mid, CAL_STAGE_BISECT, &i);
		if (rc != CAL_MEASURED)
			return rc;
		m = s->pts[i].load;
		if (m <= s->lo || m >= s->hi)
			break; /* the measurer rounded onto an end */
		if (s->pts[i].meets_cap)
			s->lo = m;
		else
			s->hi = m;
	}
	return CAL_MEASURED;
}

/* The highest IOPS among the loads below @load that met the cap. */
static double best_below(const struct cal_search *s, unsigned int load)
{
	double top = 0;

	for (unsigned int i = 0; i < s->n && s->pts[i].load < load; i++)
		if (s->pts[i].meets_cap && s->pts[i].iops > top)
			top = s->pts[i].iops;
	return top;
}

static int ramp(struct cal_search *s, const struct cal_search_params *p,
		cal_measure_fn fn, void *ctx)
{
	unsigned int load = 1, prev_load = 0, flat = 0;

	for (;;) {
		const struct cal_point *pt;
		int i, rc = measure_point(s, p, fn, ctx, load, CAL_STAGE_RAMP,
					  &i);

		if (rc != CAL_MEASURED)
			return rc;
		pt = &s->pts[i];
		load = pt->load;
		if (!pt->meets_cap) {
			s->hi = load;
			if (!s->lo) {
				s->end = CAL_END_NOT_MET;
				return CAL_MEASURED;
			}
			rc = bisect(s, p, fn, ctx);
			if (rc != CAL_MEASURED)
				return -rc; /* negative: cut while bisecting */
			s->end = CAL_END_CAP;
			return CAL_MEASURED;
		}
		s->lo = load;
		if (prev_load) {
			double top = best_below(s, load);

			/* Flat: no gain on the best so far, but no fall
			 * either. A saturated device holds its rate; one
			 * that lost more than the tolerance was disturbed
			 * (a neighbour's burst) and proves nothing, so the
			 * ramp goes on. Against the best, not the load
			 * before: noise that dips one load must not make
			 * the next look like growth. */
			if (pt->iops >= top * (1 + p->plateau_gain))
				flat = 0;
			else if (pt->iops >= top * (1 - p->tolerance))
				flat++;
		}
		if (flat >= p->plateau_doublings) {
			s->end = CAL_END_PLATEAU;
			return CAL_MEASURED;
		}
		if (load >= p->max_load) {
			s->end = CAL_END_MAX_LOAD;
			return CAL_MEASURED;
		}
		prev_load = load;
		load = load * 2 > p->max_load ? p->max_load : load * 2;
		if (load <= prev_load) {
			s->end = CAL_END_MAX_LOAD;
			return CAL_MEASURED;
		}
	}
}

void cal_search_run(const struct cal_search_params *p, cal_measure_fn fn,
		    void *ctx, struct cal_search *s)
{
	int rc;

	memset(s, 0, sizeof(*s));
	s->best = -1;
	rc = ramp(s, p, fn, ctx);
	if (rc != CAL_MEASURED) {
		bool bisecting = rc < 0;

		cut(s, abs(rc), bisecting ? CAL_STAGE_BISECT : CAL_STAGE_RAMP,
		    true);
		if (abs(rc) == CAL_STOP) {
			s->best = pick_best(s);
			return;
		}
	}
	if (p->defer_confirm)
		s->best = pick_best(s);
	else
		cal_search_confirm(p, fn, ctx, s);
}

void cal_search_confirm(const struct cal_search_params *p, cal_measure_fn fn,
			void *ctx, struct cal_search *s)
{
	int rc;

	if (s->end == CAL_END_STOPPED)
		return;
	/* Each round confirms a different point (a confirmed one has two
	 * windows), so this ends; usually after one or two. */
	for (unsigned int round = 0; round < s->n && p->max_samples >= 2;
	     round++) {
		int b = pick_best(s), i;

		if (b < 0 || s->pts[b].nsamples >= 2)
			break;
		rc = take_sample(s, p, fn, ctx, s->pts[b].load,
				 CAL_STAGE_CONFIRM, &i);
		if (rc == CAL_MEASURED && s->pts[i].nsamples == 2 &&
		    p->max_samples >= 3 && disagree(p, &s->pts[i]))
			rc = take_sample(s, p, fn, ctx, s->pts[i].load,
					 CAL_STAGE_CONFIRM, &i);
		if (rc != CAL_MEASURED) {
			if (!s->cut_short || rc == CAL_STOP)
				cut(s, rc, CAL_STAGE_CONFIRM, false);
			break;
		}
	}
	s->best = pick_best(s);
}

void cal_search_free(struct cal_search *s)
{
	free(s->pts);
	s->pts = NULL;
	s->n = s->cap = 0;
}
