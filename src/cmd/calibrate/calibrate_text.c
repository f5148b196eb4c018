// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab calibrate` as text: Oracle's figures first, in the form DBAs know
 * (latency in ms with decimals instead of Oracle's whole milliseconds),
 * then the curves, the knee and the reading.
 */
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <string.h>

#include "calibrate_figs.h"
#include "calibrate_report.h"
#include "../run/run_report.h"
#include "../../core/target.h"
#include "../../util/parse.h"

static const char *const stage_names[] = { "ramp", "bisection",
					   "confirmation" };

static void print_target(const struct calibrate_report *rep, FILE *f)
{
	const struct target *t = rep->target;
	const struct cal_opts *o = rep->opts;
	const struct cal_result *r = rep->res;
	char tgt[PATH_MAX + 256];

	fprintf(f, "target %s, read only\n",
		target_describe(t, tgt, sizeof(tgt)));
	fprintf(f, "engine %s%s%s%s, cache=%s (%s)\n", engine_name(o->engine),
		r->engine_features[0] ? " (" : "", r->engine_features,
		r->engine_features[0] ? ")" : "", cache_name(o->cache),
		cache_words(o->cache));
	fprintf(f, "disks %u (%s): load up to %u small, %u large\n", r->disks,
		r->disks_source, r->max_small_load, r->max_large_load);
}

static void print_figures(const struct calibrate_report *rep, FILE *f)
{
	const struct cal_result *r = rep->res;
	const struct cal_opts *o = rep->opts;
	const struct cal_search *s = &r->ph[CAL_PHASE_SMALL].s;
	const struct cal_point *qd1 = cal_search_at(s, 1);
	char bs[32];

	fprintf(f, "\n");
	if (r->cap_met)
		fprintf(f, "max_iops = %.0f\nlatency  = %.3f\n", r->max_iops,
			r->actual_latency_ms);
	else if (qd1)
		fprintf(f, "max_iops = not met\nlatency  = %.3f (at QD1)\n",
			qd1->mean_ns / 1e6);
	else
		fprintf(f, "max_iops = not measured\nlatency  = -\n");
	if (r->ph[CAL_PHASE_LARGE].s.best >= 0)
		fprintf(f, "max_mbps = %.0f\n", r->max_mbps);
	else
		fprintf(f, "max_mbps = not measured\n");
	if (r->ph[CAL_PHASE_SINGLE].s.best >= 0)
		fprintf(f, "max_pmbps = %.0f\n", r->max_pmbps);
	else
		fprintf(f, "max_pmbps = not measured\n");
	fprintf(f,
		"(max_iops: random %s reads per second at the highest rate whose %s latency stayed <= %g ms;\n"
		" latency: their mean in ms; max_mbps: random 1 MiB reads, MB/s = 10^6 bytes/s;\n"
		" max_pmbps: the same from one thread at QD1)\n",
		fmt_size(o->bs, bs, sizeof(bs)), cal_stat_name(o->stat),
		o->max_latency_ms);
	if (!r->cap_met && qd1 && !cal_point_measured(qd1) &&
	    cal_point_stat(qd1, o->stat) <= o->max_latency_ms * 1e6)
		fprintf(f,
			"\n** no read completed inside a QD1 window: the warm-up reads took %.3f ms, longer than the\n"
			"   %.2f s window, so nothing was measured against --max-latency %g ms; give a larger --budget **\n",
			cal_point_stat(qd1, o->stat) / 1e6,
			r->ph[CAL_PHASE_SMALL].window_s, o->max_latency_ms);
	else if (!r->cap_met && qd1)
		fprintf(f,
			"\n** --max-latency %g ms cannot be met: a single read at a time (QD1) took %.3f ms (%s).\n"
			"   Oracle's CALIBRATE_IO has no max_iops to give here either; raise --max-latency, or find\n"
			"   out why the path is slow with `iolab doctor`. **\n",
			o->max_latency_ms, cal_point_stat(qd1, o->stat) / 1e6,
			cal_stat_name(o->stat));
}

static void print_curve(const struct cal_search *s, bool capped, FILE *f)
{
	fprintf(f, "%7s %11s", "load", "QD x T");
	for (const struct cal_fig *g = cal_point_figs; g->head; g++)
		fprintf(f, " %*s", g->width, g->head);
	fprintf(f, " %3s\n", "n");
	for (unsigned int i = 0; i < s->n; i++) {
		const struct cal_point *p = &s->pts[i];
		char qt[24], buf[16];
		char mark = (int)i == s->best	      ? '*' :
			    (capped && !p->meets_cap) ? '>' :
							' ';

		snprintf(qt, sizeof(qt), "%u x %u", p->qd, p->threads);
		fprintf(f, "%7u %11s", p->load, qt);
		for (const struct cal_fig *g = cal_point_figs; g->head; g++) {
			double v = cal_fig_value(g, p);

			/* No read completed in its windows: no rate, not 0. */
			if (isnan(v))
				snprintf(buf, sizeof(buf), "-");
			else if (g->unit == RU_NS)
				fmt_ns(v, buf, sizeof(buf));
			else
				snprintf(buf, sizeof(buf), "%.*f", g->prec, v);
			fprintf(f, " %*s", g->width, buf);
		}
		fprintf(f, " %3u %c%c%s%s\n", p->nsamples, mark,
			p->noisy ? '~' : ' ', p->cache_reads ? "c" : "",
			p->unbacked ? "z" : "");
	}
}

/* The legend of c and z, when a point of @s carries one. */
static void print_marks(const struct cal_search *s, FILE *f)
{
	for (unsigned int i = 0; i < s->n; i++)
		if (s->pts[i].cache_reads || s->pts[i].unbacked) {
			fprintf(f,
				" c = reads from a cache, z = reads of a region no disk stored: not the disk's (see the warnings)\n");
			return;
		}
}

static void print_small(const struct calibrate_report *rep, FILE *f)
{
	const struct cal_result *r = rep->res;
	const struct cal_opts *o = rep->opts;
	const struct cal_phase *ph = &r->ph[CAL_PHASE_SMALL];
	const struct cal_knee *k = &r->knee;
	char bs[32], a[16], b[16];

	if (!ph->s.n)
		return;
	fprintf(f, "\nrandom %s reads, %s latency capped at %g ms:\n",
		fmt_size(o->bs, bs, sizeof(bs)), cal_stat_name(o->stat),
		o->max_latency_ms);
	print_curve(&ph->s, true, f);
	fprintf(f,
		"(load = reads in flight = QD x threads; * max_iops, > over the cap, ~ windows disagreed;\n"
		" n = windows measured, each %.2f s after a %.2f s warm-up; figures are their median)\n",
		ph->window_s, ph->warmup_s);
	print_marks(&ph->s, f);
	if (!k->valid)
		return;
	fprintf(f,
		"knee: %.0f%% of max_iops (%.0f IOPS) at load %.1f, mean %s\n",
		k->fraction * 100, k->iops, k->load,
		fmt_ns(k->mean_ns, a, sizeof(a)));
	if (k->qd1_mean_ns > 0)
		fprintf(f,
			"Little's law: max_iops x QD1 latency (%s) = %.1f reads served at once without queueing;\n"
			"              max_iops x its latency (%s) = %.1f in flight at max_iops\n",
			fmt_ns(k->qd1_mean_ns, b, sizeof(b)), k->parallelism,
			fmt_ns(r->actual_latency_ms * 1e6, a, sizeof(a)),
			k->in_flight);
}

static void print_large(const struct calibrate_report *rep, FILE *f)
{
	const struct cal_result *r = rep->res;
	const struct cal_search *l = &r->ph[CAL_PHASE_LARGE].s;
	const struct cal_search *p = &r->ph[CAL_PHASE_SINGLE].s;
	char mean[16];

	if (l->n) {
		fprintf(f, "\nrandom 1 MiB reads, no latency cap:\n");
		print_curve(l, false, f);
		print_marks(l, f);
	}
	if (p->best >= 0)
		fprintf(f,
			"\nrandom 1 MiB reads, one thread at QD1: %.1f MB/s, mean %s\n",
			p->pts[p->best].mbps,
			fmt_ns(p->pts[p->best].mean_ns, mean, sizeof(mean)));
}

static void print_search(const struct calibrate_report *rep, FILE *f)
{
	const struct cal_result *r = rep->res;
	static const char *const names[CAL_PHASES] = { "small reads",
						       "1 MiB reads", "QD1" };
	static const char *const ends[] = {
		[CAL_END_CAP] = "cap crossed and bisected",
		[CAL_END_PLATEAU] = "throughput flat",
		[CAL_END_MAX_LOAD] = "reached the load bound",
		[CAL_END_NOT_MET] = "cap missed at QD1",
		[CAL_END_BUDGET] = "budget ran out",
		[CAL_END_STOPPED] = "stopped",
	};
	bool first = true;

	fprintf(f, "\nsearch:");
	for (int k = 0; k < CAL_PHASES; k++) {
		const struct cal_phase *ph = &r->ph[k];

		if (!ph->ran)
			continue;
		fprintf(f, "%s %s: %s, %u window%s, %.1f s", first ? "" : ";",
			names[k],
			k == CAL_PHASE_SINGLE && ph->s.end == CAL_END_MAX_LOAD ?
				"measured" :
				ends[ph->s.end],
			ph->s.nsamples, ph->s.nsamples == 1 ? "" : "s",
			ph->seconds);
		first = false;
	}
	fprintf(f, "\ntime: %.1f s of a %.0f s budget", r->used_s, r->budget_s);
	if (r->cut_short) {
		fprintf(f, "  ** the budget cut the search short (");
		first = true;
		for (int k = 0; k < CAL_PHASES; k++)
			if (r->ph[k].s.cut_short) {
				fprintf(f, "%s%s in its %s", first ? "" : ", ",
					names[k],
					stage_names[r->ph[k].s.cut_stage]);
				first = false;
			}
		fprintf(f,
			"): the figures are what was found so far; give a larger --budget **");
	}
	fprintf(f, "\n");
}

void calibrate_text_print(const struct calibrate_report *rep, FILE *f)
{
	const struct cal_result *r = rep->res;

	fprintf(f, "iolab calibrate (Oracle CALIBRATE_IO semantics)\n");
	print_target(rep, f);
	if (r->stop_signal)
		fprintf(f, "** PARTIAL: %s **\n",
			result_stop_words(r->stop_signal));
	if (r->io_error)
		fprintf(f, "** PARTIAL: I/O error: %s **\n", r->io_error_msg);
	print_figures(rep, f);
	print_small(rep, f);
	print_large(rep, f);
	if (r->classification[0])
		fprintf(f, "\n%s\n", r->classification);
	print_search(rep, f);
	text_warnings(rep->warnings, f);
}
