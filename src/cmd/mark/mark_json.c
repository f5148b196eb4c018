// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab mark --json`; the schema is documented in iolab-mark(1). */

#include <math.h>

#include "mark_figs.h"
#include "mark_json.h"
#include "mark_report.h"
#include "../../core/target.h"

json_t *jmark_options(const struct mark_spec *s)
{
	json_t *o = jjob_spec(&s->base), *tests = json_array(),
	       *dirs = json_array();
	char name[32];

	/* The per-test workload fields of the base job mean nothing here. */
	json_object_del(o, "rw");
	json_object_del(o, "bs_bytes");
	json_object_del(o, "qd");
	json_object_del(o, "threads");
	json_object_del(o, "runtime_s");
	json_object_del(o, "ramp_s");
	json_object_del(o, "ios");
	json_object_del(o, "rate_iops");
	json_object_del(o, "mix_read_pct");
	json_object_set_new(o, "preset",
			    s->preset ? json_string(s->preset) : json_null());
	for (unsigned int i = 0; i < s->ntests; i++)
		json_array_append_new(
			tests, json_string(mark_test_name(&s->tests[i], name,
							  sizeof(name))));
	json_object_set_new(o, "tests", tests);
	for (int d = 0; d < MARK_DIRS; d++)
		if (s->dir[d])
			json_array_append_new(dirs,
					      json_string(suite_dir_names[d]));
	json_object_set_new(o, "directions", dirs);
	json_object_set_new(o, "mix_read_pct", json_integer(s->mix_read_pct));
	/* Which procedure ran: "precision" (runs until the interval of the
	 * mean is narrow enough; the mean is the headline) or
	 * "crystaldiskmark" (a fixed number of runs; the best is). */
	json_object_set_new(o, "procedure",
			    json_string(s->procedure == MARK_FIXED ?
						"crystaldiskmark" :
						"precision"));
	if (s->procedure == MARK_FIXED) {
		json_object_set_new(o, "runs", json_integer(s->runs));
	} else {
		json_object_set_new(o, "runs", json_null());
		jset_real(o, "precision_pct", 100 * s->precision, 3);
		json_object_set_new(o, "min_runs", json_integer(s->min_runs));
		jset_real(o, "max_time_s", (double)s->max_ns / 1e9, 3);
		json_object_set_new(o, "confidence", json_real(0.95));
	}
	json_object_set_new(o, "warmup_runs", json_integer(1));
	jset_real(o, "time_s", (double)s->time_ns / 1e9, 3);
	jset_real(o, "interval_s", (double)s->interval_ns / 1e9, 3);
	json_object_set_new(o, "headline",
			    json_string(s->procedure == MARK_FIXED ? "max" :
								     "mean"));
	return o;
}

static json_t *jstat(const struct mark_stat *st, int digits)
{
	json_t *o = json_object();

	jset_real(o, "max", st->max, digits);
	jset_real(o, "mean", st->mean, digits);
	jset_real(o, "min", st->min, digits);
	jset_real(o, "stddev", st->stddev, digits);
	return o;
}

static json_t *jcell_lat(const struct mark_cell *c)
{
	json_t *o;

	if (!c->lat || !c->lat->count)
		return json_null();
	o = json_object();
	json_object_set_new(o, "min", json_integer((json_int_t)c->lat->min));
	jset_real(o, "mean", hist_mean(c->lat), 1);
	json_object_set_new(
		o, "p50",
		json_integer((json_int_t)hist_percentile(c->lat, 50)));
	json_object_set_new(
		o, "p99",
		json_integer((json_int_t)hist_percentile(c->lat, 99)));
	json_object_set_new(o, "max", json_integer((json_int_t)c->lat->max));
	json_object_set_new(o, "count",
			    json_integer((json_int_t)c->lat->count));
	return o;
}

/*
 * A figure of mark_figs.c that jcell() does not write lands at its place
 * all the same (in an object jcell() wrote: "mbps", "lat_ns" ...), so
 * that adding a figure is one row there. Its decimals are the CSV's, in
 * the JSON's unit (latency in ns, not us).
 */
static void figs_fill(json_t *o, const struct mark_cell *c, enum mark_dir d)
{
	for (int k = 0; k < MARK_NFIGS; k++) {
		const struct mark_fig *f = &mark_figs[k];
		json_t *obj = json_object_get(o, f->json);
		int digits = f->digits - (int)lround(log10(f->csv_div));

		if (!json_is_object(obj) || json_object_get(obj, f->stat) ||
		    ((f->scope & MARK_FIG_MIX) && d != MARK_MIX))
			continue;
		jset_real(obj, f->stat, mark_fig_value(f, c, d),
			  digits > 0 ? digits : 0);
	}
}

static json_t *jcell(const struct mark_result *r, const struct mark_cell *c,
		     enum mark_dir d)
{
	json_t *o, *runs;

	if (!c->started)
		return json_null();
	o = json_object();
	runs = json_array();
	json_object_set_new(o, "partial", json_boolean(c->partial));
	json_object_set_new(o, "runs_scored", json_integer(c->scored));
	jset_real(o, "elapsed_s", c->elapsed_s, 3);
	/* With the precision procedure: whether the interval narrowed to
	 * what was asked (false: the figure is noisy, see warnings). */
	if (c->procedure == MARK_PRECISION)
		json_object_set_new(o, "precise", json_boolean(c->precise));
	else
		json_object_set_new(o, "precise", json_null());
	if (d == MARK_MIX)
		json_object_set_new(o, "read_pct",
				    json_integer(r->spec.mix_read_pct));
	json_object_set_new(o, "mbps",
			    c->scored ? jstat(&c->mbps, 3) : json_null());
	json_object_set_new(o, "iops",
			    c->scored ? jstat(&c->iops, 1) : json_null());
	if (d == MARK_MIX) {
		json_object_set_new(o, "read_mbps",
				    c->scored ? jstat(&c->read_mbps, 3) :
						json_null());
		json_object_set_new(o, "write_mbps",
				    c->scored ? jstat(&c->write_mbps, 3) :
						json_null());
	}
	json_object_set_new(o, "lat_ns", jcell_lat(c));
	json_object_set_new(o, "page_cache_reads",
			    json_boolean(c->page_cache_reads));
	/* What reached the storage, and the spread behind "max": what lab
	 * and compare rank and judge by. */
	if (c->scored)
		jset_real(o, "storage_mbps", c->storage_mbps, 3);
	else
		json_object_set_new(o, "storage_mbps", json_null());
	json_object_set_new(o, "cached_writes", json_boolean(c->cached_writes));
	json_object_set_new(o, "unbacked_reads",
			    json_boolean(c->unbacked_reads));
	if (c->scored && !isnan(mark_cell_cv(c)))
		jset_real(o, "cv", mark_cell_cv(c), 4);
	else
		json_object_set_new(o, "cv", json_null());
	if (c->warmup_done) {
		json_t *w = json_object();

		jset_real(w, "mbps", c->warmup_mbps, 3);
		jset_real(w, "iops", c->warmup_iops, 1);
		jset_real(w, "elapsed_s", c->warmup_s, 6);
		json_object_set_new(o, "warmup", w);
	} else {
		json_object_set_new(o, "warmup", json_null());
	}
	json_object_set_new(o, "warnings", jwarnings(&c->warnings));
	for (unsigned int k = 0; k < c->nruns; k++)
		json_array_append_new(runs, jrun_result(&c->runs[k]));
	json_object_set_new(o, "runs", runs);
	figs_fill(o, c, d);
	return o;
}

json_t *jmark_tests(const struct mark_result *r)
{
	const struct mark_spec *s = &r->spec;
	json_t *arr = json_array();

	for (unsigned int i = 0; i < s->ntests; i++) {
		const struct mark_test *t = &s->tests[i];
		json_t *o = json_object();
		char name[32];

		json_object_set_new(
			o, "name",
			json_string(mark_test_name(t, name, sizeof(name))));
		json_object_set_new(o, "pattern",
				    json_string(t->random ? "random" :
							    "sequential"));
		json_object_set_new(o, "bs_bytes",
				    json_integer((json_int_t)t->bs));
		json_object_set_new(o, "qd", json_integer(t->qd));
		json_object_set_new(o, "threads", json_integer(t->threads));
		for (int d = 0; d < MARK_DIRS; d++)
			json_object_set_new(o, suite_dir_names[d],
					    s->dir[d] ?
						    jcell(r, &r->cell[i][d],
							  (enum mark_dir)d) :
						    json_null());
		json_array_append_new(arr, o);
	}
	return arr;
}

bool mark_json_write(const struct mark_report *rep, FILE *f, struct err *err)
{
	const struct mark_result *r = rep->res;
	const struct target *t = rep->target;
	json_t *doc = jdoc_new("mark", rep->argc, rep->argv);
	json_t *opts = jmark_options(&r->spec);
	struct warnings all = { 0 };

	jtarget_options(opts, t);
	json_object_set_new(doc, "options", opts);
	json_object_set_new(doc, "environment", jenvironment(t));
	if (rep->warnings)
		warn_merge(&all, rep->warnings);
	warn_merge(&all, &r->warnings);
	json_object_set_new(doc, "warnings", jwarnings(&all));
	warnings_free(&all);
	json_object_set_new(doc, "partial", json_boolean(r->partial));
	json_object_set_new(doc, "stopped_by",
			    jstopped_by(r->stop_signal, r->errors != 0));
	json_object_set_new(doc, "error",
			    r->error[0] ? json_string(r->error) : json_null());
	jset_real(doc, "elapsed_s", r->elapsed_s, 3);
	json_object_set_new(doc, "engine_features",
			    json_string(r->engine_features));
	json_object_set_new(doc, "tests", jmark_tests(r));
	return jdoc_write(doc, f, err);
}
