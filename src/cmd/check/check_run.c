// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Running a profile's steps on a prepared target and judging them: what
 * `iolab check` does, and what `iolab matrix --check` does in each cell.
 */
#include <stdio.h>

#include "check_report.h"
#include "../../core/job.h"
#include "../../core/runner.h"
#include "../../core/target.h"
#include "../../util/err.h"

void check_job_of(const struct check_step *s, const struct check_result *r,
		  struct job_spec *j)
{
	job_defaults(j);
	j->rw = s->rw;
	j->bs = s->bs;
	j->qd = s->qd;
	j->threads = s->threads;
	j->engine = s->engine;
	j->cache = s->cache;
	j->flush_every = s->flush_every;
	j->runtime_ns = r->runtime_ns;
	j->pattern = PATTERN_RANDOM;
	/* As a QEMU disk: the host sees the guest's writes and flushes, in
	 * the cell's cache mode. A write the guest made durable on its own
	 * (O_DSYNC, O_DIRECT|O_DSYNC) reaches QEMU as a write and a flush. */
	if (r->qemu_cache) {
		if (cache_dsync(s->cache) && !s->flush_every)
			j->flush_every = 1;
		j->cache = r->cache;
		/* The guest's page cache writes whole 4 KiB pages to its
		 * disk: a 2300-byte append reaches QEMU as one page. */
		if (j->bs % 4096)
			j->bs = (j->bs / 4096 + 1) * 4096;
	}
	if (r->qemu_engine)
		j->engine = r->engine; /* native + a buffered mode: refused */
}

bool check_refused(const struct check_result *r, struct err *err)
{
	const struct check_profile *p = r->profile;

	for (int i = 0; i < p->nsteps; i++) {
		struct job_spec j;

		check_job_of(&p->steps[i], r, &j);
		if (job_qemu_refuses(j.engine, j.cache, err))
			return true;
	}
	return false;
}

bool check_run(struct check_result *r, const struct target *t, bool progress,
	       const char *label_prefix, struct warnings *w, struct err *err)
{
	const struct check_profile *p = r->profile;

	for (int i = 0; i < p->nsteps; i++) {
		struct runner_opts ro = { .progress = progress };
		struct run_result *run = &r->run[i];
		struct target view;
		struct job_spec j;
		char label[128];

		snprintf(label, sizeof(label), "%s %s: %s", label_prefix,
			 p->name, p->steps[i].id);
		ro.label = label;
		check_job_of(&p->steps[i], r, &j);
		/* The runner reads only the region of the target: a step
		 * that uses the first bytes gets a copy that says so. */
		view = *t;
		if (p->steps[i].span_bytes &&
		    p->steps[i].span_bytes < view.region_len)
			view.region_len = p->steps[i].span_bytes;
		if (!job_validate(&j, err) ||
		    !runner_run(&j, &view, &ro, run, err)) {
			err_prefix(err, "step %s", p->steps[i].id);
			check_result_free(r);
			return false;
		}
		r->nrun++;
		warn_merge(w, &run->warnings);
		if (run->errors || run->stop_signal) {
			r->io_error = run->errors > 0;
			r->stop_signal = run->stop_signal;
			return true; /* what ran is reported, not judged */
		}
	}
	check_judge_all(r, t);
	return true;
}
