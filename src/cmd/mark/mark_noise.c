// SPDX-License-Identifier: GPL-2.0-or-later
/* A test whose runs disagree is said to be noisy; see mark_suite.h. */
#include <math.h>
#include <stdint.h>

#include "mark_suite.h"
#include "../../core/result.h"
#include "../../engine/engine.h"

/* Above this coefficient of variation a test's best run is not a figure
 * to act on: CrystalDiskMark's "best of N" then mostly picks the luck. */
#define NOISY_CV 0.10

/*
 * The spread of a cell's MB/s: over its scored runs, or with one run over
 * that run's full seconds (its last, cut short, left out). NAN when there
 * is too little to tell.
 */
static double cell_cv(const struct mark_cell *c, unsigned int *over,
		      bool *seconds)
{
	const struct run_result *r = &c->runs[0];
	double sum = 0, sq = 0, mean;
	uint32_t full;

	*seconds = c->scored < 2;
	if (c->scored >= 2) {
		*over = c->scored;
		return c->mbps.mean > 0 ? c->mbps.stddev / c->mbps.mean : NAN;
	}
	full = (uint32_t)floor(r->elapsed_s);
	if (full > r->nts)
		full = r->nts;
	*over = full;
	if (!c->scored || full < 3)
		return NAN;
	for (uint32_t k = 0; k < full; k++)
		sum += (double)r->ts[k].ios[0] + (double)r->ts[k].ios[1];
	mean = sum / full;
	for (uint32_t k = 0; k < full; k++) {
		double v = (double)r->ts[k].ios[0] + (double)r->ts[k].ios[1];

		sq += (v - mean) * (v - mean);
	}
	return mean > 0 ? sqrt(sq / (full - 1)) / mean : NAN;
}

double mark_cell_cv(const struct mark_cell *c)
{
	unsigned int over;
	bool seconds;

	if (!c->scored || !engine_uses_buffers(c->runs[0].spec.engine))
		return NAN;
	return cell_cv(c, &over, &seconds);
}

/* The precision procedure: noisy is an interval it could not narrow. */
static void precision_check(struct mark_cell *c, const struct mark_spec *s)
{
	if (c->precise || c->partial)
		return;
	if (isnan(c->rel_ci)) {
		warn_add(
			&c->warnings, "noisy",
			"%u run%s in %.1f s give no interval: the figure is not known to +-%g%%; give a longer --max-time",
			c->scored, c->scored == 1 ? "" : "s", c->elapsed_s,
			100 * s->precision);
		return;
	}
	warn_add(
		&c->warnings, "noisy",
		"after %u runs in %.1f s its MB/s is known to +-%.1f%% only (95%% interval of the mean), not the +-%g%% asked: the disk is noisier than that; read the mean with its interval, or give a longer --max-time",
		c->scored, c->elapsed_s, 100 * c->rel_ci, 100 * s->precision);
}

void mark_noise_check(struct mark_cell *c, const struct mark_spec *s)
{
	unsigned int over;
	bool seconds;
	double cv;

	if (!c->scored || !engine_uses_buffers(c->runs[0].spec.engine))
		return; /* no I/O: the spread is the machine's, not a disk's */
	if (c->procedure == MARK_PRECISION) {
		precision_check(c, s);
		return;
	}
	cv = cell_cv(c, &over, &seconds);
	if (isnan(cv) || cv <= NOISY_CV)
		return;
	warn_add(
		&c->warnings, "noisy",
		seconds ?
			"its %u seconds spread by %.0f%% (coefficient of variation; above %.0f%%): one run is not a stable figure here; use --runs 3 or more and a longer --time" :
			"its %u runs spread by %.0f%% (coefficient of variation of MB/s; above %.0f%%): the best run is not a stable figure; use more --runs or a longer --time, and compare means with their spread",
		over, 100 * cv, 100 * NOISY_CV);
}
