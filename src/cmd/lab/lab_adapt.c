// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab lab --json` to the compare/report model, after the lab branch's
 * lab_json.c (not on main yet): "qemu_version", "accel", "accel_note",
 * "cells":[{"bus","format","aio","cache","status":"ok|refused|failed",
 * "reason","result":{...a mark document...},"doctor":{...}|null}],
 * "best":{"safe","overall"}. One set of heat maps per bus (and image
 * format, when several), and with several buses a table of them at the
 * best safe setting, as the text report has.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../adapters.h"
#include "../../report/adapt.h"
#include "../../report/json_read.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

static const char *str_or(const struct jr_node *n, const char *path,
			  const char *dflt)
{
	const char *s = jr_str(n, path);

	return s ? s : dflt;
}

/* "best":{"safe":{bus,format,aio,cache,geomean_mbps,risk},"overall"}. */
static void lab_best(struct rdoc *d, const struct jr_node *best)
{
	static const char *const which[] = { "safe", "overall" };
	static const char *const what[] = {
		"Fastest setting that is safe on host power loss",
		"Fastest overall"
	};
	char line[2][512];
	int n = 0;

	if (!best || d->summary)
		return;
	for (int i = 0; i < 2; i++) {
		const struct jr_node *b = jr_get(best, which[i]);
		char mb[32];

		if (!b)
			continue;
		snprintf(
			line[n++], sizeof(line[0]),
			"%s: %s, %s, aio=%s, cache=%s (geometric mean %s MB/s%s%s)",
			what[i], str_or(b, "bus", "?"),
			str_or(b, "format", "?"), str_or(b, "aio", "?"),
			str_or(b, "cache", "?"),
			rfmt(RU_MBPS, jr_numd(b, "geomean_mbps", NAN), mb,
			     sizeof(mb)),
			jr_str(b, "risk") ? "; loses " : "",
			jr_str(b, "risk") ? jr_str(b, "risk") : "");
	}
	if (n == 1)
		d->summary = xstrdup(line[0]);
	else if (n == 2)
		d->summary = xasprintf("%s\n%s", line[0], line[1]);
}

/*
 * lab --doctor embeds what doctor saw inside each guest: the disk as the
 * guest sees it (the write cache differs by cache mode) and its findings.
 */
static void lab_doctor(struct rdoc *d, const struct jr_node *cells)
{
	static const char *const head[] = { "bus",	"aio",
					    "cache",	"guest disk",
					    "driver",	"write cache",
					    "findings", "most severe" };
	struct rtable *t = NULL;

	for (size_t i = 0; i < jr_len(cells); i++) {
		const struct jr_node *c = jr_at(cells, i);
		const struct jr_node *doc = jr_get(c, "doctor");
		const struct jr_node *disk = jr_at(jr_get(doc, "disks"), 0);
		const struct jr_node *fs = jr_get(doc, "findings");
		const char *top = NULL;
		int best = 0;
		char counts[64];

		if (!doc)
			continue;
		if (!t)
			t = rdoc_table(
				d, "doctor",
				"What iolab doctor saw inside each guest", 8,
				head);
		for (size_t k = 0; k < jr_len(fs); k++) {
			int r = rdoc_severity_rank(
				jr_str(jr_at(fs, k), "severity"));

			if (r > best) {
				best = r;
				top = jr_str(jr_at(fs, k), "id");
			}
		}
		snprintf(counts, sizeof(counts), "%.0f critical, %.0f warning",
			 jr_numd(doc, "summary.critical", 0),
			 jr_numd(doc, "summary.warning", 0));
		{
			const char *row[8] = {
				str_or(c, "bus", ""),
				str_or(c, "aio", ""),
				str_or(c, "cache", ""),
				str_or(disk, "name", ""),
				str_or(disk, "driver", ""),
				str_or(disk, "write_cache", ""),
				counts,
				top ? top : "",
			};

			rtable_row(t, row);
		}
	}
}

/* The cell of @bus at @ref's format, aio and cache, or NULL. */
static const struct jr_node *cell_at(const struct jr_node *cells,
				     const char *bus, const struct jr_node *ref)
{
	static const char *const keys[] = { "format", "aio", "cache" };

	for (size_t i = 0; i < jr_len(cells); i++) {
		const struct jr_node *c = jr_at(cells, i);
		bool same = !strcmp(str_or(c, "bus", "?"), bus);

		for (int k = 0; same && k < 3; k++)
			same = !strcmp(str_or(c, keys[k], k ? "?" : "raw"),
				       str_or(ref, keys[k], k ? "?" : "raw"));
		if (same)
			return c;
	}
	return NULL;
}

/*
 * With several buses, the text report's comparison: each bus at the best
 * safe setting ("best.safe": its format, aio and cache), Read and Write
 * MB/s per test, as tables. Heat maps show every setting; this answers
 * "which bus" at the setting one would pick.
 */
static void lab_buses(struct rdoc *d, const struct jr_node *cells,
		      const struct jr_node *ref)
{
	static const char *const dirs[] = { "read", "write" };
	static const char *const dir_names[] = { "Read", "Write" };
	const char *buses[16], *head[1 + 16];
	const struct jr_node *tests = NULL;
	size_t nbus = 0, ntests;

	if (!ref)
		return;
	for (size_t i = 0; i < jr_len(cells); i++) {
		const char *b = str_or(jr_at(cells, i), "bus", "?");
		size_t k;

		for (k = 0; k < nbus && strcmp(buses[k], b); k++)
			;
		if (k == nbus && nbus < 16)
			buses[nbus++] = b;
	}
	for (size_t k = 0; k < nbus && !tests; k++) {
		const struct jr_node *c = cell_at(cells, buses[k], ref);

		if (c && jr_len(jr_get(c, "result.tests")))
			tests = jr_get(c, "result.tests");
	}
	if (nbus < 2 || !tests)
		return;
	ntests = jr_len(tests) < 16 ? jr_len(tests) : 16;
	head[0] = "bus";
	for (size_t t = 0; t < ntests; t++)
		head[1 + t] = str_or(jr_at(tests, t), "name", "?");
	for (int dir = 0; dir < 2; dir++) {
		char title[256];
		struct rtable *tb;

		snprintf(title, sizeof(title),
			 "Buses compared at aio=%s cache=%s, %s image: %s MB/s",
			 str_or(ref, "aio", "?"), str_or(ref, "cache", "?"),
			 str_or(ref, "format", "raw"), dir_names[dir]);
		tb = rdoc_table(d, "buses", title, 1 + ntests, head);
		for (size_t k = 0; k < nbus; k++) {
			const struct jr_node *c = cell_at(cells, buses[k], ref);
			const struct jr_node *ct = jr_get(c, "result.tests");
			bool ok = c && !strcmp(str_or(c, "status", "ok"), "ok");
			char vals[16][32];
			const char *row[1 + 16];

			row[0] = buses[k];
			for (size_t t = 0; t < ntests; t++) {
				const struct jr_node *x = NULL;
				double v = NAN;

				for (size_t j = 0; ok && j < jr_len(ct); j++)
					if (!strcmp(str_or(jr_at(ct, j), "name",
							   ""),
						    head[1 + t]))
						x = jr_at(ct, j);
				if (x && jr_get(x, dirs[dir]))
					v = adapt_headline(jr_get(x, dirs[dir]),
							   "mbps");
				row[1 + t] = isfinite(v) ? rfmt(RU_MBPS, v,
								vals[t], 32) :
							   "-";
			}
			rtable_row(tb, row);
		}
	}
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
	rdoc_set(d, RS_ENV, "kernel", "guest kernel",
		 jr_str(o, "kernel_release") ? jr_str(o, "kernel_release") :
		 jr_str(o, "kernel")	     ? jr_str(o, "kernel") :
					       jr_str(root, "kernel"));
	rdoc_set(d, RS_ENV, "qemu", "QEMU binary", jr_str(o, "qemu"));
	rdoc_set(d, RS_WORKLOAD, "suite", "suite", jr_str(o, "suite"));
	adapt_list_setting(d, o, "buses", "buses", "buses");
	adapt_list_setting(d, o, "formats", "formats", "image formats");
	adapt_list_setting(d, o, "aios", "aios", "aio");
	adapt_list_setting(d, o, "caches", "caches", "caches");
	adapt_list_setting(d, o, "tests", "tests", "tests");
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
	if (jr_str(root, "accel_note"))
		warn_add(&d->warns, "accel", "%s", jr_str(root, "accel_note"));
	if (jr_bool(root, "partial", &b) && b)
		d->partial = true;
	snprintf(title, sizeof(title),
		 "QEMU %s guests (%s), aio x cache x bus, %s",
		 str_or(root, "qemu_version", "?"), str_or(root, "accel", "?"),
		 str_or(o, "suite", str_or(o, "preset", "custom suite")));
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
	lab_best(d, jr_get(root, "best"));
	lab_buses(d, cells, jr_get(root, "best.safe"));
	lab_doctor(d, cells);
	return true;
}
