/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Runs one job on a prepared target: starts one lane (thread) per job
 * thread, or per pool worker for the threads engine, each with its own
 * engine instance, buffers and statistics; waits; merges. The hot loop
 * neither locks, allocates nor prints.
 */
#ifndef IOLAB_CORE_RUNNER_H
#define IOLAB_CORE_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "job.h"
#include "target.h"
#include "result.h"

struct err;

/*
 * The run's clock, replaceable for tests. now_ns reads it; sleep_until
 * returns once it shows @t_ns or later (early on a signal: callers
 * re-read the clock).
 */
struct runner_clock {
	uint64_t (*now_ns)(const struct runner_clock *c);
	void (*sleep_until)(const struct runner_clock *c, uint64_t t_ns);
};

struct runner_opts {
	const char *label; /* shown in the progress line */
	bool progress; /* live line on stderr (callers pass isatty) */
	bool label_names_job; /* the label says what runs: no job title */
	/* A run that completed no measured I/O is returned, not refused:
	 * the caller shows it as not measured (calibrate's slow windows). */
	bool allow_no_io;
	/*
	 * Seams for tests (tests/unit/test_runner.c); NULL is the real one:
	 * the job's engine (engine_get(j->engine)), and util/clock.h's clock
	 * (CLOCK_MONOTONIC, or the invariant TSC where that is slow). The
	 * default clock costs the hot loop one predicted branch, not a call.
	 */
	const struct engine_ops *engine;
	const struct runner_clock *clock;
};

/*
 * Run @j on @t into @res (which the caller frees with result_free). Returns
 * false with @err set if the job could not start, or (unless
 * o->allow_no_io) if it completed no measured I/O without an error or a
 * signal to explain it: its figures would all be 0, and none was measured.
 * A run that started and then hit an I/O error or a signal returns true
 * with res->errors or res->partial set. An engine call that failed (submit
 * or reap returned -errno: the engine broke, not a request) returns false
 * with @err naming the engine, the call and the errno, exit code EXIT_IO.
 */
bool runner_run(const struct job_spec *j, const struct target *t,
		const struct runner_opts *o, struct run_result *res,
		struct err *err);

#endif
