/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `iolab mark`: CrystalDiskMark's suites on one prepared target.
 *
 * The procedure is CrystalDiskMark's (DiskBench.cpp, reference/calibrate.md
 * 5.1): all read tests, then all write tests, then the mix tests; each test
 * is one unscored warm-up run followed by N scored runs of the measure time,
 * back to back; a pause ("interval") separates consecutive tests. The
 * headline of a test is the maximum MB/s over its scored runs, as
 * CrystalDiskMark reports; the mean, minimum and standard deviation are kept
 * beside it.
 *
 * Library use (the lab calls this inside a guest, with no CLI):
 *
 *	struct mark_spec s;
 *	struct mark_result r;
 *
 *	mark_spec_defaults(&s);                 // CDM 8/9 default preset
 *	mark_spec_set_preset(&s, mark_preset_find("cdm6"));
 *	s.base.engine = ENGINE_THREADS;         // engine and cache mode
 *	if (!mark_spec_validate(&s, &err)) ...
 *	target_prepare(&t, &req, &w, &err);     // req.need_write =
 *						// mark_needs_write(&s)
 *	if (!mark_run(&s, &t, &r, &err)) ...    // setup failure: err says why
 *	mark_json_write(...) or jmark_tests(&r) // mark_report.h,
 *						// mark_json.h
 *	mark_result_free(&r);
 *
 * mark_run() prints nothing unless s.progress is set (then a live line on
 * stderr, as the runner's). It stops early on a pending signal (util/sig.h)
 * or an I/O error and says so in the result.
 */
#ifndef IOLAB_CMD_MARK_MARK_SUITE_H
#define IOLAB_CMD_MARK_MARK_SUITE_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "../../core/job.h"
#include "../../core/result.h"

struct err;
struct target;

#define MARK_MAX_TESTS 16

/* Directions, in CrystalDiskMark's order. */
enum mark_dir { MARK_READ, MARK_WRITE, MARK_MIX, MARK_DIRS };

/* One CrystalDiskMark test: "SEQ1M Q8T1", "RND4K Q32T16". */
struct mark_test {
	bool random;
	uint64_t bs;
	unsigned int qd; /* outstanding I/Os per thread */
	unsigned int threads;
};

struct mark_preset {
	const char *name; /* --preset NAME */
	const char *title; /* "CrystalDiskMark 8/9 default" */
	unsigned int ntests;
	struct mark_test tests[4];
	uint64_t time_ns; /* measure time it implies, 0 = the default */
	uint64_t interval_ns; /* pause it implies, when has_interval */
	bool has_interval;
};

/* The presets, terminated by an entry whose name is NULL. */
extern const struct mark_preset mark_presets[];
const struct mark_preset *mark_preset_find(const char *name);

/*
 * "SEQ1M-Q8T1", "RND4K-Q32T16", "seq128k q32t1": SEQ or RND, a block size
 * in KiB (K) or MiB (M), then Q<depth>T<threads>. Fills @t or sets @err
 * (EXIT_USAGE) with what is wrong and the expected form.
 */
bool mark_test_parse(const char *s, struct mark_test *t, struct err *err);
/* A comma-separated list; returns the count or -1. */
int mark_tests_parse(const char *list, struct mark_test *out, int max,
		     struct err *err);
/* CrystalDiskMark's label: "SEQ1M Q8T1", "RND4K Q32T16". */
const char *mark_test_name(const struct mark_test *t, char *buf, size_t len);

/*
 * How long each test runs. MARK_PRECISION (the default): after the
 * warm-up, runs of time_ns each until the 95 % interval of the mean MB/s
 * over the runs is within +-precision of it, and was one run before
 * (min_runs at least), or until
 * max_ns has gone by for the test (then the figure is marked noisy); the
 * headline is that mean. The interval is over runs, not the seconds of
 * one run: separate runs start their I/O afresh and are close to
 * independent samples, where a run's seconds follow each other (write
 * back, a device's cache) and make an interval look narrower than it is.
 * MARK_FIXED: CrystalDiskMark's procedure, a warm-up then exactly runs
 * runs, the best run the headline.
 */
enum mark_procedure { MARK_PRECISION, MARK_FIXED };

struct mark_spec {
	unsigned int ntests;
	struct mark_test tests[MARK_MAX_TESTS];
	bool dir[MARK_DIRS]; /* which directions run */
	unsigned int mix_read_pct; /* share of reads in mix tests */
	enum mark_procedure procedure;
	unsigned int runs; /* MARK_FIXED: scored runs per test and direction */
	uint64_t time_ns; /* each run, the warm-up run too */
	double precision; /* MARK_PRECISION: half-width asked, 0.05 = 5 % */
	uint64_t max_ns; /* MARK_PRECISION: cap per test and direction */
	unsigned int min_runs; /* MARK_PRECISION: floor of scored runs */
	uint64_t interval_ns; /* pause between consecutive tests */
	/*
	 * What every test inherits: engine, cache, pattern, seed, flush_every
	 * (writing tests only), warm_cache, force, cpus, percentiles. The
	 * workload fields (rw, bs, qd, threads, runtime) are the tests'.
	 */
	struct job_spec base;
	const char *preset; /* the preset's name, or NULL for a test list */

	/* Presentation only. */
	bool progress; /* live line on stderr */
	const char *label; /* its prefix: "mark" */
	uint64_t eta_after_ns; /* work that follows this mark (matrix) */
};

/*
 * The defaults: the CDM 8/9 default preset, read and write, runs of
 * 500 ms until each MB/s is known to +-5 % (3 runs at least, 20 s per test
 * at most), no pause between tests, mix 70 % reads, the runner's default
 * engine and cache=none.
 */
void mark_spec_defaults(struct mark_spec *s);
/* CrystalDiskMark's procedure: @runs runs of 5 s, 5 s between tests. */
void mark_spec_set_fixed(struct mark_spec *s, unsigned int runs);
/*
 * A run length given without a cap: with the precision procedure, raise
 * max_ns to twice the warm-up and the floor of runs, where the command's
 * default cap would leave no room beyond that floor.
 */
void mark_spec_fit_cap(struct mark_spec *s);
/* Most scored runs a test may take: runs, or what max_ns holds. */
unsigned int mark_max_runs(const struct mark_spec *s);
/* Take a preset's tests (and its time and interval, as CDM's Flash). */
void mark_spec_set_preset(struct mark_spec *s, const struct mark_preset *p);
/* Everything checkable without the target, each test's job included. */
bool mark_spec_validate(const struct mark_spec *s, struct err *err);
/* True when some test writes (the target must be writable). */
bool mark_needs_write(const struct mark_spec *s);
/* The job of test @i in direction @d, run @run (0 = warm-up). */
void mark_job(const struct mark_spec *s, unsigned int i, enum mark_dir d,
	      unsigned int run, struct job_spec *j);
/* Tests x directions that run. */
unsigned int mark_count(const struct mark_spec *s);
/* Time the whole suite will take (runs and pauses; no preparation):
 * with MARK_PRECISION, when every test is known after its floor of runs. */
uint64_t mark_estimate_ns(const struct mark_spec *s);
/* The longest it may take: every test at its cap (= the estimate for
 * MARK_FIXED). */
uint64_t mark_estimate_max_ns(const struct mark_spec *s);

/* A figure across the scored runs. stddev is the sample deviation (n-1). */
struct mark_stat {
	double max, mean, min, stddev;
};

/* One test in one direction. */
struct mark_cell {
	enum mark_procedure procedure; /* how its runs were chosen */
	bool started; /* its warm-up began */
	bool partial; /* stopped before all its runs were done */
	bool warmup_done;
	double warmup_mbps, warmup_iops, warmup_s;
	unsigned int nruns; /* runs[] filled: complete, then maybe one cut */
	unsigned int scored; /* complete runs, the ones the figures use */
	struct run_result *runs; /* mark_max_runs() entries */
	struct mark_stat mbps, iops;
	struct mark_stat read_mbps, write_mbps; /* mix: each side */
	/* Half-width of the 95 % interval of the mean MB/s over the scored
	 * runs (Student's t, correlated runs counted as fewer), NAN below 2
	 * runs; relative to the mean in rel_ci. precise: MARK_PRECISION
	 * reached its precision. */
	double ci_mbps, rel_ci;
	/* What the scored runs are worth as independent ones (fewer when
	 * consecutive runs are correlated; see student_mean_half). */
	double n_eff;
	bool precise;
	double elapsed_s; /* the test's wall time, warm-up included */
	struct hist *lat; /* all scored I/Os (mix: reads and writes) */
	bool page_cache_reads; /* a run's reads came from the page cache */
	/* The best scored run's MB/s counting the flush that put its writes
	 * on the storage (result_storage_mbps); set when any run's writes
	 * were acknowledged from a cache. */
	double storage_mbps;
	bool cached_writes;
	/* A run read a region no disk stored (unwritten-reads, zero-reads,
	 * repeated-reads): its reads are not the disk's either. */
	bool unbacked_reads;
	struct warnings warnings;
};

struct mark_result {
	struct mark_spec spec;
	struct mark_cell cell[MARK_MAX_TESTS][MARK_DIRS];
	char engine_features[96];
	double elapsed_s; /* wall time of the whole suite */
	bool partial; /* stopped early: by a signal or an I/O error */
	int stop_signal;
	uint64_t errors; /* I/O errors of the run that stopped it */
	char error[256]; /* that error in words */
	struct warnings warnings; /* about the whole suite (ram-target ...) */
};

/*
 * Run the suite on a prepared target. False with @err set if a job could
 * not start (the result holds what ran before; free it all the same);
 * true otherwise, with r->partial set if a signal or an I/O error stopped
 * it early.
 */
bool mark_run(const struct mark_spec *s, const struct target *t,
	      struct mark_result *r, struct err *err);
void mark_result_free(struct mark_result *r);

/*
 * The marks a table puts after a cell's figure, as letters: c its reads
 * came from the page cache, z from a region no disk stored, w its writes
 * were acknowledged from a cache, ~ its figure is not known to the
 * precision asked. "" when none; @buf holds MARK_MARKS_LEN.
 */
#define MARK_MARKS_LEN 8
const char *mark_cell_marks(const struct mark_cell *c, char *buf);
/* MARK_PRECISION could not narrow its interval within the cap. */
bool mark_cell_imprecise(const struct mark_cell *c);
/* The legend line of each mark in @marks ("czw~"), for tables. */
void mark_marks_legend(const char *marks, FILE *f);

/* Headline figure of a cell, 0 if none: the mean MB/s over the scored
 * runs (MARK_PRECISION) or the best run's (MARK_FIXED, as CDM). */
double mark_cell_mbps(const struct mark_cell *c);
/* Its IOPS the same way. */
double mark_cell_iops(const struct mark_cell *c);
/* Relative uncertainty of the headline, for rankings (util/margin.h):
 * the standard error of the mean over the runs (MARK_PRECISION), the
 * runs' coefficient of variation (MARK_FIXED: the best of N does not get
 * surer with N). NAN when unknown. */
double mark_cell_unc(const struct mark_cell *c);
/*
 * Add the warning "noisy" to a cell: with MARK_PRECISION, one whose
 * interval stayed wider than s->precision; with MARK_FIXED, one whose
 * MB/s spread by more than 10 % (coefficient of variation over its scored
 * runs; with one run, of the run's full seconds). Called once its figures
 * are summed up (elapsed_s set for MARK_PRECISION's words).
 */
void mark_noise_check(struct mark_cell *c, const struct mark_spec *s);
/* The cell's coefficient of variation of MB/s, as mark_noise_check()
 * judges it (over runs, or one run's seconds); NAN when unknown. */
double mark_cell_cv(const struct mark_cell *c);

#endif
