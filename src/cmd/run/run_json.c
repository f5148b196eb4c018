// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab run --json`; the schema is documented in iolab(1). */
#include "../../report/json_util.h"
#include "run_report.h"
#include "../../core/target.h"

bool run_json_write(const struct run_report *r, FILE *f, struct err *err)
{
	json_t *doc = jdoc_new("run", r->argc, r->argv);
	json_t *opts = jjob_spec(&r->res->spec), *jobs = json_array();
	const struct target *t = r->target;

	jtarget_options(opts, t);
	json_object_set_new(doc, "options", opts);
	json_object_set_new(doc, "environment", jenvironment(t));
	json_object_set_new(doc, "warnings", jwarnings(r->warnings));
	json_object_set_new(doc, "partial", json_boolean(r->res->partial));
	json_array_append_new(jobs, jrun_result(r->res));
	json_object_set_new(doc, "jobs", jobs);
	return jdoc_write(doc, f, err);
}
