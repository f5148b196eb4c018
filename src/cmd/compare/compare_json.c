// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab compare --json`; the schema is documented in iolab-compare(1). */
#include <math.h>

#include "../../report/compare.h"
#include "../../report/json_util.h"

static json_t *jnum_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static const char *unit_name(enum runit u)
{
	switch (u) {
	case RU_NS:
		return "ns";
	case RU_COUNT:
		return "count";
	case RU_NONE:
		return "";
	default:
		return runit_label(u);
	}
}

static json_t *jinputs(const struct cmp *c)
{
	json_t *a = json_array();

	for (size_t d = 0; d < c->n; d++) {
		const struct rdoc *doc = c->docs[d];

		size_t b, w, s;
		json_t *o;

		cmp_tally(c, d, &b, &w, &s);
		o = json_pack("{s:s, s:s, s:s, s:s, s:s?, s:b}", "letter",
			      (char[2]){ cmp_letter(d), 0 }, "label",
			      doc->label, "path", doc->path, "command",
			      doc->command, "title", doc->title, "partial",
			      doc->partial);
		/* How it fared against A; A itself has no tally. */
		json_object_set_new(o, "against_a",
				    d ? json_pack("{s:I, s:I, s:I}", "better",
						  (json_int_t)b, "worse",
						  (json_int_t)w, "same",
						  (json_int_t)s) :
					json_null());
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *jsettings(const struct cmp *c)
{
	json_t *a = json_array();

	for (size_t i = 0; i < c->ndiffs; i++) {
		const struct cmp_setdiff *x = &c->diffs[i];
		json_t *v = json_array();

		for (size_t d = 0; d < c->n; d++)
			json_array_append_new(
				v, x->value[d] ? json_string(x->value[d]) :
						 json_null());
		json_array_append_new(
			a, json_pack("{s:s, s:s, s:s, s:o}", "key", x->key,
				     "label", x->label, "kind",
				     x->kind == RS_WORKLOAD ? "workload" :
							      "environment",
				     "values", v));
	}
	return a;
}

static json_t *jfigures(const struct cmp *c)
{
	json_t *a = json_array();

	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		json_t *vals = json_array(), *st = json_array(),
		       *ratio = json_array(), *pct = json_array(),
		       *diff = json_array(), *ver = json_array(), *o;

		for (size_t d = 0; d < c->n; d++) {
			const struct rfig *f = r->f[d];

			json_array_append_new(
				vals,
				jnum_or_null(f && !f->status ? f->value : NAN));
			json_array_append_new(
				st, f && f->status ? json_string(f->status) :
						     json_null());
			json_array_append_new(
				ratio, jnum_or_null(d ? r->ratio[d] : NAN));
			json_array_append_new(
				pct, jnum_or_null(d ? (r->ratio[d] - 1) * 100 :
						      NAN));
			json_array_append_new(
				diff, jnum_or_null(d ? r->diff[d] : NAN));
			json_array_append_new(
				ver, d && r->verdict[d] != CV_NONE ?
					     json_string(cmp_verdict_name(
						     r->verdict[d])) :
					     json_null());
		}
		o = json_pack("{s:s, s:s, s:s, s:s, s:s}", "key", r->key,
			      "group", r->group, "name", r->name, "unit",
			      unit_name(r->unit), "better",
			      r->better == RB_HIGHER ? "higher" :
			      r->better == RB_LOWER  ? "lower" :
						       "none");
		json_object_set_new(o, "values", vals);
		json_object_set_new(o, "status", st);
		json_object_set_new(o, "ratio", ratio);
		json_object_set_new(o, "change_pct", pct);
		json_object_set_new(o, "diff", diff);
		json_object_set_new(o, "verdict", ver);
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *jfindings(const struct cmp *c)
{
	json_t *a = json_array();

	for (size_t i = 0; i < c->nfinds; i++) {
		const struct cmp_find *x = &c->finds[i];
		json_t *p = json_array();
		bool first = x->present[0], last = x->present[c->n - 1];

		for (size_t d = 0; d < c->n; d++)
			json_array_append_new(p, json_boolean(x->present[d]));
		json_array_append_new(
			a, json_pack("{s:s, s:s, s:s?, s:s, s:o, s:s}",
				     "severity", x->f->severity, "id", x->f->id,
				     "subject", x->f->subject, "message",
				     x->f->message, "present", p, "change",
				     first && !last ? "gone" :
				     !first && last ? "new" :
						      "kept"));
	}
	return a;
}

static json_t *jinput_warnings(const struct cmp *c)
{
	json_t *a = json_array();

	for (size_t d = 0; d < c->n; d++)
		for (size_t i = 0; i < c->docs[d]->warns.n; i++)
			json_array_append_new(
				a, json_pack("{s:i, s:s, s:s}", "input", (int)d,
					     "id", c->docs[d]->warns.v[i].id,
					     "message",
					     c->docs[d]->warns.v[i].msg));
	return a;
}

bool cmp_json_write(const struct cmp *c, int argc, char *const *argv, FILE *f,
		    struct err *err)
{
	json_t *doc = jdoc_new("compare", argc, argv);

	json_object_set_new(doc, "options",
			    json_pack("{s:s, s:f}", "of", c->docs[0]->command,
				      "threshold_pct", c->threshold * 100));
	json_object_set_new(doc, "warnings", jwarnings(&c->warns));
	json_object_set_new(doc, "inputs", jinputs(c));
	json_object_set_new(doc, "settings_differ", jsettings(c));
	json_object_set_new(doc, "figures", jfigures(c));
	json_object_set_new(doc, "findings", jfindings(c));
	json_object_set_new(doc, "input_warnings", jinput_warnings(c));
	return jdoc_write(doc, f, err);
}
