// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab run` as a table a person reads at a glance. */
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <string.h>

#include "run_figs.h"
#include "run_report.h"
#include "../../core/target.h"
#include "../../util/parse.h"
#include "../../util/term.h"

const char *text_job_title(const struct job_spec *j, char *buf, size_t len)
{
	char bs[32];
	int n = snprintf(buf, len, "%s %s QD%u T%u", rw_name(j->rw),
			 fmt_size(j->bs, bs, sizeof(bs)), j->qd, j->threads);

	if ((j->rw == RW_RW || j->rw == RW_RANDRW) && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " (%u%% reads)",
			 j->mix_read_pct);
	return buf;
}

void text_warnings(const struct warnings *w, FILE *f)
{
	if (!w->n)
		return;
	fprintf(f, "\nWarnings:\n");
	for (size_t i = 0; i < w->n; i++)
		fprintf(f, "  ! %s\n", term_safe(w->v[i].msg));
}

/* The table's header: one column per figure with a heading. */
static void print_head(FILE *f)
{
	fprintf(f, "%-6s", "");
	for (const struct run_fig *g = run_dir_figs; g->key; g++)
		if (g->head)
			fprintf(f, " %*s", g->width, g->head);
	fprintf(f, "\n");
}

static void print_cell(const struct run_fig *g, double v, FILE *f)
{
	char buf[32];

	if (isnan(v))
		fprintf(f, " %*s", g->width, "-");
	else if (g->unit == RU_NS)
		fprintf(f, " %*s", g->width, fmt_ns(v, buf, sizeof(buf)));
	else
		fprintf(f, " %*.*f", g->width, g->prec, v);
}

static void print_dir_row(const struct run_result *r, int d, FILE *f)
{
	/* Nothing completed: no figure, and not a 0. */
	bool none = d != DIR_FLUSH && (!r->dir[d].ios || r->elapsed_s <= 0);

	fprintf(f, "%-6s", result_dir_name(d));
	for (const struct run_fig *g = run_dir_figs; g->key; g++) {
		if (!g->head)
			continue;
		if (d == DIR_FLUSH && (g->scope & RUN_FIG_COUNT_COL))
			print_cell(g, (double)r->dir[d].ios, f);
		else
			print_cell(g, none ? NAN : run_fig_value(g, r, d), f);
	}
	fprintf(f, "%s\n", none ? "  (no I/O completed)" : "");
}

static void print_percentiles(const struct run_result *r, int d, FILE *f)
{
	const struct job_spec *j = &r->spec;
	uint64_t v[JOB_MAX_PERCENTILES];

	if (!r->dir[d].lat.count)
		return;
	hist_percentiles(&r->dir[d].lat, j->percentiles, j->npercentiles, v);
	fprintf(f, "\n%s latency percentiles (min %s, stddev %s):\n",
		result_dir_name(d),
		fmt_ns((double)r->dir[d].lat.min, (char[16]){ 0 }, 16),
		fmt_ns(hist_stddev(&r->dir[d].lat), (char[16]){ 0 }, 16));
	for (int i = 0; i < j->npercentiles; i++) {
		char p[16], val[16];

		snprintf(p, sizeof(p), "p%g", j->percentiles[i]);
		fprintf(f, "  %7s %9s%s", p,
			fmt_ns((double)v[i], val, sizeof(val)),
			(i % 5 == 4 || i == j->npercentiles - 1) ? "\n" : "");
	}
}

void run_text_print(const struct run_report *rep, FILE *f)
{
	const struct run_result *r = rep->res;
	const struct job_spec *j = &r->spec;
	const struct target *t = rep->target;
	char title[96], tgt[PATH_MAX + 256], ramp[32], wait[32];

	fprintf(f, "%s  engine %s (%s)  cache=%s (%s)\n",
		text_job_title(j, title, sizeof(title)), engine_name(j->engine),
		r->engine_features, cache_name(j->cache),
		cache_words(j->cache));
	fprintf(f, "target %s\n", target_describe(t, tgt, sizeof(tgt)));
	fprintf(f, "measured %.2f s", r->elapsed_s);
	if (j->ramp_ns)
		fprintf(f, " after %s warm-up",
			fmt_duration(j->ramp_ns, ramp, sizeof(ramp)));
	if (j->rate_iops)
		fprintf(f, ", paced at %llu IOPS (latency from intended start)",
			(unsigned long long)j->rate_iops);
	if (r->partial)
		fprintf(f, "  ** PARTIAL: %s **",
			result_stop_words(r->stop_signal));
	fprintf(f, "\n\n");
	print_head(f);
	if (rw_reads(j))
		print_dir_row(r, DIR_READ, f);
	if (rw_writes(j))
		print_dir_row(r, DIR_WRITE, f);
	if (r->dir[DIR_FLUSH].ios)
		print_dir_row(r, DIR_FLUSH, f);
	if (r->flush_skipped)
		fprintf(f,
			"%-6s %llu flushes skipped (cache=unsafe ignores them)\n",
			"", (unsigned long long)r->flush_skipped);
	fprintf(f,
		"(MB/s = 10^6 bytes/s, MiB/s = 2^20 bytes/s; latency from when each I/O is due to its completion)\n");
	if (r->errors)
		fprintf(f,
			"\nI/O ERROR: %s of %u bytes at offset %llu failed: %s (%llu failed I/Os); the run stopped there\n",
			result_dir_name(r->first_err_op),
			r->first_err_op == IO_FLUSH ? 0 : (unsigned int)j->bs,
			(unsigned long long)r->first_err_off,
			r->first_errno ? strerror(r->first_errno) :
					 "short transfer",
			(unsigned long long)r->errors);
	if (rw_reads(j))
		print_percentiles(r, DIR_READ, f);
	if (rw_writes(j))
		print_percentiles(r, DIR_WRITE, f);
	fprintf(f, "\ncpu: user %.2f s, system %.2f s", r->user_s, r->sys_s);
	if (isnan(result_cpu_fig(r)))
		fprintf(f, ", per I/O not measured (no I/O completed)");
	else
		fprintf(f, ", %.2f us per I/O", result_cpu_fig(r));
	if (engine_has(j->engine, ENGINE_NO_IO) && !isnan(result_cpu_fig(r)))
		fprintf(f, " (runner's own cost: %.0f ns per I/O)",
			result_cpu_fig(r) * 1e3);
	else if (!j->rate_iops && !isnan(result_wait_fig(r)))
		fprintf(f, "; a due request waited %s for its submit call",
			fmt_ns(result_submit_wait_ns(r), wait, sizeof(wait)));
	fprintf(f, "\n");
	text_warnings(rep->warnings, f);
}
