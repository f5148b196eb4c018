// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The calibration search on synthetic device curves: a perfectly parallel
 * device (flat latency), a single-server one (latency linear in load), two
 * that saturate (one crosses the cap first, one plateaus first), noisy ones,
 * one that misses the cap at QD1, and the budget, stop and rounding paths.
 * Each device is a closed-loop model: IOPS = load / latency (Little's law).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/calibrate/calibrate_search.h"

#define MS 1e6
#define US 1e3

enum shape {
	FLAT_LATENCY, /* lat = a: IOPS grows linearly with load */
	SINGLE_SERVER, /* IOPS = 1/a: latency grows linearly with load */
	SATURATING, /* IOPS = xmax * L / (L + k); lat = (L + k) / xmax */
	CONSTANT_SLOW, /* lat = a whatever the load, IOPS = L / a */
};

struct dev {
	enum shape shape;
	double a_ns; /* latency or service time */
	double xmax, k; /* saturating */
	double noise; /* uniform multiplicative noise on IOPS, +-noise */
	int spike_every; /* every Nth window loses half its IOPS */
	double factor[16]; /* window N's IOPS x factor[N - 1], if set */
	double p99_factor; /* p99 = mean * this (default 2) */
	unsigned int budget; /* windows allowed, 0 = unlimited */
	unsigned int reserve; /* of them, kept for the confirmation */
	unsigned int stop_after; /* say stop after N windows, 0 = never */
	unsigned int round_to; /* the measurer runs multiples of this */
	/* what happened */
	unsigned int windows;
	unsigned int max_seen;
	uint64_t rng;
};

static double rnd(struct dev *d) /* [0, 1) */
{
	d->rng = d->rng * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(d->rng >> 11) / 9007199254740992.0;
}

static double true_iops(const struct dev *d, unsigned int load)
{
	switch (d->shape) {
	case FLAT_LATENCY:
	case CONSTANT_SLOW:
		return load * 1e9 / d->a_ns;
	case SINGLE_SERVER:
		return 1e9 / d->a_ns;
	case SATURATING:
	default:
		return d->xmax * load / (load + d->k);
	}
}

static int measure(void *ctx, unsigned int load, enum cal_stage stage,
		   struct cal_sample *out)
{
	struct dev *d = ctx;
	double iops;

	if (d->stop_after && d->windows >= d->stop_after)
		return CAL_STOP;
	if (d->budget && d->windows >= d->budget)
		return CAL_BUDGET;
	/* Keep the last windows for the confirmation, as calibrate does. */
	if (d->budget && d->reserve && stage != CAL_STAGE_CONFIRM &&
	    d->windows + d->reserve >= d->budget)
		return CAL_BUDGET;
	if (d->round_to && load >= d->round_to)
		load -= load % d->round_to;
	d->windows++;
	if (load > d->max_seen)
		d->max_seen = load;
	iops = true_iops(d, load);
	if (d->noise > 0)
		iops *= 1 + d->noise * (2 * rnd(d) - 1);
	if (d->spike_every && d->windows % (unsigned int)d->spike_every == 0)
		iops *= 0.5;
	if (d->windows <= 16 && d->factor[d->windows - 1] > 0)
		iops *= d->factor[d->windows - 1];
	out->load = load;
	out->qd = load;
	out->threads = 1;
	out->iops = iops;
	out->mbps = iops * 8192 / 1e6;
	out->mean_ns = load * 1e9 / iops; /* Little */
	out->p50_ns = out->mean_ns * 0.9;
	out->p99_ns = out->mean_ns * (d->p99_factor > 0 ? d->p99_factor : 2);
	out->seconds = 1;
	out->ios = (uint64_t)iops;
	return CAL_MEASURED;
}

/* The truth: the best IOPS over all loads 1..max that meet the cap. */
static double best_under_cap(const struct dev *d, unsigned int max_load,
			     double cap_ns, enum cal_stat stat)
{
	double best = 0;

	for (unsigned int l = 1; l <= max_load; l++) {
		double x = true_iops(d, l), lat = l * 1e9 / x;

		if (stat == CAL_STAT_P99)
			lat *= d->p99_factor > 0 ? d->p99_factor : 2;
		if ((cap_ns <= 0 || lat <= cap_ns) && x > best)
			best = x;
	}
	return best;
}

static struct cal_search_params params(unsigned int max_load, double cap_ns)
{
	struct cal_search_params p;

	cal_search_defaults(&p);
	p.max_load = max_load;
	p.cap_ns = cap_ns;
	return p;
}

static void check_sorted(const struct cal_search *s)
{
	for (unsigned int i = 1; i < s->n; i++)
		assert_true(s->pts[i - 1].load < s->pts[i].load);
	for (unsigned int i = 0; i < s->n; i++) {
		assert_true(s->pts[i].nsamples >= 1);
		assert_true(s->pts[i].nsamples <= CAL_MAX_SAMPLES);
	}
}

static void test_flat_latency_linear_iops_runs_to_the_bound(void **state)
{
	struct dev d = { .shape = FLAT_LATENCY, .a_ns = 100 * US };
	struct cal_search_params p = params(64, 10 * MS);
	struct cal_search s;

	(void)state;
	cal_search_run(&p, measure, &d, &s);
	check_sorted(&s);
	assert_int_equal(s.end, CAL_END_MAX_LOAD);
	assert_false(s.cut_short);
	assert_true(s.best >= 0);
	assert_int_equal(s.pts[s.best].load, 64);
	assert_true(fabs(s.pts[s.best].iops - 640000) < 1);
	assert_int_equal(d.max_seen, 64); /* never above the bound */
	/* 1..64 doubling is 7 loads; the best is confirmed by a second. */
	assert_int_equal(s.n, 7);
	assert_int_equal(s.pts[s.best].nsamples, 2);
	cal_search_free(&s);
}

static void test_bound_not_a_power_of_two(void **state)
{
	struct dev d = { .shape = FLAT_LATENCY, .a_ns = 100 * US };
	struct cal_search_params p = params(48, 10 * MS);
	struct cal_search s;

	(void)state;
	cal_search_run(&p, measure, &d, &s);
	assert_int_equal(s.end, CAL_END_MAX_LOAD);
	assert_int_equal(s.pts[s.n - 1].load, 48);
	assert_int_equal(s.pts[s.best].load, 48);
	assert_int_equal(d.max_seen, 48);
	cal_search_free(&s);
}

static void test_linear_device_single_server_plateaus(void **state)
{
	/* 1 ms per request, one at a time: 1000 IOPS at any load. */
	struct dev d = { .shape = SINGLE_SERVER, .a_ns = 1 * MS };
	struct cal_search_params p = params(512, 10 * MS);
	struct cal_search s;

	(void)state;
	cal_search_run(&p, measure, &d, &s);
	check_sorted(&s);
	assert_int_equal(s.end, CAL_END_PLATEAU);
	/* Three flat doublings: 1, 2, 4, 8; no need to go on to the cap. */
	assert_int_equal(d.max_seen, 8);
	assert_true(fabs(s.pts[s.best].iops - 1000) < 1e-6);
	/* Equal IOPS: the lowest load, hence the lowest latency, wins. */
	assert_int_equal(s.pts[s.best].load, 1);
	assert_true(fabs(s.pts[s.best].mean_ns - 1 * MS) < 1);
	cal_search_free(&s);
}

static void test_saturating_crosses_cap_and_bisects(void **state)
{
	/* lat = (L + 8) / 2000 s: 4.5 ms at QD1, the 10 ms cap at L = 12. */
	struct dev d = { .shape = SATURATING, .xmax = 2000, .k = 8 };
	struct cal_search_params p = params(512, 10 * MS);
	struct cal_search s;
	const struct cal_point *b;

	(void)state;
	cal_search_run(&p, measure, &d, &s);
	check_sorted(&s);
	assert_int_equal(s.end, CAL_END_CAP);
	assert_int_equal(s.lo, 12);
	assert_int_equal(s.hi, 13);
	b = &s.pts[s.best];
	assert_int_equal(b->load, 12);
	assert_true(fabs(b->iops - 1200) < 1e-6);
	assert_true(b->mean_ns <= 10 * MS);
	assert_true(fabs(b->iops - best_under_cap(&d, 512, 10 * MS,
						  CAL_STAT_MEAN)) < 1e-6);
	assert_int_equal(d.max_seen, 16); /* stopped doubling at the cap */
	/* Points past the cap are on the curve but never the answer. */
	assert_false(cal_search_at(&s, 16)->meets_cap);
	cal_search_free(&s);
}

static void test_saturating_plateaus_before_cap(void **state)
{
	/* An SSD-like curve: 62 us at QD1, 80k IOPS at saturation. */
	struct dev d = { .shape = SATURATING, .xmax = 80000, .k = 4 };
	struct cal_search_params p = params(1024, 10 * MS);
	struct cal_search s;
	double truth = best_under_cap(&d, 1024, 10 * MS, CAL_STAT_MEAN);

	(void)state;
	cal_search_run(&p, measure, &d, &s);
	assert_int_equal(s.end, CAL_END_PLATEAU);
	assert_true(s.pts[s.best].iops >= 0.95 * truth);
	assert_true(s.pts[s.best].iops <= truth);
	assert_true(d.max_seen <= 512); /* short of the bound */
	assert_true(s.nsamples <= 14);
	cal_search_free(&s);
}

static void test_p99_statistic(void **state)
{
	/* Mean meets 10 ms up to L = 12; with p99 = 2 x mean, up to L = 2. */
	struct dev d = { .shape = SATURATING, .xmax = 2000, .k = 8 };
	struct cal_search_params p = params(512, 10 * MS);
	struct cal_search s;

	(void)state;
	p.stat = CAL_STAT_P99;
	cal_search_run(&p, measure, &d, &s);
	assert_int_equal(s.end, CAL_END_CAP);
	assert_int_equal(s.pts[s.best].load, 2);
	assert_true(s.pts[s.best].p99_ns <= 10 * MS);
	assert_true(fabs(s.pts[s.best].iops -
			 best_under_cap(&d, 512, 10 * MS, CAL_STAT_P99)) <
		    1e-6);
	cal_search_free(&s);
}

static void test_not_met_at_qd1(void **state)
{
	/* 14 ms at QD1 against a 10 ms cap: what an emulated disk shows. */
	struct dev d = { .shape = CONSTANT_SLOW, .a_ns = 14 * MS };
	struct cal_search_params p = params(512, 10 * MS);
	struct cal_search s;

	(void)state;
	cal_search_run(&p, measure, &d, &s);
	assert_int_equal(s.end, CAL_END_NOT_MET);
	assert_int_equal(s.best, -1);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.pts[0].load, 1);
	assert_false(s.pts[0].meets_cap);
	/* Looked twice before concluding. */
	assert_int_equal(s.pts[0].nsamples, 2);
	assert_int_equal(d.max_seen, 1);
	cal_search_free(&s);
}

static void test_noisy_device(void **state)
{
	(void)state;
	/* +-6 % per window, 200 seeds, two devices: one crossing the cap
	 * (the decision at the cap is noisy), one plateauing below it. */
	for (uint64_t seed = 1; seed <= 400; seed++) {
		struct dev d = { .shape = SATURATING,
				 .xmax = seed & 1 ? 2000 : 80000,
				 .k = seed & 1 ? 8 : 4,
				 .noise = 0.06,
				 .rng = seed };
		struct cal_search_params p = params(512, 10 * MS);
		double truth = best_under_cap(&d, 512, 10 * MS, CAL_STAT_MEAN);
		struct cal_search s;
		bool repeated = false;

		cal_search_run(&p, measure, &d, &s);
		check_sorted(&s);
		assert_true(s.best >= 0);
		/* Within 10 % of the truth, and every reported figure met
		 * the cap by the samples' own aggregate. */
		assert_true(fabs(s.pts[s.best].iops - truth) <= 0.10 * truth);
		assert_true(s.pts[s.best].mean_ns <= 10 * MS);
		assert_true(s.pts[s.best].nsamples >= 2);
		for (unsigned int i = 0; i < s.n; i++)
			repeated |= s.pts[i].nsamples > 1;
		assert_true(repeated);
		assert_true(s.nsamples <= 40); /* bounded work */
		cal_search_free(&s);
	}
}

static void test_interference_spikes_are_outvoted(void **state)
{
	(void)state;
	/* Every 4th window loses half its IOPS (a neighbour's burst). */
	for (int every = 2; every <= 6; every++) {
		struct dev d = { .shape = SATURATING,
				 .xmax = 80000,
				 .k = 4,
				 .spike_every = every };
		struct cal_search_params p = params(512, 10 * MS);
		double truth = best_under_cap(&d, 512, 10 * MS, CAL_STAT_MEAN);
		struct cal_search s;

		cal_search_run(&p, measure, &d, &s);
		assert_true(s.best >= 0);
		assert_true(s.pts[s.best].iops >= 0.90 * truth);
		assert_true(s.pts[s.best].iops <= 1.0001 * truth);
		cal_search_free(&s);
	}
}

static void test_burst_is_not_a_plateau(void **state)
{
	/* A neighbour's burst over windows 4 to 6 (loads 4, 8 and 16; load
	 * 1 takes two, as the reference of a capped search): none gains on
	 * the load before, which would look like flat doublings, but they
	 * fell below load 2's rate, which saturation does not do; the ramp
	 * must go on and find the device's real rate. */
	struct dev d = { .shape = SATURATING,
			 .xmax = 80000,
			 .k = 4,
			 .factor = { [3] = 0.5, [4] = 0.35, [5] = 0.25 } };
	struct cal_search_params p = params(512, 10 * MS);
	double truth = best_under_cap(&d, 512, 10 * MS, CAL_STAT_MEAN);
	struct cal_search s;

	(void)state;
	cal_search_run(&p, measure, &d, &s);
	assert_true(cal_search_at(&s, 4)->iops < cal_search_at(&s, 2)->iops);
	assert_true(cal_search_at(&s, 8)->iops <
		    1.05 * cal_search_at(&s, 4)->iops);
	assert_true(d.max_seen >= 64);
	assert_true(s.pts[s.best].iops >= 0.95 * truth);
	cal_search_free(&s);
}

static void test_flat_noise_is_a_plateau(void **state)
{
	/* A saturated device whose windows wobble: 1000, 950, 1020, 950,
	 * ...: each rise on the load before is noise, not growth on the
	 * best so far, and must not restart the count of flat doublings. */
	struct dev d = { .shape = SINGLE_SERVER,
			 .a_ns = 1 * MS,
			 .factor = { 1.0, 0.95, 1.02, 0.95, 1.02, 0.95, 1.02,
				     0.95, 1.02, 0.95, 1.02 } };
	struct cal_search_params p = params(512, 0);
	struct cal_search s;

	(void)state;
	cal_search_run(&p, measure, &d, &s);
	assert_int_equal(s.end, CAL_END_PLATEAU);
	assert_int_equal(d.max_seen, 8);
	cal_search_free(&s);
}

static void test_deferred_confirmation(void **state)
{
	/* The ramp leaves the best unconfirmed; a later call confirms it,
	 * and a window then that disagrees gets a third. */
	struct dev d = { .shape = FLAT_LATENCY, .a_ns = 100 * US };
	struct cal_search_params p = params(64, 10 * MS);
	struct cal_search s;

	(void)state;
	p.defer_confirm = true;
	cal_search_run(&p, measure, &d, &s);
	assert_int_equal(s.pts[s.best].load, 64);
	assert_int_equal(s.pts[s.best].nsamples, 1);
	assert_int_equal(d.windows, 8); /* two at load 1, then 2..64 */
	d.factor[8] = 1.3; /* the confirming window disagrees */
	cal_search_confirm(&p, measure, &d, &s);
	assert_int_equal(s.pts[s.best].load, 64);
	assert_int_equal(s.pts[s.best].nsamples, 3);
	assert_true(fabs(s.pts[s.best].iops - 640000) < 1);
	assert_false(s.cut_short);
	cal_search_free(&s);
}

static void test_budget_cuts_ramp(void **state)
{
	/* 4 windows: two for load 1 (the reference), then loads 2 and 4. */
	struct dev d = { .shape = FLAT_LATENCY, .a_ns = 100 * US, .budget = 4 };
	struct cal_search_params p = params(512, 10 * MS);
	struct cal_search s;

	(void)state;
	cal_search_run(&p, measure, &d, &s);
	assert_true(s.cut_short);
	assert_int_equal(s.cut_stage, CAL_STAGE_RAMP);
	assert_int_equal(s.end, CAL_END_BUDGET);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.pts[s.best].load, 4); /* the best measured */
	cal_search_free(&s);
}

static void test_budget_cuts_confirmation(void **state)
{
	/* 1..64 is 8 windows (two at load 1); no room for the confirming
	 * 9th. */
	struct dev d = { .shape = FLAT_LATENCY, .a_ns = 100 * US, .budget = 8 };
	struct cal_search_params p = params(64, 10 * MS);
	struct cal_search s;

	(void)state;
	cal_search_run(&p, measure, &d, &s);
	assert_true(s.cut_short);
	assert_int_equal(s.cut_stage, CAL_STAGE_CONFIRM);
	assert_int_equal(s.end, CAL_END_MAX_LOAD); /* the search itself ended */
	assert_int_equal(s.pts[s.best].load, 64);
	assert_int_equal(s.pts[s.best].nsamples, 1);
	cal_search_free(&s);
}

static void test_budget_keeps_time_to_confirm(void **state)
{
	/* 6 windows, 1 kept back: the ramp gets 5 (loads 1, 1, 2, 4, 8),
	 * and the best is still confirmed by a second window. */
	struct dev d = { .shape = FLAT_LATENCY,
			 .a_ns = 100 * US,
			 .budget = 6,
			 .reserve = 1 };
	struct cal_search_params p = params(64, 10 * MS);
	struct cal_search s;

	(void)state;
	cal_search_run(&p, measure, &d, &s);
	assert_true(s.cut_short);
	assert_int_equal(s.cut_stage, CAL_STAGE_RAMP);
	assert_int_equal(s.n, 4);
	assert_int_equal(s.pts[s.best].load, 8);
	assert_int_equal(s.pts[s.best].nsamples, 2);
	assert_int_equal(d.windows, 6);
	cal_search_free(&s);
}

static void test_no_time_at_all(void **state)
{
	/* The measurer refuses the very first window. */
	struct dev d = { .shape = FLAT_LATENCY,
			 .a_ns = 100 * US,
			 .budget = 1,
			 .windows = 1 };
	struct cal_search_params p = params(64, 10 * MS);
	struct cal_search s;

	(void)state;
	cal_search_run(&p, measure, &d, &s);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.best, -1);
	assert_true(s.cut_short);
	assert_int_equal(s.end, CAL_END_BUDGET);
	cal_search_free(&s);
}

static void test_stop(void **state)
{
	struct dev d = { .shape = FLAT_LATENCY,
			 .a_ns = 100 * US,
			 .stop_after = 3 };
	struct cal_search_params p = params(512, 10 * MS);
	struct cal_search s;

	(void)state;
	cal_search_run(&p, measure, &d, &s);
	assert_int_equal(s.end, CAL_END_STOPPED);
	assert_false(s.cut_short);
	assert_int_equal(s.n, 2);
	cal_search_free(&s);
}

static void test_rounding_measurer_terminates(void **state)
{
	/* Loads run in multiples of 4 from 4 up (threads x QD): the
	 * bisection must stop when the rounding lands on an end. */
	struct dev d = {
		.shape = SATURATING, .xmax = 2000, .k = 8, .round_to = 4
	};
	struct cal_search_params p = params(512, 10 * MS);
	struct cal_search s;

	(void)state;
	cal_search_run(&p, measure, &d, &s);
	check_sorted(&s);
	assert_int_equal(s.end, CAL_END_CAP);
	for (unsigned int i = 0; i < s.n; i++)
		assert_true(s.pts[i].load < 4 || s.pts[i].load % 4 == 0);
	assert_int_equal(s.pts[s.best].load, 12);
	assert_true(s.nsamples < 20);
	cal_search_free(&s);
}

static void test_uncapped_throughput(void **state)
{
	/* The 1 MiB phase: no cap, the plateau ends it. */
	struct dev d = { .shape = SATURATING, .xmax = 1500, .k = 2 };
	struct cal_search_params p = params(64, 0);
	struct cal_search s;

	(void)state;
	cal_search_run(&p, measure, &d, &s);
	assert_true(s.end == CAL_END_PLATEAU || s.end == CAL_END_MAX_LOAD);
	for (unsigned int i = 0; i < s.n; i++)
		assert_true(s.pts[i].meets_cap);
	assert_true(s.pts[s.best].iops >= 0.95 * 1500 * 64 / 66.0);
	cal_search_free(&s);
}

static void test_single_load(void **state)
{
	/* max_pmbps: one load, measured and confirmed. */
	struct dev d = { .shape = SATURATING, .xmax = 1500, .k = 2 };
	struct cal_search_params p = params(1, 0);
	struct cal_search s;

	(void)state;
	cal_search_run(&p, measure, &d, &s);
	assert_int_equal(s.end, CAL_END_MAX_LOAD);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.pts[0].nsamples, 2);
	assert_int_equal(d.max_seen, 1);
	cal_search_free(&s);
}

/* A device so slow that no window completes a read (500 ms per read,
 * 200 ms windows): what calibrate saw as IOPS 0, latency 0. */
static int measure_nothing(void *ctx, unsigned int load, enum cal_stage stage,
			   struct cal_sample *out)
{
	unsigned int *windows = ctx;

	(void)stage;
	++*windows;
	memset(out, 0, sizeof(*out));
	out->load = out->qd = load;
	out->threads = 1;
	out->seconds = 0.2;
	return CAL_MEASURED;
}

static void test_no_read_completed_meets_no_cap(void **state)
{
	/* A 0 latency met every cap: max_iops = 0 with cap_met. A point
	 * without a read meets none and is never the best. */
	struct cal_search_params p = params(64, 10 * MS);
	struct cal_search s;
	unsigned int windows = 0;

	(void)state;
	cal_search_run(&p, measure_nothing, &windows, &s);
	assert_int_equal(s.end, CAL_END_NOT_MET);
	assert_int_equal(s.best, -1);
	assert_int_equal(s.n, 1);
	assert_false(s.pts[0].meets_cap);
	assert_false(cal_point_measured(&s.pts[0]));
	cal_search_free(&s);

	/* The throughput phases (no cap) have no best either. */
	p = params(1, 0);
	cal_search_run(&p, measure_nothing, &windows, &s);
	assert_int_equal(s.best, -1);
	cal_search_free(&s);
}

static void test_median_of_three(void **state)
{
	/* Alternate windows read 100 %, 50 %: two disagree, a third
	 * decides; the aggregate is a median, not a max. */
	struct dev d = { .shape = SINGLE_SERVER,
			 .a_ns = 1 * MS,
			 .spike_every = 2 };
	struct cal_search_params p = params(1, 0);
	struct cal_search s;

	(void)state;
	cal_search_run(&p, measure, &d, &s);
	assert_int_equal(s.pts[0].nsamples, 3);
	assert_true(s.pts[0].noisy);
	assert_true(fabs(s.pts[0].iops - 1000) < 1e-6); /* 1000,500,1000 */
	assert_true(s.pts[0].spread > 0.4);
	cal_search_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_flat_latency_linear_iops_runs_to_the_bound),
		cmocka_unit_test(test_bound_not_a_power_of_two),
		cmocka_unit_test(test_linear_device_single_server_plateaus),
		cmocka_unit_test(test_saturating_crosses_cap_and_bisects),
		cmocka_unit_test(test_saturating_plateaus_before_cap),
		cmocka_unit_test(test_p99_statistic),
		cmocka_unit_test(test_not_met_at_qd1),
		cmocka_unit_test(test_noisy_device),
		cmocka_unit_test(test_interference_spikes_are_outvoted),
		cmocka_unit_test(test_burst_is_not_a_plateau),
		cmocka_unit_test(test_flat_noise_is_a_plateau),
		cmocka_unit_test(test_deferred_confirmation),
		cmocka_unit_test(test_budget_cuts_ramp),
		cmocka_unit_test(test_budget_cuts_confirmation),
		cmocka_unit_test(test_budget_keeps_time_to_confirm),
		cmocka_unit_test(test_no_time_at_all),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_rounding_measurer_terminates),
		cmocka_unit_test(test_uncapped_throughput),
		cmocka_unit_test(test_single_load),
		cmocka_unit_test(test_median_of_three),
		cmocka_unit_test(test_no_read_completed_meets_no_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
