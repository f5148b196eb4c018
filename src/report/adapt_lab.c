// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab lab --json` to the compare/report model. Written from the schema
 * in issue 8 (lab had not landed when this was written): {"qemu_version",
 * "accel", "cells":[{"bus","format","aio","cache","status":"ok|refused|
 * failed","reason","result":{...as mark...}}]}. One set of heat maps per
 * bus (and image format, when several).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapt.h"
#include "json_read.h"
#include "../util/err.h"
#include "../util/xmem.h"

static const char *str_or(const struct jr_node *n, const char *path,
			  const char *dflt)
{
	const char *s = jr_str(n, path);

	return s ? s : dflt;
}

bool adapt_lab(struct rdoc *d, const struct jr_node *root, struct err *err)
{
	const struct jr_node *cells = jr_get(root, "cells");
	const struct jr_node *o = jr_get(root, "options");
	size_t n = jr_len(cells), nformats = 0;
	const char *formats[8];
	struct adapt_cell *c;
	char buf[64], title[256];
	bool *done, b;

	if (!n)
		return err_set(
			err, EXIT_USAGE, 0,
			"a lab document without \"cells\"; give the output of 'iolab lab --json'");
	rdoc_set(d, RS_ENV, "qemu_version", "QEMU",
		 jr_str(root, "qemu_version"));
	rdoc_set(d, RS_ENV, "accel", "accelerator", jr_str(root, "accel"));
	rdoc_set(d, RS_ENV, "kernel", "guest kernel", jr_str(root, "kernel"));
	rdoc_set(d, RS_WORKLOAD, "preset", "preset", jr_str(o, "preset"));
	rdoc_set(d, RS_WORKLOAD, "runs", "runs per cell",
		 jr_scalar(o, "runs", buf, sizeof(buf)));
	rdoc_set(d, RS_WORKLOAD, "time", "seconds per run",
		 jr_scalar(o, "time_s", buf, sizeof(buf)));
	rdoc_set(d, RS_WORKLOAD, "disk_size", "disk size",
		 adapt_size(o, "disk_size_bytes", buf, sizeof(buf)));
	rdoc_set(d, RS_WORKLOAD, "memory", "guest memory",
		 adapt_size(o, "memory_bytes", buf, sizeof(buf)));
	rdoc_set(d, RS_WORKLOAD, "smp", "guest vCPUs",
		 jr_scalar(o, "smp", buf, sizeof(buf)));
	adapt_warnings(d, jr_get(root, "warnings"));
	if (jr_bool(root, "partial", &b) && b)
		d->partial = true;
	snprintf(title, sizeof(title),
		 "QEMU %s guests (%s), aio x cache x bus, preset %s",
		 str_or(root, "qemu_version", "?"), str_or(root, "accel", "?"),
		 str_or(o, "preset", "custom"));
	d->title = xstrdup(title);

	for (size_t i = 0; i < n; i++) {
		const char *f = str_or(jr_at(cells, i), "format", "raw");
		size_t k;

		for (k = 0; k < nformats && strcmp(formats[k], f); k++)
			;
		if (k == nformats && nformats < 8)
			formats[nformats++] = f;
	}
	c = xcalloc(n, sizeof(*c));
	done = xcalloc(n, sizeof(bool));
	for (size_t i = 0; i < n; i++) {
		const struct jr_node *first = jr_at(cells, i);
		const char *bus = str_or(first, "bus", "?");
		const char *fmt = str_or(first, "format", "raw");
		char prefix[96], key[96];
		size_t m = 0;

		if (done[i])
			continue;
		for (size_t j = i; j < n; j++) {
			const struct jr_node *cell = jr_at(cells, j);

			if (done[j] || strcmp(str_or(cell, "bus", "?"), bus) ||
			    strcmp(str_or(cell, "format", "raw"), fmt))
				continue;
			done[j] = true;
			c[m].engine = str_or(cell, "aio", "?");
			c[m].cache = str_or(cell, "cache", "?");
			c[m].status = jr_str(cell, "status");
			c[m].reason = jr_str(cell, "reason");
			c[m].tests = jr_get(cell, "result.tests");
			m++;
		}
		if (nformats > 1)
			snprintf(prefix, sizeof(prefix), "%s, %s: ", bus, fmt);
		else
			snprintf(prefix, sizeof(prefix), "%s: ", bus);
		snprintf(key, sizeof(key), "%s/%s/", bus, fmt);
		adapt_cells(d, bus, prefix, key, "aio", c, m);
	}
	free(done);
	free(c);
	adapt_recommendation(d, jr_get(root, "recommendation"));
	return true;
}
