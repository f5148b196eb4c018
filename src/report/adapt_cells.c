// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine x cache tables that matrix and lab share, as heat maps; see
 * adapt_cells() in adapt.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/result.h"
#include "adapt.h"
#include "json_read.h"
#include "../core/job.h"
#include "../util/parse.h"
#include "../util/xmem.h"

/* What a cache mode loses on host power loss, in the core's words. */
static const char *risk_of(const char *cache)
{
	int c = cache ? parse_choice(cache, cache_names) : -1;

	return c < 0 ? NULL : cache_risk((enum cache_mode)c);
}

/* Add @s to @v (of *n) unless present; returns its index. */
static size_t intern(char ***v, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return i;
	*v = xrealloc(*v, (*n + 1) * sizeof(char *));
	(*v)[*n] = xstrdup(s);
	return (*n)++;
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static const struct jr_node *find_test(const struct jr_node *tests,
				       const char *name)
{
	for (size_t i = 0; i < jr_len(tests); i++) {
		char buf[64];

		if (!strcmp(adapt_test_name(jr_at(tests, i), buf, sizeof(buf)),
			    name))
			return jr_at(tests, i);
	}
	return NULL;
}

static bool cell_ok(const struct adapt_cell *c)
{
	return !c->status || !strcmp(c->status, "ok");
}

/* "not-run" reads better as "not run" in a table. */
static const char *status_text(const char *s)
{
	return !strcmp(s, "not-run") ? "not run" : s;
}

/* One MB/s figure per cell, test and direction, grouped by cell. */
static void cell_figs(struct rdoc *d, const char *title_prefix,
		      const char *key_prefix, const struct adapt_cell *c,
		      char **cols, size_t ncols, const bool *has_dir)
{
	char key[256], group[160], name[160];

	snprintf(group, sizeof(group), "%s%s %s", title_prefix, c->engine,
		 c->cache);
	for (size_t j = 0; j < ncols; j++)
		for (int k = 0; suite_dir_names[k]; k++) {
			const struct jr_node *dir =
				jr_get(find_test(c->tests, cols[j]),
				       suite_dir_names[k]);

			if (!has_dir[k])
				continue;
			snprintf(key, sizeof(key), "%s%s/%s/%s/%s/mbps",
				 key_prefix, c->engine, c->cache, cols[j],
				 suite_dir_names[k]);
			snprintf(name, sizeof(name), "%s %s MB/s", cols[j],
				 suite_dir_names[k]);
			if (!cell_ok(c)) {
				rdoc_fig_status(d, key, group, name, RU_MBPS,
						RB_HIGHER,
						status_text(c->status));
				continue;
			}
			rdoc_fig(d, key, group, name, RU_MBPS, RB_HIGHER,
				 adapt_headline(dir, "mbps"), 0);
			adapt_dir_mbps_samples(d, key, dir);
		}
}

static void heat_dir(struct rdoc *d, const char *section,
		     const char *title_prefix, const char *key_prefix,
		     const char *engine_head, const struct adapt_cell *cells,
		     size_t n, char **rows, size_t nrows, char **cols,
		     size_t ncols, int k)
{
	char title[160], corner[64];
	struct rheat *h;

	snprintf(title, sizeof(title), "%s%s, MB/s", title_prefix,
		 suite_dir_labels[k]);
	snprintf(corner, sizeof(corner), "%s\tcache", engine_head);
	h = rdoc_heat(d, section, title, RU_MBPS, corner, nrows,
		      (const char *const *)rows, ncols,
		      (const char *const *)cols);
	for (size_t i = 0; i < n; i++) {
		const struct adapt_cell *c = &cells[i];

		rheat_extra(h, "risk on host power loss", i,
			    c->risk ? c->risk : risk_of(c->cache));
		for (size_t j = 0; j < ncols; j++) {
			struct rcell *rc = rheat_cell(h, i, j);
			const struct jr_node *t = find_test(c->tests, cols[j]);
			const struct jr_node *dir =
				jr_get(t, suite_dir_names[k]);

			/* The figure cell_figs() made of it: compare's view
			 * colours the cell by that figure's verdict. */
			rc->key = xasprintf("%s%s/%s/%s/%s/mbps", key_prefix,
					    c->engine, c->cache, cols[j],
					    suite_dir_names[k]);
			if (!cell_ok(c)) {
				rc->status = xstrdup(status_text(c->status));
				if (c->reason)
					rheat_note(h, i, j, c->reason);
				continue;
			}
			rc->v = adapt_headline(dir, "mbps");
			if (c->forced)
				rc->flag = xstrdup("forced: QEMU refuses");
			else if (adapt_page_cache(dir))
				rc->flag = xstrdup("page cache");
		}
	}
}

void adapt_cells(struct rdoc *d, const char *section, const char *title_prefix,
		 const char *key_prefix, const char *engine_head,
		 const struct adapt_cell *cells, size_t n)
{
	char **rows = xcalloc(n ? n : 1, sizeof(char *)), **cols = NULL;
	size_t ncols = 0;
	bool has_dir[3];

	for (size_t i = 0; i < n; i++) {
		char row[96];

		/* A tab splits the label into the engine and cache columns. */
		snprintf(row, sizeof(row), "%s\t%s", cells[i].engine,
			 cells[i].cache);
		rows[i] = xstrdup(row);
		for (size_t t = 0; t < jr_len(cells[i].tests); t++) {
			char buf[64];

			intern(&cols, &ncols,
			       adapt_test_name(jr_at(cells[i].tests, t), buf,
					       sizeof(buf)));
		}
	}
	for (int k = 0; suite_dir_names[k]; k++) {
		has_dir[k] = false;
		for (size_t i = 0; i < n && !has_dir[k]; i++)
			for (size_t t = 0; t < jr_len(cells[i].tests); t++)
				if (jr_get(jr_at(cells[i].tests, t),
					   suite_dir_names[k]))
					has_dir[k] = true;
	}
	for (size_t i = 0; i < n; i++)
		cell_figs(d, title_prefix, key_prefix, &cells[i], cols, ncols,
			  has_dir);
	for (int k = 0; suite_dir_names[k]; k++)
		if (has_dir[k])
			heat_dir(d, section, title_prefix, key_prefix,
				 engine_head, cells, n, rows, n, cols, ncols,
				 k);
	free_strs(rows, n);
	free_strs(cols, ncols);
}

void adapt_recommendation(struct rdoc *d, const struct jr_node *rec)
{
	const char *safe, *fast;
	char *s;

	if (!rec)
		return;
	if (jr_str(rec, "")) {
		d->summary = xstrdup(jr_str(rec, ""));
		return;
	}
	safe = jr_str(rec, "safe.text");
	fast = jr_str(rec, "fastest.text");
	if (!safe && !fast)
		safe = jr_str(rec, "text");
	if (!safe && !fast && jr_len(jr_get(rec, "text"))) {
		/* mark's matrix: the lines of its closing recommendation. */
		const struct jr_node *t = jr_get(rec, "text");
		size_t len = 0, cap = 1;

		for (size_t i = 0; i < jr_len(t); i++)
			cap += strlen(jr_str(jr_at(t, i), "") ?: "") + 1;
		s = xmalloc(cap);
		s[0] = 0;
		for (size_t i = 0; i < jr_len(t); i++) {
			const char *line = jr_str(jr_at(t, i), "");

			if (!line)
				continue;
			len += (size_t)snprintf(s + len, cap - len, "%s%s",
						len ? "\n" : "", line);
		}
		free(d->summary);
		d->summary = s;
		return;
	}
	if (!safe && !fast)
		return;
	s = xasprintf("%s%s%s", safe ? safe : "", safe && fast ? "\n" : "",
		      fast ? fast : "");
	free(d->summary);
	d->summary = s;
}
