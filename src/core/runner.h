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

#include "job.h"
#include "target.h"
#include "result.h"

struct err;

struct runner_opts {
	const char *label; /* shown in the progress line */
	bool progress; /* live line on stderr (callers pass isatty) */
	bool label_names_job; /* the label says what runs: no job title */
	/* A run that completed no measured I/O is returned, not refused:
	 * the caller shows it as not measured (calibrate's slow windows). */
	bool allow_no_io;
};

/*
 * Run @j on @t into @res (which the caller frees with result_free). Returns
 * false with @err set if the job could not start, or (unless
 * o->allow_no_io) if it completed no measured I/O without an error or a
 * signal to explain it: its figures would all be 0, and none was measured.
 * A run that started and then hit an I/O error or a signal returns true
 * with res->errors or res->partial set.
 */
bool runner_run(const struct job_spec *j, const struct target *t,
		const struct runner_opts *o, struct run_result *res,
		struct err *err);

#endif
