// SPDX-License-Identifier: GPL-2.0-or-later
/* From the steps' runs to the criteria's verdicts; see check_report.h. */
#include <math.h>
#include <stdio.h>

#include "check_report.h"
#include "../../core/target.h"

/* No device completes a write-back of dirty data faster than this; a
 * flush that does was answered by a cache (the same floor as reads'). */
#define FLUSH_FLOOR_NS 5000

static bool flush_faked(const struct check_step *s, const struct run_result *r,
			const struct target *t)
{
	const struct hist *h = &r->dir[DIR_FLUSH].lat;

	if (!s->flush_every)
		return false;
	if (r->flush_skipped)
		return true;
	return !t->env.ram_backed && h->count &&
	       hist_percentile(h, 50) < FLUSH_FLOOR_NS;
}

/* The spread of one operation's cycle: its flush's where one follows
 * every write (the flush dominates it), else its own latency's. */
static double cycle_cv(const struct check_step *s, const struct run_result *r,
		       int dir)
{
	const struct hist *h = s->flush_every == 1 && dir == DIR_WRITE ?
				       &r->dir[DIR_FLUSH].lat :
				       &r->dir[dir].lat;
	double mean = hist_mean(h);

	return mean > 0 ? hist_stddev(h) / mean : NAN;
}

void check_judge_all(struct check_result *r, const struct target *t)
{
	const struct check_profile *p = r->profile;

	for (int i = 0; i < p->ncrit; i++) {
		const struct check_criterion *c = &p->crit[i];
		const struct run_result *run = &r->run[c->step];
		/* Whole seconds only: the last one is cut short. */
		uint32_t per_s[64];
		int k = (int)floor(run->elapsed_s);
		struct check_input in = {
			.lat = &run->dir[c->dir].lat,
			.ios = run->dir[c->dir].ios,
			.elapsed_s = run->elapsed_s,
			.per_s = per_s,
			.ram_backed = t->env.ram_backed,
			.flush_faked = flush_faked(&p->steps[c->step], run, t),
		};

		if (k > (int)run->nts)
			k = (int)run->nts;
		if (k > 64)
			k = 64;
		for (int s = 0; s < k; s++)
			/* A flush is counted with the write it follows. */
			per_s[s] =
				run->ts[s].ios[c->dir == DIR_READ ? DIR_READ :
								    DIR_WRITE];
		in.nper_s = c->dir == DIR_FLUSH ? 0 : k;
		in.cycle_cv = cycle_cv(&p->steps[c->step], run, c->dir);
		check_judge(c, &in, &r->fig[i]);
	}
	r->verdict = check_overall(r->fig, p->ncrit);
	r->judged = true;
}

void check_result_free(struct check_result *r)
{
	for (int i = 0; i < r->nrun; i++)
		result_free(&r->run[i]);
	r->nrun = 0;
}

const char *check_limit_text(const struct check_criterion *c, char *buf,
			     size_t len)
{
	char v[32];

	if (c->cmp == CHECK_INFO)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s %s",
			 c->cmp == CHECK_AT_MOST ? "<=" : ">=",
			 check_value_text(c, c->limit, v, sizeof(v)));
	return buf;
}

const char *check_value_text(const struct check_criterion *c, double v,
			     char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (c->stat == CHECK_RATE)
		snprintf(buf, len, "%.0f/s", v);
	else if (v >= 1e9)
		snprintf(buf, len, "%.3g s", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, len, "%.3g ms", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%.3g us", v / 1e3);
	else
		snprintf(buf, len, "%.0f ns", v);
	return buf;
}
