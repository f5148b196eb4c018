// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab check`: its flags, and the driver from flags to verdict. */
#include <limits.h>
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
#include "check_report.h"
#include "../../util/err.h"
#include "../../util/parse.h"
#include "../../util/sig.h"

/* etcd's recipe writes 22 MiB; a WAL segment is 16 to 64 MiB. */
#define CHECK_FILE_BYTES (64ull << 20)
#define CHECK_DEFAULT_RUNTIME_NS 10000000000ull

struct check_opts {
	uint64_t runtime_ns;
	const char *dir;
	bool list;
	enum engine_kind engine; /* --engine, when given */
	enum cache_mode cache; /* --cache, when given */
	struct measure_flags m;
};

#define OFF(f) offsetof(struct check_opts, f)

static const struct opt check_table[] = {
	{ .kind = OPT_GROUP, .name = "", .help = "Check" },
	{ "list", 0, OPT_FLAG, NULL, OFF(list),
	  "list the profiles: the I/O each reproduces, its criteria and their sources" },
	{ "runtime", 0, OPT_DURATION, "TIME", OFF(runtime_ns),
	  "measured time of each step of the profile (default 10s, at least 1s)" },
	{ .kind = OPT_GROUP, .name = "", .help = "As a QEMU disk on this host" },
	{ "engine", 'e', OPT_ENUM, "NAME",
	  OPT_ENUM_OFF(struct check_opts, engine),
	  "io_uring|native|threads: issue each step as QEMU's aio= would (default: as the database does)",
	  engine_names },
	{ "cache", 'c', OPT_ENUM, "MODE",
	  OPT_ENUM_OFF(struct check_opts, cache),
	  "none|directsync|writethrough|writeback|unsafe: as QEMU's cache= would; a guest's durable write becomes a write and a flush (default: as the database opens its file)",
	  cache_names },
	{ .kind = OPT_GROUP, .name = "", .help = "Target" },
	{ "dir", 0, OPT_STRING, "DIR", OFF(dir),
	  "create the test file in DIR, where the database keeps its files (default: the current directory)" },
	/* The region rows of opts.h, with this command's default size. */
	{ "size", 0, OPT_SIZE, "SIZE", OFF(m.size),
	  "test file size, or the region of a device/file (default: 64M for a new file, else all)" },
	{ "offset", 0, OPT_SIZE, "SIZE", OFF(m.offset),
	  "start of the region (default 0)" },
	{ .kind = OPT_GROUP, .name = "", .help = "Safety" },
	OPT_ROWS_SAFETY(struct check_opts),
	{ .kind = OPT_GROUP, .name = "", .help = "Output" },
	OPT_ROWS_OUTPUT(
		struct check_opts,
		"JSON report on stdout: criteria, verdicts and each step's run",
		"CSV on stdout: one line per criterion"),
	OPT_ROW_NO_PROGRESS(struct check_opts),
	{ .kind = OPT_GROUP },
};

static const struct opt_cmd check_cmd = {
	.name = "check",
	.synopsis = "iolab check [OPTIONS] PROFILE [TARGET]",
	.summary =
		"Is this disk fit for a database? Run the I/O that PROFILE's database issues on\n"
		"its critical path (etcd, postgresql, mysql, oracle, zookeeper; --list says which\n"
		"I/O and which criteria) and judge each criterion its project publishes: pass,\n"
		"fail, or inconclusive when the data cannot decide. TARGET is a test file,\n"
		"created and filled if missing (an existing file or a block device only when\n"
		"allowed); it defaults to " CLI_DEFAULT_TARGET
		" in --dir or the current directory.",
	.opts = check_table,
	.footer =
		"A criterion passes or fails only when the 95 % bounds of its figure lie on one\n"
		"side of the threshold; else, or when the target is in RAM (tmpfs) or a cache\n"
		"answered the flushes, it is inconclusive. A figure with no published threshold\n"
		"is reported without a verdict.\n"
		"Exit: 0 fit (every criterion passed, or none has a threshold), 1 usage,\n"
		"      2 environment or refused, 3 I/O error, 4 not fit (a criterion failed),\n"
		"      5 inconclusive, 130 interrupted.\n",
	.max_positional = 2,
};

/* One invocation: the flags, then the result. */
struct check_state {
	struct check_opts o;
	struct check_result res;
	char path[PATH_MAX];
};

static void job_of(const struct check_step *s, const struct check_result *r,
		   struct job_spec *j)
{
	job_defaults(j);
	j->rw = s->rw;
	j->bs = s->bs;
	j->qd = s->qd;
	j->threads = s->threads;
	j->engine = s->engine;
	j->cache = s->cache;
	j->flush_every = s->flush_every;
	j->runtime_ns = r->runtime_ns;
	j->pattern = PATTERN_RANDOM;
	/* As a QEMU disk: the host sees the guest's writes and flushes, in
	 * the cell's cache mode. A write the guest made durable on its own
	 * (O_DSYNC, O_DIRECT|O_DSYNC) reaches QEMU as a write and a flush. */
	if (r->qemu_cache) {
		if (cache_dsync(s->cache) && !s->flush_every)
			j->flush_every = 1;
		j->cache = r->cache;
	}
	if (r->qemu_engine)
		j->engine = r->engine; /* native + a buffered mode: refused */
}

static bool check_prepare(struct measure *m, struct err *err)
{
	struct check_state *s = m->self;
	const struct check_profile *p;
	char rt[32];

	if (s->o.list) {
		/* The list is the whole answer: nothing to measure. */
		check_list_print(stdout);
		return false;
	}
	if (!m->st.npositional)
		return err_set(
			err, EXIT_USAGE, 0,
			"name a profile: iolab check PROFILE [TARGET]; iolab check --list shows them");
	p = check_profile_find(m->st.positional[0]);
	if (!p)
		return err_set(
			err, EXIT_USAGE, 0,
			"no profile '%.64s'; iolab check --list shows them (etcd, postgresql, mysql, oracle, zookeeper)",
			m->st.positional[0]);
	if (s->o.runtime_ns < 1000000000ull)
		return err_set(
			err, EXIT_USAGE, 0,
			"--runtime %s is too short to judge a rate; give at least 1s (the default is 10s)",
			fmt_duration(s->o.runtime_ns, rt, sizeof(rt)));
	if (m->st.npositional > 1 && s->o.dir)
		return err_set(err, EXIT_USAGE, 0,
			       "give TARGET or --dir, not both");
	if (m->st.npositional > 1) {
		m->req.path = m->st.positional[1];
	} else if (s->o.dir) {
		if ((size_t)snprintf(s->path, sizeof(s->path), "%s/%s",
				     s->o.dir,
				     CLI_DEFAULT_TARGET) >= sizeof(s->path))
			return err_set(err, EXIT_USAGE, 0, "--dir is too long");
		m->req.path = s->path;
	} else {
		m->req.path = CLI_DEFAULT_TARGET;
	}
	s->res.qemu_engine = opts_was_set(m->opts, &m->st, "engine");
	s->res.qemu_cache = opts_was_set(m->opts, &m->st, "cache");
	if (s->res.qemu_engine &&
	    (s->o.engine == ENGINE_SYNC || s->o.engine == ENGINE_NULL))
		return err_set(
			err, EXIT_USAGE, 0,
			"--engine %s is not one of QEMU's aio= engines; give io_uring, native or threads",
			engine_name(s->o.engine));
	s->res.engine = s->o.engine;
	s->res.cache = s->o.cache;
	s->res.profile = p;
	s->res.runtime_ns = s->o.runtime_ns;
	/* Said before a test file is made, and without run's --force. */
	for (int i = 0; i < p->nsteps; i++) {
		struct job_spec j;

		job_of(&p->steps[i], &s->res, &j);
		if (job_qemu_refuses(j.engine, j.cache, err))
			return err_set(
				err, EXIT_ENV, 0,
				"QEMU refuses aio=native with cache=%s (\"aio=native was specified, but it requires cache.direct=on\"), which step %s would need; add --cache none or directsync, or another --engine",
				cache_name(j.cache), p->steps[i].id);
	}
	m->req.create_size = CHECK_FILE_BYTES;
	m->req.need_write = true; /* every profile writes */
	m->req.fill = PATTERN_RANDOM;
	return true;
}

static bool check_measure(struct measure *m, struct err *err)
{
	struct check_result *r = &((struct check_state *)m->self)->res;
	const struct check_profile *p = r->profile;

	for (int i = 0; i < p->nsteps; i++) {
		struct runner_opts ro = { .progress = m->req.progress };
		struct run_result *run = &r->run[i];
		struct target view;
		struct job_spec j;
		char label[64];

		snprintf(label, sizeof(label), "iolab check %s: %s", p->name,
			 p->steps[i].id);
		ro.label = label;
		job_of(&p->steps[i], r, &j);
		/* The runner reads only the region of the target: a step
		 * that uses the first bytes gets a copy that says so. */
		view = m->t;
		if (p->steps[i].span_bytes &&
		    p->steps[i].span_bytes < view.region_len)
			view.region_len = p->steps[i].span_bytes;
		if (!job_validate(&j, err) ||
		    !runner_run(&j, &view, &ro, run, err)) {
			err_prefix(err, "step %s", p->steps[i].id);
			check_result_free(r);
			return false;
		}
		r->nrun++;
		warn_merge(&m->warnings, &run->warnings);
		if (run->errors || run->stop_signal) {
			r->io_error = run->errors > 0;
			r->stop_signal = run->stop_signal;
			return true; /* what ran is reported, not judged */
		}
	}
	check_judge_all(r, &m->t);
	if (r->verdict == CHECK_FAIL)
		check_hints_collect(r, &m->t);
	return true;
}

static struct check_report report_of(struct measure *m)
{
	return (struct check_report){
		.argc = m->argc,
		.argv = m->argv,
		.target = &m->t,
		.res = &((struct check_state *)m->self)->res,
		.warnings = &m->warnings,
	};
}

static bool render_text(struct measure *m, FILE *out, struct err *err)
{
	struct check_report rep = report_of(m);

	(void)err;
	check_text_print(&rep, out);
	return true;
}

static bool render_json(struct measure *m, FILE *out, struct err *err)
{
	struct check_report rep = report_of(m);

	return check_json_write(&rep, out, err);
}

static bool render_csv(struct measure *m, FILE *out, struct err *err)
{
	struct check_report rep = report_of(m);

	return check_csv_write(&rep, out, err);
}

static int check_status(struct measure *m, int rc)
{
	const struct check_result *r = &((struct check_state *)m->self)->res;

	if (r->io_error)
		return EXIT_IO;
	if (r->stop_signal)
		return sig_exit_code(r->stop_signal);
	if (rc != EXIT_OK)
		return rc;
	return check_exit_code(r->verdict);
}

static void check_done(struct measure *m)
{
	check_result_free(&((struct check_state *)m->self)->res);
	check_hints_free(&((struct check_state *)m->self)->res);
}

static const struct measure_cmd check_measure_cmd = {
	.opts = &check_cmd,
	.prepare = check_prepare,
	.run = check_measure,
	.render = { [MEASURE_TEXT] = render_text,
		    [MEASURE_JSON] = render_json,
		    [MEASURE_CSV] = render_csv },
	.status = check_status,
	.done = check_done,
};

int cmd_check(int argc, char **argv)
{
	struct check_state s = { 0 };

	s.o.runtime_ns = CHECK_DEFAULT_RUNTIME_NS;
	return measure_main(&check_measure_cmd, &s, &s.o, &s.o.m, argc, argv);
}
