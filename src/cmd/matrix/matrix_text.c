// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab matrix` as the second story's table: one table per direction,
 * a row per engine x cache, a column per test, what the cache mode risks
 * on host power loss, footnotes for refused and failed cells, and the
 * closing recommendation.
 */
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <string.h>

#include "../mark/mark_report.h"
#include "matrix_report.h"
#include "../../core/target.h"
#include "../../util/parse.h"
#include "../../util/term.h"

#define MAX_NOTES 32

struct notes {
	int n;
	char text[MAX_NOTES][512];
};

/* QEMU's own words inside a refusal message: the first quoted part. */
static const char *qemu_quote(const char *reason, char *buf, size_t len)
{
	const char *a = strchr(reason, '"'), *b = a ? strchr(a + 1, '"') : NULL;

	if (!a || !b)
		snprintf(buf, len, "%s", reason);
	else
		snprintf(buf, len, "%.*s", (int)(b - a + 1), a);
	return buf;
}

static int note_for(struct notes *n, const struct matrix_cell *c)
{
	char text[512], q[400];

	if (c->status == MATRIX_REFUSED)
		snprintf(
			text, sizeof(text),
			"refused: QEMU will not start aio=native without O_DIRECT (cache=none or directsync): %s --force measures such cells anyway.",
			qemu_quote(c->reason, q, sizeof(q)));
	else
		snprintf(text, sizeof(text), "failed: %s", c->reason);
	for (int i = 0; i < n->n; i++)
		if (!strcmp(n->text[i], text))
			return i + 1;
	if (n->n == MAX_NOTES)
		return MAX_NOTES;
	snprintf(n->text[n->n], sizeof(n->text[0]), "%s", text);
	return ++n->n;
}

static int col_width(const struct mark_spec *s)
{
	int w = 10;

	for (unsigned int i = 0; i < s->ntests; i++) {
		char name[32];
		int n = (int)strlen(
			mark_test_name(&s->tests[i], name, sizeof(name)));

		if (n > w)
			w = n;
	}
	return w;
}

static void print_table(const struct matrix_result *r, enum mark_dir d,
			struct notes *notes, FILE *f)
{
	const struct mark_spec *s = &r->spec.mark;
	int w = col_width(s);
	char title[64];

	if (d == MARK_MIX)
		snprintf(title, sizeof(title), "Mix R%u/W%u", s->mix_read_pct,
			 100 - s->mix_read_pct);
	if (s->procedure == MARK_FIXED)
		fprintf(f,
			"\n%s, MB/s (10^6 bytes/s; the highest of %u run%s per test)\n",
			d == MARK_READ	? "Read" :
			d == MARK_WRITE ? "Write" :
					  title,
			s->runs, s->runs == 1 ? "" : "s");
	else
		fprintf(f,
			"\n%s, MB/s (10^6 bytes/s; the mean of each test's runs, known to +-%g%% unless marked ~)\n",
			d == MARK_READ	? "Read" :
			d == MARK_WRITE ? "Write" :
					  title,
			100 * s->precision);
	fprintf(f, "%-9s %-12s", "engine", "cache");
	for (unsigned int i = 0; i < s->ntests; i++) {
		char name[32];

		fprintf(f, "  %*s", w,
			mark_test_name(&s->tests[i], name, sizeof(name)));
	}
	fprintf(f, "  %s\n", "on host power loss");
	for (unsigned int k = 0; k < r->ncells; k++) {
		const struct matrix_cell *c = &r->cells[k];

		fprintf(f, "%-9s %-12s", engine_name(c->engine),
			cache_name(c->cache));
		for (unsigned int i = 0; i < s->ntests; i++) {
			const struct mark_cell *mc = &c->mark.cell[i][d];
			char v[48], marks[MARK_MARKS_LEN];

			if (c->status == MATRIX_REFUSED ||
			    (c->status == MATRIX_FAILED && !mc->scored))
				snprintf(v, sizeof(v), "%s[%d]",
					 c->status == MATRIX_REFUSED ?
						 "refused" :
						 "failed",
					 note_for(notes, c));
			else if (!c->measured || !mc->scored)
				snprintf(v, sizeof(v), "%s",
					 mc->started ? "*" : "-");
			else
				snprintf(v, sizeof(v), "%.2f%s%s%s",
					 mark_cell_mbps(mc),
					 mark_cell_marks(mc, marks),
					 mc->partial ? "*" : "",
					 c->qemu_refuses ? "!" : "");
			fprintf(f, "  %*s", w, v);
		}
		fprintf(f, "  %s\n", cache_risk(c->cache));
	}
}

static bool aside_page(const struct matrix_cell *c, const void *unused)
{
	(void)unused;
	return matrix_cell_set_aside(c) && c->page_cache_reads;
}

static bool aside_unbacked(const struct matrix_cell *c, const void *unused)
{
	(void)unused;
	return matrix_cell_set_aside(c) && !c->page_cache_reads;
}

static bool ranked_cached(const struct matrix_cell *c, const void *unused)
{
	(void)unused;
	return matrix_cell_ranked(c) && c->cached_writes;
}

/* ", 1.38x the next (...), beyond the noise (±9%)" and its kin. */
static void margin_text(const struct matrix_result *r,
			const struct matrix_cell *best,
			const struct matrix_cell *next, char *buf, size_t len)
{
	struct margin m = matrix_margin(r, best, next);
	char b[64];

	matrix_cell_words(next, b, sizeof(b));
	if (isnan(m.ratio))
		snprintf(buf, len, ".");
	else if (m.too_close)
		snprintf(
			buf, len,
			"; too close to call against %s (%.1f MB/s): %.2fx is within the noise (±%.0f%%), so either will do; a finer --precision would tell them apart.",
			b, next->score_mbps, m.ratio, 100 * m.unc);
	else if (isnan(m.unc))
		snprintf(
			buf, len,
			", %.2fx the next (%s, %.1f MB/s); the noise is unknown (one run of under 3 s): measure without --runs 1 before acting on the margin.",
			m.ratio, b, next->score_mbps);
	else
		snprintf(
			buf, len,
			", %.2fx the next (%s, %.1f MB/s), beyond the noise (±%.0f%%).",
			m.ratio, b, next->score_mbps, 100 * m.unc);
}

int matrix_recommend(const struct matrix_result *r, char lines[][512], int max)
{
	const struct matrix_cell *safe =
		r->best_safe >= 0 ? &r->cells[r->best_safe] : NULL;
	const struct matrix_cell *any =
		r->best_any >= 0 ? &r->cells[r->best_any] : NULL;
	char a[64], list[400], margin[300];
	int n = 0;

	if (max < MATRIX_REC_LINES)
		return 0;
	if (matrix_list_cells(r, aside_page, NULL, list, sizeof(list)))
		snprintf(
			lines[n++], 512,
			"Not ranked: %s; their reads came from the host page cache, not the disk (a working set larger than host RAM would rank them).",
			list);
	if (matrix_list_cells(r, aside_unbacked, NULL, list, sizeof(list)))
		snprintf(
			lines[n++], 512,
			"Not ranked: %s; their reads were of a region no disk stored (let iolab write its own file, or write the region first).",
			list);
	if (!any) {
		snprintf(
			lines[n++], 512,
			"No recommendation: no cell was measured to the end with figures from the storage.");
		return n;
	}
	if (safe) {
		if (r->next_safe >= 0)
			margin_text(r, safe, &r->cells[r->next_safe], margin,
				    sizeof(margin));
		else
			snprintf(margin, sizeof(margin), ".");
		snprintf(
			lines[n++], 512,
			"Fastest that keeps data on host power loss (with the guest's flushes): %s, %.1f MB/s geometric mean of its %u figures%s",
			matrix_cell_words(safe, a, sizeof(a)), safe->score_mbps,
			safe->score_n, margin);
	} else {
		snprintf(lines[n++], 512,
			 "No measured cell keeps data on host power loss.");
	}
	if (matrix_measured_again(r)) {
		const struct matrix_cell *c = &r->cells[r->again];

		snprintf(
			lines[n++], 512,
			"%s measured again after every cell: %.1f MB/s against %.1f at first (%+.0f%%); that drift between cells counts in the margin.",
			matrix_cell_words(c, a, sizeof(a)), r->again_mbps,
			c->score_mbps,
			100 * (r->again_mbps / c->score_mbps - 1));
	}
	if (matrix_list_cells(r, ranked_cached, NULL, list, sizeof(list)))
		snprintf(
			lines[n++], 512,
			"Writes of %s were acknowledged from a cache: they are ranked at the rate counting the flush that put them on the storage.",
			list);
	if (any == safe) {
		snprintf(lines[n++], 512, "It is also the fastest overall.");
	} else {
		char ratio[48] = "";

		if (safe && safe->score_mbps > 0)
			snprintf(ratio, sizeof(ratio), " (%.2fx that choice)",
				 any->score_mbps / safe->score_mbps);
		snprintf(
			lines[n++], 512,
			"Fastest overall: %s, %.1f MB/s%s, but it %s.",
			matrix_cell_words(any, a, sizeof(a)), any->score_mbps,
			ratio,
			matrix_cache_keeps_data(any->cache) ?
				"was not ranked above" :
				"ignores the guest's flushes: data is lost on host power loss");
	}
	return n;
}

void matrix_text_print(const struct matrix_report *rep, FILE *f)
{
	const struct matrix_result *r = rep->res;
	const struct mark_spec *s = &r->spec.mark;
	char title[256], proc[192], took[32], lines[MATRIX_REC_LINES][512],
		tgt[PATH_MAX + 256];
	unsigned int measured = 0, refused = 0, failed = 0;
	bool page = false, unbacked = false, cached = false, partial = false,
	     forced = false, imprecise = false;
	struct notes notes = { 0 };
	struct warnings all = { 0 };
	int nl;

	if (r->spec.check) {
		matrix_check_text(rep, f);
		return;
	}

	for (unsigned int k = 0; k < r->ncells; k++) {
		const struct matrix_cell *c = &r->cells[k];

		measured += c->measured;
		refused += c->status == MATRIX_REFUSED;
		failed += c->status == MATRIX_FAILED;
		page |= c->page_cache_reads;
		unbacked |= c->unbacked_reads;
		cached |= c->cached_writes;
		partial |= c->mark.partial;
		forced |= c->qemu_refuses && c->measured;
		for (unsigned int i = 0; i < s->ntests; i++)
			for (int d = 0; d < MARK_DIRS; d++)
				imprecise |= mark_cell_imprecise(
					&c->mark.cell[i][d]);
	}
	fprintf(f, "iolab matrix: %s, %u engine%s x %u cache mode%s\n",
		mark_suite_title(s, title, sizeof(title)), r->spec.nengines,
		r->spec.nengines == 1 ? "" : "s", r->spec.ncaches,
		r->spec.ncaches == 1 ? "" : "s");
	fprintf(f, "target %s\n",
		target_describe(rep->target, tgt, sizeof(tgt)));
	fprintf(f, "%s; %u cell%s measured, %u refused, %u failed; took %s",
		mark_procedure_text(s, proc, sizeof(proc)), measured,
		measured == 1 ? "" : "s", refused, failed,
		mark_fmt_took(r->elapsed_s, took, sizeof(took)));
	if (r->partial)
		fprintf(f, "  ** PARTIAL: %s **",
			result_stop_words(r->stop_signal));
	fprintf(f, "\n");
	for (int d = 0; d < MARK_DIRS; d++)
		if (s->dir[d])
			print_table(r, (enum mark_dir)d, &notes, f);
	fprintf(f, "\n");
	if (page)
		fprintf(f,
			"c    reads served from the host page cache (the file was resident after the run), not the disk\n");
	if (unbacked)
		fprintf(f,
			"z    reads of a region no disk stored (never written, zeros or one block repeated), not the disk\n");
	if (cached)
		fprintf(f,
			"w    writes acknowledged from a cache; ranked at the rate counting the flush after the run\n");
	if (imprecise)
		fprintf(f,
			"~    not known to +-%g%% within --max-time: the mean of its runs, noisier than that\n",
			100 * s->precision);
	if (forced)
		fprintf(f,
			"!    measured with --force although QEMU refuses the setting (io_submit blocks without O_DIRECT)\n");
	if (partial || r->partial)
		fprintf(f,
			"*    partial: stopped before all runs were done; -  not run\n");
	for (int i = 0; i < notes.n; i++)
		fprintf(f, "[%d]  %s\n", i + 1, notes.text[i]);

	if (rep->warnings)
		warn_merge(&all, rep->warnings);
	warn_merge(&all, &r->warnings);
	/* Cell warnings, but the page cache (marked "c" above) and the
	 * p99's sample count (no latency is shown here; JSON keeps both). */
	for (unsigned int k = 0; k < r->ncells; k++) {
		const struct matrix_cell *c = &r->cells[k];

		for (unsigned int i = 0; i < s->ntests; i++)
			for (int d = 0; d < MARK_DIRS; d++) {
				const struct warnings *w =
					&c->mark.cell[i][d].warnings;

				for (size_t x = 0; x < w->n; x++) {
					char id[64], name[32];

					if (!strcmp(w->v[x].id,
						    "page-cache-reads") ||
					    !strcmp(w->v[x].id, "few-samples"))
						continue;
					/* Once per id and cell. */
					snprintf(id, sizeof(id), "%s/%s/%s",
						 w->v[x].id,
						 engine_name(c->engine),
						 cache_name(c->cache));
					warn_add(&all, id, "%s/%s %s %s: %s",
						 engine_name(c->engine),
						 cache_name(c->cache),
						 mark_test_name(&s->tests[i],
								name,
								sizeof(name)),
						 suite_dir_names[d],
						 w->v[x].msg);
				}
			}
	}
	if (all.n) {
		fprintf(f, "\nWarnings:\n");
		for (size_t k = 0; k < all.n; k++)
			fprintf(f, "  ! %s\n", all.v[k].msg);
	}
	warnings_free(&all);

	nl = matrix_recommend(r, lines, MATRIX_REC_LINES);
	fprintf(f, "\n");
	for (int i = 0; i < nl; i++)
		fprintf(f, "%s\n", term_ascii(lines[i], sizeof(lines[i])));
	if (rep->target->env.ram_backed)
		fprintf(f,
			"The target is in RAM: nothing on it survives power loss, and these figures rank the software path, not a disk.\n");
}
