// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab lab --json`: {"command":"lab", "qemu_version", "accel", "cells":
 * [{"bus","format","aio","cache","status","reason","result":{...as
 * mark...}}], "best":{...}}. Each cell's "result" is the guest's own JSON
 * document, embedded as it came.
 */
#include <stdlib.h>
#include <string.h>

#include "../../report/json_util.h"
#include "lab_report.h"
#include "lab_host.h"
#include "../../util/xmem.h"

static json_t *jembedded(const char *text)
{
	json_t *v;

	if (!text)
		return json_null();
	v = json_loads(text, 0, NULL);
	return v ? v : json_null();
}

/*
 * QEMU's stderr and the guest console are bytes from other programs: keep
 * them verbatim where they are UTF-8, put U+FFFD where they are not (a
 * console tail cut inside a character, a path in another encoding).
 */
static json_t *jtext(const char *s)
{
	size_t n = strlen(s), o = 0;
	char *buf = xmalloc(n * 3 + 1);
	json_t *v;

	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t len = c < 0x80	    ? 1 :
			     (c >> 5) == 6  ? 2 :
			     (c >> 4) == 14 ? 3 :
			     (c >> 3) == 30 ? 4 :
					      0;
		bool good = len && i + len <= n;

		for (size_t k = 1; good && k < len; k++)
			good = ((unsigned char)s[i + k] >> 6) == 2;
		if (good) {
			memcpy(buf + o, s + i, len);
			o += len;
			i += len;
		} else {
			memcpy(buf + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	buf[o] = '\0';
	v = json_string(buf);
	free(buf);
	return v ? v : json_string("");
}

static json_t *jstr_or_null(const char *s)
{
	return s && *s ? jtext(s) : json_null();
}

static json_t *jbest(const struct lab_report *r, bool safe)
{
	double score;
	long i = lab_best(r, -1, -1, safe, &score);
	const struct lab_cell *c;
	json_t *o;

	if (i < 0)
		return json_null();
	c = &r->cells[i];
	o = json_pack("{s:s, s:s, s:s, s:s}", "bus", lab_bus_names[c->bus],
		      "format", lab_format_names[c->format], "aio",
		      engine_name(c->aio), "cache", cache_name(c->cache));
	jset_real(o, "geomean_mbps", score, 3);
	json_object_set_new(o, "risk", json_string(cache_risk(c->cache)));
	return o;
}

/* The mark suite the guests run: not with --check (its profile says). */
static void suite_options(json_t *opts, const struct lab_suite *s)
{
	json_t *a;

	json_object_set_new(opts, "preset", jstr_or_null(lab_suite_preset(s)));
	a = json_array();
	for (unsigned int i = 0; i < lab_suite_ntests(s); i++) {
		char name[32];

		json_array_append_new(a, json_string(lab_suite_test_name(
						 s, i, name, sizeof(name))));
	}
	json_object_set_new(opts, "tests", a);
	json_object_set_new(opts, "procedure",
			    json_string(lab_suite_spec(s)->procedure ==
							MARK_FIXED ?
						"crystaldiskmark" :
						"precision"));
	json_object_set_new(opts, "runs",
			    lab_suite_spec(s)->procedure == MARK_FIXED ?
				    json_integer(lab_suite_runs(s)) :
				    json_null());
	if (lab_suite_spec(s)->procedure == MARK_PRECISION) {
		jset_real(opts, "precision_pct",
			  100 * lab_suite_spec(s)->precision, 3);
		jset_real(opts, "max_time_s",
			  (double)lab_suite_spec(s)->max_ns / 1e9, 3);
	}
	jset_real(opts, "time_s", (double)lab_suite_time_ns(s) / 1e9, 3);
}

bool lab_json_write(const struct lab_report *r, FILE *f, struct err *err)
{
	json_t *doc = jdoc_new("lab", r->argc, r->argv), *cells = json_array();
	json_t *opts = json_object(), *best = json_object();

	if (r->opts) {
		const struct lab_opts *o = r->opts;
		const struct lab_suite *s = &o->suite;
		json_t *a;

		a = json_array();
		for (unsigned int i = 0; i < o->nbus; i++)
			json_array_append_new(
				a, json_string(lab_bus_names[o->buses[i]]));
		json_object_set_new(opts, "buses", a);
		a = json_array();
		for (unsigned int i = 0; i < o->nformat; i++)
			json_array_append_new(
				a,
				json_string(lab_format_names[o->formats[i]]));
		json_object_set_new(opts, "formats", a);
		a = json_array();
		for (unsigned int i = 0; i < o->naio; i++)
			json_array_append_new(
				a, json_string(engine_name(o->aios[i])));
		json_object_set_new(opts, "aios", a);
		a = json_array();
		for (unsigned int i = 0; i < o->ncache; i++)
			json_array_append_new(
				a, json_string(cache_name(o->caches[i])));
		json_object_set_new(opts, "caches", a);
		if (!s->check)
			suite_options(opts, s);
		json_object_set_new(opts, "accel_asked",
				    json_string(lab_accel_names[o->accel]));
		if (s->check)
			lab_check_jdoc(r, opts, NULL);
	}
	json_object_set_new(opts, "qemu", json_string(r->qemu));
	json_object_set_new(opts, "kernel", json_string(r->kernel));
	json_object_set_new(opts, "kernel_release",
			    json_string(r->kernel_release));
	json_object_set_new(opts, "suite", json_string(r->suite_title));
	json_object_set_new(opts, "disk_size_bytes",
			    json_integer((json_int_t)r->disk_bytes));
	json_object_set_new(opts, "image_dir", json_string(r->image_dir));
	json_object_set_new(opts, "memory_bytes",
			    json_integer((json_int_t)r->memory_bytes));
	json_object_set_new(opts, "smp", json_integer(r->smp));
	/* Which way the cells met their guests: "shared" (cells of a bus and
	 * format in one guest, a disk each) or "per-cell". */
	json_object_set_new(opts, "guests",
			    json_string(r->guest_per_cell ? "per-cell" :
							    "shared"));
	json_object_set_new(doc, "options", opts);
	json_object_set_new(doc, "qemu_version", json_string(r->qemu_version));
	json_object_set_new(doc, "accel",
			    json_string(lab_accel_names[r->accel]));
	json_object_set_new(doc, "accel_note", jstr_or_null(r->accel_note));
	json_object_set_new(doc, "warnings", jwarnings(&r->warnings));
	json_object_set_new(doc, "partial", json_boolean(r->partial));
	jset_real(doc, "elapsed_s", r->elapsed_s, 3);
	json_object_set_new(doc, "guests_started", json_integer(r->nguests));
	for (size_t i = 0; i < r->ncells; i++) {
		const struct lab_cell *c = &r->cells[i];
		json_t *o = json_object();

		json_object_set_new(o, "bus",
				    json_string(lab_bus_names[c->bus]));
		json_object_set_new(o, "format",
				    json_string(lab_format_names[c->format]));
		json_object_set_new(o, "aio", json_string(engine_name(c->aio)));
		json_object_set_new(o, "cache",
				    json_string(cache_name(c->cache)));
		json_object_set_new(o, "status",
				    json_string(lab_status_names[c->status]));
		json_object_set_new(o, "reason", jstr_or_null(c->reason));
		/* What the ranking made of it (lab_report.h). */
		json_object_set_new(o, "set_aside",
				    json_boolean(lab_cell_set_aside(c)));
		json_object_set_new(o, "cached_writes",
				    json_boolean(lab_cell_cached_writes(c)));
		json_object_set_new(
			o, "console_tail",
			c->status == LAB_FAILED ?
				jtext(c->console_tail ? c->console_tail : "") :
				json_null());
		json_object_set_new(o, "qemu_stderr",
				    jstr_or_null(c->qemu_stderr));
		json_object_set_new(o, "guest_log", jstr_or_null(c->guest_log));
		json_object_set_new(o, "accel",
				    json_string(lab_accel_names[c->accel]));
		json_object_set_new(o, "guest_disk", jstr_or_null(c->disk));
		json_object_set_new(o, "guest_disk_serial",
				    jstr_or_null(c->disk_serial));
		/* The QEMU it ran in (0: none did) and how many cells it
		 * carried; boot_s is that guest's, elapsed_s runs from its
		 * start to this cell's end, cell_s is this cell's own part. */
		json_object_set_new(o, "guest", json_integer(c->guest));
		json_object_set_new(o, "guest_cells",
				    json_integer(c->guest_cells));
		jset_real(o, "boot_s", c->boot_s, 3);
		jset_real(o, "elapsed_s", c->elapsed_s, 3);
		jset_real(o, "cell_s", c->cell_s, 3);
		json_object_set_new(o, "result", jembedded(c->result));
		json_object_set_new(o, "doctor", jembedded(c->doctor));
		if (r->opts && r->opts->suite.check)
			json_object_set_new(o, "check", lab_check_jcell(r, c));
		json_array_append_new(cells, o);
	}
	json_object_set_new(doc, "cells", cells);
	json_object_set_new(best, "safe", jbest(r, true));
	json_object_set_new(best, "overall", jbest(r, false));
	json_object_set_new(doc, "best", best);
	if (r->opts && r->opts->suite.check)
		lab_check_jdoc(r, NULL, doc);
	return jdoc_write(doc, f, err);
}
