// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab check --json`; the schema is documented in iolab-check(1). */
#include <math.h>

#include "../../report/json_util.h"
#include "check_report.h"
#include "../../core/target.h"

static const char *const stat_names[] = { "percentile", "mean", "max", "rate" };
static const char *const cmp_names[] = { "at_most", "at_least", "none" };

static json_t *jcriterion(const struct check_criterion *c,
			  const struct check_figure *g, bool judged)
{
	json_t *o = json_object();
	bool rate = c->stat == CHECK_RATE;

	json_object_set_new(o, "id", json_string(c->id));
	json_object_set_new(o, "what", json_string(c->what));
	json_object_set_new(o, "step", json_integer(c->step));
	json_object_set_new(o, "direction",
			    json_string(result_dir_name(c->dir)));
	json_object_set_new(o, "statistic", json_string(stat_names[c->stat]));
	if (c->stat == CHECK_PCT)
		jset_real(o, "percentile", c->pct, 3);
	json_object_set_new(o, "comparison", json_string(cmp_names[c->cmp]));
	json_object_set_new(o, "unit", json_string(rate ? "per_s" : "ns"));
	jset_real(o, "limit", c->cmp == CHECK_INFO ? NAN : c->limit, 3);
	json_object_set_new(o, "source", json_string(c->source));
	if (!judged) {
		json_object_set_new(o, "verdict", json_null());
		return o;
	}
	json_object_set_new(o, "verdict",
			    json_string(check_verdict_names[g->verdict]));
	jset_real(o, "value", g->value, 3);
	jset_real(o, "low", g->lo, 3);
	jset_real(o, "high", g->hi, 3);
	jset_real(o, "margin", g->margin, 4);
	json_object_set_new(o, "samples", json_integer((json_int_t)g->samples));
	json_object_set_new(o, "reason",
			    g->reason[0] ? json_string(g->reason) :
					   json_null());
	json_object_set_new(o, "fix",
			    c->fix && g->verdict == CHECK_FAIL ?
				    json_string(c->fix) :
				    json_null());
	return o;
}

bool check_json_write(const struct check_report *r, FILE *f, struct err *err)
{
	const struct check_result *res = r->res;
	const struct check_profile *p = res->profile;
	json_t *doc = jdoc_new("check", r->argc, r->argv);
	json_t *opts = json_object(), *steps = json_array();
	json_t *crit = json_array(), *hints = json_array();

	json_object_set_new(opts, "profile", json_string(p->name));
	json_object_set_new(opts, "runtime_ns",
			    json_integer((json_int_t)res->runtime_ns));
	json_object_set_new(opts, "qemu_cache",
			    res->qemu_cache ?
				    json_string(cache_name(res->cache)) :
				    json_null());
	json_object_set_new(opts, "qemu_aio",
			    res->qemu_engine ?
				    json_string(engine_name(res->engine)) :
				    json_null());
	jtarget_options(opts, r->target);
	json_object_set_new(doc, "options", opts);
	json_object_set_new(doc, "environment", jenvironment(r->target));
	json_object_set_new(doc, "warnings", jwarnings(r->warnings));
	json_object_set_new(doc, "profile", json_string(p->name));
	json_object_set_new(doc, "title", json_string(p->title));
	json_object_set_new(doc, "partial", json_boolean(!res->judged));
	json_object_set_new(doc, "stopped_by",
			    jstopped_by(res->stop_signal, res->io_error));
	for (int i = 0; i < p->nsteps; i++) {
		json_t *s = json_object();

		json_object_set_new(s, "id", json_string(p->steps[i].id));
		json_object_set_new(s, "what", json_string(p->steps[i].what));
		json_object_set_new(s, "result",
				    i < res->nrun ? jrun_result(&res->run[i]) :
						    json_null());
		json_array_append_new(steps, s);
	}
	json_object_set_new(doc, "steps", steps);
	for (int i = 0; i < p->ncrit; i++)
		json_array_append_new(crit,
				      jcriterion(&p->crit[i], &res->fig[i],
						 res->judged));
	json_object_set_new(doc, "criteria", crit);
	for (size_t i = 0; i < res->nhints; i++) {
		const struct check_hint *h = &res->hints[i];
		json_t *o = json_object();

		json_object_set_new(o, "id", json_string(h->id));
		json_object_set_new(o, "severity", json_string(h->severity));
		json_object_set_new(o, "disk",
				    h->disk[0] ? json_string(h->disk) :
						 json_null());
		json_object_set_new(o, "message", json_string(h->message));
		json_object_set_new(o, "fix", json_string(h->fix));
		json_array_append_new(hints, o);
	}
	json_object_set_new(doc, "doctor_findings", hints);
	json_object_set_new(
		doc, "verdict",
		res->judged ? json_string(check_verdict_names[res->verdict]) :
			      json_null());
	return jdoc_write(doc, f, err);
}
