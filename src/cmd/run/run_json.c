// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab run --json`; the schema is documented in iolab(1). */
#include <math.h>
#include <string.h>

#include "../../report/json_util.h"
#include "run_figs.h"
#include "run_report.h"
#include "../../core/target.h"

/* Figure @f at its path in @o, unless jrun_result() wrote it already. */
static void fig_fill(json_t *o, const struct run_fig *f, double v)
{
	const char *dot = strchr(f->json, '.'), *key = f->json;
	char parent[64];

	if (dot) {
		if ((size_t)(dot - f->json) >= sizeof(parent))
			return;
		memcpy(parent, f->json, (size_t)(dot - f->json));
		parent[dot - f->json] = 0;
		o = json_object_get(o, parent);
		key = dot + 1;
	}
	if (!json_is_object(o) || json_object_get(o, key))
		return;
	if (f->digits >= 0)
		jset_real(o, key, v, f->digits);
	else
		json_object_set_new(o, key,
				    isfinite(v) ? json_real(v) : json_null());
}

/*
 * jrun_result() writes the schema (shared with mark's runs); a compare
 * figure of run_figs.c it does not write lands at the figure's path all
 * the same, so that adding a figure is one row there.
 */
static void figs_fill(json_t *job, const struct run_result *r)
{
	for (int d = 0; d < DIR_COUNT; d++) {
		json_t *dir = json_object_get(job, result_dir_name(d));

		for (const struct run_fig *f = run_dir_figs; f->key; f++)
			if (f->name && f->json && run_fig_in_dir(f, d) &&
			    (!(f->scope & RUN_FIG_FLUSH) || d == DIR_FLUSH))
				fig_fill(dir, f, run_fig_value(f, r, d));
	}
	for (const struct run_fig *f = run_job_figs; f->key; f++)
		if (f->name && f->json)
			fig_fill(job, f, run_fig_value(f, r, 0));
}

bool run_json_write(const struct run_report *r, FILE *f, struct err *err)
{
	json_t *doc = jdoc_new("run", r->argc, r->argv);
	json_t *opts = jjob_spec(&r->res->spec), *jobs = json_array();
	json_t *job = jrun_result(r->res);
	const struct target *t = r->target;

	figs_fill(job, r->res);
	jtarget_options(opts, t);
	json_object_set_new(doc, "options", opts);
	json_object_set_new(doc, "environment", jenvironment(t));
	json_object_set_new(doc, "warnings", jwarnings(r->warnings));
	json_object_set_new(doc, "partial", json_boolean(r->res->partial));
	json_array_append_new(jobs, job);
	json_object_set_new(doc, "jobs", jobs);
	return jdoc_write(doc, f, err);
}
