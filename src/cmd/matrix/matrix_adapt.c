// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab matrix --json` to the compare/report model, after iolab-matrix(1)
 * of the mark branch (not on main yet): "cells":[{"engine","cache",
 * "status":"ok|refused|failed|not-run","reason","forced","risk",
 * "page_cache_reads","tests":[...as mark...]}], "recommendation":{"text"}.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../adapters.h"
#include "../../report/adapt.h"
#include "../../report/json_read.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

bool adapt_matrix(struct rdoc *d, const struct jr_node *root, struct err *err)
{
	const struct jr_node *cells = jr_get(root, "cells");
	const struct jr_node *o = jr_get(root, "options");
	const struct jr_node *env = jr_get(root, "environment");
	size_t n = jr_len(cells);
	struct adapt_cell *c;
	char title[512], tgt[512];
	bool b;

	if (!n)
		return err_set(
			err, EXIT_USAGE, 0,
			"a matrix document without \"cells\"; give the output of 'iolab matrix --json'");
	adapt_list_setting(d, o, "engines", "engines", "engines");
	adapt_list_setting(d, o, "caches", "caches", "caches");
	adapt_list_setting(d, o, "tests", "tests", "tests");
	adapt_mark_settings(d, o);
	if (jr_bool(o, "force", &b) && b)
		rdoc_set(d, RS_WORKLOAD, "force", "forced", "yes");
	adapt_environment(d, env);
	adapt_warnings(d, jr_get(root, "warnings"));
	if (jr_bool(root, "partial", &b) && b)
		d->partial = true;
	adapt_stopped(d, root);
	snprintf(title, sizeof(title), "engine x cache, preset %s on %s",
		 jr_str(o, "preset") ? jr_str(o, "preset") : "custom",
		 adapt_target(env, tgt, sizeof(tgt)));
	d->title = xstrdup(title);

	c = xcalloc(n, sizeof(*c));
	for (size_t i = 0; i < n; i++) {
		const struct jr_node *cell = jr_at(cells, i);

		c[i].engine = jr_str(cell, "engine") ? jr_str(cell, "engine") :
						       "?";
		c[i].cache = jr_str(cell, "cache") ? jr_str(cell, "cache") :
						     "?";
		c[i].status = jr_str(cell, "status");
		c[i].reason = jr_str(cell, "reason");
		c[i].tests = jr_get(cell, "tests");
		c[i].risk = jr_str(cell, "risk");
		jr_bool(cell, "forced", &c[i].forced);
	}
	adapt_cells(d, "matrix", "", "", "engine", c, n);
	free(c);
	adapt_recommendation(d, jr_get(root, "recommendation"));
	return true;
}
