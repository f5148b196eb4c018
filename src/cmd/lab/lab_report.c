// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lab's result model: reading a guest's suite result (mark's JSON)
 * into the figures the tables show, and the ranking of cells. The guest's
 * JSON is input from another process, so every field is checked for type.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/json_util.h"
#include "lab_report.h"
#include "../../util/err.h"

const char *const lab_status_names[] = { "ok", "refused", "failed", NULL };

static double num(json_t *o, const char *k1, const char *k2)
{
	json_t *v = json_object_get(o, k1);

	if (k2)
		v = json_object_get(v, k2);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static bool has_warning(json_t *dir, const char *id)
{
	json_t *w, *ws = json_object_get(dir, "warnings");
	size_t i;

	json_array_foreach(ws, i, w)
	{
		const char *v = json_string_value(json_object_get(w, "id"));

		if (v && !strcmp(v, id))
			return true;
	}
	return false;
}

static double headline(json_t *dir, const char *what)
{
	double v = num(dir, what, "headline");

	return isnan(v) ? num(dir, what, "max") : v;
}

bool lab_cell_parse(struct lab_cell *c, struct err *err)
{
	json_error_t je;
	json_t *doc, *tests, *t;
	const char *cmd;
	size_t i;

	c->nfigs = 0;
	if (!c->result)
		return err_set(err, EXIT_ENV, 0, "the guest sent no result");
	doc = json_loads(c->result, 0, &je);
	if (!doc)
		return err_set(err, EXIT_ENV, 0,
			       "the guest's result is not JSON: %s (line %d)",
			       je.text, je.line);
	cmd = json_string_value(json_object_get(doc, "command"));
	if (cmd && !strcmp(cmd, "check")) {
		bool ok = lab_check_parse(c, doc, err);

		json_decref(doc);
		return ok;
	}
	tests = json_object_get(doc, "tests");
	if (!json_is_array(tests)) {
		json_decref(doc);
		return err_set(err, EXIT_ENV, 0,
			       "the guest's result has no \"tests\" array");
	}
	json_array_foreach(tests, i, t)
	{
		struct lab_fig *f;
		const char *name =
			json_string_value(json_object_get(t, "name"));

		if (c->nfigs == LAB_MAX_TESTS || !name)
			continue;
		f = &c->figs[c->nfigs++];
		memset(f, 0, sizeof(*f));
		snprintf(f->name, sizeof(f->name), "%s", name);
		for (int d = 0; d < 2; d++) {
			json_t *dir = json_object_get(t, d ? "write" : "read");
			/* The headline: the mean of the runs (precision) or
			 * the best run (a guest of an older iolab, --runs). */
			double mbps = headline(dir, "mbps");

			if (!json_is_object(dir) || isnan(mbps))
				continue;
			f->has[d] = true;
			f->mbps[d] = mbps;
			f->iops[d] = headline(dir, "iops");
			f->lat_mean_ns[d] = num(dir, "lat_ns", "mean");
			/* A guest of an older iolab has no storage_mbps. */
			f->storage_mbps[d] = num(dir, "storage_mbps", NULL);
			if (isnan(f->storage_mbps[d]))
				f->storage_mbps[d] = mbps;
			f->cv[d] = num(dir, "cv", NULL);
			/* The mean of n runs is surer than one run by
			 * sqrt(n); the best of n is not. */
			if (json_is_boolean(json_object_get(dir, "precise")) &&
			    num(dir, "runs_scored", NULL) > 1)
				f->cv[d] /= sqrt(num(dir, "runs_scored", NULL));
			f->imprecise[d] =
				json_is_false(json_object_get(dir, "precise"));
			f->cached_writes[d] = json_is_true(
				json_object_get(dir, "cached_writes"));
			f->unbacked_reads[d] = json_is_true(
				json_object_get(dir, "unbacked_reads"));
			f->cache_reads[d] =
				json_is_true(json_object_get(
					dir, "page_cache_reads")) ||
				has_warning(dir, "below-disk-latency");
		}
	}
	json_decref(doc);
	return true;
}

double lab_cell_score(const struct lab_cell *c)
{
	double logsum = 0;
	unsigned int n = 0;

	if (c->status != LAB_OK)
		return 0;
	for (unsigned int i = 0; i < c->nfigs; i++) {
		for (int d = 0; d < 2; d++) {
			if (!c->figs[i].has[d])
				continue;
			/* A zero figure is a result too: it sinks the mean. */
			logsum += log(c->figs[i].storage_mbps[d] > 1e-3 ?
					      c->figs[i].storage_mbps[d] :
					      1e-3);
			n++;
		}
	}
	return n ? exp(logsum / n) : 0;
}

double lab_cell_unc(const struct lab_cell *c)
{
	double sum = 0;
	unsigned int n = 0;

	for (unsigned int i = 0; i < c->nfigs; i++)
		for (int d = 0; d < 2; d++)
			if (c->figs[i].has[d] && !isnan(c->figs[i].cv[d])) {
				sum += c->figs[i].cv[d];
				n++;
			}
	return n ? sum / n : NAN;
}

/* Some measured figure of the cell: @writes its writes were a cache's,
 * else its reads were. */
static bool any_fig(const struct lab_cell *c, bool writes)
{
	if (c->status != LAB_OK)
		return false;
	for (unsigned int i = 0; i < c->nfigs; i++)
		for (int d = 0; d < 2; d++)
			if (c->figs[i].has[d] &&
			    (writes ? c->figs[i].cached_writes[d] :
				      c->figs[i].cache_reads[d] ||
					      c->figs[i].unbacked_reads[d]))
				return true;
	return false;
}

bool lab_cell_set_aside(const struct lab_cell *c)
{
	return any_fig(c, false);
}

bool lab_cell_cached_writes(const struct lab_cell *c)
{
	return any_fig(c, true);
}

long lab_best(const struct lab_report *r, int bus, int format, bool safe_only,
	      double *score)
{
	long best = -1;
	double bs = 0;

	for (size_t i = 0; i < r->ncells; i++) {
		const struct lab_cell *c = &r->cells[i];
		double s;

		if (c->status != LAB_OK || lab_cell_set_aside(c) ||
		    (bus >= 0 && (int)c->bus != bus) ||
		    (format >= 0 && (int)c->format != format) ||
		    (safe_only && c->cache == CACHE_UNSAFE))
			continue;
		s = lab_cell_score(c);
		if (s > bs) {
			bs = s;
			best = (long)i;
		}
	}
	if (score)
		*score = bs;
	return best;
}

void lab_report_free(struct lab_report *r)
{
	for (size_t i = 0; i < r->ncells; i++) {
		free(r->cells[i].reason);
		free(r->cells[i].qemu_stderr);
		free(r->cells[i].console_tail);
		free(r->cells[i].guest_log);
		free(r->cells[i].result);
		free(r->cells[i].doctor);
	}
	free(r->cells);
	warnings_free(&r->warnings);
	r->cells = NULL;
	r->ncells = 0;
}

const char *lab_fmt_secs(double s, char *buf, size_t len)
{
	if (s < 1)
		snprintf(buf, len, "%.0f ms", s * 1e3);
	else if (s < 100)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 3600)
		snprintf(buf, len, "%.0f min %02.0f s", floor(s / 60),
			 fmod(floor(s), 60));
	else
		snprintf(buf, len, "%.0f h %02.0f min", floor(s / 3600),
			 fmod(floor(s / 60), 60));
	return buf;
}

static const char *jstr(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

bool lab_doctor_parse(const struct lab_cell *c, struct lab_doctor *d)
{
	json_t *doc, *disks, *finds, *v;
	size_t i, n = 0;

	memset(d, 0, sizeof(*d));
	if (!c->doctor)
		return false;
	doc = json_loads(c->doctor, 0, NULL);
	if (!doc)
		return false;
	disks = json_object_get(doc, "disks");
	json_array_foreach(disks, i, v)
	{
		json_t *q = json_object_get(v, "queues");
		const char *name = jstr(v, "name");

		if (!name || strcmp(name, c->disk))
			continue;
		snprintf(
			d->disk, sizeof(d->disk),
			"%s: %s, driver %s, scheduler %s, %lld queue%s, nr_requests %lld",
			name,
			jstr(v, "controller") ? jstr(v, "controller") : "?",
			jstr(v, "driver") ? jstr(v, "driver") : "?",
			jstr(v, "scheduler") ? jstr(v, "scheduler") : "?",
			json_is_integer(q) ? json_integer_value(q) : 0,
			json_is_integer(q) && json_integer_value(q) == 1 ? "" :
									   "s",
			(long long)json_integer_value(
				json_object_get(v, "nr_requests")));
		if (json_is_integer(json_object_get(v, "queue_depth")))
			snprintf(d->disk + strlen(d->disk),
				 sizeof(d->disk) - strlen(d->disk),
				 ", queue_depth %lld",
				 (long long)json_integer_value(
					 json_object_get(v, "queue_depth")));
		if (jstr(v, "write_cache"))
			snprintf(d->write_cache, sizeof(d->write_cache), "%s",
				 jstr(v, "write_cache"));
	}
	finds = json_object_get(doc, "findings");
	json_array_foreach(finds, i, v)
	{
		const char *disk = jstr(v, "disk"), *id = jstr(v, "id");

		if (disk && !strcmp(disk, c->disk) && d->nfind < 8) {
			snprintf(d->find[d->nfind++], sizeof(d->find[0]),
				 "[%s] %s",
				 jstr(v, "severity") ? jstr(v, "severity") :
						       "?",
				 jstr(v, "message") ? jstr(v, "message") : "?");
		} else if (id && n + strlen(id) + 3 < sizeof(d->others)) {
			n += (size_t)snprintf(d->others + n,
					      sizeof(d->others) - n, "%s%s",
					      n ? ", " : "", id);
		}
	}
	json_decref(doc);
	return d->disk[0] != '\0';
}

const char *lab_cell_words(const struct lab_cell *c, bool with_bus, char *buf,
			   size_t len)
{
	char q[64];

	job_qemu_words(c->aio, c->cache, q, sizeof(q));
	if (with_bus)
		snprintf(buf, len, "%s %s %s", lab_bus_names[c->bus],
			 lab_format_names[c->format], q);
	else
		snprintf(buf, len, "%s", q);
	return buf;
}
