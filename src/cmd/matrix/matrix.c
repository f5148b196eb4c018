// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab matrix`: its flags, and the driver from flags to report. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../commands.h"
#include "../common.h"
#include "../opts.h"
#include "../mark/mark_opts.h"
#include "../../core/target.h"
#include "../mark/mark_report.h"
#include "matrix_report.h"
#include "matrix_suite.h"
#include "../../util/err.h"
#include "../../util/parse.h"
#include "../../util/sig.h"

static const char *const pattern_names[] = { "random", "zero", NULL };

#define OFF(f) offsetof(struct suite_cli, f)
#define EOFF(f) OPT_ENUM_OFF(struct suite_cli, f)

static const struct opt matrix_table[] = {
	{ .kind = OPT_GROUP, .name = "", .help = "Engines and cache modes" },
	{ "engines", 'e', OPT_STRING, "LIST", OFF(engines),
	  "QEMU aio= engines (default threads,native,io_uring)" },
	{ "caches", 'c', OPT_STRING, "LIST", OFF(caches),
	  "QEMU cache= modes (default none,directsync,writethrough,writeback,unsafe)" },
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
	{ "runs", 'n', OPT_UINT, "N", OFF(s.runs),
	  "scored runs per test in each cell, after 1 warm-up (default 1)",
	  NULL, 1, 1000 },
	{ "time", 0, OPT_DURATION, "TIME", OFF(time_ns),
	  "length of each run (default 5s)" },
	{ "interval", 0, OPT_DURATION, "TIME", OFF(interval_ns),
	  "pause between tests and cells, 0 for none (default 5s)" },
	{ .kind = OPT_GROUP, .name = "", .help = "Target and data" },
	{ "size", 0, OPT_SIZE, "SIZE", OFF(size),
	  "test file size, or the region of a device/file (default: 1G for a new file, else all)" },
	{ "offset", 0, OPT_SIZE, "SIZE", OFF(offset),
	  "start of the region (default 0)" },
	{ "pattern", 0, OPT_ENUM, "random|zero", EOFF(s.base.pattern),
	  "data written (default random: incompressible)", pattern_names },
	{ "seed", 0, OPT_U64, "N", OFF(s.base.seed),
	  "seed of the offset and data generators", NULL, 0, 1.8e19 },
	{ "keep", 0, OPT_FLAG, NULL, OFF(keep),
	  "keep the test file iolab created" },
	{ "allow-write-file", 0, OPT_FLAG, NULL, OFF(allow_write_file),
	  "allow writing to an existing file iolab did not create" },
	{ "allow-write-device", 0, OPT_FLAG, NULL, OFF(allow_write_device),
	  "allow writing to a block device (destroys its data)" },
	{ .kind = OPT_GROUP, .name = "", .help = "Output" },
	{ "json", 0, OPT_FLAG, NULL, OFF(json),
	  "JSON report on stdout, with every cell and run" },
	{ "csv", 0, OPT_FLAG, NULL, OFF(csv),
	  "CSV on stdout: a line per cell, test and direction" },
	{ "output", 'o', OPT_STRING, "FILE", OFF(output),
	  "write the report to FILE instead of stdout" },
	{ "no-progress", 0, OPT_FLAG, NULL, OFF(no_progress),
	  "no live progress line on stderr" },
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
	return matrix_spec_validate(m, err);
}

int cmd_matrix(int argc, char **argv)
{
	struct suite_cli c;
	struct matrix_spec m;
	struct target_req req;
	struct matrix_result res;
	struct warnings tw = { 0 };
	struct target t = { 0 };
	struct opt_state st;
	struct err err = { 0 };
	struct stat sb;
	FILE *out = NULL;
	const char *path;
	char eta[32], proc[128], sz[32], fill[96] = "";
	unsigned int cells;
	int rc = EXIT_OK, prc;
	bool prepared = false, complete = false;

	suite_cli_init(&c);
	c.s.runs = 1;
	prc = opts_parse(&matrix_cmd, argc, argv, &c, &st, &err);
	if (prc != OPTS_OK) {
		opts_state_free(&st);
		return prc == OPTS_HELP ? EXIT_OK : err_report(&err);
	}
	memset(&m, 0, sizeof(m));
	if (!suite_cli_finish(&c, &matrix_cmd, &st, "cdm6", &err) ||
	    !build_spec(&c, &m, &err))
		goto out;

	path = st.npositional ? st.positional[0] : CLI_DEFAULT_TARGET;
	/* Some cell writes whenever the suite writes. */
	suite_target_req(&c, path, mark_needs_write(&m.mark), &req);
	out = cli_open_output(c.output, path, &err);
	if (!out)
		goto out;
	sig_install();
	prepared = true;
	cells = matrix_cells_to_run(&m);
	if (stat(path, &sb) && errno == ENOENT)
		snprintf(fill, sizeof(fill), ", after writing the %s test file",
			 fmt_size(c.size ? c.size : req.create_size, sz,
				  sizeof(sz)));
	fprintf(stderr,
		"iolab matrix: %u cell%s to measure (%u refused by QEMU), %u test%s each, %s: about %s%s\n",
		cells, cells == 1 ? "" : "s", m.nengines * m.ncaches - cells,
		mark_count(&m.mark), mark_count(&m.mark) == 1 ? "" : "s",
		mark_procedure_text(&m.mark, proc, sizeof(proc)),
		suite_fmt_eta(matrix_estimate_ns(&m), eta, sizeof(eta)), fill);
	if (!target_prepare(&t, &req, &tw, &err))
		goto out;
	if (!matrix_run(&m, &t, &res, &err)) {
		matrix_result_free(&res);
		goto out;
	}
	{
		struct matrix_report rep = {
			.argc = argc + 1,
			.argv = argv - 1,
			.target = &t,
			.res = &res,
			.warnings = &tw,
		};

		if (c.json) {
			if (!matrix_json_write(&rep, out, &err))
				rc = err_report(&err);
		} else if (c.csv) {
			if (!matrix_csv_write(&rep, out, &err))
				rc = err_report(&err);
		} else {
			matrix_text_print(&rep, out);
		}
	}
	complete = rc == EXIT_OK;
	for (unsigned int k = 0; k < res.ncells; k++)
		if (res.cells[k].mark.errors && rc == EXIT_OK)
			rc = EXIT_IO;
	if (res.stop_signal)
		rc = sig_exit_code(res.stop_signal);
	matrix_result_free(&res);
out:
	rc = cli_finish(rc, &err, prepared ? &t : NULL, out, complete);
	warnings_free(&tw);
	opts_state_free(&st);
	return rc;
}
