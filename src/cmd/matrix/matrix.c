// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab matrix`: its flags, and the driver from flags to report. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../commands.h"
#include "../common.h"
#include "../measure.h"
#include "../opts.h"
#include "../mark/mark_opts.h"
#include "../../core/target.h"
#include "../../engine/engine.h"
#include "../mark/mark_report.h"
#include "matrix_report.h"
#include "matrix_suite.h"
#include "../check/check_profile.h"
#include "../../util/err.h"
#include "../../util/parse.h"
#include "../../util/sig.h"

#define OFF(f) offsetof(struct suite_cli, f)

static const struct opt matrix_table[] = {
	{ .kind = OPT_GROUP, .name = "", .help = "Engines and cache modes" },
	{ "engines", 'e', OPT_STRING, "LIST", OFF(engines),
	  "QEMU aio= engines (default threads,native,io_uring)" },
	{ "caches", 'c', OPT_STRING, "LIST", OFF(caches),
	  "QEMU cache= modes (default none,directsync,writethrough,writeback,unsafe)" },
	{ "check", 0, OPT_STRING, "PROFILE", OFF(check),
	  "in every cell, judge iolab check's PROFILE (etcd, postgresql, mysql, oracle, zookeeper) instead of the tests; --time is each step's" },
	{ "force", 0, OPT_FLAG, NULL, OFF(s.base.force),
	  "measure the cells QEMU refuses (native without O_DIRECT)" },
	{ "flush-every", 0, OPT_U64, "N", OFF(s.base.flush_every),
	  "fdatasync after every N writes (a guest flush; cache=unsafe drops it)",
	  NULL, 1, 1e12 },
	{ .kind = OPT_GROUP, .name = "", .help = "Tests (as iolab mark)" },
	{ "preset", 'p', OPT_STRING, "NAME", OFF(preset),
	  "default|nvme|cdm7|cdm6|peak|real|flash (default cdm6)" },
	{ "tests", 't', OPT_STRING, "LIST", OFF(tests),
	  "tests instead of a preset, e.g. SEQ1M-Q8T1,RND4K-Q1T1" },
	{ "only", 0, OPT_STRING, "DIRS", OFF(only),
	  "read, write, mix or a list, e.g. read,write,mix (default read,write)" },
	{ "mix", 0, OPT_UINT, "PCT", OFF(s.mix_read_pct),
	  "share of reads in the mix tests, percent (default 70)", NULL, 0,
	  100 },
	OPT_ROWS_PROCEDURE("3500ms"),
	{ "time", 0, OPT_DURATION, "TIME", OFF(time_ns),
	  "length of each run, the warm-up's too (default 500ms; with --runs 5s; --check: each step's, default 5s)" },
	{ "interval", 0, OPT_DURATION, "TIME", OFF(interval_ns),
	  "pause between tests and cells, 0 for none (default none; with --runs 5s)" },
	{ .kind = OPT_GROUP, .name = "", .help = "Target and data" },
	OPT_ROWS_REGION(struct suite_cli),
	OPT_ROWS_DATA(struct suite_cli, s.base.pattern, s.base.seed),
	OPT_ROWS_SAFETY(struct suite_cli),
	{ .kind = OPT_GROUP, .name = "", .help = "Output" },
	OPT_ROWS_OUTPUT(struct suite_cli,
			"JSON report on stdout, with every cell and run",
			"CSV on stdout: a line per cell, test and direction"),
	OPT_ROW_NO_PROGRESS(struct suite_cli),
	{ .kind = OPT_GROUP },
};

static const struct opt_cmd matrix_cmd = {
	.name = "matrix",
	.synopsis = "iolab matrix [OPTIONS] [TARGET]",
	.summary =
		"One mark suite under every QEMU aio= engine x cache= mode on TARGET: a Read\n"
		"and a Write table, a row per engine x cache, a column per test, what each\n"
		"cache mode risks on host power loss, and which setting to choose. Cells QEMU\n"
		"refuses (aio=native without cache.direct=on) say so instead of reading 0.\n"
		"TARGET defaults to " CLI_DEFAULT_TARGET
		" in the current directory, created (1 GiB),\n"
		"filled and removed.",
	.opts = matrix_table,
	.footer =
		"The recommendation ranks cells by the geometric mean of their MB/s figures.\n"
		"MB/s = 10^6 bytes/s. Presets and test names as in 'iolab mark --help'.\n"
		"--csv columns: engine, cache, status (ok|refused|failed|not-run), reason,\n"
		"  forced, risk, keeps_data_on_power_loss, then mark's from test on (iolab\n"
		"  mark --help). Every cell has its lines; what was not measured is empty, not 0.\n"
		"Exit: 0 ok, 1 usage, 2 environment, 3 I/O error in a cell, 130 interrupted.\n",
	.max_positional = 1,
};

/* "threads,native" -> engines; the names as --engine takes them. */
static bool parse_kinds(const char *flag, const char *list,
			const char *const *names, int *out, unsigned int max,
			unsigned int *n, struct err *err)
{
	char buf[256], *items[16];
	int k;

	if (strlen(list) >= sizeof(buf))
		return err_set(err, EXIT_USAGE, 0, "%s: the list is too long",
			       flag);
	strcpy(buf, list);
	k = parse_list(buf, items, (int)max, err);
	if (k < 0) {
		err_prefix(err, "%s", flag);
		return false;
	}
	for (int i = 0; i < k; i++) {
		int v = parse_choice(items[i], names);

		if (v < 0) {
			char all[160] = "";

			for (int j = 0; names[j]; j++) {
				strncat(all, j ? ", " : "",
					sizeof(all) - strlen(all) - 1);
				strncat(all, names[j],
					sizeof(all) - strlen(all) - 1);
			}
			return err_set(err, EXIT_USAGE, 0,
				       "%s: '%s' is not one of %s", flag,
				       items[i], all);
		}
		out[i] = v;
	}
	*n = (unsigned int)k;
	return true;
}

static bool build_spec(struct suite_cli *c, struct matrix_spec *m,
		       struct err *err)
{
	struct matrix_spec d;
	int v[16];
	unsigned int n;

	matrix_spec_defaults(&d);
	m->nengines = d.nengines;
	memcpy(m->engines, d.engines, sizeof(d.engines));
	m->ncaches = d.ncaches;
	memcpy(m->caches, d.caches, sizeof(d.caches));
	if (c->engines) {
		if (!parse_kinds("--engines", c->engines, engine_names, v,
				 ENGINE_COUNT, &n, err))
			return false;
		m->nengines = n;
		for (unsigned int i = 0; i < n; i++)
			m->engines[i] = (enum engine_kind)v[i];
	}
	if (c->caches) {
		if (!parse_kinds("--caches", c->caches, cache_names, v,
				 CACHE_COUNT, &n, err))
			return false;
		m->ncaches = n;
		for (unsigned int i = 0; i < n; i++)
			m->caches[i] = (enum cache_mode)v[i];
	}
	m->mark = c->s;
	m->mark.label = "matrix";
	if (c->check) {
		m->check = check_profile_find(c->check);
		if (!m->check)
			return err_set(
				err, EXIT_USAGE, 0,
				"--check: no profile '%.64s'; iolab check --list shows them (etcd, postgresql, mysql, oracle, zookeeper)",
				c->check);
		m->check_runtime_ns = c->time_set ? c->s.time_ns :
						    5000000000ull;
		if (m->check_runtime_ns < 1000000000ull)
			return err_set(
				err, EXIT_USAGE, 0,
				"--check judges rates over each step's --time: give at least 1s");
	}
	return matrix_spec_validate(m, err);
}

/* One invocation: the flags and spec, then the result. */
struct matrix_state {
	struct suite_cli c;
	struct matrix_spec spec;
	struct matrix_result res;
};

static bool matrix_prepare(struct measure *m, struct err *err)
{
	struct matrix_state *s = m->self;

	if (!suite_cli_finish(&s->c, m->opts, &m->st, "cdm6", err) ||
	    !build_spec(&s->c, &s->spec, err))
		return false;
	/* Some cell writes whenever the suite writes. */
	m->req.need_write = mark_needs_write(&s->spec.mark);
	m->req.fill = s->c.s.base.pattern;
	if (s->spec.check) {
		if (s->c.m.csv)
			return err_set(
				err, EXIT_USAGE, 0,
				"--check reports as text or --json (each cell's criteria, as iolab check --json has them); --csv is for the tests");
		/* Every profile writes; its file is check's size. */
		m->req.need_write = true;
		m->req.fill = PATTERN_RANDOM;
		if (!s->c.m.size)
			m->req.create_size = 64ull << 20;
	}
	return true;
}

static void matrix_announce(struct measure *m)
{
	const struct matrix_state *s = m->self;
	const struct matrix_spec *ms = &s->spec;
	char eta[64], proc[192], sz[32], fill[96] = "";
	unsigned int cells = matrix_cells_to_run(ms);
	struct stat sb;

	if (stat(m->req.path, &sb) && errno == ENOENT)
		snprintf(fill, sizeof(fill), ", after writing the %s test file",
			 fmt_size(s->c.m.size ? s->c.m.size :
						m->req.create_size,
				  sz, sizeof(sz)));
	if (ms->check) {
		fprintf(stderr,
			"iolab matrix: %u cell%s to check for %s (%u refused by QEMU), %d step%s of %.0f s each: about %s%s\n",
			cells, cells == 1 ? "" : "s", ms->check->name,
			ms->nengines * ms->ncaches - cells, ms->check->nsteps,
			ms->check->nsteps == 1 ? "" : "s",
			(double)ms->check_runtime_ns / 1e9,
			suite_fmt_eta(matrix_estimate_ns(ms), eta, sizeof(eta)),
			fill);
		return;
	}
	fprintf(stderr,
		"iolab matrix: %u cell%s to measure (%u refused by QEMU), %u test%s each, %s: %s%s\n",
		cells, cells == 1 ? "" : "s",
		ms->nengines * ms->ncaches - cells, mark_count(&ms->mark),
		mark_count(&ms->mark) == 1 ? "" : "s",
		mark_procedure_text(&ms->mark, proc, sizeof(proc)),
		suite_fmt_span(matrix_estimate_ns(ms),
			       matrix_estimate_max_ns(ms), eta, sizeof(eta)),
		fill);
}

static bool matrix_measure(struct measure *m, struct err *err)
{
	struct matrix_state *s = m->self;

	if (matrix_run(&s->spec, &m->t, &s->res, err))
		return true;
	matrix_result_free(&s->res);
	return false;
}

static struct matrix_report report_of(struct measure *m)
{
	return (struct matrix_report){
		.argc = m->argc,
		.argv = m->argv,
		.target = &m->t,
		.res = &((struct matrix_state *)m->self)->res,
		.warnings = &m->warnings,
	};
}

static bool render_text(struct measure *m, FILE *out, struct err *err)
{
	struct matrix_report rep = report_of(m);

	(void)err;
	matrix_text_print(&rep, out);
	return true;
}

static bool render_json(struct measure *m, FILE *out, struct err *err)
{
	struct matrix_report rep = report_of(m);

	return matrix_json_write(&rep, out, err);
}

static bool render_csv(struct measure *m, FILE *out, struct err *err)
{
	struct matrix_report rep = report_of(m);

	return matrix_csv_write(&rep, out, err);
}

/* An I/O error in any cell; an interruption wins over it. */
static int matrix_status(struct measure *m, int rc)
{
	const struct matrix_result *res =
		&((struct matrix_state *)m->self)->res;

	for (unsigned int k = 0; k < res->ncells; k++)
		if (res->cells[k].mark.errors && rc == EXIT_OK)
			rc = EXIT_IO;
	if (res->stop_signal)
		rc = sig_exit_code(res->stop_signal);
	return rc;
}

static void matrix_done(struct measure *m)
{
	matrix_result_free(&((struct matrix_state *)m->self)->res);
}

static const struct measure_cmd matrix_measure_cmd = {
	.opts = &matrix_cmd,
	.prepare = matrix_prepare,
	.announce = matrix_announce,
	.run = matrix_measure,
	.render = { [MEASURE_TEXT] = render_text,
		    [MEASURE_JSON] = render_json,
		    [MEASURE_CSV] = render_csv },
	.status = matrix_status,
	.done = matrix_done,
};

int cmd_matrix(int argc, char **argv)
{
	struct matrix_state s;

	memset(&s, 0, sizeof(s));
	suite_cli_init(&s.c);
	s.c.s.max_ns = MATRIX_MAX_NS;
	return measure_main(&matrix_measure_cmd, &s, &s.c, &s.c.m, argc, argv);
}
