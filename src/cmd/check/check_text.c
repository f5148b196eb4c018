// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab check` as a table and a verdict sentence; and --list. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "check_report.h"
#include "../../core/target.h"
#include "../../util/parse.h"
#include "../../util/term.h"

static const char *const verdict_word[CHECK_VERDICTS] = { "PASS", "FAIL",
							  "INCONCLUSIVE", "-" };

void check_list_print(FILE *f)
{
	char title[128], lim[32];

	for (int i = 0; i < check_nprofiles; i++) {
		const struct check_profile *p = &check_profiles[i];

		fprintf(f, "%s%s", i ? "\n" : "", p->name);
		if (p->alias)
			fprintf(f, " (or %s)", p->alias);
		fprintf(f, ": %s\n", p->title);
		for (int s = 0; s < p->nsteps; s++)
			fprintf(f, "  step %s: %s\n    %s\n", p->steps[s].id,
				check_step_title(&p->steps[s], title,
						 sizeof(title)),
				p->steps[s].what);
		for (int c = 0; c < p->ncrit; c++) {
			const struct check_criterion *k = &p->crit[c];

			fprintf(f, "  criterion %s: %s, %s\n    source: %s\n",
				k->id, k->what,
				k->cmp == CHECK_INFO ?
					"no threshold" :
					check_limit_text(k, lim, sizeof(lim)),
				k->source);
		}
	}
}

static void print_step(const struct check_step *s, const struct run_result *r,
		       FILE *f)
{
	char title[128], a[16], b[16], c[16];
	struct check_step ran = *s;
	const struct hist *h;

	/* As it ran: --engine and --cache change the step. */
	ran.engine = r->spec.engine;
	ran.cache = r->spec.cache;
	ran.flush_every = r->spec.flush_every;
	fprintf(f, "step %s: %s\n", s->id,
		check_step_title(&ran, title, sizeof(title)));
	fprintf(f, "  measured %.2f s:", r->elapsed_s);
	for (int d = DIR_READ; d <= DIR_WRITE; d++) {
		h = &r->dir[d].lat;
		if (!r->dir[d].ios)
			continue;
		fprintf(f, " %llu %s (%.0f/s), mean %s, p99 %s, max %s;",
			(unsigned long long)r->dir[d].ios,
			d == DIR_READ ? "reads" : "writes", result_iops(r, d),
			fmt_ns(hist_mean(h), a, sizeof(a)),
			fmt_ns((double)hist_percentile(h, 99), b, sizeof(b)),
			fmt_ns((double)h->max, c, sizeof(c)));
	}
	h = &r->dir[DIR_FLUSH].lat;
	if (r->dir[DIR_FLUSH].ios)
		fprintf(f, " %llu fdatasyncs, mean %s, p99 %s, max %s",
			(unsigned long long)r->dir[DIR_FLUSH].ios,
			fmt_ns(hist_mean(h), a, sizeof(a)),
			fmt_ns((double)hist_percentile(h, 99), b, sizeof(b)),
			fmt_ns((double)h->max, c, sizeof(c)));
	if (r->flush_skipped)
		fprintf(f, " %llu flushes dropped",
			(unsigned long long)r->flush_skipped);
	fprintf(f, "\n");
}

static void print_sentence(const struct check_result *r, FILE *f)
{
	const struct check_profile *p = r->profile;
	int nv[CHECK_VERDICTS] = { 0 }, judged = 0;
	enum check_verdict want = r->verdict;
	const char *sep = "";

	for (int i = 0; i < p->ncrit; i++)
		nv[r->fig[i].verdict]++;
	judged = p->ncrit - nv[CHECK_NO_THRESHOLD];
	switch (want) {
	case CHECK_PASS:
		fprintf(f, "Fit for %s: %s%d criteri%s passed.\n", p->name,
			judged > 1 ? "all " : "", judged,
			judged == 1 ? "on" : "a");
		return;
	case CHECK_NO_THRESHOLD:
		fprintf(f,
			"No verdict for %s: its project publishes no threshold for these figures; they are reported as measured.\n",
			p->name);
		return;
	case CHECK_FAIL:
		fprintf(f, "Not fit for %s: %d of %d criteri%s failed (",
			p->name, nv[CHECK_FAIL], judged,
			judged == 1 ? "on" : "a");
		break;
	default:
		fprintf(f,
			"Inconclusive for %s: %d of %d criteri%s could not be decided (",
			p->name, nv[CHECK_INCONCLUSIVE], judged,
			judged == 1 ? "on" : "a");
		break;
	}
	for (int i = 0; i < p->ncrit; i++)
		if (r->fig[i].verdict == want) {
			fprintf(f, "%s%s", sep, p->crit[i].id);
			sep = ", ";
		}
	fprintf(f, ")%s.\n", want == CHECK_INCONCLUSIVE ? "; none failed" : "");
}

/* Where several figures are commit rates with no threshold (PostgreSQL's
 * sync methods), which one is fastest here. */
static void print_fastest(const struct check_result *r, FILE *f)
{
	const struct check_profile *p = r->profile;
	int best = -1, n = 0;

	for (int i = 0; i < p->ncrit; i++) {
		if (p->crit[i].cmp != CHECK_INFO ||
		    p->crit[i].stat != CHECK_RATE || !isfinite(r->fig[i].value))
			continue;
		n++;
		if (best < 0 || r->fig[i].value > r->fig[best].value)
			best = i;
	}
	if (n > 1)
		fprintf(f, "Fastest here: %s, %.0f/s.\n", p->crit[best].id,
			r->fig[best].value);
}

void check_text_print(const struct check_report *rep, FILE *f)
{
	const struct check_result *r = rep->res;
	const struct check_profile *p = r->profile;
	const struct target *t = rep->target;
	char sz[32], v[32], lim[32], mg[16];
	bool any;

	fprintf(f, "iolab check %s: %s\n", p->name, p->title);
	fprintf(f, "target %s (%s%s", term_safe(t->path),
		t->is_bdev ? "block device, " :
			     (t->created ? "test file, " : "file, "),
		fmt_size(t->region_len, sz, sizeof(sz)));
	if (t->env.fs_type[0])
		fprintf(f, " on %s", t->env.fs_type);
	if (t->env.device[0])
		fprintf(f, ", %s%s%s", t->env.device,
			t->env.driver[0] ? " via " : "", t->env.driver);
	fprintf(f, ")\n");
	if (r->qemu_engine || r->qemu_cache)
		fprintf(f,
			"as a QEMU disk with%s%s%s%s would issue it on this host\n",
			r->qemu_cache ? " cache=" : "",
			r->qemu_cache ? cache_name(r->cache) : "",
			r->qemu_engine ? " aio=" : "",
			r->qemu_engine ? engine_name(r->engine) : "");
	fprintf(f, "\n");
	for (int i = 0; i < r->nrun; i++)
		print_step(&p->steps[i], &r->run[i], f);
	if (!r->judged) {
		fprintf(f, "\n** NOT JUDGED: %s after %d of %d steps **\n",
			r->io_error		 ? "an I/O error" :
			r->stop_signal == SIGINT ? "interrupted by Ctrl-C" :
						   "stopped by a signal",
			r->nrun, p->nsteps);
		goto warnings;
	}
	fprintf(f, "\n%-12s %-22s %10s %12s %8s  %s\n", "verdict", "criterion",
		"measured", "limit", "margin", "what");
	for (int i = 0; i < p->ncrit; i++) {
		const struct check_criterion *c = &p->crit[i];
		const struct check_figure *g = &r->fig[i];

		if (isfinite(g->margin) && fabs(g->margin) < 0.1)
			snprintf(mg, sizeof(mg), "%+.1f%%", 100 * g->margin);
		else if (isfinite(g->margin))
			snprintf(mg, sizeof(mg), "%+.0f%%", 100 * g->margin);
		else
			snprintf(mg, sizeof(mg), "-");
		fprintf(f, "%-12s %-22s %10s %12s %8s  %s\n",
			verdict_word[g->verdict], c->id,
			check_value_text(c, g->value, v, sizeof(v)),
			check_limit_text(c, lim, sizeof(lim)), mg, c->what);
	}
	fprintf(f, "\n");
	print_sentence(r, f);
	print_fastest(r, f);

	any = false;
	for (int i = 0; i < p->ncrit; i++)
		if (r->fig[i].reason[0]) {
			fprintf(f, "%s  %s: %s\n", any ? "" : "\nWhy:\n",
				p->crit[i].id, r->fig[i].reason);
			any = true;
		}
	any = false;
	for (int i = 0; i < p->ncrit; i++)
		if (r->fig[i].verdict == CHECK_FAIL && p->crit[i].fix) {
			fprintf(f, "%s  %s: %s\n",
				any ? "" : "\nWhat to change:\n", p->crit[i].id,
				p->crit[i].fix);
			any = true;
		}
	for (size_t i = 0; i < r->nhints; i++) {
		const struct check_hint *h = &r->hints[i];

		fprintf(f, "%s  %s (%s%s%s): %s; %s\n",
			any || i ? "" : "\nWhat to change:\n", h->id,
			h->severity, h->disk[0] ? ", " : "", h->disk,
			term_safe(h->message), term_safe(h->fix));
	}
	if (r->nhints)
		fprintf(f,
			"  (from iolab doctor; it prints each fix in full)\n");
	fprintf(f, "\nSources:\n");
	for (int i = 0; i < p->ncrit; i++)
		fprintf(f, "  %s: %s\n", p->crit[i].id, p->crit[i].source);
warnings:
	if (rep->warnings->n) {
		fprintf(f, "\nWarnings:\n");
		for (size_t i = 0; i < rep->warnings->n; i++)
			fprintf(f, "  ! %s\n",
				term_safe(rep->warnings->v[i].msg));
	}
}
