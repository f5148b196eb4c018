/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The calibration search, as a pure function over a "measure this load"
 * callback, so that it can be tested on synthetic device curves.
 *
 * Load is the number of reads kept in flight (queue depth x threads). The
 * search ramps the load 1, 2, 4, ... up to a bound; it stops doubling when
 * the latency statistic crosses the cap (then bisects between the last load
 * that met it and the first that did not), when throughput stops growing
 * (plateau_doublings doublings in a row each gaining less than
 * plateau_gain on the best so far, a fall not counting), or at the bound. A
 * sample is repeated where one sample is not enough to decide: at load 1
 * of a capped search (the reference), near or over the cap, or when the
 * measurer calls it noisy; two samples that disagree get a third and the
 * median wins. The
 * best point is confirmed by a second sample before it is reported, so one
 * lucky window cannot become the headline.
 */
#ifndef IOLAB_CMD_CALIBRATE_CALIBRATE_SEARCH_H
#define IOLAB_CMD_CALIBRATE_CALIBRATE_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

enum cal_stat {
	CAL_STAT_MEAN, /* Oracle's: the average latency */
	CAL_STAT_P99,
};

/* One measurement window at one load. */
struct cal_sample {
	unsigned int load; /* as run: the measurer may round the request */
	unsigned int qd, threads; /* how the load was split */
	double iops, mbps;
	double mean_ns, p50_ns, p99_ns;
	double wait_ns; /* of mean_ns, the wait for the submit call */
	double noise; /* relative spread inside the window, 0 if unknown */
	double seconds; /* measured time */
	uint64_t ios;
	/* Its reads were not the disk's: of a region no disk stored, or
	 * served from a cache (the truth rules' warnings). */
	bool unbacked, cache_reads;
};

#define CAL_MAX_SAMPLES 3

/* A load on the curve: its samples and their aggregate (the median). */
struct cal_point {
	unsigned int load, qd, threads;
	unsigned int nsamples;
	struct cal_sample s[CAL_MAX_SAMPLES];
	double iops, mbps, mean_ns, p50_ns, p99_ns, wait_ns;
	double spread; /* (max - min) / median IOPS over the samples */
	bool noisy; /* spread or in-window noise above the tolerance */
	bool meets_cap; /* always true when there is no cap */
	bool unbacked, cache_reads; /* some sample's reads were (above) */
};

/* True if the point's windows completed reads (its median IOPS is above
 * 0); a point without is shown as not measured, never as 0. */
static inline bool cal_point_measured(const struct cal_point *pt)
{
	return pt->iops > 0;
}

enum cal_measure_rc {
	CAL_MEASURED = 0,
	CAL_BUDGET = 1, /* no time left for another sample: stop, keep all */
	CAL_STOP = 2, /* an error or a signal: stop, the caller knows why */
};

enum cal_stage { CAL_STAGE_RAMP, CAL_STAGE_BISECT, CAL_STAGE_CONFIRM };

/*
 * Measure one window at @load into @out (out->load = the load run). @stage
 * lets a budgeted measurer keep time for the confirmation: it may refuse
 * (CAL_BUDGET) a ramp or bisection window that would leave none.
 */
typedef int (*cal_measure_fn)(void *ctx, unsigned int load,
			      enum cal_stage stage, struct cal_sample *out);

struct cal_search_params {
	unsigned int max_load; /* the bound (from --disks) */
	double cap_ns; /* latency cap; 0 = none (throughput phases) */
	enum cal_stat stat;
	double tolerance; /* samples within this relative spread agree */
	double plateau_gain; /* a doubling gaining less than this is flat */
	/* This many flat doublings in a row end the ramp. Three, not two:
	 * one lucky window at a low load makes the next two look flat. */
	unsigned int plateau_doublings;
	double resolution; /* bisect until hi - lo <= lo * resolution */
	double near_cap; /* a stat within cap/near_cap..cap*near_cap is
			    decision-sensitive: sampled twice */
	unsigned int max_samples; /* per point, 1..CAL_MAX_SAMPLES */
	/* Leave the confirmation to a later cal_search_confirm() call, so
	 * that its windows fall at another time than the ramp's: a busy
	 * spell that spans the ramp's top loads then does not also span
	 * the windows that confirm them. */
	bool defer_confirm;
};

/* Why the search ended. */
enum cal_end {
	CAL_END_CAP, /* the cap was crossed and bisected */
	CAL_END_PLATEAU, /* throughput stopped growing below the cap */
	CAL_END_MAX_LOAD, /* reached the bound, still under the cap */
	CAL_END_NOT_MET, /* even load 1 misses the cap */
	CAL_END_BUDGET, /* out of time before one of the above */
	CAL_END_STOPPED, /* the measurer said stop (error, signal) */
};

struct cal_search {
	struct cal_point *pts; /* ascending load */
	unsigned int n, cap;
	int best; /* index of the highest IOPS meeting the cap, or -1 */
	enum cal_end end;
	bool cut_short; /* the budget ended it (maybe only the confirmation) */
	enum cal_stage cut_stage; /* where, when cut_short */
	unsigned int nsamples; /* windows measured in all */
	unsigned int lo, hi; /* last load meeting the cap, first missing it
				(hi 0 = never missed) */
};

/* Defaults used by calibrate: tolerance 10 %, plateau 5 % over 3
 * doublings, resolution 1/16, near the cap within 1.3x, 3 samples. */
void cal_search_defaults(struct cal_search_params *p);
/*
 * Run the search. @out is overwritten; free with cal_search_free(). Always
 * returns a usable @out: its points are whatever was measured.
 */
void cal_search_run(const struct cal_search_params *p, cal_measure_fn fn,
		    void *ctx, struct cal_search *out);
/* Confirm the best point (a second window, a third if they disagree);
 * cal_search_run does this itself unless p->defer_confirm. */
void cal_search_confirm(const struct cal_search_params *p, cal_measure_fn fn,
			void *ctx, struct cal_search *s);
void cal_search_free(struct cal_search *s);

/* The statistic compared with the cap. */
double cal_point_stat(const struct cal_point *pt, enum cal_stat stat);
const char *cal_stat_name(enum cal_stat stat);
extern const char *const cal_stat_names[];
const char *cal_end_name(enum cal_end e);

/* The point at @load, or NULL. */
const struct cal_point *cal_search_at(const struct cal_search *s,
				      unsigned int load);

#endif
