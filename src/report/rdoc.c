// SPDX-License-Identifier: GPL-2.0-or-later
/* The neutral compare/report model: building and freeing; see rdoc.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdoc.h"
#include "../util/parse.h"
#include "../util/xmem.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* Grow *v (of *cap elements of @size) to hold one more than @n. */
static void grow(void **v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return;
	*cap = *cap ? 2 * *cap : 8;
	*v = xrealloc(*v, *cap * size);
}

struct rdoc *rdoc_new(const char *command)
{
	struct rdoc *d = xcalloc(1, sizeof(*d));

	d->command = xstrdup(command);
	return d;
}

static void bars_free(struct rbars *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->b[i].label);
		free(b->b[i].note);
		free(b->b[i].status);
	}
	free(b->b);
	free(b->title);
	free(b->subtitle);
}

static void heat_free(struct rheat *h)
{
	free(h->scale);
	for (size_t r = 0; r < h->nrows; r++) {
		free(h->rows[r]);
		if (h->extra)
			free(h->extra[r]);
	}
	for (size_t c = 0; c < h->ncols; c++)
		free(h->cols[c]);
	for (size_t i = 0; i < h->nrows * h->ncols; i++) {
		free(h->cells[i].status);
		free(h->cells[i].flag);
		free(h->cells[i].key);
	}
	for (size_t i = 0; i < h->nnotes; i++)
		free(h->notes[i]);
	free(h->rows);
	free(h->cols);
	free(h->extra);
	free(h->extra_head);
	free(h->cells);
	free(h->notes);
	free(h->title);
	free(h->corner);
}

static void line_free(struct rline *l)
{
	for (size_t i = 0; i < l->ns; i++) {
		free(l->s[i].name);
		free(l->s[i].x);
		free(l->s[i].y);
	}
	for (size_t i = 0; i < l->nm; i++)
		free(l->m[i].label);
	for (size_t i = 0; i < l->nd; i++)
		free(l->d[i].label);
	free(l->s);
	free(l->m);
	free(l->d);
	free(l->title);
	free(l->xlabel);
	free(l->ylabel);
	free(l->y2label);
}

static void table_free(struct rtable *t)
{
	for (size_t i = 0; i < t->ncols; i++)
		free(t->head[i]);
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->head);
	free(t->cells);
	free(t->title);
}

void rdoc_free(struct rdoc *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nfigs; i++) {
		free(d->figs[i].key);
		free(d->figs[i].group);
		free(d->figs[i].name);
		free(d->figs[i].status);
		free(d->figs[i].samples);
	}
	for (size_t i = 0; i < d->nsets; i++) {
		free(d->sets[i].key);
		free(d->sets[i].label);
		free(d->sets[i].value);
	}
	for (size_t i = 0; i < d->nfinds; i++) {
		struct rfinding *f = &d->finds[i];

		free(f->severity);
		free(f->id);
		free(f->subject);
		free(f->message);
		free(f->why);
		free(f->fix);
		free(f->commands);
		for (size_t k = 0; k < f->nhosts; k++) {
			free(f->hosts[k].where);
			free(f->hosts[k].what);
		}
		free(f->hosts);
	}
	for (size_t i = 0; i < d->ncharts; i++) {
		struct rchart *c = d->charts[i];

		switch (c->kind) {
		case RC_BARS:
			bars_free(&c->bars);
			break;
		case RC_HEAT:
			heat_free(&c->heat);
			break;
		case RC_LINE:
			line_free(&c->line);
			break;
		case RC_TABLE:
			table_free(&c->table);
			break;
		}
		free(c->section);
		free(c);
	}
	free(d->charts);
	strmap_free(&d->figmap);
	strmap_free(&d->setmap);
	strmap_free(&d->linemap);
	strmap_free(&d->heatmap);
	free(d->figs);
	free(d->sets);
	free(d->finds);
	warnings_free(&d->warns);
	free(d->path);
	free(d->label);
	free(d->command);
	free(d->tool_version);
	free(d->title);
	free(d->summary);
	free(d);
}

const struct rfig *rdoc_find_fig(const struct rdoc *d, const char *key)
{
	size_t i;

	return strmap_get(&d->figmap, key, &i) ? &d->figs[i] : NULL;
}

void rdoc_fig_samples(struct rdoc *d, const char *key, enum rspread kind,
		      const double *v, size_t n)
{
	struct rfig *f;
	size_t i, m = 0;

	if (!strmap_get(&d->figmap, key, &i))
		return;
	f = &d->figs[i];
	free(f->samples);
	f->samples = NULL;
	f->nsamples = 0;
	f->spread = RSP_NONE;
	for (size_t k = 0; k < n; k++)
		m += isfinite(v[k]);
	if (m < 2 || kind == RSP_NONE)
		return;
	f->samples = xcalloc(m, sizeof(double));
	for (size_t k = 0; k < n; k++)
		if (isfinite(v[k]))
			f->samples[f->nsamples++] = v[k];
	f->spread = kind;
}

static struct rfig *fig_push(struct rdoc *d, const char *key, const char *group,
			     const char *name, enum runit unit,
			     enum rbetter better)
{
	struct rfig *f;

	if (rdoc_find_fig(d, key))
		return NULL;
	grow((void **)&d->figs, &d->capfigs, d->nfigs, sizeof(*d->figs));
	f = &d->figs[d->nfigs++];
	memset(f, 0, sizeof(*f));
	f->key = xstrdup(key);
	strmap_put(&d->figmap, f->key, d->nfigs - 1);
	f->group = xstrdup(group ? group : "");
	f->name = xstrdup(name);
	f->unit = unit;
	f->better = better;
	f->value = NAN;
	return f;
}

void rdoc_fig(struct rdoc *d, const char *key, const char *group,
	      const char *name, enum runit unit, enum rbetter better,
	      double value, unsigned int flags)
{
	struct rfig *f;

	/* A figure the document does not carry is left out, not shown 0. */
	if (!isfinite(value))
		return;
	f = fig_push(d, key, group, name, unit, better);
	if (!f)
		return;
	f->value = value;
	f->flags = flags;
}

void rdoc_fig_status(struct rdoc *d, const char *key, const char *group,
		     const char *name, enum runit unit, enum rbetter better,
		     const char *status)
{
	struct rfig *f = fig_push(d, key, group, name, unit, better);

	if (f)
		f->status = xstrdup(status);
}

const struct rset *rdoc_find_set(const struct rdoc *d, const char *key)
{
	size_t i;

	return strmap_get(&d->setmap, key, &i) ? &d->sets[i] : NULL;
}

void rdoc_set(struct rdoc *d, enum rset_kind kind, const char *key,
	      const char *label, const char *value)
{
	struct rset *s;

	if (!value || !*value || rdoc_find_set(d, key))
		return;
	grow((void **)&d->sets, &d->capsets, d->nsets, sizeof(*d->sets));
	s = &d->sets[d->nsets++];
	s->key = xstrdup(key);
	strmap_put(&d->setmap, s->key, d->nsets - 1);
	s->label = xstrdup(label);
	s->value = xstrdup(value);
	s->kind = kind;
	s->detail = false;
}

void rdoc_set_detail(struct rdoc *d, const char *key, const char *label,
		     const char *value)
{
	size_t n = d->nsets;

	rdoc_set(d, RS_ENV, key, label, value);
	if (d->nsets > n)
		d->sets[n].detail = true;
}

int rdoc_severity_rank(const char *severity)
{
	if (!severity)
		return 1;
	if (!strcmp(severity, "critical") || !strcmp(severity, "error"))
		return 3;
	if (!strcmp(severity, "warning"))
		return 2;
	return 1;
}

void rdoc_finding(struct rdoc *d, const char *severity, const char *id,
		  const char *subject, const char *message, const char *why,
		  const char *fix)
{
	struct rfinding *f;

	grow((void **)&d->finds, &d->capfinds, d->nfinds, sizeof(*d->finds));
	f = &d->finds[d->nfinds++];
	f->rank = rdoc_severity_rank(severity);
	f->severity = xstrdup(severity ? severity : "info");
	f->id = xstrdup(id ? id : "");
	f->subject = dup_or_null(subject);
	f->message = xstrdup(message ? message : "");
	f->why = dup_or_null(why);
	f->fix = dup_or_null(fix);
	f->fix_prose = false;
	f->commands = NULL;
	f->hosts = NULL;
	f->nhosts = 0;
}

void rdoc_finding_commands(struct rdoc *d, const char *commands)
{
	struct rfinding *f = d->nfinds ? &d->finds[d->nfinds - 1] : NULL;

	if (!f || !commands || !*commands)
		return;
	free(f->commands);
	f->commands = xstrdup(commands);
}

void rdoc_finding_where(struct rdoc *d, const char *where, const char *what)
{
	struct rfinding *f = d->nfinds ? &d->finds[d->nfinds - 1] : NULL;

	if (!f || !what || !*what)
		return;
	f->hosts = xrealloc(f->hosts, (f->nhosts + 1) * sizeof(*f->hosts));
	f->hosts[f->nhosts].where = xstrdup(where);
	f->hosts[f->nhosts].what = xstrdup(what);
	f->nhosts++;
}

static struct rchart *chart_push(struct rdoc *d, enum rchart_kind kind,
				 const char *section)
{
	struct rchart *c = xcalloc(1, sizeof(*c));

	c->kind = kind;
	c->section = xstrdup(section ? section : "");
	grow((void **)&d->charts, &d->capcharts, d->ncharts, sizeof(c));
	d->charts[d->ncharts++] = c;
	return c;
}

struct rbars *rdoc_bars(struct rdoc *d, const char *section, const char *title,
			enum runit unit)
{
	struct rchart *c = chart_push(d, RC_BARS, section);

	c->bars.title = xstrdup(title);
	c->bars.unit = unit;
	return &c->bars;
}

void rbars_add(struct rbars *b, const char *label, double v, double lo,
	       double hi, double mean, const char *note, const char *status)
{
	struct rbar *r;

	b->b = xrealloc(b->b, (b->n + 1) * sizeof(*b->b));
	r = &b->b[b->n++];
	r->label = xstrdup(label);
	r->v = v;
	r->lo = lo;
	r->hi = hi;
	r->mean = mean;
	r->note = dup_or_null(note);
	r->status = dup_or_null(status);
}

struct rheat *rdoc_heat(struct rdoc *d, const char *section, const char *title,
			enum runit unit, const char *corner, size_t nrows,
			const char *const *rows, size_t ncols,
			const char *const *cols)
{
	struct rchart *c = chart_push(d, RC_HEAT, section);
	struct rheat *h = &c->heat;

	h->title = xstrdup(title);
	strmap_put(&d->heatmap, h->title, d->ncharts - 1);
	h->unit = unit;
	h->corner = xstrdup(corner ? corner : "");
	h->nrows = nrows;
	h->ncols = ncols;
	h->rows = xcalloc(nrows ? nrows : 1, sizeof(char *));
	h->cols = xcalloc(ncols ? ncols : 1, sizeof(char *));
	for (size_t r = 0; r < nrows; r++)
		h->rows[r] = xstrdup(rows[r]);
	for (size_t i = 0; i < ncols; i++)
		h->cols[i] = xstrdup(cols[i]);
	h->cells = xcalloc(nrows * ncols > 0 ? nrows * ncols : 1,
			   sizeof(*h->cells));
	for (size_t i = 0; i < nrows * ncols; i++)
		h->cells[i].v = NAN;
	return h;
}

const struct rline *rdoc_find_line(const struct rdoc *d, const char *title)
{
	size_t i;

	return strmap_get(&d->linemap, title, &i) ? &d->charts[i]->line : NULL;
}

const struct rheat *rdoc_find_heat(const struct rdoc *d, const char *title)
{
	size_t i;

	return strmap_get(&d->heatmap, title, &i) ? &d->charts[i]->heat : NULL;
}

struct rcell *rheat_cell(struct rheat *h, size_t row, size_t col)
{
	return &h->cells[row * h->ncols + col];
}

void rheat_note(struct rheat *h, size_t row, size_t col, const char *text)
{
	size_t i;

	for (i = 0; i < h->nnotes; i++)
		if (!strcmp(h->notes[i], text))
			break;
	if (i == h->nnotes) {
		h->notes = xrealloc(h->notes, (h->nnotes + 1) * sizeof(char *));
		h->notes[h->nnotes++] = xstrdup(text);
	}
	rheat_cell(h, row, col)->note = (int)i + 1;
}

void rheat_extra(struct rheat *h, const char *head, size_t row,
		 const char *text)
{
	if (!h->extra) {
		h->extra = xcalloc(h->nrows ? h->nrows : 1, sizeof(char *));
		h->extra_head = xstrdup(head);
	}
	free(h->extra[row]);
	h->extra[row] = dup_or_null(text);
}

struct rline *rdoc_line(struct rdoc *d, const char *section, const char *title,
			const char *xlabel, enum runit xunit,
			enum rscale xscale, const char *ylabel,
			enum runit yunit, enum rscale yscale)
{
	struct rchart *c = chart_push(d, RC_LINE, section);
	struct rline *l = &c->line;

	l->title = xstrdup(title);
	strmap_put(&d->linemap, l->title, d->ncharts - 1);
	l->xlabel = xstrdup(xlabel);
	l->ylabel = xstrdup(ylabel);
	l->xunit = xunit;
	l->yunit = yunit;
	l->xscale = xscale;
	l->yscale = yscale;
	return l;
}

void rline_series(struct rline *l, const char *name, int axis, bool dashed,
		  size_t n, const double *x, const double *y)
{
	struct rseries *s;

	l->s = xrealloc(l->s, (l->ns + 1) * sizeof(*l->s));
	s = &l->s[l->ns++];
	s->name = xstrdup(name);
	s->axis = axis;
	s->dashed = dashed;
	s->n = n;
	s->x = xmalloc((n ? n : 1) * sizeof(double));
	s->y = xmalloc((n ? n : 1) * sizeof(double));
	if (n) {
		memcpy(s->x, x, n * sizeof(double));
		memcpy(s->y, y, n * sizeof(double));
	}
}

void rline_y2(struct rline *l, const char *label, enum runit unit,
	      enum rscale scale)
{
	free(l->y2label);
	l->y2label = xstrdup(label);
	l->y2unit = unit;
	l->y2scale = scale;
}

void rline_mark(struct rline *l, char axis, double v, const char *label)
{
	l->m = xrealloc(l->m, (l->nm + 1) * sizeof(*l->m));
	l->m[l->nm].axis = axis;
	l->m[l->nm].v = v;
	l->m[l->nm].label = dup_or_null(label);
	l->nm++;
}

void rline_dot(struct rline *l, int axis, double x, double y, const char *label)
{
	l->d = xrealloc(l->d, (l->nd + 1) * sizeof(*l->d));
	l->d[l->nd].axis = axis;
	l->d[l->nd].x = x;
	l->d[l->nd].y = y;
	l->d[l->nd].label = dup_or_null(label);
	l->nd++;
}

struct rtable *rdoc_table(struct rdoc *d, const char *section,
			  const char *title, size_t ncols,
			  const char *const *head)
{
	struct rchart *c = chart_push(d, RC_TABLE, section);
	struct rtable *t = &c->table;

	t->title = dup_or_null(title);
	t->ncols = ncols;
	t->head = xcalloc(ncols, sizeof(char *));
	for (size_t i = 0; i < ncols; i++)
		t->head[i] = xstrdup(head[i]);
	return t;
}

void rtable_row(struct rtable *t, const char *const *cells)
{
	t->cells =
		xrealloc(t->cells, (t->nrows + 1) * t->ncols * sizeof(char *));
	for (size_t i = 0; i < t->ncols; i++)
		t->cells[t->nrows * t->ncols + i] = dup_or_null(cells[i]);
	t->nrows++;
}

const char *runit_label(enum runit u)
{
	switch (u) {
	case RU_IOPS:
		return "IOPS";
	case RU_MBPS:
		return "MB/s";
	case RU_MS:
		return "ms";
	case RU_US:
		return "us";
	case RU_LOAD:
		return "in flight";
	case RU_PCT:
		return "%";
	case RU_NS: /* printed with its own scale */
	case RU_COUNT:
	case RU_NONE:
		break;
	}
	return "";
}

const char *rfmt(enum runit u, double v, char *buf, size_t len)
{
	double a = fabs(v);

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (v == 0 && u != RU_NS) {
		snprintf(buf, len, "0");
		return buf;
	}
	switch (u) {
	case RU_NS:
		return fmt_ns(v, buf, len);
	case RU_MBPS:
	case RU_MS:
		snprintf(buf, len,
			 a < 1	  ? "%.3f" :
			 a < 10	  ? "%.2f" :
			 a < 1000 ? "%.1f" :
				    "%.0f",
			 v);
		break;
	case RU_US:
	case RU_PCT:
		snprintf(buf, len, a < 10 ? "%.2f" : "%.1f", v);
		break;
	case RU_IOPS:
		snprintf(buf, len,
			 a < 10	 ? "%.2f" :
			 a < 100 ? "%.1f" :
				   "%.0f",
			 v);
		break;
	case RU_COUNT:
	case RU_LOAD:
		snprintf(buf, len, "%.0f", v);
		break;
	case RU_NONE:
		snprintf(buf, len, "%g", v);
		break;
	}
	return buf;
}

const char *rfmt_unit(enum runit u, double v, char *buf, size_t len)
{
	const char *l = runit_label(u);
	char num[48];

	if (u == RU_NS || u == RU_COUNT || u == RU_NONE || !*l || !isfinite(v))
		return rfmt(u, v, buf, len);
	if (u == RU_LOAD)
		snprintf(buf, len, "%s %s", rfmt(u, v, num, sizeof(num)), l);
	else if (u == RU_PCT)
		snprintf(buf, len, "%s %%", rfmt(u, v, num, sizeof(num)));
	else
		snprintf(buf, len, "%s %s", rfmt(u, v, num, sizeof(num)), l);
	return buf;
}
