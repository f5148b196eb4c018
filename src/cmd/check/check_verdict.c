// SPDX-License-Identifier: GPL-2.0-or-later
/* Verdicts on measured figures; see check_verdict.h. */
#include <math.h>
#include <stdio.h>

#include "check_verdict.h"
#include "../../util/err.h"

const char *const check_verdict_names[] = { "pass", "fail", "inconclusive",
					    "no-threshold", NULL };

/* 95 % two-sided normal quantile. */
#define Z95 1.959964
/* A histogram value is its bucket's midpoint: within this share of it. */
#define HIST_REL_ERR (1.0 / (2.0 * HIST_SUB))

void check_pct_ranks(uint64_t n, double pct, uint64_t *lo, uint64_t *hi)
{
	double p = pct / 100.0, np = (double)n * p;
	double half = Z95 * sqrt(np * (1.0 - p));
	double l = floor(np - half), h = ceil(np + half) + 1.0;

	*lo = l < 1.0 ? 1 : (uint64_t)l;
	*hi = (uint64_t)h;
}

uint64_t check_pct_min_samples(double pct)
{
	uint64_t n = 1, lo, hi;

	/* Small enough to search: 563 for the 99th, 5800 for the 99.9th. */
	for (;; n++) {
		check_pct_ranks(n, pct, &lo, &hi);
		if (hi <= n)
			return n;
	}
}

/* The value of the @r-th smallest sample of @h, as the histogram has it. */
static double rank_value(const struct hist *h, uint64_t r)
{
	return (double)hist_percentile(h, 100.0 * ((double)r - 0.5) /
						  (double)h->count);
}

/* Student's t for 95 % two-sided with @k samples (k - 1 degrees). */
static double t95(int k)
{
	static const double t[] = { 0,	   0,	  12.71, 4.303, 3.182, 2.776,
				    2.571, 2.447, 2.365, 2.306, 2.262 };

	if (k < (int)(sizeof(t) / sizeof(t[0])))
		return t[k];
	return k < 30 ? 2.2 : Z95;
}

static const char *stat_word(const struct check_criterion *c)
{
	switch (c->stat) {
	case CHECK_PCT:
		return "percentile";
	case CHECK_MEAN:
		return "mean";
	case CHECK_MAX:
		return "maximum";
	case CHECK_RATE:
		return "rate";
	}
	return "figure";
}

/* Value and 95 % bounds; a side nothing bounds stays infinite. */
static void estimate(const struct check_criterion *c,
		     const struct check_input *in, struct check_figure *f)
{
	const struct hist *h = in->lat;
	uint64_t n = in->ios;

	f->lo = -INFINITY;
	f->hi = INFINITY;
	switch (c->stat) {
	case CHECK_PCT: {
		uint64_t rl, rh;

		f->value = (double)hist_percentile(h, c->pct);
		check_pct_ranks(n, c->pct, &rl, &rh);
		f->lo = rank_value(h, rl) * (1.0 - HIST_REL_ERR);
		if (rh <= n)
			f->hi = rank_value(h, rh) * (1.0 + HIST_REL_ERR);
		else
			snprintf(
				f->reason, sizeof(f->reason),
				"too few samples: %llu cannot bound the %gth percentile from above (%llu needed); measure longer (--runtime)",
				(unsigned long long)n, c->pct,
				(unsigned long long)check_pct_min_samples(
					c->pct));
		return;
	}
	case CHECK_MEAN: {
		double half;

		f->value = hist_mean(h);
		if (n < CHECK_MIN_SAMPLES) {
			/* Every sample above a limit still fails it. */
			f->lo = (double)h->min;
			snprintf(
				f->reason, sizeof(f->reason),
				"too few samples: %llu (%d needed to bound a mean); measure longer (--runtime)",
				(unsigned long long)n, CHECK_MIN_SAMPLES);
			return;
		}
		half = Z95 * hist_stddev(h) / sqrt((double)n);
		f->lo = f->value - half;
		f->hi = f->value + half;
		return;
	}
	case CHECK_MAX:
		/* The slowest one happened: a fact, not an estimate. What a
		 * longer run might see stays unbounded. */
		f->value = (double)h->max;
		f->lo = f->value;
		return;
	case CHECK_RATE: {
		double sum = 0, sumsq = 0, sd, half;
		int k = in->nper_s;

		f->value = in->elapsed_s > 0 ? (double)n / in->elapsed_s : NAN;
		if (k < CHECK_MIN_SECONDS) {
			/* Too few seconds to be samples of their own (with 3,
			 * Student's t is 4.3: one stall makes any rate
			 * undecidable). A closed loop's rate is the inverse
			 * of its mean cycle: bound that mean instead. */
			if (n >= CHECK_MIN_SAMPLES && isfinite(in->cycle_cv)) {
				half = Z95 * in->cycle_cv / sqrt((double)n);
				f->lo = f->value / (1.0 + half);
				f->hi = half < 1.0 ? f->value / (1.0 - half) :
						     INFINITY;
				return;
			}
			snprintf(
				f->reason, sizeof(f->reason),
				"too short: %llu operations in %.1f s cannot bound a rate (%d operations or %d s needed); measure longer (--runtime)",
				(unsigned long long)n, in->elapsed_s,
				CHECK_MIN_SAMPLES, CHECK_MIN_SECONDS);
			return;
		}
		for (int i = 0; i < k; i++) {
			sum += in->per_s[i];
			sumsq += (double)in->per_s[i] * in->per_s[i];
		}
		sd = sqrt(fmax(0.0, (sumsq - sum * sum / k) / (k - 1)));
		half = t95(k) * sd / sqrt((double)k);
		f->lo = f->value - half;
		f->hi = f->value + half;
		return;
	}
	}
}

static void fmt_fig(const struct check_criterion *c, double v, char *buf,
		    size_t len)
{
	if (c->stat == CHECK_RATE)
		snprintf(buf, len, "%.0f/s", v);
	else
		snprintf(buf, len, "%.3g ms", v / 1e6);
}

void check_judge(const struct check_criterion *c, const struct check_input *in,
		 struct check_figure *f)
{
	bool at_most = c->cmp == CHECK_AT_MOST;
	char a[32], b[32];

	*f = (struct check_figure){ .value = NAN, .margin = NAN };
	f->samples = in->ios;
	if (!in->ios) {
		f->verdict = c->cmp == CHECK_INFO ? CHECK_NO_THRESHOLD :
						    CHECK_INCONCLUSIVE;
		snprintf(
			f->reason, sizeof(f->reason), "%s",
			in->flush_faked ?
				"the flushes were dropped (cache=unsafe): none reached the storage" :
				"nothing measured: no operation completed");
		return;
	}
	estimate(c, in, f);
	if (c->cmp != CHECK_INFO)
		f->margin = at_most ? (c->limit - f->value) / c->limit :
				      (f->value - c->limit) / c->limit;
	if (in->ram_backed) {
		f->verdict = c->cmp == CHECK_INFO ? CHECK_NO_THRESHOLD :
						    CHECK_INCONCLUSIVE;
		snprintf(
			f->reason, sizeof(f->reason),
			"the target is in RAM (tmpfs or ramfs): nothing reached a disk, and nothing would survive a power loss");
		return;
	}
	if (in->flush_faked) {
		f->verdict = c->cmp == CHECK_INFO ? CHECK_NO_THRESHOLD :
						    CHECK_INCONCLUSIVE;
		snprintf(
			f->reason, sizeof(f->reason),
			"the flushes were dropped or answered faster than any disk can (a volatile cache, cache=unsafe): the figure is not durable storage's");
		return;
	}
	if (c->cmp == CHECK_INFO) {
		f->verdict = CHECK_NO_THRESHOLD;
		return;
	}
	/* Pass only when the whole 95 % interval is on the right side. */
	if (at_most ? f->lo > c->limit : f->hi < c->limit) {
		f->verdict = CHECK_FAIL;
		if (c->stat == CHECK_MAX)
			snprintf(f->reason, sizeof(f->reason),
				 "one of %llu took longer than the limit",
				 (unsigned long long)in->ios);
		else
			f->reason[0] = 0;
		return;
	}
	if (c->stat == CHECK_MAX) {
		if (in->ios < CHECK_MIN_SAMPLES) {
			f->verdict = CHECK_INCONCLUSIVE;
			snprintf(
				f->reason, sizeof(f->reason),
				"too few samples: %llu (%d needed); measure longer (--runtime)",
				(unsigned long long)in->ios, CHECK_MIN_SAMPLES);
			return;
		}
		f->verdict = CHECK_PASS;
		snprintf(
			f->reason, sizeof(f->reason),
			"none of %llu in %.1f s took longer; a longer run may still see one",
			(unsigned long long)in->ios, in->elapsed_s);
		return;
	}
	if (at_most ? f->hi <= c->limit : f->lo >= c->limit) {
		f->verdict = CHECK_PASS;
		f->reason[0] = 0;
		return;
	}
	f->verdict = CHECK_INCONCLUSIVE;
	if (!f->reason[0]) {
		fmt_fig(c, f->lo, a, sizeof(a));
		fmt_fig(c, f->hi, b, sizeof(b));
		snprintf(
			f->reason, sizeof(f->reason),
			"noisy: the %s lies between %s and %s (95 %%), on both sides of the limit; measure longer (--runtime) or on a quieter disk",
			stat_word(c), a, b);
	}
}

enum check_verdict check_overall(const struct check_figure *f, int n)
{
	bool any = false, inconclusive = false;

	for (int i = 0; i < n; i++) {
		if (f[i].verdict == CHECK_FAIL)
			return CHECK_FAIL;
		if (f[i].verdict == CHECK_INCONCLUSIVE)
			inconclusive = true;
		if (f[i].verdict != CHECK_NO_THRESHOLD)
			any = true;
	}
	if (inconclusive)
		return CHECK_INCONCLUSIVE;
	return any ? CHECK_PASS : CHECK_NO_THRESHOLD;
}

int check_exit_code(enum check_verdict v)
{
	switch (v) {
	case CHECK_FAIL:
		return EXIT_FINDING;
	case CHECK_INCONCLUSIVE:
		return CHECK_EXIT_INCONCLUSIVE;
	default:
		return EXIT_OK;
	}
}
