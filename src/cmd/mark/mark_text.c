// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab mark` as a table a person reads at a glance: tests as rows, read
 * and write side by side, the spread over runs below, units in headers.
 */
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <string.h>

#include "mark_figs.h"
#include "mark_report.h"
#include "../run/run_report.h"
#include "../../core/target.h"
#include "../../util/parse.h"

const char *mark_suite_title(const struct mark_spec *s, char *buf, size_t len)
{
	const struct mark_preset *p = s->preset ? mark_preset_find(s->preset) :
						  NULL;
	size_t n;

	if (p) {
		snprintf(buf, len, "%s (--preset %s)", p->title, p->name);
		return buf;
	}
	n = (size_t)snprintf(buf, len, "tests");
	for (unsigned int i = 0; i < s->ntests && n < len; i++) {
		char name[32];

		n += (size_t)snprintf(buf + n, len - n, "%s %s", i ? "," : "",
				      mark_test_name(&s->tests[i], name,
						     sizeof(name)));
	}
	return buf;
}

const char *mark_procedure_text(const struct mark_spec *s, char *buf,
				size_t len)
{
	char t[32], iv[32], cap[32];

	if (s->procedure == MARK_PRECISION)
		snprintf(
			buf, len,
			"1 warm-up + runs of %s per test until its MB/s is known to +-%g%% (%u runs at least, %s at most), %s between tests",
			fmt_duration(s->time_ns, t, sizeof(t)),
			100 * s->precision, s->min_runs,
			fmt_duration(s->max_ns, cap, sizeof(cap)),
			s->interval_ns ?
				fmt_duration(s->interval_ns, iv, sizeof(iv)) :
				"no pause");
	else
		snprintf(
			buf, len,
			"1 warm-up + %u run%s of %s per test, %s between tests",
			s->runs, s->runs == 1 ? "" : "s",
			fmt_duration(s->time_ns, t, sizeof(t)),
			s->interval_ns ?
				fmt_duration(s->interval_ns, iv, sizeof(iv)) :
				"no pause");
	return buf;
}

const char *mark_fmt_took(double s, char *buf, size_t len)
{
	unsigned long long t = (unsigned long long)(s + 0.5);

	if (s < 10)
		snprintf(buf, len, "%.1f s", s);
	else if (t < 60)
		snprintf(buf, len, "%llu s", t);
	else if (t < 3600)
		snprintf(buf, len, "%llu min %02llu s", t / 60, t % 60);
	else
		snprintf(buf, len, "%llu h %02llu min", t / 3600,
			 t % 3600 / 60);
	return buf;
}

/* The columns of a direction's block: mark_figs[] with a heading. */
static bool block_col(const struct mark_fig *f, bool fixed)
{
	/* CDM's best run has no interval: no +-% column beside it. */
	if (fixed && (f->scope & MARK_FIG_SPREAD))
		return false;
	return f->head && !(f->scope & MARK_FIG_MIX);
}

/* Width of a block's columns and the spaces between them. */
static int block_width(bool fixed)
{
	int w = -1;

	for (int k = 0; k < MARK_NFIGS; k++)
		if (block_col(&mark_figs[k], fixed))
			w += 1 + mark_figs[k].width;
	return w;
}

static void print_fig(const struct mark_fig *g, const struct mark_cell *c,
		      enum mark_dir d, bool first, FILE *f)
{
	double v = mark_fig_value(g, c, d);
	bool marked = g->scope & MARK_FIG_MARKS;
	char buf[32], marks[MARK_MARKS_LEN];

	if (isnan(v))
		snprintf(buf, sizeof(buf), "-");
	else if (g->unit == RU_NS)
		fmt_ns(v, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "%.*f%s%s", g->prec, v,
			 marked ? mark_cell_marks(c, marks) : "",
			 marked && c->partial ? "*" : "");
	fprintf(f, "%s%*s", first ? "  " : " ", g->width, buf);
}

/* One direction's columns of a row. */
static void print_block(const struct mark_cell *c, enum mark_dir d, bool wanted,
			bool fixed, FILE *f)
{
	bool first = true;

	if (!wanted)
		return;
	for (int k = 0; k < MARK_NFIGS; k++) {
		const struct mark_fig *g = &mark_figs[k];

		if (!block_col(g, fixed))
			continue;
		if (!c->scored)
			fprintf(f, "%s%*s", first ? "  " : " ", g->width,
				first && c->started ? "*" : "-");
		else
			print_fig(g, c, d, first, f);
		first = false;
	}
}

static void print_block_head(const char *title, bool wanted, bool fixed,
			     FILE *f)
{
	static const char dashes[] = "------------------------------------";
	int w = block_width(fixed), len, pad;
	char line[64];

	if (!wanted)
		return;
	/* The title centred over the block's columns. */
	len = snprintf(line, sizeof(line), " %s ", title);
	pad = (w - len) / 2;
	fprintf(f, "  %.*s%s%.*s", pad, dashes, line, w - pad - len, dashes);
}

static void print_cols_head(bool wanted, bool fixed, FILE *f)
{
	bool first = true;

	if (!wanted)
		return;
	for (int k = 0; k < MARK_NFIGS; k++)
		if (block_col(&mark_figs[k], fixed)) {
			fprintf(f, "%s%*s", first ? "  " : " ",
				mark_figs[k].width, mark_figs[k].head);
			first = false;
		}
}

/* The mix tests' own columns after the block: headings, or blanks. */
static void print_mix_head(bool blank, FILE *f)
{
	bool first = true;

	for (int k = 0; k < MARK_NFIGS; k++) {
		const struct mark_fig *g = &mark_figs[k];

		if (!g->head || !(g->scope & MARK_FIG_MIX))
			continue;
		fprintf(f, "%s%*s", first ? "  " : " ", g->width,
			blank ? "" : g->head);
		first = false;
	}
	fprintf(f, "\n");
}

static int name_width(const struct mark_spec *s)
{
	int w = 4;

	for (unsigned int i = 0; i < s->ntests; i++) {
		char name[32];
		int n = (int)strlen(
			mark_test_name(&s->tests[i], name, sizeof(name)));

		if (n > w)
			w = n;
	}
	return w;
}

static void print_main(const struct mark_result *r, FILE *f)
{
	const struct mark_spec *s = &r->spec;
	bool rd = s->dir[MARK_READ], wr = s->dir[MARK_WRITE];
	bool fixed = s->procedure == MARK_FIXED;
	int nw = name_width(s);

	if (!rd && !wr)
		return;
	fprintf(f, "%-*s", nw, "");
	print_block_head("Read", rd, fixed, f);
	print_block_head("Write", wr, fixed, f);
	fprintf(f, "\n%-*s", nw, "Test");
	print_cols_head(rd, fixed, f);
	print_cols_head(wr, fixed, f);
	fprintf(f, "\n");
	for (unsigned int i = 0; i < s->ntests; i++) {
		char name[32];

		fprintf(f, "%-*s", nw,
			mark_test_name(&s->tests[i], name, sizeof(name)));
		print_block(&r->cell[i][MARK_READ], MARK_READ, rd, fixed, f);
		print_block(&r->cell[i][MARK_WRITE], MARK_WRITE, wr, fixed, f);
		fprintf(f, "\n");
	}
}

static void print_mix(const struct mark_result *r, FILE *f)
{
	const struct mark_spec *s = &r->spec;
	int nw = name_width(s);
	char title[48];
	bool first, fixed = s->procedure == MARK_FIXED;

	if (!s->dir[MARK_MIX])
		return;
	snprintf(title, sizeof(title), "Mix R%u/W%u", s->mix_read_pct,
		 100 - s->mix_read_pct);
	fprintf(f, "%s%-*s",
		s->dir[MARK_READ] || s->dir[MARK_WRITE] ? "\n" : "", nw, "");
	print_block_head(title, true, fixed, f);
	print_mix_head(true, f);
	fprintf(f, "%-*s", nw, "Test");
	print_cols_head(true, fixed, f);
	print_mix_head(false, f);
	for (unsigned int i = 0; i < s->ntests; i++) {
		const struct mark_cell *c = &r->cell[i][MARK_MIX];
		char name[32];

		fprintf(f, "%-*s", nw,
			mark_test_name(&s->tests[i], name, sizeof(name)));
		print_block(c, MARK_MIX, true, fixed, f);
		first = true;
		for (int k = 0; c->scored && k < MARK_NFIGS; k++)
			if (mark_figs[k].head &&
			    (mark_figs[k].scope & MARK_FIG_MIX)) {
				print_fig(&mark_figs[k], c, MARK_MIX, first, f);
				first = false;
			}
		fprintf(f, "\n");
	}
}

static void print_spread(const struct mark_result *r, FILE *f)
{
	const struct mark_spec *s = &r->spec;
	int nw = name_width(s);

	fprintf(f,
		"\nAcross the scored runs, MB/s (the headline above is the %s):\n",
		s->procedure == MARK_FIXED ? "max, as CrystalDiskMark reports" :
					     "mean; +-% its 95% interval");
	fprintf(f, "%-*s %-5s %10s %10s %10s %10s %7s %6s %5s %7s\n", nw,
		"Test", "", "max", "mean", "min", "stddev", "cv", "+-%", "runs",
		"time");
	for (int d = 0; d < MARK_DIRS; d++) {
		if (!s->dir[d])
			continue;
		for (unsigned int i = 0; i < s->ntests; i++) {
			const struct mark_cell *c = &r->cell[i][d];
			char name[32], cv[16] = "-", ci[16] = "-", took[16];

			if (!c->scored)
				continue;
			if (c->mbps.mean > 0 && c->scored > 1)
				snprintf(cv, sizeof(cv), "%.1f%%",
					 100 * c->mbps.stddev / c->mbps.mean);
			if (!isnan(c->rel_ci))
				snprintf(ci, sizeof(ci), "%.1f%s",
					 100 * c->rel_ci,
					 c->procedure == MARK_PRECISION &&
							 !c->precise ?
						 "!" :
						 "");
			snprintf(took, sizeof(took), "%.1f s", c->elapsed_s);
			fprintf(f,
				"%-*s %-5s %10.2f %10.2f %10.2f %10.2f %7s %6s %5u %7s\n",
				nw,
				mark_test_name(&s->tests[i], name,
					       sizeof(name)),
				suite_dir_names[d], c->mbps.max, c->mbps.mean,
				c->mbps.min, c->mbps.stddev, cv, ci, c->scored,
				took);
		}
	}
	if (s->procedure == MARK_PRECISION)
		fprintf(f,
			"! = not known to the +-%g%% asked within --max-time (see the warnings).\n",
			100 * s->precision);
}

static void print_cell_warnings(const struct mark_result *r, FILE *f, bool *any)
{
	const struct mark_spec *s = &r->spec;

	for (int d = 0; d < MARK_DIRS; d++) {
		for (unsigned int i = 0; i < s->ntests; i++) {
			const struct warnings *w = &r->cell[i][d].warnings;
			char name[32];

			for (size_t k = 0; k < w->n; k++) {
				if (!*any)
					fprintf(f, "\nWarnings:\n");
				*any = true;
				fprintf(f, "  ! %s %s: %s\n",
					mark_test_name(&s->tests[i], name,
						       sizeof(name)),
					suite_dir_names[d], w->v[k].msg);
			}
		}
	}
}

static bool any_partial(const struct mark_result *r)
{
	for (unsigned int i = 0; i < r->spec.ntests; i++)
		for (int d = 0; d < MARK_DIRS; d++) {
			const struct mark_cell *c = &r->cell[i][d];

			if (c->partial || (c->started && !c->scored))
				return true;
		}
	return false;
}

/* Every mark a scored cell of @r carries, once each. */
static void all_marks(const struct mark_result *r, char *out)
{
	bool c = false, z = false, w = false, n = false;
	char *p = out;

	for (unsigned int i = 0; i < r->spec.ntests; i++)
		for (int d = 0; d < MARK_DIRS; d++) {
			const struct mark_cell *x = &r->cell[i][d];

			if (!x->scored)
				continue;
			c |= x->page_cache_reads;
			z |= x->unbacked_reads;
			w |= x->cached_writes;
			n |= mark_cell_imprecise(x);
		}
	if (c)
		*p++ = 'c';
	if (z)
		*p++ = 'z';
	if (w)
		*p++ = 'w';
	if (n)
		*p++ = '~';
	*p = '\0';
}

void mark_text_print(const struct mark_report *rep, FILE *f)
{
	const struct mark_result *r = rep->res;
	const struct mark_spec *s = &r->spec;
	const struct job_spec *b = &s->base;
	char title[256], proc[192], took[32], marks[MARK_MARKS_LEN],
		tgt[PATH_MAX + 256];
	struct warnings all = { 0 };
	bool any = false;

	fprintf(f, "iolab mark: %s\n",
		mark_suite_title(s, title, sizeof(title)));
	fprintf(f, "target %s\n",
		target_describe(rep->target, tgt, sizeof(tgt)));
	fprintf(f, "engine %s%s%s%s, cache=%s (%s)\n", engine_name(b->engine),
		r->engine_features[0] ? " (" : "", r->engine_features,
		r->engine_features[0] ? ")" : "", cache_name(b->cache),
		cache_words(b->cache));
	fprintf(f, "%s; took %s", mark_procedure_text(s, proc, sizeof(proc)),
		mark_fmt_took(r->elapsed_s, took, sizeof(took)));
	if (r->partial)
		fprintf(f, "  ** PARTIAL: %s **",
			result_stop_words(r->stop_signal));
	fprintf(f, "\n\n");
	print_main(r, f);
	print_mix(r, f);
	if (s->procedure == MARK_FIXED)
		fprintf(f,
			"\nMB/s = 10^6 bytes/s. Headline = the highest MB/s of the %u scored run%s (CrystalDiskMark's figure),\n"
			"IOPS of that run; latency from when each I/O is due to its completion, over every I/O of the scored runs.\n",
			s->runs, s->runs == 1 ? "" : "s");
	else
		fprintf(f,
			"\nMB/s = 10^6 bytes/s. Headline = the mean MB/s of the scored runs, +-%% = its 95%% interval (Student's t\n"
			"over the runs), IOPS likewise; latency from when each I/O is due to its completion, over every I/O of the\n"
			"scored runs.\n");
	all_marks(r, marks);
	mark_marks_legend(marks, f);
	if (any_partial(r))
		fprintf(f,
			"* = partial: stopped before all runs were done (a run cut short is not scored); - = not run.\n");
	print_spread(r, f);
	if (r->error[0])
		fprintf(f, "\nI/O error: %s\n", r->error);
	if (rep->warnings)
		warn_merge(&all, rep->warnings);
	warn_merge(&all, &r->warnings);
	if (all.n) {
		fprintf(f, "\nWarnings:\n");
		for (size_t k = 0; k < all.n; k++)
			fprintf(f, "  ! %s\n", all.v[k].msg);
		any = true;
	}
	warnings_free(&all);
	print_cell_warnings(r, f, &any);
}
