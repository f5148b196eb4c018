// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lab guest's suite result in mark's JSON shape (stand-in until
 * `iolab mark` provides it); see lab/suite.h.
 */
#include <math.h>
#include <stdlib.h>

#include "json_util.h"
#include "../lab/suite.h"
#include "../util/xmem.h"

/* max, mean, min and sample standard deviation of @v. */
static json_t *jstat(const double *v, unsigned int n)
{
	double max = 0, min = 0, sum = 0, ss = 0, mean;
	json_t *o = json_object();

	for (unsigned int i = 0; i < n; i++) {
		if (!i || v[i] > max)
			max = v[i];
		if (!i || v[i] < min)
			min = v[i];
		sum += v[i];
	}
	mean = n ? sum / n : 0;
	for (unsigned int i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	jset_real(o, "max", max, 3);
	jset_real(o, "mean", mean, 3);
	jset_real(o, "min", min, 3);
	jset_real(o, "stddev", n > 1 ? sqrt(ss / (n - 1)) : 0, 3);
	return o;
}

static json_t *jdir(const struct suite_dir *d, int dir)
{
	double *mbps, *iops;
	struct hist all;
	json_t *o, *runs, *lat;

	if (!d->nruns)
		return json_null();
	mbps = xcalloc(d->nruns, sizeof(double));
	iops = xcalloc(d->nruns, sizeof(double));
	hist_init(&all);
	runs = json_array();
	for (unsigned int k = 0; k < d->nruns; k++) {
		mbps[k] = result_mbps(&d->runs[k], dir);
		iops[k] = result_iops(&d->runs[k], dir);
		hist_add(&all, &d->runs[k].dir[dir].lat);
		json_array_append_new(runs, jrun_result(&d->runs[k]));
	}
	o = json_object();
	json_object_set_new(o, "mbps", jstat(mbps, d->nruns));
	json_object_set_new(o, "iops", jstat(iops, d->nruns));
	lat = json_object();
	jset_real(lat, "mean", hist_mean(&all), 1);
	json_object_set_new(
		lat, "p99",
		json_integer((json_int_t)hist_percentile(&all, 99)));
	json_object_set_new(o, "lat_ns", lat);
	json_object_set_new(o, "runs", runs);
	free(mbps);
	free(iops);
	return o;
}

bool suite_json_write(const struct suite_result *r, FILE *f, struct err *err)
{
	char *argv[] = { (char *)"iolab", (char *)"mark" };
	json_t *doc = jdoc_new("mark", 2, argv), *tests = json_array(), *opts;
	const struct lab_suite *s = r->spec;

	opts = json_object();
	json_object_set_new(opts, "suite", json_string("lab stand-in"));
	json_object_set_new(opts, "preset",
			    s->preset[0] ? json_string(s->preset) :
					   json_null());
	json_object_set_new(opts, "runs", json_integer(s->runs));
	jset_real(opts, "time_s", (double)s->time_ns / 1e9, 3);
	json_object_set_new(opts, "target", json_string(r->device));
	json_object_set_new(doc, "options", opts);
	json_object_set_new(doc, "partial", json_boolean(r->partial));
	if (r->error[0])
		json_object_set_new(doc, "error", json_string(r->error));
	for (unsigned int i = 0; i < s->ntests; i++) {
		const struct suite_test *t = &s->tests[i];
		json_t *o = json_object();

		json_object_set_new(o, "name", json_string(t->name));
		json_object_set_new(o, "bs_bytes",
				    json_integer((json_int_t)t->bs));
		json_object_set_new(o, "qd", json_integer(t->qd));
		json_object_set_new(o, "threads", json_integer(t->threads));
		json_object_set_new(o, "read", jdir(&r->dir[i][0], DIR_READ));
		json_object_set_new(o, "write", jdir(&r->dir[i][1], DIR_WRITE));
		json_array_append_new(tests, o);
	}
	json_object_set_new(doc, "tests", tests);
	return jdoc_write(doc, f, err);
}
