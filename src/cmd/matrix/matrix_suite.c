// SPDX-License-Identifier: GPL-2.0-or-later
/* The engine x cache matrix; see matrix.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix_suite.h"
#include "../check/check_report.h"
#include "../../core/target.h"
#include "../../util/clock.h"
#include "../../util/err.h"
#include "../../util/sig.h"
#include "../../util/xmem.h"

const char *const matrix_status_names[] = { "not-run", "ok", "refused",
					    "failed", NULL };

void matrix_spec_defaults(struct matrix_spec *s)
{
	const enum engine_kind *engines;

	memset(s, 0, sizeof(*s));
	mark_spec_defaults(&s->mark);
	mark_spec_set_preset(&s->mark, mark_preset_find("cdm6"));
	s->mark.max_ns = MATRIX_MAX_NS;
	s->mark.label = "matrix";
	s->nengines = engine_qemu_kinds(&engines);
	memcpy(s->engines, engines, s->nengines * sizeof(engines[0]));
	s->ncaches = CACHE_COUNT;
	for (int c = 0; c < CACHE_COUNT; c++)
		s->caches[c] = (enum cache_mode)c;
}

bool matrix_cache_keeps_data(enum cache_mode c)
{
	return !cache_no_flush(c);
}

static bool cell_refused(const struct matrix_spec *s, enum engine_kind e,
			 enum cache_mode c)
{
	struct err ignore;

	(void)s;
	return job_qemu_refuses(e, c, &ignore);
}

unsigned int matrix_cells_to_run(const struct matrix_spec *s)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < s->nengines; i++)
		for (unsigned int k = 0; k < s->ncaches; k++)
			n += s->mark.base.force ||
			     !cell_refused(s, s->engines[i], s->caches[k]);
	return n;
}

/* What one cell takes: the suite (at its floor of runs, or at its cap
 * with @most), or the profile's steps. */
static uint64_t cell_estimate_ns(const struct matrix_spec *s, bool most)
{
	if (s->check)
		return (uint64_t)s->check->nsteps * s->check_runtime_ns;
	return most ? mark_estimate_max_ns(&s->mark) :
		      mark_estimate_ns(&s->mark);
}

static uint64_t estimate(const struct matrix_spec *s, bool most)
{
	unsigned int n = matrix_cells_to_run(s);

	if (!n)
		return 0;
	if (most && !s->check && n > 1)
		n++; /* the leader measured again (measure_again) */
	return n * cell_estimate_ns(s, most) +
	       (uint64_t)(n - 1) * s->mark.interval_ns;
}

uint64_t matrix_estimate_ns(const struct matrix_spec *s)
{
	return estimate(s, false);
}

uint64_t matrix_estimate_max_ns(const struct matrix_spec *s)
{
	return estimate(s, true);
}

bool matrix_spec_validate(const struct matrix_spec *s, struct err *err)
{
	if (!s->nengines || !s->ncaches)
		return err_set(
			err, EXIT_USAGE, 0,
			"the matrix needs at least one engine and one cache mode");
	for (unsigned int i = 0; i < s->nengines; i++)
		for (unsigned int k = i + 1; k < s->nengines; k++)
			if (s->engines[i] == s->engines[k])
				return err_set(err, EXIT_USAGE, 0,
					       "--engines names %s twice",
					       engine_name(s->engines[i]));
	for (unsigned int i = 0; i < s->ncaches; i++)
		for (unsigned int k = i + 1; k < s->ncaches; k++)
			if (s->caches[i] == s->caches[k])
				return err_set(err, EXIT_USAGE, 0,
					       "--caches names %s twice",
					       cache_name(s->caches[i]));
	for (unsigned int i = 0; i < s->nengines; i++) {
		for (unsigned int k = 0; k < s->ncaches; k++) {
			struct mark_spec m = s->mark;

			m.base.engine = s->engines[i];
			m.base.cache = s->caches[k];
			/* Refusals are cells, not usage errors. */
			m.base.force = true;
			if (!mark_spec_validate(&m, err)) {
				err_prefix(err, "--engines %s",
					   engine_name(s->engines[i]));
				return false;
			}
		}
	}
	return true;
}

/*
 * The cell's figure of merit: the geometric mean of every test's MB/s, so
 * that a 4 KiB Q1T1 test moves it as much as a sequential one. Each MB/s
 * is the best run's counting the flush that put its writes on the
 * storage: a cache=writeback cell is ranked on what reached the disk.
 */
static void cell_score(struct matrix_cell *c)
{
	const struct mark_result *m = &c->mark;
	double logsum = 0, uncsum = 0;
	unsigned int n = 0, nunc = 0;

	c->score_unc = NAN;
	for (unsigned int i = 0; i < m->spec.ntests; i++) {
		for (int d = 0; d < MARK_DIRS; d++) {
			const struct mark_cell *mc = &m->cell[i][d];
			double best = mc->scored ? mc->storage_mbps : 0, cv;

			if (!m->spec.dir[d])
				continue;
			if (mc->page_cache_reads)
				c->page_cache_reads = true;
			if (mc->cached_writes)
				c->cached_writes = true;
			if (mc->unbacked_reads)
				c->unbacked_reads = true;
			if (best <= 0) {
				c->score_n = 0;
				c->score_mbps = 0;
				return; /* incomplete: not ranked */
			}
			logsum += log(best);
			n++;
			cv = mark_cell_unc(mc);
			if (!isnan(cv)) {
				uncsum += cv;
				nunc++;
			}
		}
	}
	c->score_n = n;
	c->score_mbps = n ? exp(logsum / n) : 0;
	if (nunc)
		c->score_unc = uncsum / nunc;
}

const char *matrix_cell_set_aside(const struct matrix_cell *c)
{
	if (c->status != MATRIX_OK)
		return NULL;
	if (c->page_cache_reads)
		return "its reads came from the host page cache, not the disk";
	if (c->unbacked_reads)
		return "its reads were of a region no disk stored";
	return NULL;
}

bool matrix_cell_ranked(const struct matrix_cell *c)
{
	return c->status == MATRIX_OK && !c->qemu_refuses && c->score_n &&
	       !c->mark.partial && !matrix_cell_set_aside(c);
}

const char *matrix_cell_words(const struct matrix_cell *c, char *buf,
			      size_t len)
{
	return job_qemu_words(c->engine, c->cache, buf, len);
}

int matrix_list_cells(const struct matrix_result *r,
		      bool (*pick)(const struct matrix_cell *, const void *),
		      const void *arg, char *buf, size_t len)
{
	size_t at = 0;
	int n = 0;

	buf[0] = 0;
	for (unsigned int k = 0; k < r->ncells && at < len; k++) {
		char a[64];

		if (!pick(&r->cells[k], arg))
			continue;
		at += (size_t)snprintf(
			buf + at, len - at, "%s%s", n ? ", " : "",
			matrix_cell_words(&r->cells[k], a, sizeof(a)));
		n++;
	}
	return n;
}

struct margin matrix_margin(const struct matrix_result *r,
			    const struct matrix_cell *a,
			    const struct matrix_cell *b)
{
	double ua = a->score_unc, ub = b->score_unc,
	       drift = matrix_drift_unc(r);

	if (!isnan(drift)) {
		ua = isnan(ua) ? drift : hypot(ua, drift);
		ub = isnan(ub) ? drift : hypot(ub, drift);
	}
	return margin_of(a->score_mbps, ua, b->score_mbps, ub);
}

void matrix_rank(struct matrix_result *r)
{
	r->best_safe = r->next_safe = r->best_any = -1;
	for (unsigned int i = 0; i < r->ncells; i++) {
		const struct matrix_cell *c = &r->cells[i];

		if (!matrix_cell_ranked(c))
			continue;
		if (r->best_any < 0 ||
		    c->score_mbps > r->cells[r->best_any].score_mbps)
			r->best_any = (int)i;
		if (!matrix_cache_keeps_data(c->cache))
			continue;
		if (r->best_safe < 0 ||
		    c->score_mbps > r->cells[r->best_safe].score_mbps) {
			r->next_safe = r->best_safe;
			r->best_safe = (int)i;
		} else if (r->next_safe < 0 ||
			   c->score_mbps > r->cells[r->next_safe].score_mbps) {
			r->next_safe = (int)i;
		}
	}
}

/* --check: the profile in this cell's engine and cache, judged. */
static void run_check_cell(const struct matrix_spec *s, const struct target *t,
			   struct matrix_cell *c, const char *label,
			   struct matrix_result *r)
{
	struct check_result *cr = xcalloc(1, sizeof(*cr));
	struct err cerr = { 0 };
	char prefix[128];

	cr->profile = s->check;
	cr->runtime_ns = s->check_runtime_ns;
	cr->qemu_engine = cr->qemu_cache = true;
	cr->engine = c->engine;
	cr->cache = c->cache;
	snprintf(prefix, sizeof(prefix), "matrix %s", label);
	if (!check_run(cr, t, s->mark.progress, prefix, &r->warnings, &cerr)) {
		free(cr);
		c->status = MATRIX_FAILED;
		snprintf(c->reason, sizeof(c->reason), "%s", cerr.msg);
		return;
	}
	c->check = cr;
	if (cr->io_error) {
		c->status = MATRIX_FAILED;
		snprintf(c->reason, sizeof(c->reason),
			 "I/O error in step %d of %s", cr->nrun,
			 s->check->name);
	} else if (!cr->judged) {
		c->status = MATRIX_NOT_RUN; /* stopped before all steps ran */
	} else {
		c->status = MATRIX_OK;
	}
}

/* The pause between cells, as between tests; false if a signal came. */
static bool pause_cells(const struct matrix_spec *s, uint64_t left_ns)
{
	uint64_t end = clock_ns() + s->mark.interval_ns;

	for (;;) {
		uint64_t now = clock_ns();

		if (sig_pending())
			return false;
		if (now >= end)
			break;
		if (s->mark.progress)
			fprintf(stderr,
				"\r%s: pause %.0f s before the next cell, %.0f s left\033[K",
				s->mark.label, (double)(end - now) / 1e9,
				(double)(left_ns + end - now) / 1e9);
		clock_sleep_until(
			end - now < 200000000ull ? end : now + 200000000ull);
	}
	if (s->mark.progress)
		fprintf(stderr, "\r\033[K");
	return true;
}

bool matrix_measured_again(const struct matrix_result *r)
{
	return r->again >= 0 && (unsigned int)r->again < r->ncells &&
	       r->again_mbps > 0 && r->cells[r->again].score_mbps > 0;
}

double matrix_drift_unc(const struct matrix_result *r)
{
	if (!matrix_measured_again(r))
		return NAN;
	return fabs(log(r->again_mbps / r->cells[r->again].score_mbps)) /
	       sqrt(2);
}

/* See matrix_result.again: the leader once more, after every cell. */
static void measure_again(const struct matrix_spec *s, const struct target *t,
			  struct matrix_result *r)
{
	struct matrix_cell *best, *again;
	struct mark_spec m = s->mark;
	struct err cerr = { 0 };
	struct margin mg;
	char label[96];

	if (r->best_safe < 0 || r->next_safe < 0)
		return;
	best = &r->cells[r->best_safe];
	mg = matrix_margin(r, best, &r->cells[r->next_safe]);
	if (isnan(mg.ratio) || mg.too_close)
		return; /* no lead to call: nothing to check */
	if (!pause_cells(s, cell_estimate_ns(s, false))) {
		r->partial = true;
		r->stop_signal = sig_pending();
		return;
	}
	again = xcalloc(1, sizeof(*again));
	again->engine = best->engine;
	again->cache = best->cache;
	snprintf(label, sizeof(label), "again %s/%s", engine_name(best->engine),
		 cache_name(best->cache));
	m.label = label;
	m.base.engine = best->engine;
	m.base.cache = best->cache;
	m.eta_after_ns = 0;
	if (mark_run(&m, t, &again->mark, &cerr)) {
		again->mark.spec.label = NULL;
		cell_score(again);
		if (!again->mark.errors && !again->mark.partial &&
		    again->score_n == best->score_n && again->score_mbps > 0) {
			r->again = r->best_safe;
			r->again_mbps = again->score_mbps;
		}
		if (again->mark.stop_signal) {
			r->partial = true;
			r->stop_signal = again->mark.stop_signal;
		}
		mark_result_free(&again->mark);
	}
	free(again);
}

bool matrix_run(const struct matrix_spec *s, const struct target *t,
		struct matrix_result *r, struct err *err)
{
	uint64_t t0 = clock_ns(), per_cell = cell_estimate_ns(s, false);
	unsigned int torun = matrix_cells_to_run(s), done = 0;
	bool stop = false;

	memset(r, 0, sizeof(*r));
	r->spec = *s;
	r->best_safe = r->next_safe = r->best_any = r->again = -1;
	if (!matrix_spec_validate(s, err))
		return false;
	r->ncells = s->nengines * s->ncaches;
	r->cells = xcalloc(r->ncells, sizeof(*r->cells));
	for (unsigned int i = 0; i < s->nengines; i++) {
		for (unsigned int k = 0; k < s->ncaches; k++) {
			struct matrix_cell *c = &r->cells[i * s->ncaches + k];
			struct mark_spec m = s->mark;
			struct err cerr = { 0 };
			char label[96];

			c->engine = s->engines[i];
			c->cache = s->caches[k];
			if (job_qemu_refuses(c->engine, c->cache, &cerr)) {
				c->qemu_refuses = true;
				snprintf(c->reason, sizeof(c->reason), "%s",
					 cerr.msg);
				if (!s->mark.base.force) {
					c->status = MATRIX_REFUSED;
					continue;
				}
				memset(&cerr, 0, sizeof(cerr));
			}
			if (stop)
				continue;
			if (done &&
			    !pause_cells(s, (torun - done) * per_cell)) {
				r->partial = true;
				r->stop_signal = sig_pending();
				stop = true;
				continue;
			}
			snprintf(label, sizeof(label), "%u/%u %s/%s", done + 1,
				 torun, engine_name(c->engine),
				 cache_name(c->cache));
			m.label = label;
			m.base.engine = c->engine;
			m.base.cache = c->cache;
			m.eta_after_ns = (torun - done - 1) *
					 (per_cell + s->mark.interval_ns);
			done++;
			if (s->check) {
				run_check_cell(s, t, c, label, r);
				if (c->check && c->check->stop_signal) {
					r->partial = true;
					r->stop_signal = c->check->stop_signal;
					stop = true;
				}
				continue;
			}
			c->measured = true;
			if (!mark_run(&m, t, &c->mark, &cerr)) {
				c->status = MATRIX_FAILED;
				snprintf(c->reason, sizeof(c->reason), "%s",
					 cerr.msg);
			} else if (c->mark.errors) {
				c->status = MATRIX_FAILED;
				snprintf(c->reason, sizeof(c->reason),
					 "I/O error: %s", c->mark.error);
			} else {
				c->status = MATRIX_OK;
			}
			c->mark.spec.label = NULL; /* points at this stack */
			warn_merge(&r->warnings, &c->mark.warnings);
			cell_score(c);
			if (c->mark.stop_signal || sig_pending()) {
				r->partial = true;
				r->stop_signal = c->mark.stop_signal ?
							 c->mark.stop_signal :
							 sig_pending();
				stop = true;
			}
		}
	}
	matrix_rank(r);
	if (!stop && !s->check)
		measure_again(s, t, r);
	r->elapsed_s = (double)(clock_ns() - t0) / 1e9;
	return true;
}

void matrix_result_free(struct matrix_result *r)
{
	for (unsigned int i = 0; i < r->ncells; i++) {
		if (r->cells[i].measured)
			mark_result_free(&r->cells[i].mark);
		if (r->cells[i].check) {
			check_result_free(r->cells[i].check);
			free(r->cells[i].check);
		}
	}
	free(r->cells);
	r->cells = NULL;
	r->ncells = 0;
	warnings_free(&r->warnings);
}
