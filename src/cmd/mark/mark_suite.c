// SPDX-License-Identifier: GPL-2.0-or-later
/* The mark procedure and its statistics; see mark.h. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mark_suite.h"
#include "../../core/runner.h"
#include "../../core/plausible.h"
#include "../../core/target.h"
#include "../../engine/engine.h"
#include "../../util/clock.h"
#include "../../util/err.h"
#include "../../util/sig.h"
#include "../../util/student.h"
#include "../../util/xmem.h"

/* Warnings that speak of the whole target, not of one test. */
static bool warning_is_global(const char *id)
{
	return !strcmp(id, "ram-target") || !strcmp(id, "null-engine");
}

const char *mark_cell_marks(const struct mark_cell *c, char *buf)
{
	char *p = buf;

	if (c->page_cache_reads)
		*p++ = 'c';
	if (c->unbacked_reads)
		*p++ = 'z';
	if (c->cached_writes)
		*p++ = 'w';
	if (mark_cell_imprecise(c))
		*p++ = '~';
	*p = '\0';
	return buf;
}

bool mark_cell_imprecise(const struct mark_cell *c)
{
	return c->procedure == MARK_PRECISION && c->scored && !c->precise &&
	       !c->partial && c->nruns &&
	       engine_uses_buffers(c->runs[0].spec.engine);
}

void mark_marks_legend(const char *marks, FILE *f)
{
	if (strchr(marks, 'c'))
		fprintf(f,
			"c = reads served from the host page cache, not the disk (see the warnings).\n");
	if (strchr(marks, 'z'))
		fprintf(f,
			"z = reads of a region no disk stored (never written, zeros or one block repeated): not the disk's figure.\n");
	if (strchr(marks, 'w'))
		fprintf(f,
			"w = writes acknowledged from a cache: with the flush that put them on the storage they ran slower (see the warnings).\n");
	if (strchr(marks, '~'))
		fprintf(f,
			"~ = not known to the precision asked within --max-time: the mean of its runs, noisier than that (see the warnings).\n");
}

double mark_cell_mbps(const struct mark_cell *c)
{
	if (!c->scored)
		return 0;
	return c->procedure == MARK_FIXED ? c->mbps.max : c->mbps.mean;
}

double mark_cell_iops(const struct mark_cell *c)
{
	if (!c->scored)
		return 0;
	return c->procedure == MARK_FIXED ? c->iops.max : c->iops.mean;
}

double mark_cell_unc(const struct mark_cell *c)
{
	double cv = mark_cell_cv(c);

	if (c->procedure == MARK_FIXED || isnan(cv) || c->scored < 2)
		return cv;
	return cv / sqrt(c->n_eff >= 1 ? c->n_eff : (double)c->scored);
}

/* MB/s of a run, reads and writes together. */
static double run_mbps(const struct run_result *r)
{
	return result_mbps(r, DIR_READ) + result_mbps(r, DIR_WRITE);
}

/* Half-width of the 95 % interval of the mean MB/s over the complete
 * runs, in run order (student_mean_half: correlated runs count as fewer);
 * NAN below two. */
static double runs_ci(const struct mark_cell *c, double *mean, double *n_eff)
{
	double *v = xcalloc(c->nruns + 1, sizeof(double)), ci;
	unsigned int n = 0;

	for (unsigned int k = 0; k < c->nruns; k++)
		if (!c->runs[k].partial)
			v[n++] = run_mbps(&c->runs[k]);
	ci = student_mean_half(v, n, 0.05, mean, n_eff);
	free(v);
	return ci;
}

/* The interval relative to the mean; NAN when unknown, 0 for a mean of 0
 * with no spread (nothing moved: nothing more to learn). */
static double runs_rel_ci(const struct mark_cell *c)
{
	double mean, ci = runs_ci(c, &mean, NULL);

	if (isnan(ci))
		return NAN;
	if (mean > 0)
		return ci / mean;
	return ci > 0 ? NAN : 0;
}

static void stat_of(const double *v, unsigned int n, struct mark_stat *s)
{
	double sum = 0, sq = 0;

	memset(s, 0, sizeof(*s));
	if (!n)
		return;
	s->max = s->min = v[0];
	for (unsigned int i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] > s->max)
			s->max = v[i];
		if (v[i] < s->min)
			s->min = v[i];
	}
	s->mean = sum / n;
	for (unsigned int i = 0; i < n; i++)
		sq += (v[i] - s->mean) * (v[i] - s->mean);
	s->stddev = n > 1 ? sqrt(sq / (n - 1)) : 0;
}

/* Figures of the complete runs of a cell. */
static void cell_figures(struct mark_cell *c, enum mark_dir d,
			 const struct mark_spec *s)
{
	unsigned int n = c->scored;
	double *mb = xcalloc(n + 1, sizeof(double));
	double *io = xcalloc(n + 1, sizeof(double));
	double *rd = xcalloc(n + 1, sizeof(double));
	double *wr = xcalloc(n + 1, sizeof(double));
	double mean;

	hist_init(c->lat);
	for (unsigned int k = 0; k < n; k++) {
		const struct run_result *r = &c->runs[k];

		rd[k] = result_mbps(r, DIR_READ);
		wr[k] = result_mbps(r, DIR_WRITE);
		/* Like the headline: the best run's, or the mean of all. */
		if (c->procedure != MARK_FIXED)
			c->storage_mbps += result_storage_mbps(r) / n;
		else if (result_storage_mbps(r) > c->storage_mbps)
			c->storage_mbps = result_storage_mbps(r);
		if (result_writes_cached(r))
			c->cached_writes = true;
		mb[k] = rd[k] + wr[k];
		io[k] = result_iops(r, DIR_READ) + result_iops(r, DIR_WRITE);
		if (d != MARK_WRITE)
			hist_add(c->lat, &r->dir[DIR_READ].lat);
		if (d != MARK_READ)
			hist_add(c->lat, &r->dir[DIR_WRITE].lat);
	}
	stat_of(mb, n, &c->mbps);
	stat_of(io, n, &c->iops);
	if (d == MARK_MIX) {
		stat_of(rd, n, &c->read_mbps);
		stat_of(wr, n, &c->write_mbps);
	}
	c->ci_mbps = runs_ci(c, &mean, &c->n_eff);
	c->rel_ci = runs_rel_ci(c);
	c->precise = c->procedure == MARK_PRECISION && !isnan(c->rel_ci) &&
		     c->rel_ci <= s->precision && c->scored >= s->min_runs;
	mark_noise_check(c, s);
	if (c->lat->count && c->lat->count < 1000)
		warn_add(
			&c->warnings, "few-samples",
			"only %llu I/Os over the scored runs: the p99 latency rests on fewer than 10 of them; use a longer --time or more --runs",
			(unsigned long long)c->lat->count);
	free(mb);
	free(io);
	free(rd);
	free(wr);
}

/* Take a run's warnings: target-wide ones to the suite, others to the
 * cell. The runner's few-samples is about one run; the cell has its own. */
static void take_warnings(struct mark_result *mr, struct mark_cell *c,
			  const struct warnings *w)
{
	for (size_t i = 0; i < w->n; i++) {
		const struct warning *x = &w->v[i];

		if (!strcmp(x->id, "few-samples"))
			continue;
		if (!strcmp(x->id, "page-cache-reads"))
			c->page_cache_reads = true;
		if (plausible_unbacked_id(x->id))
			c->unbacked_reads = true;
		warn_add(warning_is_global(x->id) ? &mr->warnings :
						    &c->warnings,
			 x->id, "%s", x->msg);
	}
}

/*
 * Write back and drop the target's cached pages, so that a suite starts
 * from the disk whatever ran before it (a buffered matrix cell leaves
 * dirty pages that would otherwise be written during the next cell).
 */
static void settle(const struct target *t)
{
	/* Through the checked descriptor: the name may have been replaced. */
	int fd = target_reopen(t, O_RDONLY, NULL);

	if (fd < 0)
		return;
	fdatasync(fd);
	posix_fadvise(fd, (off_t)t->region_off, (off_t)t->region_len,
		      POSIX_FADV_DONTNEED);
	close(fd);
}

struct walk {
	const struct mark_spec *s;
	unsigned int pos, total; /* test x direction, 1-based */
	uint64_t left_ns; /* estimate of what remains */
	char label[160];
};

static void fmt_left(uint64_t ns, char *buf, size_t len)
{
	uint64_t s = (ns + 999999999ull) / 1000000000ull;

	if (s >= 3600)
		snprintf(buf, len, "%lluh%02llum", (unsigned long long)s / 3600,
			 (unsigned long long)(s % 3600) / 60);
	else if (s >= 60)
		snprintf(buf, len, "%llum%02llus", (unsigned long long)s / 60,
			 (unsigned long long)s % 60);
	else
		snprintf(buf, len, "%llus", (unsigned long long)s);
}

static void set_label(struct walk *w, const char *test, enum mark_dir d,
		      const char *what)
{
	char left[32];

	fmt_left(w->left_ns + w->s->eta_after_ns, left, sizeof(left));
	snprintf(w->label, sizeof(w->label), "%s %u/%u %s %s %s, %s left",
		 w->s->label ? w->s->label : "mark", w->pos, w->total, test,
		 suite_dir_names[d], what, left);
}

/* The pause between tests; false if a signal came. */
static bool pause_between(struct walk *w, const char *next, enum mark_dir d)
{
	uint64_t end = clock_ns() + w->s->interval_ns;

	for (;;) {
		uint64_t now = clock_ns(), step;
		char left[32];

		if (sig_pending())
			return false;
		if (now >= end)
			break;
		if (w->s->progress) {
			fmt_left(w->left_ns + w->s->eta_after_ns, left,
				 sizeof(left));
			fprintf(stderr,
				"\r%s: pause %.0f s before %s %s, %s left\033[K",
				w->s->label ? w->s->label : "mark",
				(double)(end - now) / 1e9, next,
				suite_dir_names[d], left);
		}
		step = end - now < 200000000ull ? end - now : 200000000ull;
		clock_sleep_until(now + step);
		w->left_ns -= w->left_ns > step ? step : w->left_ns;
	}
	if (w->s->progress)
		fprintf(stderr, "\r\033[K");
	return true;
}

static void note_error(struct mark_result *mr, const struct run_result *r,
		       const char *test, enum mark_dir d)
{
	mr->errors = r->errors;
	snprintf(mr->error, sizeof(mr->error),
		 "%s %s: %s at offset %llu failed: %s (%llu errors)", test,
		 suite_dir_names[d], result_dir_name(r->first_err_op),
		 (unsigned long long)r->first_err_off,
		 r->first_errno ? strerror(r->first_errno) : "short transfer",
		 (unsigned long long)r->errors);
}

enum cell_rc { CELL_NEXT, CELL_STOP, CELL_FAILED };

/* Whether a test that began at @t0 takes another scored run. */
static bool more_runs(const struct mark_spec *s, const struct mark_cell *c,
		      uint64_t t0)
{
	double rel;

	if (c->nruns >= mark_max_runs(s))
		return false;
	if (s->procedure == MARK_FIXED)
		return true;
	if (c->scored >= s->min_runs) {
		/* Known when the interval is narrow enough now and was one
		 * run ago: a stop on the first lucky sample of 3 would say
		 * +-5 % of a figure that spreads wider. */
		struct mark_cell before = *c;
		double rel_before;

		before.nruns--;
		rel = runs_rel_ci(c);
		rel_before = runs_rel_ci(&before);
		if (!isnan(rel) && rel <= s->precision && !isnan(rel_before) &&
		    rel_before <= s->precision)
			return false;
	}
	/* The floor of runs is kept even past the cap: validate() made
	 * room for it, and a slow job start must not leave one run. */
	return c->scored < s->min_runs ||
	       clock_ns() - t0 + s->time_ns <= s->max_ns;
}

/* "run 2/5", or with the precision procedure "run 4, +-7.2 %". */
static void run_words(const struct mark_spec *s, const struct mark_cell *c,
		      char *buf, size_t len)
{
	double rel = runs_rel_ci(c);

	if (s->procedure == MARK_FIXED)
		snprintf(buf, len, "run %u/%u", c->nruns + 1, s->runs);
	else if (isnan(rel))
		snprintf(buf, len, "run %u", c->nruns + 1);
	else
		snprintf(buf, len, "run %u, +-%.1f%% of %.0f%%", c->nruns + 1,
			 100 * rel, 100 * s->precision);
}

/* The run just done: the warm-up's figures, or a scored run kept. */
static void keep_run(struct mark_result *mr, struct mark_cell *c,
		     struct run_result *res, bool warmup)
{
	if (warmup) {
		/* Unscored, as CrystalDiskMark's "Preparing" run. */
		c->warmup_done = !res->partial;
		c->warmup_mbps = run_mbps(res);
		c->warmup_iops = result_iops(res, DIR_READ) +
				 result_iops(res, DIR_WRITE);
		c->warmup_s = res->elapsed_s;
		/* Its warnings too are not scored: the runs that are repeat
		 * whatever still holds. */
		result_free(res);
		return;
	}
	take_warnings(mr, c, &res->warnings);
	c->runs[c->nruns++] = *res;
	if (!res->partial)
		c->scored++;
}

/*
 * One test in one direction: the warm-up, then the scored runs (as many
 * as the procedure wants). CELL_STOP after a signal or an I/O error;
 * CELL_FAILED, with @err set, when a job could not start.
 */
static enum cell_rc run_cell(struct walk *w, const struct target *t,
			     struct mark_result *mr, unsigned int i,
			     enum mark_dir d, struct err *err)
{
	const struct mark_spec *s = w->s;
	struct mark_cell *c = &mr->cell[i][d];
	struct runner_opts ro = { .progress = s->progress,
				  .label_names_job = true };
	uint64_t t0 = clock_ns();
	char name[32], what[48];
	bool go = true;

	mark_test_name(&s->tests[i], name, sizeof(name));
	c->started = true;
	c->procedure = s->procedure;
	c->runs = xcalloc(mark_max_runs(s), sizeof(*c->runs));
	c->lat = xmalloc(sizeof(*c->lat));
	hist_init(c->lat);
	for (unsigned int run = 0; go && (!run || more_runs(s, c, t0)); run++) {
		struct run_result res;
		struct job_spec j;

		if (sig_pending()) {
			mr->partial = true;
			mr->stop_signal = sig_pending();
			c->partial = true;
			break;
		}
		mark_job(s, i, d, run, &j);
		if (run)
			run_words(s, c, what, sizeof(what));
		set_label(w, name, d, run ? what : "warm-up");
		ro.label = w->label;
		if (!runner_run(&j, t, &ro, &res, err)) {
			result_free(&res);
			err_prefix(err, "%s %s", name, suite_dir_names[d]);
			c->partial = true;
			c->elapsed_s = (double)(clock_ns() - t0) / 1e9;
			cell_figures(c, d, s);
			return CELL_FAILED;
		}
		w->left_ns -= w->left_ns > s->time_ns ? s->time_ns : w->left_ns;
		if (!mr->engine_features[0])
			snprintf(mr->engine_features,
				 sizeof(mr->engine_features), "%s",
				 res.engine_features);
		if (res.errors)
			note_error(mr, &res, name, d);
		if (res.partial) {
			mr->partial = true;
			mr->stop_signal = res.stop_signal;
			c->partial = true;
			go = false;
		}
		keep_run(mr, c, &res, run == 0);
	}
	c->elapsed_s = (double)(clock_ns() - t0) / 1e9;
	cell_figures(c, d, s);
	return go && !mr->partial ? CELL_NEXT : CELL_STOP;
}

bool mark_run(const struct mark_spec *s, const struct target *t,
	      struct mark_result *r, struct err *err)
{
	struct walk w = { .s = s };
	uint64_t t0 = clock_ns();
	bool ok = true, first = true;

	memset(r, 0, sizeof(*r));
	r->spec = *s;
	if (!mark_spec_validate(s, err))
		return false;
	/* Refuse what cannot run before anything runs. */
	for (unsigned int i = 0; i < s->ntests; i++) {
		for (int d = 0; d < MARK_DIRS; d++) {
			struct job_spec j;
			char name[32];

			if (!s->dir[d])
				continue;
			mark_job(s, i, (enum mark_dir)d, 1, &j);
			if (!target_check_job(t, &j, err)) {
				err_prefix(err, "%s",
					   mark_test_name(&s->tests[i], name,
							  sizeof(name)));
				return false;
			}
		}
	}
	w.total = mark_count(s);
	w.left_ns = mark_estimate_ns(s);
	settle(t);
	for (int d = 0; d < MARK_DIRS && ok; d++) {
		if (!s->dir[d])
			continue;
		for (unsigned int i = 0; i < s->ntests && ok; i++) {
			char name[32];

			mark_test_name(&s->tests[i], name, sizeof(name));
			if (!first &&
			    !pause_between(&w, name, (enum mark_dir)d)) {
				r->partial = true;
				r->stop_signal = sig_pending();
				break;
			}
			first = false;
			w.pos++;
			switch (run_cell(&w, t, r, i, (enum mark_dir)d, err)) {
			case CELL_NEXT:
				break;
			case CELL_STOP:
				ok = false;
				break;
			case CELL_FAILED:
				r->elapsed_s = (double)(clock_ns() - t0) / 1e9;
				return false;
			}
		}
	}
	if (r->errors)
		r->partial = true;
	r->elapsed_s = (double)(clock_ns() - t0) / 1e9;
	return true;
}

void mark_result_free(struct mark_result *r)
{
	for (int i = 0; i < MARK_MAX_TESTS; i++) {
		for (int d = 0; d < MARK_DIRS; d++) {
			struct mark_cell *c = &r->cell[i][d];

			for (unsigned int k = 0; k < c->nruns; k++)
				result_free(&c->runs[k]);
			free(c->runs);
			free(c->lat);
			warnings_free(&c->warnings);
			c->runs = NULL;
			c->lat = NULL;
			c->nruns = 0;
		}
	}
	warnings_free(&r->warnings);
}
