// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab run`: its flags, and the driver from flags to report. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../commands.h"
#include "../common.h"
#include "../measure.h"
#include "../opts.h"
#include "../../core/job.h"
#include "../../core/runner.h"
#include "../../core/target.h"
#include "../../engine/engine.h"
#include "run_report.h"
#include "../../util/err.h"
#include "../../util/sig.h"

struct run_opts {
	struct job_spec j;
	struct measure_flags m;
	enum { FMT_NORMAL, FMT_FIO_JSON, FMT_FIO_JSON_PLUS } format;
	const char *fio_job; /* --fio-job: handled by run_fio.c */
};

/* fio's --output-format values. */
static const char *const format_names[] = { "normal", "json", "json+", NULL };

static bool set_percentiles(void *o, const char *arg, struct err *err)
{
	return cli_parse_percentiles(&((struct run_opts *)o)->j, arg, err);
}

#define OFF(f) offsetof(struct run_opts, f)

static const struct opt run_table[] = {
	{ .kind = OPT_GROUP, .name = "", .help = "Workload" },
	{ "rw", 0, OPT_ENUM, "MODE", OPT_ENUM_OFF(struct run_opts, j.rw),
	  "read|write|randread|randwrite|rw|randrw (default randread)",
	  rw_names },
	{ "mix", 0, OPT_UINT, "PCT", OFF(j.mix_read_pct),
	  "share of reads in rw/randrw, percent (default 70)", NULL, 0, 100 },
	{ "bs", 0, OPT_SIZE, "SIZE", OFF(j.bs), "block size (default 4k)" },
	{ "qd", 0, OPT_UINT, "N", OFF(j.qd),
	  "requests in flight per thread (default 1)", NULL, 1, 4096 },
	{ "threads", 0, OPT_UINT, "N", OFF(j.threads),
	  "job threads, each with its own queue (default 1)", NULL, 1, 256 },
	OPT_ROWS_REGION(struct run_opts),
	OPT_ROWS_DATA(struct run_opts, j.pattern, j.seed),
	{ .kind = OPT_GROUP, .name = "", .help = "Duration and pacing" },
	{ "runtime", 0, OPT_DURATION, "TIME", OFF(j.runtime_ns),
	  "measured time, e.g. 500ms, 10s, 2m (default 10s, at least 1ms)" },
	{ "ramp", 0, OPT_DURATION, "TIME", OFF(j.ramp_ns),
	  "warm-up before measuring, excluded (default 0)" },
	{ "ios", 0, OPT_U64, "N", OFF(j.ios),
	  "stop after N I/Os (then --runtime is a limit only if given)", NULL,
	  1, 1e18 },
	{ "rate-iops", 0, OPT_U64, "N", OFF(j.rate_iops),
	  "open loop at N IOPS in total; latency from each request's intended start",
	  NULL, 1, 1e8 },
	{ .kind = OPT_GROUP, .name = "", .help = "QEMU engine and cache mode" },
	OPT_ROWS_ENGINE(struct run_opts, j.engine, j.cache, ""),
	{ "batch", 0, OPT_UINT, "N", OFF(j.submit_batch),
	  "most I/Os per submit call (default QD/8, 1 to 4; like fio's iodepth_batch_submit)",
	  NULL, 1, 4096 },
	{ "flush-every", 0, OPT_U64, "N", OFF(j.flush_every),
	  "fdatasync after every N writes, timed apart (a guest flush)", NULL,
	  1, 1e12 },
	{ "warm-cache", 0, OPT_FLAG, NULL, OFF(j.warm_cache),
	  "keep the page cache before buffered reads (default: drop it)" },
	{ "force", 0, OPT_FLAG, NULL, OFF(j.force),
	  "measure settings QEMU refuses (native without O_DIRECT)" },
	{ "cpus", 0, OPT_STRING, "LIST", OFF(j.cpus),
	  "pin I/O threads to these CPUs, e.g. 0-1 or 0,2 (ones iolab may run on)" },
	{ .kind = OPT_GROUP, .name = "", .help = "Safety" },
	OPT_ROWS_SAFETY(struct run_opts),
	{ .kind = OPT_GROUP, .name = "", .help = "Output" },
	OPT_ROWS_OUTPUT(
		struct run_opts, "JSON report on stdout",
		"CSV on stdout: one line per direction, for spreadsheets"),
	{ "percentiles", 0, OPT_CALL, "LIST", 0,
	  "latency percentiles, e.g. 50,99,99.9 (default fio's list)", NULL, 0,
	  0, set_percentiles },
	{ "output-format", 0, OPT_ENUM, "FMT",
	  OPT_ENUM_OFF(struct run_opts, format),
	  "normal (the table), or json, json+: fio's JSON layout (json+ with latency bins)",
	  format_names },
	OPT_ROW_NO_PROGRESS(struct run_opts),
	{ .kind = OPT_GROUP, .name = "", .help = "fio job files" },
	{ "fio-job", 0, OPT_STRING, "FILE", OFF(fio_job),
	  "run the jobs of a fio job file one after another (or: iolab run JOB.fio)" },
	{ .kind = OPT_GROUP },
};

static const struct opt_cmd run_cmd = {
	.name = "run",
	.synopsis = "iolab run [OPTIONS] [TARGET]",
	.summary =
		"Run one workload against TARGET: a file (created and filled if missing,\n"
		"read-only if it exists), or a block device (read-only unless allowed).\n"
		"TARGET defaults to " CLI_DEFAULT_TARGET
		" in the current directory.",
	.opts = run_table,
	.footer =
		"Sizes: 4k, 4K, 4KiB, 1M, 1g (powers of 1024), 4kB, 1MB (powers of 1000), bytes.\n"
		"Durations: 500ms, 5s, 2m, or plain seconds.\n"
		"Buffers (QD x threads x bs) above 3/4 of the memory available are refused.\n"
		"Exit: 0 ok, 1 usage, 2 environment or refused (also: buffers too large, no I/O\n"
		"      completed), 3 I/O error, 130 interrupted.\n",
	.max_positional = 1,
};

/* One invocation: the flags, then the result. */
struct run_state {
	struct run_opts o;
	struct run_result res;
	struct run_collect *collect; /* a job of a job file, or NULL */
};

static bool run_prepare(struct measure *m, struct err *err)
{
	struct run_opts *o = &((struct run_state *)m->self)->o;

	if (opts_was_set(m->opts, &m->st, "ios") &&
	    !opts_was_set(m->opts, &m->st, "runtime"))
		o->j.runtime_ns = 0;
	if (opts_was_set(m->opts, &m->st, "mix") && o->j.rw != RW_RW &&
	    o->j.rw != RW_RANDRW)
		return err_set(err, EXIT_USAGE, 0,
			       "--mix applies to --rw rw or randrw, not %s",
			       rw_name(o->j.rw));
	if (o->format != FMT_NORMAL && (o->m.json || o->m.csv))
		return err_set(
			err, EXIT_USAGE, 0,
			"--output-format %s and --%s exclude each other; choose one",
			format_names[o->format], o->m.json ? "json" : "csv");
	if (!job_validate(&o->j, err) ||
	    !job_check_memory(&o->j, "use a smaller --qd, --threads or --bs",
			      err))
		return false;
	m->req.need_write = rw_writes(&o->j) &&
			    !engine_has(o->j.engine, ENGINE_NO_IO);
	m->req.fill = o->j.pattern;
	return true;
}

static bool run_measure(struct measure *m, struct err *err)
{
	struct run_state *s = m->self;
	struct runner_opts ro = { .label = "iolab run" };

	ro.progress = m->req.progress;
	if (!runner_run(&s->o.j, &m->t, &ro, &s->res, err))
		return false;
	warn_merge(&m->warnings, &s->res.warnings);
	return true;
}

static struct run_report report_of(struct measure *m)
{
	return (struct run_report){
		.argc = m->argc,
		.argv = m->argv,
		.target = &m->t,
		.res = &((struct run_state *)m->self)->res,
		.warnings = &m->warnings,
	};
}

/* fio's JSON: the one job of this run, or one more of a job file's. */
static bool render_fio(struct measure *m, FILE *out, struct err *err)
{
	struct run_state *s = m->self;
	bool plus = s->o.format == FMT_FIO_JSON_PLUS;
	struct run_collect *c = s->collect;
	json_t *jobs;

	/* fio's layout has no place for them: said on stderr instead. */
	if (m->warnings.n)
		text_warnings(&m->warnings, stderr);

	if (c) {
		json_array_append_new(c->jobs, fio_json_job(c->name, c->index,
							    c->job_options,
							    &s->res, plus));
		c->job_options = NULL;
		return true;
	}
	jobs = json_array();
	json_array_append_new(
		jobs,
		fio_json_job("iolab", 0,
			     fio_json_spec_options(&s->res.spec, m->t.path),
			     &s->res, plus));
	return fio_json_write(jobs, NULL, out, err);
}

static bool render_text(struct measure *m, FILE *out, struct err *err)
{
	struct run_state *s = m->self;
	struct run_report rep = report_of(m);

	if (s->o.format != FMT_NORMAL)
		return render_fio(m, out, err);
	if (s->collect)
		out = s->collect->out;
	run_text_print(&rep, out);
	return true;
}

static bool render_json(struct measure *m, FILE *out, struct err *err)
{
	struct run_report rep = report_of(m);

	return run_json_write(&rep, out, err);
}

static bool render_csv(struct measure *m, FILE *out, struct err *err)
{
	struct run_report rep = report_of(m);

	return run_csv_write(&rep, out, err);
}

static int run_status(struct measure *m, int rc)
{
	const struct run_result *res = &((struct run_state *)m->self)->res;

	if (res->errors)
		return EXIT_IO;
	if (res->stop_signal)
		return sig_exit_code(res->stop_signal);
	return rc;
}

static void run_done(struct measure *m)
{
	result_free(&((struct run_state *)m->self)->res);
}

static const struct measure_cmd run_measure_cmd = {
	.opts = &run_cmd,
	.prepare = run_prepare,
	.run = run_measure,
	.render = { [MEASURE_TEXT] = render_text,
		    [MEASURE_JSON] = render_json,
		    [MEASURE_CSV] = render_csv },
	.status = run_status,
	.done = run_done,
};

int run_main(int argc, char **argv, struct run_collect *collect)
{
	struct run_state s = { .collect = collect };

	job_defaults(&s.o.j);
	return measure_main(&run_measure_cmd, &s, &s.o, &s.o.m, argc, argv);
}

/* Whether the command line names a job file: --fio-job, or a NAME.fio
 * (then parsed first to find its operand); never with --help. */
static bool names_job_file(int argc, char **argv)
{
	bool maybe = false;

	for (int i = 1; i < argc; i++) {
		size_t n = strlen(argv[i]);

		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return false;
		if (!strcmp(argv[i], "--fio-job") ||
		    !strncmp(argv[i], "--fio-job=", 10) ||
		    (n > 4 && !strcmp(argv[i] + n - 4, ".fio")))
			maybe = true;
	}
	return maybe;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { 0 };
	struct opt_state st;
	struct err err = { 0 };
	const char *file, *target;
	int rc;

	/*
	 * A job file runs its jobs through run_main(), one by one: the flags
	 * are read here first to find it. A line that names none, or that
	 * the parser refuses, goes the usual way (which says what is wrong).
	 */
	if (!names_job_file(argc, argv))
		return run_main(argc, argv, NULL);
	job_defaults(&o.j);
	if (opts_parse(&run_cmd, argc, argv, &o, &st, &err) != OPTS_OK) {
		opts_state_free(&st);
		return run_main(argc, argv, NULL);
	}
	file = o.fio_job;
	target = st.npositional ? st.positional[0] : NULL;
	if (!file && target && run_fio_is_job_file(target)) {
		file = target; /* `iolab run JOB.fio`, as `fio JOB.fio` */
		target = NULL;
	}
	if (!file) {
		opts_state_free(&st);
		return run_main(argc, argv, NULL);
	}
	rc = run_fio_jobs(run_main, &st, argc, argv, file, target, o.m.output,
			  o.m.json || o.m.csv,
			  o.format == FMT_FIO_JSON_PLUS ? 2 : (int)o.format);
	opts_state_free(&st);
	return rc;
}
