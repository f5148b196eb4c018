// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab matrix --json`; the schema is documented in iolab-matrix(1). */

#include <math.h>

#include "../mark/mark_json.h"
#include "../mark/mark_report.h"
#include "matrix_report.h"
#include "../check/check_profile.h"
#include "../../core/target.h"

static json_t *jsetting(const struct matrix_result *r, int idx)
{
	const struct matrix_cell *c;
	json_t *o;

	if (idx < 0)
		return json_null();
	c = &r->cells[idx];
	o = json_object();
	json_object_set_new(o, "engine", json_string(engine_name(c->engine)));
	json_object_set_new(o, "cache", json_string(cache_name(c->cache)));
	jset_real(o, "score_mbps", c->score_mbps, 3);
	return o;
}

static json_t *jcell(const struct matrix_cell *c)
{
	json_t *o = json_object();

	json_object_set_new(o, "engine", json_string(engine_name(c->engine)));
	json_object_set_new(o, "cache", json_string(cache_name(c->cache)));
	json_object_set_new(o, "status",
			    json_string(matrix_status_names[c->status]));
	json_object_set_new(o, "reason",
			    c->reason[0] ? json_string(c->reason) :
					   json_null());
	json_object_set_new(o, "qemu_refuses", json_boolean(c->qemu_refuses));
	json_object_set_new(o, "forced",
			    json_boolean(c->qemu_refuses && c->measured));
	json_object_set_new(o, "risk", json_string(cache_risk(c->cache)));
	json_object_set_new(o, "keeps_data_on_power_loss",
			    json_boolean(matrix_cache_keeps_data(c->cache)));
	json_object_set_new(o, "partial", json_boolean(c->mark.partial));
	json_object_set_new(o, "page_cache_reads",
			    json_boolean(c->page_cache_reads));
	json_object_set_new(o, "cached_writes", json_boolean(c->cached_writes));
	json_object_set_new(o, "unbacked_reads",
			    json_boolean(c->unbacked_reads));
	json_object_set_new(o, "set_aside",
			    matrix_cell_set_aside(c) ?
				    json_string(matrix_cell_set_aside(c)) :
				    json_null());
	if (c->score_n)
		jset_real(o, "score_mbps", c->score_mbps, 3);
	else
		json_object_set_new(o, "score_mbps", json_null());
	if (c->score_n && !isnan(c->score_unc))
		jset_real(o, "score_uncertainty", c->score_unc, 4);
	else
		json_object_set_new(o, "score_uncertainty", json_null());
	jset_real(o, "elapsed_s", c->measured ? c->mark.elapsed_s : 0, 3);
	json_object_set_new(o, "engine_features",
			    c->measured && c->mark.engine_features[0] ?
				    json_string(c->mark.engine_features) :
				    json_null());
	json_object_set_new(o, "check", matrix_check_jcell(c));
	json_object_set_new(o, "warnings", jwarnings(&c->mark.warnings));
	json_object_set_new(o, "tests",
			    c->measured ? jmark_tests(&c->mark) : json_array());
	return o;
}

bool matrix_json_write(const struct matrix_report *rep, FILE *f,
		       struct err *err)
{
	const struct matrix_result *r = rep->res;
	const struct target *t = rep->target;
	json_t *doc = jdoc_new("matrix", rep->argc, rep->argv);
	json_t *opts = jmark_options(&r->spec.mark), *cells = json_array();
	json_t *engines = json_array(), *caches = json_array(), *rec, *text;
	struct warnings all = { 0 };
	char lines[MATRIX_REC_LINES][512];
	int nl;

	json_object_del(opts, "engine");
	json_object_del(opts, "cache");
	json_object_del(opts, "direct");
	json_object_del(opts, "dsync");
	for (unsigned int i = 0; i < r->spec.nengines; i++)
		json_array_append_new(
			engines, json_string(engine_name(r->spec.engines[i])));
	for (unsigned int i = 0; i < r->spec.ncaches; i++)
		json_array_append_new(
			caches, json_string(cache_name(r->spec.caches[i])));
	json_object_set_new(opts, "engines", engines);
	json_object_set_new(opts, "caches", caches);
	json_object_set_new(opts, "check",
			    r->spec.check ? json_string(r->spec.check->name) :
					    json_null());
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
			    jstopped_by(r->stop_signal, false));
	jset_real(doc, "elapsed_s", r->elapsed_s, 3);
	for (unsigned int k = 0; k < r->ncells; k++)
		json_array_append_new(cells, jcell(&r->cells[k]));
	json_object_set_new(doc, "cells", cells);
	rec = json_object();
	json_object_set_new(
		rec, "ranked_by",
		json_string(
			"geometric mean of the MB/s that reached the storage"));
	json_object_set_new(rec, "keeps_data", jsetting(r, r->best_safe));
	json_object_set_new(rec, "next", jsetting(r, r->next_safe));
	json_object_set_new(rec, "fastest", jsetting(r, r->best_any));
	if (r->best_safe >= 0 && r->next_safe >= 0) {
		struct margin m = matrix_margin(r, &r->cells[r->best_safe],
						&r->cells[r->next_safe]);
		json_t *mj = json_object();

		jset_real(mj, "ratio", m.ratio, 4);
		if (isnan(m.unc))
			json_object_set_new(mj, "uncertainty", json_null());
		else
			jset_real(mj, "uncertainty", m.unc, 4);
		json_object_set_new(mj, "too_close_to_call",
				    json_boolean(m.too_close));
		json_object_set_new(rec, "margin", mj);
	} else {
		json_object_set_new(rec, "margin", json_null());
	}
	if (matrix_measured_again(r)) {
		json_t *aj = jsetting(r, r->again);

		jset_real(aj, "first_mbps", r->cells[r->again].score_mbps, 3);
		jset_real(aj, "again_mbps", r->again_mbps, 3);
		jset_real(aj, "drift_uncertainty", matrix_drift_unc(r), 4);
		json_object_set_new(rec, "measured_again", aj);
	} else {
		json_object_set_new(rec, "measured_again", json_null());
	}
	text = json_array();
	nl = r->spec.check ?
		     matrix_check_recommend(r, lines, MATRIX_REC_LINES) :
		     matrix_recommend(r, lines, MATRIX_REC_LINES);
	for (int i = 0; i < nl; i++)
		json_array_append_new(text, json_string(lines[i]));
	json_object_set_new(rec, "text", text);
	json_object_set_new(doc, "recommendation", rec);
	return jdoc_write(doc, f, err);
}
