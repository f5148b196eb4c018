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

		struct cmp_tally t;
		json_t *o;

		cmp_tally(c, d, &t);
		o = json_pack("{s:s, s:s, s:s, s:s, s:s?, s:b}", "letter",
			      (char[2]){ cmp_letter(d), 0 }, "label",
			      doc->label, "path", doc->path, "command",
			      doc->command, "title", doc->title, "partial",
			      doc->partial);
		/* How it fared against A; A itself has no tally. */
		json_object_set_new(
			o, "against_a",
			d ? json_pack("{s:I, s:I, s:I, s:I, s:I}", "better",
				      (json_int_t)t.better, "worse",
				      (json_int_t)t.worse, "same",
				      (json_int_t)t.same, "within_noise",
				      (json_int_t)t.noise, "no_spread_known",
				      (json_int_t)t.nospread) :
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

/* What input @d's figure rests on: {"kind","n","mean","stddev"} or null. */
static json_t *jspread(const struct cmp_row *r, size_t d)
{
	const struct rfig *f = r->f[d];
	double mean = 0, sd, q = 0;

	if (!f || f->spread == RSP_NONE || f->nsamples < 2)
		return json_null();
	for (size_t i = 0; i < f->nsamples; i++)
		mean += f->samples[i];
	mean /= (double)f->nsamples;
	for (size_t i = 0; i < f->nsamples; i++)
		q += (f->samples[i] - mean) * (f->samples[i] - mean);
	sd = sqrt(q / (double)(f->nsamples - 1));
	return json_pack("{s:s, s:I, s:o, s:o}", "kind",
			 cmp_spread_name(f->spread), "n",
			 (json_int_t)f->nsamples, "mean", jnum_or_null(mean),
			 "stddev", jnum_or_null(sd));
}

/* The test of input @d against A: null without one. */
static json_t *jtest(const struct cmp_row *r, size_t d)
{
	const struct cmp_noise *nz = &r->noise[d];

	if (!d || nz->kind == RSP_NONE)
		return json_null();
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o}", "kind",
			 cmp_spread_name(nz->kind), "test", "welch-t", "t",
			 jnum_or_null(nz->t), "df", jnum_or_null(nz->df), "p",
			 jnum_or_null(nz->p), "spread_ratio",
			 jnum_or_null(nz->half), "needed",
			 jnum_or_null(nz->need));
}

static json_t *jfigures(const struct cmp *c)
{
	json_t *a = json_array();

	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		json_t *vals = json_array(), *st = json_array(),
		       *ratio = json_array(), *pct = json_array(),
		       *diff = json_array(), *ver = json_array(),
		       *spr = json_array(), *test = json_array(), *o;

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
			json_array_append_new(spr, jspread(r, d));
			json_array_append_new(test, jtest(r, d));
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
		json_object_set_new(o, "spread", spr);
		json_object_set_new(o, "test", test);
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
			    json_pack("{s:s, s:f, s:f}", "of",
				      c->docs[0]->command, "threshold_pct",
				      c->threshold * 100, "level", CMP_ALPHA));
	json_object_set_new(doc, "warnings", jwarnings(&c->warns));
	json_object_set_new(doc, "inputs", jinputs(c));
	json_object_set_new(doc, "settings_differ", jsettings(c));
	json_object_set_new(doc, "figures", jfigures(c));
	json_object_set_new(doc, "findings", jfindings(c));
	json_object_set_new(doc, "input_warnings", jinput_warnings(c));
	return jdoc_write(doc, f, err);
}
