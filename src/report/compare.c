// SPDX-License-Identifier: GPL-2.0-or-later
/* Building a comparison of documents; see compare.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "../util/err.h"
#include "../util/strmap.h"
#include "../util/strv.h"
#include "../util/xmem.h"

char cmp_letter(size_t i)
{
	return (char)('A' + (int)i);
}

void cmp_tally(const struct cmp *c, size_t d, struct cmp_tally *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < c->nrows; i++) {
		enum cmp_verdict v = c->rows[i].verdict[d];

		t->better += v == CV_BETTER;
		t->worse += v == CV_WORSE;
		t->same += v == CV_SAME;
		t->noise += v == CV_NOISE;
		t->nospread += v == CV_NOSPREAD;
	}
}

const char *cmp_tally_text(const struct cmp *c, size_t d, char *buf, size_t len)
{
	struct cmp_tally t;

	cmp_tally(c, d, &t);
	snprintf(
		buf, len,
		"%zu better, %zu worse, %zu the same, %zu within noise, %zu no spread known",
		t.better, t.worse, t.same, t.noise, t.nospread);
	return buf;
}

const char *cmp_verdict_name(enum cmp_verdict v)
{
	switch (v) {
	case CV_BETTER:
		return "better";
	case CV_WORSE:
		return "worse";
	case CV_SAME:
		return "same";
	case CV_NOISE:
		return "within noise";
	case CV_NOSPREAD:
		return "no spread known";
	case CV_NONE:
		break;
	}
	return "";
}

const char *cmp_spread_name(enum rspread k)
{
	return k == RSP_RUNS ? "runs" : k == RSP_SECONDS ? "seconds" : "";
}

const char *cmp_verdict_text(const struct cmp_row *r, size_t i, char *buf,
			     size_t len)
{
	const struct cmp_noise *nz = &r->noise[i];

	if (r->verdict[i] != CV_NOISE || !isfinite(nz->need)) {
		snprintf(buf, len, "%s", cmp_verdict_name(r->verdict[i]));
		return buf;
	}
	if (nz->need > 99999)
		snprintf(buf, len, "within noise (%s 99999%s to tell)",
			 nz->kind == RSP_RUNS ? "over" : "runs of over",
			 nz->kind == RSP_RUNS ? " runs" : " s");
	else
		snprintf(buf, len, "within noise (%s%.0f%s to tell)",
			 nz->kind == RSP_RUNS ? "" : "runs of ", nz->need,
			 nz->kind == RSP_RUNS ? " runs" : " s");
	return buf;
}

const char *cmp_ratio_text(const struct cmp_row *r, size_t i, char *buf,
			   size_t len)
{
	double x = r->ratio[i];

	buf[0] = 0;
	if (r->unit == RU_COUNT) {
		if (isfinite(r->diff[i]))
			snprintf(buf, len, "%+.0f", r->diff[i]);
		return buf;
	}
	if (!isfinite(x))
		return buf;
	snprintf(buf, len,
		 x < 0.01 ? "%.4f\u00d7" :
		 x < 10	  ? "%.2f\u00d7" :
		 x < 100  ? "%.1f\u00d7" :
			    "%.0f\u00d7",
		 x);
	if (isfinite(r->noise[i].half)) {
		double h = r->noise[i].half;
		size_t l = strlen(buf);

		snprintf(buf + l, len - l,
			 h < 0.01 ? " \u00b1%.4f" :
			 h < 10	  ? " \u00b1%.2f" :
				    " \u00b1%.0f",
			 h);
	}
	if (r->unit == RU_NS || r->unit == RU_MS) {
		double pct = (x - 1) * 100;
		size_t l = strlen(buf);

		snprintf(buf + l, len - l,
			 fabs(pct) < 10 ? " (%+.1f %%)" : " (%+.0f %%)", pct);
	}
	return buf;
}

/* Grow *v (of *cap elements of @size) to hold one more than @n. */
static void grow(void **v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return;
	*cap = *cap ? 2 * *cap : 16;
	*v = xrealloc(*v, *cap * size);
}

/* Rows, settings and findings are matched through maps: linear time. */
static struct cmp_row *row_for(struct cmp *c, struct strmap *map, size_t *cap,
			       const struct rfig *f)
{
	struct cmp_row *r;
	size_t i;

	if (strmap_get(map, f->key, &i))
		return &c->rows[i];
	grow((void **)&c->rows, cap, c->nrows, sizeof(*c->rows));
	strmap_put(map, f->key, c->nrows);
	r = &c->rows[c->nrows++];
	memset(r, 0, sizeof(*r));
	r->key = f->key;
	r->group = f->group;
	r->name = f->name;
	r->unit = f->unit;
	r->better = f->better;
	r->flags = f->flags;
	return r;
}

static void cmp_rows(struct cmp *c)
{
	struct strmap map = { 0 };
	size_t cap = 0;

	for (size_t d = 0; d < c->n; d++)
		for (size_t i = 0; i < c->docs[d]->nfigs; i++) {
			const struct rfig *f = &c->docs[d]->figs[i];

			row_for(c, &map, &cap, f)->f[d] = f;
		}
	strmap_free(&map);
	for (size_t i = 0; i < c->nrows; i++) {
		struct cmp_row *r = &c->rows[i];
		const struct rfig *b = r->f[0];

		for (size_t d = 0; d < c->n; d++) {
			const struct rfig *f = r->f[d];
			bool both = b && f && !b->status && !f->status;

			r->ratio[d] = both && b->value > 0 ?
					      f->value / b->value :
					      NAN;
			r->diff[d] = both ? f->value - b->value : NAN;
			/* Samples of one kind on both sides, or none known. */
			cmp_noise_init(&r->noise[d],
				       d && both && b->spread == f->spread ?
					       b->spread :
					       RSP_NONE,
				       b ? b->samples : NULL,
				       b ? b->nsamples : 0,
				       f ? f->samples : NULL,
				       f ? f->nsamples : 0);
			r->verdict[d] = d && both ?
						cmp_judge(r->unit, r->better,
							  b->value, f->value,
							  c->threshold,
							  &r->noise[d]) :
						CV_NONE;
		}
	}
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static void cmp_settings(struct cmp *c)
{
	struct strmap seen = { 0 };
	size_t cap = 0;

	/* Every key of every document, in order of first appearance. */
	for (size_t d = 0; d < c->n; d++)
		for (size_t i = 0; i < c->docs[d]->nsets; i++) {
			const struct rset *s = &c->docs[d]->sets[i];
			struct cmp_setdiff *x = NULL;
			bool differ = false;

			/* A key is judged once, where it first appears. */
			if (!strmap_put(&seen, s->key, 0))
				continue;
			for (size_t e = 1; e < c->n; e++) {
				const struct rset *a =
					rdoc_find_set(c->docs[0], s->key);
				const struct rset *b =
					rdoc_find_set(c->docs[e], s->key);

				if (!same_str(a ? a->value : NULL,
					      b ? b->value : NULL))
					differ = true;
			}
			if (!differ)
				continue;
			grow((void **)&c->diffs, &cap, c->ndiffs,
			     sizeof(*c->diffs));
			x = &c->diffs[c->ndiffs++];
			memset(x, 0, sizeof(*x));
			x->key = s->key;
			x->label = s->label;
			x->kind = s->kind;
			for (size_t e = 0; e < c->n; e++) {
				const struct rset *v =
					rdoc_find_set(c->docs[e], s->key);

				x->value[e] = v ? v->value : NULL;
			}
		}
	strmap_free(&seen);
}

/* One string per (id, subject): the id's length keeps it unambiguous. */
static char *finding_key(const struct rfinding *f)
{
	return xasprintf("%zu:%s%c%s", strlen(f->id), f->id,
			 f->subject ? '+' : '-', f->subject ? f->subject : "");
}

static void cmp_findings(struct cmp *c)
{
	struct strmap map = { 0 };
	struct strv keys = { 0 };
	size_t cap = 0, j;

	for (size_t d = 0; d < c->n; d++)
		for (size_t i = 0; i < c->docs[d]->nfinds; i++) {
			const struct rfinding *f = &c->docs[d]->finds[i];
			struct cmp_find *x;
			char *key = finding_key(f);

			if (strmap_get(&map, key, &j)) {
				x = &c->finds[j];
				free(key);
			} else {
				grow((void **)&c->finds, &cap, c->nfinds,
				     sizeof(*c->finds));
				grow((void **)&keys.v, &keys.cap, keys.n,
				     sizeof(char *));
				keys.v[keys.n++] = key;
				strmap_put(&map, key, c->nfinds);
				x = &c->finds[c->nfinds++];
				memset(x, 0, sizeof(*x));
				x->f = f;
			}
			x->present[d] = true;
		}
	strmap_free(&map);
	strv_free(&keys);
}

static void cmp_warn_settings(struct cmp *c)
{
	char list[400] = "";
	size_t len = 0;

	for (size_t i = 0; i < c->ndiffs; i++)
		if (c->diffs[i].kind == RS_WORKLOAD && len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						"%s%s", len ? ", " : "",
						c->diffs[i].label);
	if (len)
		warn_add(
			&c->warns, "settings-differ",
			"the inputs were not measured with the same settings (%s): a ratio shows the effect of all of them together",
			list);
	for (size_t d = 0; d < c->n; d++)
		if (c->docs[d]->partial)
			warn_add(
				&c->warns, "partial-input",
				"%c (%s) is a partial result: it was stopped early",
				cmp_letter(d), c->docs[d]->label);
}

bool cmp_build(struct cmp *c, struct rdoc *const *docs, size_t n,
	       double threshold, struct err *err)
{
	memset(c, 0, sizeof(*c));
	if (n < 2 || n > CMP_MAX_DOCS)
		return err_set(err, EXIT_USAGE, 0,
			       "compare takes 2 to %d results; got %zu",
			       CMP_MAX_DOCS, n);
	for (size_t i = 1; i < n; i++)
		if (strcmp(docs[i]->command, docs[0]->command))
			return err_set(
				err, EXIT_USAGE, 0,
				"%s is a '%s' result and %s a '%s' result; compare takes results of one command ('iolab report' puts different commands in one page)",
				docs[0]->path, docs[0]->command, docs[i]->path,
				docs[i]->command);
	c->n = n;
	c->docs = docs;
	c->threshold = threshold;
	cmp_rows(c);
	cmp_settings(c);
	cmp_findings(c);
	cmp_warn_settings(c);
	return true;
}

void cmp_free(struct cmp *c)
{
	free(c->rows);
	free(c->diffs);
	free(c->finds);
	warnings_free(&c->warns);
	memset(c, 0, sizeof(*c));
}
