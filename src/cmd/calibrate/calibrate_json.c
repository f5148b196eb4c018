// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab calibrate --json`; the schema is documented in iolab-calibrate(1). */
#include <math.h>

#include "calibrate_report.h"
#include "../../report/json_util.h"
#include "../../core/target.h"

static const char *const stage_names[] = { "ramp", "bisect", "confirm" };

static json_t *jpoint(const struct cal_search *s, unsigned int i)
{
	const struct cal_point *p = &s->pts[i];
	json_t *o = json_object(), *lat = json_object();

	json_object_set_new(o, "load", json_integer(p->load));
	json_object_set_new(o, "qd", json_integer(p->qd));
	json_object_set_new(o, "threads", json_integer(p->threads));
	/* Windows that completed no read: no figure, not 0. */
	jset_real(o, "iops", cal_point_measured(p) ? p->iops : NAN, 1);
	jset_real(o, "mbps", cal_point_measured(p) ? p->mbps : NAN, 3);
	jset_real(lat, "mean", p->mean_ns / 1e6, 4);
	jset_real(lat, "p50", p->p50_ns / 1e6, 4);
	jset_real(lat, "p99", p->p99_ns / 1e6, 4);
	json_object_set_new(o, "lat_ms", lat);
	json_object_set_new(o, "windows", json_integer(p->nsamples));
	jset_real(o, "spread", p->spread, 4);
	json_object_set_new(o, "noisy", json_boolean(p->noisy));
	json_object_set_new(o, "meets_cap", json_boolean(p->meets_cap));
	json_object_set_new(o, "best", json_boolean((int)i == s->best));
	return o;
}

static json_t *jcurve(const struct cal_search *s)
{
	json_t *a = json_array();

	for (unsigned int i = 0; i < s->n; i++)
		json_array_append_new(a, jpoint(s, i));
	return a;
}

static json_t *jsearch(const struct cal_phase *ph)
{
	json_t *o = json_object();

	json_object_set_new(o, "ran", json_boolean(ph->ran));
	json_object_set_new(o, "block_size_bytes",
			    json_integer((json_int_t)ph->bs));
	json_object_set_new(o, "max_load", json_integer(ph->p.max_load));
	json_object_set_new(o, "end", json_string(cal_end_name(ph->s.end)));
	json_object_set_new(o, "cut_short", json_boolean(ph->s.cut_short));
	json_object_set_new(o, "cut_stage",
			    ph->s.cut_short ?
				    json_string(stage_names[ph->s.cut_stage]) :
				    json_null());
	json_object_set_new(o, "windows", json_integer(ph->s.nsamples));
	jset_real(o, "seconds", ph->seconds, 3);
	jset_real(o, "window_s", ph->window_s, 3);
	jset_real(o, "warmup_s", ph->warmup_s, 3);
	return o;
}

static json_t *jknee(const struct cal_knee *k)
{
	json_t *o;

	if (!k->valid)
		return json_null();
	o = json_object();
	jset_real(o, "fraction", k->fraction, 2);
	jset_real(o, "iops", k->iops, 1);
	jset_real(o, "load", k->load, 2);
	jset_real(o, "mean_latency_ms", k->mean_ns / 1e6, 4);
	jset_real(o, "qd1_latency_ms", k->qd1_mean_ns / 1e6, 4);
	jset_real(o, "littles_law_parallelism", k->parallelism, 2);
	jset_real(o, "in_flight_at_max_iops", k->in_flight, 2);
	return o;
}

static json_t *jopts(const struct calibrate_report *r)
{
	const struct cal_opts *o = r->opts;
	const struct cal_result *res = r->res;
	const struct target *t = r->target;
	json_t *j = json_object();

	jtarget_options(j, t);
	json_object_set_new(j, "disks", json_integer(res->disks));
	json_object_set_new(j, "disks_source", json_string(res->disks_source));
	json_object_set_new(j, "disks_given", json_boolean(o->disks != 0));
	jset_real(j, "max_latency_ms", o->max_latency_ms, 4);
	json_object_set_new(j, "latency_stat",
			    json_string(cal_stat_name(o->stat)));
	json_object_set_new(j, "block_size_bytes",
			    json_integer((json_int_t)o->bs));
	json_object_set_new(j, "large_block_size_bytes",
			    json_integer(CAL_LARGE_BS));
	jset_real(j, "budget_s", (double)o->budget_ns / 1e9, 3);
	/* Each point: windows until they agree within this (up to 3, the
	 * median), its "spread" the agreement reached. */
	jset_real(j, "precision_pct",
		  100 * (o->precision > 0 ? o->precision : 0.10), 3);
	json_object_set_new(j, "procedure", json_string("windows-agree"));
	json_object_set_new(j, "engine", json_string(engine_name(o->engine)));
	json_object_set_new(j, "cache", json_string(cache_name(o->cache)));
	json_object_set_new(j, "direct", json_boolean(cache_direct(o->cache)));
	return j;
}

bool calibrate_json_write(const struct calibrate_report *r, FILE *f,
			  struct err *err)
{
	const struct cal_result *res = r->res;
	const struct cal_phase *sp = &res->ph[CAL_PHASE_SINGLE];
	json_t *doc = jdoc_new("calibrate", r->argc, r->argv);
	json_t *searches = json_object(), *budget = json_object();

	json_object_set_new(doc, "options", jopts(r));
	json_object_set_new(doc, "environment", jenvironment(r->target));
	json_object_set_new(doc, "warnings", jwarnings(r->warnings));
	json_object_set_new(doc, "partial",
			    json_boolean(res->stop_signal || res->io_error));
	json_object_set_new(doc, "engine_features",
			    json_string(res->engine_features));

	/* Oracle's figures; null where there is none to give. */
	json_object_set_new(doc, "cap_met", json_boolean(res->cap_met));
	if (res->cap_met) {
		json_object_set_new(
			doc, "max_iops",
			json_integer((json_int_t)(res->max_iops + 0.5)));
		jset_real(doc, "actual_latency_ms", res->actual_latency_ms, 4);
	} else {
		json_object_set_new(doc, "max_iops", json_null());
		json_object_set_new(doc, "actual_latency_ms", json_null());
	}
	if (res->ph[CAL_PHASE_LARGE].s.best >= 0)
		jset_real(doc, "max_mbps", res->max_mbps, 1);
	else
		json_object_set_new(doc, "max_mbps", json_null());
	if (sp->s.best >= 0)
		jset_real(doc, "max_pmbps", res->max_pmbps, 1);
	else
		json_object_set_new(doc, "max_pmbps", json_null());

	json_object_set_new(doc, "curve", jcurve(&res->ph[CAL_PHASE_SMALL].s));
	json_object_set_new(doc, "large_curve",
			    jcurve(&res->ph[CAL_PHASE_LARGE].s));
	json_object_set_new(doc, "single",
			    sp->s.best >= 0 ?
				    jpoint(&sp->s, (unsigned int)sp->s.best) :
				    json_null());
	json_object_set_new(doc, "knee", jknee(&res->knee));
	json_object_set_new(doc, "classification",
			    json_string(res->classification));

	json_object_set_new(searches, "small",
			    jsearch(&res->ph[CAL_PHASE_SMALL]));
	json_object_set_new(searches, "large",
			    jsearch(&res->ph[CAL_PHASE_LARGE]));
	json_object_set_new(searches, "single", jsearch(sp));
	json_object_set_new(doc, "search", searches);
	jset_real(budget, "budget_s", res->budget_s, 3);
	jset_real(budget, "used_s", res->used_s, 3);
	json_object_set_new(budget, "cut_short", json_boolean(res->cut_short));
	json_object_set_new(doc, "budget", budget);
	json_object_set_new(doc, "io_error",
			    res->io_error ? json_string(res->io_error_msg) :
					    json_null());
	return jdoc_write(doc, f, err);
}
