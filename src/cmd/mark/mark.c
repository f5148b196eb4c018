// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab mark`: its flags, and the driver from flags to report. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../commands.h"
#include "../common.h"
#include "../measure.h"
#include "../opts.h"
#include "mark_opts.h"
#include "../../core/target.h"
#include "../../engine/engine.h"
#include "mark_report.h"
#include "../../util/err.h"
#include "../../util/sig.h"

#define OFF(f) offsetof(struct suite_cli, f)

static const struct opt mark_table[] = {
	{ .kind = OPT_GROUP, .name = "", .help = "Tests" },
	{ "preset", 'p', OPT_STRING, "NAME", OFF(preset),
	  "default|nvme|cdm7|cdm6|peak|real|flash (default: default, CDM 8/9)" },
	{ "tests", 't', OPT_STRING, "LIST", OFF(tests),
	  "tests instead of a preset, e.g. SEQ1M-Q8T1,RND4K-Q32T16" },
	{ "only", 0, OPT_STRING, "DIRS", OFF(only),
	  "read, write, mix or a list, e.g. read,write,mix (default read,write)" },
	{ "mix", 0, OPT_UINT, "PCT", OFF(s.mix_read_pct),
	  "share of reads in the mix tests, percent (default 70)", NULL, 0,
	  100 },
	{ .kind = OPT_GROUP, .name = "", .help = "Procedure" },
	OPT_ROWS_PROCEDURE("20s"),
	{ "time", 0, OPT_DURATION, "TIME", OFF(time_ns),
	  "length of each run, the warm-up's too, e.g. 5s, 500ms (default 500ms; with --runs 5s; flash 1s; at least 1ms)" },
	{ "interval", 0, OPT_DURATION, "TIME", OFF(interval_ns),
	  "pause between tests, 0 for none (default none; with --runs 5s; flash 30s)" },
	{ .kind = OPT_GROUP, .name = "", .help = "QEMU engine and cache mode" },
	OPT_ROWS_ENGINE(struct suite_cli, s.base.engine, s.base.cache, ""),
	{ "flush-every", 0, OPT_U64, "N", OFF(s.base.flush_every),
	  "fdatasync after every N writes in write and mix tests", NULL, 1,
	  1e12 },
	{ "force", 0, OPT_FLAG, NULL, OFF(s.base.force),
	  "measure settings QEMU refuses (native without O_DIRECT)" },
	{ .kind = OPT_GROUP, .name = "", .help = "Target and data" },
	OPT_ROWS_REGION(struct suite_cli),
	OPT_ROWS_DATA(struct suite_cli, s.base.pattern, s.base.seed),
	OPT_ROWS_SAFETY(struct suite_cli),
	{ .kind = OPT_GROUP, .name = "", .help = "Output" },
	OPT_ROWS_OUTPUT(struct suite_cli,
			"JSON report on stdout, with every run",
			"CSV on stdout: a line per test and direction"),
	OPT_ROW_NO_PROGRESS(struct suite_cli),
	{ .kind = OPT_GROUP },
};

static const struct opt_cmd mark_cmd = {
	.name = "mark",
	.synopsis = "iolab mark [OPTIONS] [TARGET]",
	.summary =
		"CrystalDiskMark's suites: reads first, then writes, then mix. Per test and\n"
		"direction one unscored warm-up run, then runs of --time until the 95% interval\n"
		"of the mean MB/s over the runs is within --precision (3 runs at least,\n"
		"--max-time at most); the headline is that mean, its interval beside it.\n"
		"--runs N --time T is CrystalDiskMark's exact procedure (N runs, the best one\n"
		"the headline). The JSON says which procedure ran.\n"
		"TARGET defaults to " CLI_DEFAULT_TARGET
		" in the current directory, created (1 GiB),\n"
		"filled and removed; writing to anything else needs --allow-write-*.",
	.opts = mark_table,
	.footer =
		"Presets (CrystalDiskMark's, reads and writes of each):\n"
		"  default  CDM 8/9: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1\n"
		"  nvme     CDM 8/9 NVMe SSD: SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16, RND4K Q1T1\n"
		"  cdm7     CDM 7: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T16, RND4K Q1T1\n"
		"  cdm6     CDM 6: SEQ128K Q32T1, RND4K Q8T8, RND4K Q32T1, RND4K Q1T1\n"
		"  peak     SEQ1M Q8T1, RND4K Q32T1      real  SEQ1M Q1T1, RND4K Q1T1\n"
		"  flash    CDM 9 Flash Memory: the default tests, --time 1s --interval 30s\n"
		"Q = requests in flight per thread, T = threads. MB/s = 10^6 bytes/s.\n"
		"--csv columns: engine, cache, test, pattern, bs_bytes, qd, threads, direction,\n"
		"  runs_scored, MB_s (the headline), MB_s_ci95_pct, MB_s_max/_mean/_min/_stddev,\n"
		"  iops, iops_max/_mean/_min/_stddev, lat_min/_mean/_p50/_p99/_max_us\n"
		"  (microseconds), mix_read_pct and mix_read/write_MB_s_max/_mean (with mix\n"
		"  tests), page_cache_reads, partial, warnings. Empty = no figure (stddev needs\n"
		"  2 runs; the interval is not for --runs).\n"
		"Sizes: 4k, 1M, 1g (powers of 1024), 4kB, 1MB (powers of 1000). Durations: 500ms, 5s, 2m.\n"
		"Exit: 0 ok, 1 usage, 2 environment or refused, 3 I/O error, 130 interrupted.\n",
	.max_positional = 1,
};

/* One invocation: the flags and spec, then the result. */
struct mark_state {
	struct suite_cli c;
	struct mark_result res;
};

static bool mark_prepare(struct measure *m, struct err *err)
{
	struct suite_cli *c = &((struct mark_state *)m->self)->c;

	if (!suite_cli_finish(c, m->opts, &m->st, "default", err) ||
	    !mark_spec_validate(&c->s, err))
		return false;
	m->req.need_write = mark_needs_write(&c->s);
	m->req.fill = c->s.base.pattern;
	return true;
}

static void mark_announce(struct measure *m)
{
	const struct suite_cli *c = &((struct mark_state *)m->self)->c;

	suite_print_estimate("iolab mark", c, m->req.path, mark_count(&c->s),
			     mark_estimate_ns(&c->s),
			     mark_estimate_max_ns(&c->s));
}

static bool mark_measure(struct measure *m, struct err *err)
{
	struct mark_state *s = m->self;

	if (mark_run(&s->c.s, &m->t, &s->res, err))
		return true;
	mark_result_free(&s->res);
	return false;
}

static struct mark_report report_of(struct measure *m)
{
	return (struct mark_report){
		.argc = m->argc,
		.argv = m->argv,
		.target = &m->t,
		.res = &((struct mark_state *)m->self)->res,
		.warnings = &m->warnings,
	};
}

static bool render_text(struct measure *m, FILE *out, struct err *err)
{
	struct mark_report rep = report_of(m);

	(void)err;
	mark_text_print(&rep, out);
	return true;
}

static bool render_json(struct measure *m, FILE *out, struct err *err)
{
	struct mark_report rep = report_of(m);

	return mark_json_write(&rep, out, err);
}

static bool render_csv(struct measure *m, FILE *out, struct err *err)
{
	struct mark_report rep = report_of(m);

	return mark_csv_write(&rep, out, err);
}

static int mark_status(struct measure *m, int rc)
{
	const struct mark_result *res = &((struct mark_state *)m->self)->res;

	if (res->errors)
		return EXIT_IO;
	if (res->stop_signal)
		return sig_exit_code(res->stop_signal);
	return rc;
}

static void mark_done(struct measure *m)
{
	mark_result_free(&((struct mark_state *)m->self)->res);
}

static const struct measure_cmd mark_measure_cmd = {
	.opts = &mark_cmd,
	.prepare = mark_prepare,
	.announce = mark_announce,
	.run = mark_measure,
	.render = { [MEASURE_TEXT] = render_text,
		    [MEASURE_JSON] = render_json,
		    [MEASURE_CSV] = render_csv },
	.status = mark_status,
	.done = mark_done,
};

int cmd_mark(int argc, char **argv)
{
	struct mark_state s;

	memset(&s, 0, sizeof(s));
	suite_cli_init(&s.c);
	return measure_main(&mark_measure_cmd, &s, &s.c, &s.c.m, argc, argv);
}
