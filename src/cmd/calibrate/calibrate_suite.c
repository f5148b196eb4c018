// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The three phases of `iolab calibrate` and their time budget; see
 * calibrate.h. Each window is one runner_run() of random reads with a
 * warm-up that is not counted; the search decides which loads to run.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibrate_suite.h"
#include "../../core/plausible.h"
#include "../../core/runner.h"
#include "../../core/target.h"
#include "../../util/clock.h"
#include "../../util/err.h"
#include "../../util/fsread.h"
#include "../../util/parse.h"
#include "../../util/sig.h"

/* Shares of the budget; the rest is slack for set-up and drains. */
static const double phase_share[CAL_PHASES] = { 0.60, 0.25, 0.10 };
#define SLACK_SHARE 0.05

/*
 * Windows are as long as the phase's time allows for the windows it is
 * expected to need: one per doubling up to the bound, a third more for
 * repeats, three for bisection and confirmation; a warm-up of a quarter
 * window precedes each. (Budget 60 s, bound 256: windows of about 1.8 s.)
 */
#define REPEAT_FACTOR 1.3
#define EXTRA_WINDOWS 3
#define WINDOW_MIN_NS 200000000ull
#define WINDOW_MAX_NS 10000000000ull
#define WARMUP_MIN_NS 100000000ull
#define WARMUP_MAX_NS 2000000000ull
#define OVERHEAD_MIN_NS 30000000ull
/* Fewer reads than this in a window make its latency statistic rough (a
 * p99 of 1000 rests on 10 reads). Said in a warning, not fixed by longer
 * windows: one disturbed window must not cost the ramp its budget. */
#define WINDOW_MIN_IOS_MEAN 200
#define WINDOW_MIN_IOS_P99 1000

unsigned int calibrate_split(unsigned int load, enum engine_kind engine,
			     unsigned int ncpus, unsigned int *qd,
			     unsigned int *threads)
{
	unsigned int t;

	if (!load)
		load = 1;
	if (engine_has(engine, ENGINE_ONE_AT_A_TIME)) {
		/* One request per thread: the load is the thread count. */
		*qd = 1;
		*threads = load;
		return load;
	}
	if (engine_has(engine, ENGINE_THREAD_PER_IO)) {
		/* The pool already runs one worker per request. */
		*qd = load;
		*threads = 1;
		return load;
	}
	/* One submitting thread per 64 in flight, as many as there are CPUs
	 * (8 at most): one thread alone caps what a fast device shows. */
	t = load / 64;
	if (t > ncpus)
		t = ncpus;
	if (t > 8)
		t = 8;
	if (t < 1)
		t = 1;
	*threads = t;
	*qd = load / t;
	return *qd * t;
}

struct measurer {
	const struct cal_opts *o;
	const struct target *t;
	struct cal_result *r;
	struct cal_phase *ph;
	const char *phase_name;
	struct err *err;
	unsigned int ncpus;
	uint64_t phase_deadline_ns, deadline_ns;
	uint64_t reserve_ns; /* kept back for the small reads' confirmation */
	uint64_t window_ns, warmup_ns; /* this phase's */
	uint64_t overhead_ns; /* set-up + drain per window, smoothed */
	unsigned int phase_samples, total_samples;
	bool failed; /* could not run: err is set */
	char label[64];
};

static double ts_noise(const struct run_result *res)
{
	double lo = 0, hi = 0, sum = 0;
	uint32_t n;

	/* Whole seconds only: the last one is partial. */
	n = res->nts > 1 ? res->nts - 1 : 0;
	if (n < 3)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		double v = res->ts[i].ios[0];

		if (!i || v < lo)
			lo = v;
		if (!i || v > hi)
			hi = v;
		sum += v;
	}
	return sum > 0 ? (hi - lo) / (sum / n) : 0;
}

static void describe_io_error(struct measurer *m, const struct run_result *res)
{
	char bs[32];

	snprintf(m->r->io_error_msg, sizeof(m->r->io_error_msg),
		 "reading %s at offset %llu of %s failed: %s (%llu errors)",
		 fmt_size(res->spec.bs, bs, sizeof(bs)),
		 (unsigned long long)res->first_err_off, m->t->path,
		 res->first_errno ? strerror(res->first_errno) :
				    "short transfer",
		 (unsigned long long)res->errors);
	m->r->io_error = true;
}

static int measure(void *ctx, unsigned int load, enum cal_stage stage,
		   struct cal_sample *out)
{
	struct measurer *m = ctx;
	struct cal_phase *ph = m->ph;
	struct job_spec j;
	struct runner_opts ro = { 0 };
	struct run_result res;
	uint64_t now = clock_ns(), warm = m->warmup_ns, win = m->window_ns, t0,
		 spent;
	const struct hist *h;
	unsigned int qd, threads;

	if (sig_pending()) {
		m->r->stop_signal = sig_pending();
		return CAL_STOP;
	}
	/* The first window of a phase also wakes the device up. */
	if (!m->phase_samples)
		warm *= 2;
	/* Every phase gets one window, whatever is left; later windows only
	 * if they fit, shortened to at most half. The ramp and bisection of
	 * a phase that confirms at once leave time for two confirming
	 * windows (a deferred confirmation has m->reserve_ns instead). */
	if (m->phase_samples) {
		uint64_t need = warm + m->overhead_ns,
			 end = m->phase_deadline_ns;
		uint64_t keep =
			2 * (m->warmup_ns + m->window_ns + m->overhead_ns);

		if (end > m->deadline_ns)
			end = m->deadline_ns;
		if (stage != CAL_STAGE_CONFIRM && !ph->p.defer_confirm)
			end = end > keep ? end - keep : 0;
		if (now + need + win / 2 > end)
			return CAL_BUDGET;
		if (now + need + win > end)
			win = end - now - need;
	}
	if (ph->p.max_load == 1)
		load = 1, qd = 1, threads = 1;
	else
		load = calibrate_split(load, m->o->engine, m->ncpus, &qd,
				       &threads);

	job_defaults(&j);
	j.rw = RW_RANDREAD;
	j.bs = ph->bs;
	j.qd = qd;
	j.threads = threads;
	j.runtime_ns = win;
	j.ramp_ns = warm;
	j.engine = m->o->engine;
	j.cache = m->o->cache;
	/* New offsets every window: a repeat must not hit what the last one
	 * left in a cache. */
	j.seed = 0xca11b8a7eull + 0x9e3779b97f4a7c15ull * ++m->total_samples;
	j.npercentiles = 0;
	snprintf(m->label, sizeof(m->label), "iolab calibrate %.0f/%.0f s, %s",
		 (double)(now - m->o->start_ns) / 1e9,
		 (double)m->o->budget_ns / 1e9, m->phase_name);
	ro.label = m->label;
	ro.progress = m->o->progress;
	/* A window without a completed read is a point shown as not
	 * measured, with the warm-up's latency (below). */
	ro.allow_no_io = true;

	t0 = clock_ns();
	if (!runner_run(&j, m->t, &ro, &res, m->err)) {
		m->failed = true;
		return CAL_STOP;
	}
	spent = clock_ns() - t0;
	/* Set-up and the drain of the last reads, smoothed: one stalled
	 * drain must not make every later window look unaffordable; it is
	 * also never counted as more than a window. */
	{
		uint64_t o = spent > warm + win ? spent - warm - win : 0;

		if (o > m->window_ns)
			o = m->window_ns;
		m->overhead_ns = (m->overhead_ns + o) / 2;
		if (m->overhead_ns < OVERHEAD_MIN_NS)
			m->overhead_ns = OVERHEAD_MIN_NS;
	}
	m->phase_samples++;
	if (res.errors) {
		describe_io_error(m, &res);
		result_free(&res);
		return CAL_STOP;
	}
	if (res.stop_signal) {
		m->r->stop_signal = res.stop_signal;
		result_free(&res);
		return CAL_STOP;
	}
	if (!m->r->engine_features[0])
		snprintf(m->r->engine_features, sizeof(m->r->engine_features),
			 "%s", res.engine_features);
	/* Per-window notes worth keeping (cache, RAM, null engine); the
	 * sample count of one window says nothing about the calibration. */
	for (size_t i = 0; i < res.warnings.n; i++)
		if (strcmp(res.warnings.v[i].id, "few-samples"))
			warn_add(&m->r->warnings, res.warnings.v[i].id, "%s",
				 res.warnings.v[i].msg);

	h = &res.dir[DIR_READ].lat;
	*out = (struct cal_sample){
		.load = load,
		.qd = qd,
		.threads = threads,
		.unbacked = plausible_unbacked(&res.warnings),
		.cache_reads = warn_has(&res.warnings, "page-cache-reads") ||
			       warn_has(&res.warnings, "below-disk-latency"),
		.iops = result_iops(&res, DIR_READ),
		.mbps = result_mbps(&res, DIR_READ),
		.mean_ns = hist_mean(h),
		.p50_ns = (double)hist_percentile(h, 50),
		.p99_ns = (double)hist_percentile(h, 99),
		.wait_ns = result_submit_wait_ns(&res),
		.noise = ts_noise(&res),
		.seconds = res.elapsed_s,
		.ios = res.dir[DIR_READ].ios,
	};
	if (!out->ios) {
		/* No read completed inside the window: its latency is not 0
		 * but longer than the window. The warm-up's reads, drained at
		 * the end, did complete: their latency is the one measured
		 * (the IOPS stays 0, and the point shows as not measured). */
		double lat = res.ramp_ios ? (double)res.ramp_lat_ns /
						    (double)res.ramp_ios :
					    (double)(warm + win);

		out->mean_ns = out->p50_ns = out->p99_ns = lat;
		out->iops = out->mbps = 0;
	}
	result_free(&res);
	return CAL_MEASURED;
}

static uint64_t clamp_u64(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static void run_phase(struct measurer *m, enum cal_phase_id id,
		      const char *name)
{
	struct cal_phase *ph = &m->r->ph[id];
	uint64_t now = clock_ns(), left;
	double shares = 0;

	for (int k = id; k < CAL_PHASES; k++)
		shares += phase_share[k];
	left = m->deadline_ns > now + m->reserve_ns ?
		       m->deadline_ns - now - m->reserve_ns :
		       0;
	m->ph = ph;
	m->phase_name = name;
	m->phase_samples = 0;
	{
		/* Its share of what is left, but not more than half again its
		 * share of the whole budget: time the 1 MiB phases do not
		 * use is better left to the small reads' confirmation. */
		double t = (double)left * phase_share[id] /
			   (shares + SLACK_SHARE),
		       cap = 1.5 * phase_share[id] * (double)m->o->budget_ns;

		m->phase_deadline_ns = now + (uint64_t)(t < cap ? t : cap);
	}
	{
		double windows = EXTRA_WINDOWS, per;

		for (unsigned int l = 1; l < ph->p.max_load; l *= 2)
			windows += REPEAT_FACTOR;
		windows += REPEAT_FACTOR;
		/* Each window: 1.25 windows of time (warm-up) + overhead. */
		per = (double)(m->phase_deadline_ns - now) / windows;
		per -= (double)m->overhead_ns;
		m->window_ns = clamp_u64((uint64_t)(per > 0 ? per / 1.25 : 0),
					 WINDOW_MIN_NS, WINDOW_MAX_NS);
		m->warmup_ns = clamp_u64(m->window_ns / 4, WARMUP_MIN_NS,
					 WARMUP_MAX_NS);
	}
	ph->window_s = (double)m->window_ns / 1e9;
	ph->warmup_s = (double)m->warmup_ns / 1e9;
	ph->ran = true;
	cal_search_run(&ph->p, measure, m, &ph->s);
	ph->seconds = (double)(clock_ns() - now) / 1e9;
	if (ph->s.cut_short)
		m->r->cut_short = true;
}

/*
 * The small reads' confirmation, after the other phases: its windows fall
 * tens of seconds after the ramp's, so a busy spell over the ramp's top
 * loads does not also decide the windows that confirm them.
 */
static void confirm_small(struct measurer *m)
{
	struct cal_phase *ph = &m->r->ph[CAL_PHASE_SMALL];
	uint64_t now = clock_ns();

	m->ph = ph;
	m->phase_name = "small reads, confirming";
	m->phase_samples = ph->s.nsamples ? ph->s.nsamples : 1;
	m->phase_deadline_ns = m->deadline_ns;
	m->window_ns = (uint64_t)(ph->window_s * 1e9);
	m->warmup_ns = (uint64_t)(ph->warmup_s * 1e9);
	cal_search_confirm(&ph->p, measure, m, &ph->s);
	ph->seconds += (double)(clock_ns() - now) / 1e9;
	if (ph->s.cut_short)
		m->r->cut_short = true;
}

static bool stopped(const struct measurer *m)
{
	return m->failed || m->r->stop_signal || m->r->io_error;
}

static unsigned int engine_limit(enum engine_kind e)
{
	if (engine_has(e, ENGINE_ONE_AT_A_TIME))
		return 256; /* --threads limit */
	if (engine_has(e, ENGINE_THREAD_PER_IO))
		return 1024; /* pool workers */
	return 4096;
}

unsigned int calibrate_small_load_bound(unsigned int disks,
					enum engine_kind engine)
{
	unsigned int load =
		(disks ? disks : CAL_MAX_DISKS_DEFAULT) * CAL_SMALL_PER_DISK;

	return load < engine_limit(engine) ? load : engine_limit(engine);
}

uint64_t calibrate_buffer_bound(unsigned int disks, enum engine_kind engine,
				uint64_t bs)
{
	uint64_t small, large = (uint64_t)CAL_LARGE_MAX_LOAD * CAL_LARGE_BS;

	if (!engine_uses_buffers(engine))
		return 0;
	small = calibrate_small_load_bound(disks, engine) *
		((bs + 4095) & ~4095ull);
	return small > large ? small : large;
}

static void figures(struct cal_result *r, const struct cal_opts *o,
		    const struct target *t)
{
	const struct cal_search *s = &r->ph[CAL_PHASE_SMALL].s;
	const struct cal_search *l = &r->ph[CAL_PHASE_LARGE].s;
	const struct cal_search *p = &r->ph[CAL_PHASE_SINGLE].s;
	const struct cal_point *qd1 = cal_search_at(s, 1);
	struct cal_facts f = { 0 };

	if (s->best >= 0) {
		r->cap_met = true;
		r->max_iops = s->pts[s->best].iops;
		r->actual_latency_ms = s->pts[s->best].mean_ns / 1e6;
	}
	if (l->best >= 0)
		r->max_mbps = l->pts[l->best].mbps;
	if (p->best >= 0)
		r->max_pmbps = p->pts[p->best].mbps;
	calibrate_knee(s, CAL_KNEE_FRACTION, &r->knee);

	f.qd1_mean_ns = qd1 ? qd1->mean_ns : 0;
	if (qd1 && qd1->nsamples) {
		f.qd1_p50_ns = qd1->p50_ns;
		f.qd1_p50_lo_ns = f.qd1_p50_hi_ns = qd1->s[0].p50_ns;
		for (unsigned int i = 1; i < qd1->nsamples; i++) {
			if (qd1->s[i].p50_ns < f.qd1_p50_lo_ns)
				f.qd1_p50_lo_ns = qd1->s[i].p50_ns;
			if (qd1->s[i].p50_ns > f.qd1_p50_hi_ns)
				f.qd1_p50_hi_ns = qd1->s[i].p50_ns;
		}
		f.qd1_noisy = qd1->noisy;
	}
	f.qd1_iops = qd1 ? qd1->iops : 0;
	for (unsigned int i = 0; i < s->n; i++)
		if (s->pts[i].iops > f.best_iops &&
		    (r->cap_met ? s->pts[i].meets_cap : true)) {
			f.best_iops = s->pts[i].iops;
			f.best_load = s->pts[i].load;
		}
	f.nloads = s->n;
	f.knee_load = r->knee.valid ? r->knee.load : 0;
	f.end = s->end;
	f.still_growing =
		s->best > 0 &&
		s->pts[s->best].iops >=
			s->pts[s->best - 1].iops *
				(1 + r->ph[CAL_PHASE_SMALL].p.plateau_gain);
	f.cap_met = r->cap_met;
	f.cap_ms = o->max_latency_ms;
	f.max_load = r->max_small_load;
	f.ram_backed = t->env.ram_backed;
	f.unbacked = plausible_unbacked(&r->warnings);
	f.buffered = !cache_direct(o->cache);
	f.null_engine = engine_has(o->engine, ENGINE_NO_IO);
	f.virtualized = plausible_virtualized();
	f.rotational = t->env.rotational;
	f.driver = t->env.driver;
	calibrate_classify(&f, r->classification, sizeof(r->classification));
}

static void notes(struct cal_result *r, const struct cal_opts *o)
{
	const struct cal_search *s = &r->ph[CAL_PHASE_SMALL].s;

	if (!cache_direct(o->cache))
		warn_add(
			&r->warnings, "buffered-calibration",
			"--cache %s reads through the page cache: once a block is cached it is read from memory, so the figures are not the disk's; Oracle calibrates with direct, asynchronous I/O (--cache none)",
			cache_name(o->cache));
	if (s->best >= 0) {
		const struct cal_point *b = &s->pts[s->best];
		double in_flight = b->iops * (b->mean_ns - b->wait_ns) / 1e9;

		/* Little's law: a closed loop at load L keeps L in flight.
		 * Far fewer past the submit call means iolab's side, not the
		 * device, was slow. */
		if (b->load >= 4 && in_flight < 0.8 * b->load)
			warn_add(
				&r->warnings, "generator-limited",
				"at max_iops (load %u) only %.1f reads were in flight on average: the time between a completion and the next submission (iolab's CPU, or a busy machine) limited this point, so the device may do more",
				b->load, in_flight);
		if (b->nsamples < 2 && !r->stop_signal && !r->io_error)
			warn_add(
				&r->warnings, "unconfirmed",
				"max_iops rests on a single window: the budget left no time to confirm it; give a larger --budget");
	}
	/* Best at the bound and still gaining on the load before it: the
	 * bound, not the device, ended the ramp. */
	if (s->end == CAL_END_MAX_LOAD && s->best > 0 &&
	    s->pts[s->best].load == r->max_small_load &&
	    s->pts[s->best].iops >=
		    s->pts[s->best - 1].iops *
			    (1 + r->ph[CAL_PHASE_SMALL].p.plateau_gain))
		warn_add(
			&r->warnings, "load-bound",
			"IOPS was still growing at the concurrency bound (load %u = %u per disk x --disks %u, %.0f%% more than at load %u): the device may do more; give a larger --disks",
			r->max_small_load, CAL_SMALL_PER_DISK, r->disks,
			100 * (s->pts[s->best].iops / s->pts[s->best - 1].iops -
			       1),
			s->pts[s->best - 1].load);
	{
		uint64_t want = o->stat == CAL_STAT_P99 ? WINDOW_MIN_IOS_P99 :
							  WINDOW_MIN_IOS_MEAN;
		uint64_t fewest = UINT64_MAX;
		unsigned int at = 0;

		for (unsigned int i = 0; i < s->n; i++)
			for (unsigned int w = 0; w < s->pts[i].nsamples; w++)
				if (s->pts[i].s[w].ios < fewest) {
					fewest = s->pts[i].s[w].ios;
					at = s->pts[i].load;
				}
		if (!fewest)
			warn_add(
				&r->warnings, "no-reads",
				"no read completed inside a window at load %u: it shows no IOPS, and its latency is that of the warm-up reads, which outlasted the window (the device is very slow, or was stalled); a longer --budget gives longer windows",
				at);
		else if (fewest < want)
			warn_add(
				&r->warnings, "few-reads",
				"a window at load %u measured only %llu reads: latency figures resting on fewer than %llu reads per window are rough (the device is slow, or was stalled); a longer --budget gives longer windows",
				at, (unsigned long long)fewest,
				(unsigned long long)want);
	}
	/* One stream at QD1 outrunning the parallel phase is not what a
	 * device that serves requests in parallel does: say what it means. */
	if (r->ph[CAL_PHASE_LARGE].s.best >= 0 &&
	    r->ph[CAL_PHASE_SINGLE].s.best >= 0 &&
	    r->max_pmbps > 1.05 * r->max_mbps)
		warn_add(
			&r->warnings, "pmbps-above-mbps",
			"max_pmbps (%.0f MB/s, one thread at QD1) came out above max_mbps (%.0f MB/s, 1 MiB reads in parallel): parallel large reads got no more than one stream, so the path serialises them (one queue, a throughput limit) or the two phases saw different load; the larger figure is what one reader can get",
			r->max_pmbps, r->max_mbps);
	for (int k = 0; k < CAL_PHASES; k++)
		for (unsigned int i = 0; i < r->ph[k].s.n; i++)
			if (r->ph[k].s.pts[i].noisy) {
				warn_add(
					&r->warnings, "noisy",
					"some loads gave windows that disagreed by more than %.0f%% (marked ~): the machine or the storage was busy; their figures are medians of three windows",
					r->ph[k].p.tolerance * 100);
				break;
			}
}

bool calibrate_run(const struct cal_opts *o, const struct target *t,
		   struct cal_result *r, struct err *err)
{
	struct measurer m = { .o = o, .t = t, .r = r, .err = err };
	long nc = sysconf(_SC_NPROCESSORS_ONLN);

	memset(r, 0, sizeof(*r));
	r->budget_s = (double)o->budget_ns / 1e9;
	m.ncpus = nc > 0 ? (unsigned int)nc : 1;
	if (o->disks) {
		r->disks = o->disks;
		snprintf(r->disks_source, sizeof(r->disks_source),
			 "given with --disks");
	} else {
		r->disks = calibrate_default_disks(&fsview_host, t->env.device,
						   r->disks_source,
						   sizeof(r->disks_source));
	}
	r->max_small_load = r->disks * CAL_SMALL_PER_DISK;
	if (r->max_small_load > engine_limit(o->engine))
		r->max_small_load = engine_limit(o->engine);
	r->max_large_load = r->disks * CAL_LARGE_PER_DISK;
	if (r->max_large_load > CAL_LARGE_MAX_LOAD)
		r->max_large_load = CAL_LARGE_MAX_LOAD;
	if (r->max_large_load > engine_limit(o->engine))
		r->max_large_load = engine_limit(o->engine);

	m.deadline_ns = o->start_ns + o->budget_ns;
	m.overhead_ns = OVERHEAD_MIN_NS;

	for (int k = 0; k < CAL_PHASES; k++) {
		cal_search_defaults(&r->ph[k].p);
		if (o->precision > 0)
			r->ph[k].p.tolerance = o->precision;
		r->ph[k].bs = CAL_LARGE_BS;
		r->ph[k].s.best = -1; /* a phase not run has no best */
	}
	r->ph[CAL_PHASE_SMALL].bs = o->bs;
	r->ph[CAL_PHASE_SMALL].p.max_load = r->max_small_load;
	r->ph[CAL_PHASE_SMALL].p.cap_ns = o->max_latency_ms * 1e6;
	r->ph[CAL_PHASE_SMALL].p.stat = o->stat;
	r->ph[CAL_PHASE_SMALL].p.defer_confirm = true;
	r->ph[CAL_PHASE_LARGE].p.max_load = r->max_large_load;
	r->ph[CAL_PHASE_SINGLE].p.max_load = 1;

	run_phase(&m, CAL_PHASE_SMALL, "small reads");
	{
		const struct cal_search *s = &r->ph[CAL_PHASE_SMALL].s;

		/* Two windows of the small reads for the confirmation. */
		if (s->best >= 0 && s->pts[s->best].nsamples < 2)
			m.reserve_ns =
				2 * (m.warmup_ns + m.window_ns + m.overhead_ns);
	}
	if (!stopped(&m))
		run_phase(&m, CAL_PHASE_LARGE, "1 MiB reads");
	if (!stopped(&m))
		run_phase(&m, CAL_PHASE_SINGLE, "1 MiB reads, QD1");
	m.reserve_ns = 0;
	if (!stopped(&m))
		confirm_small(&m);
	if (m.failed) {
		calibrate_free(r);
		return false;
	}
	r->used_s = (double)(clock_ns() - o->start_ns) / 1e9;
	figures(r, o, t);
	notes(r, o);
	return true;
}

void calibrate_free(struct cal_result *r)
{
	for (int k = 0; k < CAL_PHASES; k++)
		cal_search_free(&r->ph[k].s);
	warnings_free(&r->warnings);
}
