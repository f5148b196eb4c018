// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab lab`: its flags, and the driver from flags to report. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../commands.h"
#include "../common.h"
#include "../opts.h"
#include "lab_host.h"
#include "lab_report.h"
#include "../../util/err.h"
#include "../../util/parse.h"
#include "../../util/sig.h"
#include "../../util/xmem.h"

struct lab_cli {
	struct lab_opts lo;
	const char *aio, *cache, *bus, *format, *preset, *tests, *output;
	const char *check;
	unsigned int runs;
	uint64_t time_ns, max_ns;
	double precision_pct;
	bool json, csv, no_progress;
};

#define OFF(f) offsetof(struct lab_cli, f)

static const struct opt lab_table[] = {
	{ .kind = OPT_GROUP,
	  .name = "",
	  .help = "The cells (each list comma-separated, or 'all')" },
	{ "aio", 0, OPT_STRING, "LIST", OFF(aio),
	  "QEMU aio= engines: threads,native,io_uring (default all three)" },
	{ "cache", 0, OPT_STRING, "LIST", OFF(cache),
	  "QEMU cache= modes: none,directsync,writethrough,writeback,unsafe (default all five)" },
	{ "bus", 0, OPT_STRING, "LIST", OFF(bus),
	  "disk buses: virtio-blk,virtio-scsi,ide,ahci,nvme (default virtio-blk)" },
	{ "format", 0, OPT_STRING, "LIST", OFF(format),
	  "image formats: raw,qcow2 (default raw)" },
	{ .kind = OPT_GROUP, .name = "", .help = "The disk image" },
	{ "disk", 0, OPT_STRING, "PATH", OFF(lo.disk),
	  "a new image file to create, or a directory to create it in (default: the current directory)" },
	{ "disk-size", 0, OPT_SIZE, "SIZE", OFF(lo.disk_bytes),
	  "image size, filled by each guest before its suite (default 1G)" },
	{ .kind = OPT_GROUP, .name = "", .help = "The suite inside each guest" },
	{ "preset", 0, OPT_STRING, "NAME", OFF(preset),
	  "CrystalDiskMark preset, as iolab mark's (default cdm6)" },
	{ "tests", 0, OPT_STRING, "LIST", OFF(tests),
	  "tests instead of a preset, e.g. SEQ1M-Q8T1,RND4K-Q1T1" },
	{ "precision", 0, OPT_DOUBLE, "PCT", OFF(precision_pct),
	  "run each test until the 95% interval of its mean MB/s is within +-PCT% (default 5)",
	  NULL, 0.1, 50 },
	{ "max-time", 0, OPT_DURATION, "TIME", OFF(max_ns),
	  "at most this long per test and direction, warm-up included (default 2s)" },
	{ "runs", 0, OPT_UINT, "N", OFF(runs),
	  "CrystalDiskMark's procedure instead: exactly N runs per test after a warm-up, the best shown (runs of 2s unless --time)",
	  NULL, 1, 100 },
	{ "time", 0, OPT_DURATION, "TIME", OFF(time_ns),
	  "length of each run, e.g. 500ms, 2s (default 250ms; with --runs 2s; with --check each step's, default 2s)" },
	{ "check", 0, OPT_STRING, "PROFILE", OFF(check),
	  "instead of the suite, judge iolab check's PROFILE (etcd, postgresql, mysql, oracle, zookeeper) in each guest, each step for --time (at least 1s)" },
	{ "doctor", 0, OPT_FLAG, NULL, OFF(lo.doctor),
	  "also run iolab doctor inside each guest and report what it sees" },
	{ .kind = OPT_GROUP, .name = "", .help = "The guests" },
	{ "kernel", 0, OPT_STRING, "PATH", OFF(lo.kernel),
	  "guest kernel (default: the newest /boot/vmlinuz-*, modules from /lib/modules)" },
	{ "qemu", 0, OPT_STRING, "PATH", OFF(lo.qemu),
	  "QEMU binary (default qemu-system-x86_64; qemu-img from the same directory)" },
	{ "accel", 0, OPT_ENUM, "auto|kvm|tcg",
	  OPT_ENUM_OFF(struct lab_cli, lo.accel),
	  "accelerator; auto tries KVM and falls back to TCG (default auto)",
	  lab_accel_names },
	{ "memory", 0, OPT_SIZE, "SIZE", OFF(lo.memory_bytes),
	  "guest RAM (default 512M)" },
	{ "smp", 0, OPT_UINT, "N", OFF(lo.smp), "guest vCPUs (default 1)", NULL,
	  1, 64 },
	{ "guest-per-cell", 0, OPT_FLAG, NULL, OFF(lo.guest_per_cell),
	  "a guest for each cell (default: the cells of a bus and format share one, a disk each)" },
	{ "iolab-static", 0, OPT_STRING, "PATH", OFF(lo.iolab_static),
	  "the static iolab that becomes the guests' /init (default: see iolab-lab(1))" },
	{ "boot-timeout", 0, OPT_DURATION, "TIME", OFF(lo.boot_timeout_ns),
	  "watchdog: longest boot before a cell fails (default 2m)" },
	{ "cell-timeout", 0, OPT_DURATION, "TIME", OFF(lo.cell_timeout_ns),
	  "watchdog: longest cell (default: from the estimate, generously)" },
	{ .kind = OPT_GROUP, .name = "", .help = "Output" },
	{ "json", 0, OPT_FLAG, NULL, OFF(json), "JSON report on stdout" },
	{ "csv", 0, OPT_FLAG, NULL, OFF(csv),
	  "CSV on stdout: a line per cell, test and direction" },
	{ "output", 'o', OPT_STRING, "FILE", OFF(output),
	  "write the report to FILE instead of stdout" },
	{ "no-progress", 0, OPT_FLAG, NULL, OFF(no_progress),
	  "no live progress line on stderr" },
	{ "quiet", 'q', OPT_FLAG, NULL, OFF(lo.quiet),
	  "no line per cell on stderr" },
	{ .kind = OPT_GROUP },
};

static const struct opt_cmd lab_cmd = {
	.name = "lab",
	.synopsis = "iolab lab [OPTIONS]",
	.summary =
		"Measure each aio x cache x bus x format cell in a small QEMU guest with\n"
		"iolab itself as its init, running the suite on a fresh disk image of its\n"
		"own: the QEMU settings experiment, automated. Cells of one bus and format\n"
		"share a guest, measured one after another. Cells QEMU refuses show its message.",
	.opts = lab_table,
	.footer =
		"Sizes: 4k, 1M, 1G (powers of 1024). Durations: 500ms, 5s, 2m.\n"
		"--csv columns: bus, format, aio, cache, accel, status (ok|refused|failed),\n"
		"  reason (one line), risk, then iolab mark's from test on (iolab mark --help).\n"
		"  Every cell has its lines; what was not measured is empty, not 0.\n"
		"--check: text or --json; a cell whose flushes reach no storage (cache=unsafe,\n"
		"  an image in RAM) is never a pass. Its verdicts do not change the exit code.\n"
		"Exit: 0 every cell ok or refused by QEMU, 1 usage, 2 environment or a\n"
		"failed cell, 130 interrupted (Ctrl-C kills the guests, removes the files).\n",
	.max_positional = 0,
};

/* "a,b,c" or "all" into indices of @names; no duplicates. */
static int parse_names(const char *flag, const char *list,
		       const char *const *names, int count, int *out,
		       struct err *err)
{
	char buf[256], *items[16];
	int n;

	if (!strcmp(list, "all")) {
		for (int i = 0; i < count; i++)
			out[i] = i;
		return count;
	}
	if (strlen(list) >= sizeof(buf)) {
		err_set(err, EXIT_USAGE, 0, "--%s: the list is too long", flag);
		return -1;
	}
	strcpy(buf, list);
	n = parse_list(buf, items, 16, err);
	if (n < 0) {
		err_prefix(err, "--%s", flag);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		int k = parse_choice(items[i], names);
		char choices[160] = "";

		if (k < 0 || k >= count) {
			for (int c = 0; c < count; c++) {
				strcat(choices, c ? ", " : "");
				strcat(choices, names[c]);
			}
			err_set(err, EXIT_USAGE, 0,
				"--%s: unknown value '%s'; choose from %s, or all",
				flag, items[i], choices);
			return -1;
		}
		for (int j = 0; j < i; j++) {
			if (out[j] == k) {
				err_set(err, EXIT_USAGE, 0,
					"--%s: '%s' is listed twice", flag,
					items[i]);
				return -1;
			}
		}
		out[i] = k;
	}
	return n;
}

static bool parse_cells(struct lab_cli *c, struct err *err)
{
	const enum engine_kind *aio_kinds;
	unsigned int naio = engine_qemu_kinds(&aio_kinds);
	const char *aio_names[ENGINE_COUNT + 1] = { NULL };
	struct lab_opts *o = &c->lo;
	int v[16], n;

	for (unsigned int i = 0; i < naio; i++)
		aio_names[i] = engine_qemu_aio(aio_kinds[i]);
	if (c->aio) {
		n = parse_names("aio", c->aio, aio_names, (int)naio, v, err);
		if (n < 0)
			return false;
		for (int i = 0; i < n; i++)
			o->aios[i] = aio_kinds[v[i]];
		o->naio = (unsigned int)n;
	}
	if (c->cache) {
		n = parse_names("cache", c->cache, cache_names, CACHE_COUNT, v,
				err);
		if (n < 0)
			return false;
		for (int i = 0; i < n; i++)
			o->caches[i] = (enum cache_mode)v[i];
		o->ncache = (unsigned int)n;
	}
	if (c->bus) {
		n = parse_names("bus", c->bus, lab_bus_names, BUS_COUNT, v,
				err);
		if (n < 0)
			return false;
		for (int i = 0; i < n; i++)
			o->buses[i] = (enum lab_bus)v[i];
		o->nbus = (unsigned int)n;
	}
	if (c->format) {
		n = parse_names("format", c->format, lab_format_names,
				FMT_COUNT, v, err);
		if (n < 0)
			return false;
		for (int i = 0; i < n; i++)
			o->formats[i] = (enum lab_format)v[i];
		o->nformat = (unsigned int)n;
	}
	return true;
}

static bool parse_suite(struct lab_cli *c, struct err *err)
{
	struct lab_suite *s = &c->lo.suite;

	if (c->preset && c->tests)
		return err_set(
			err, EXIT_USAGE, 0,
			"--preset and --tests both choose the tests; give one");
	if (c->preset && !lab_suite_set_preset(s, c->preset, err))
		return false;
	if (c->tests && !lab_suite_set_tests(s, c->tests, err))
		return false;
	if (c->check) {
		if (c->preset || c->tests || c->runs || c->precision_pct > 0 ||
		    c->max_ns)
			return err_set(
				err, EXIT_USAGE, 0,
				"--check runs iolab check's profile instead of the suite: drop --preset, --tests, --runs, --precision and --max-time");
		/* A profile's steps are judged over seconds, not the
		 * suite's 250 ms runs. */
		if (!lab_suite_set_check(
			    s, c->check,
			    c->time_ns ? c->time_ns : 2000000000ull, err))
			return false;
	}
	if (c->time_ns && c->time_ns < 100000000ull)
		return err_set(err, EXIT_USAGE, 0,
			       "--time must be at least 100ms");
	return lab_suite_finish(s, c->runs, c->time_ns, c->precision_pct,
				c->max_ns, err);
}

int cmd_lab(int argc, char **argv)
{
	struct lab_cli c = { 0 };
	struct lab_report rep = { 0 };
	struct opt_state st;
	struct err err = { 0 };
	FILE *out = NULL;
	int rc = EXIT_OK, prc;
	bool complete = false;

	lab_opts_defaults(&c.lo);
	prc = opts_parse(&lab_cmd, argc, argv, &c, &st, &err);
	if (prc != OPTS_OK) {
		opts_state_free(&st);
		return prc == OPTS_HELP ? EXIT_OK : err_report(&err);
	}
	c.lo.progress = !c.no_progress && cli_progress_wanted();
	if (c.json && c.csv) {
		err_set(&err, EXIT_USAGE, 0,
			"--json and --csv exclude each other; choose one");
		goto out;
	}
	if (!parse_cells(&c, &err) || !parse_suite(&c, &err))
		goto out;
	if (c.check && c.csv) {
		err_set(&err, EXIT_USAGE, 0,
			"--check reports as text or --json (each cell's criteria, as iolab check --json has them); --csv is for the suite's tests");
		goto out;
	}
	if (c.lo.disk_bytes < (16u << 20) || c.lo.disk_bytes % 4096) {
		err_set(&err, EXIT_USAGE, 0,
			"--disk-size must be at least 16M and a multiple of 4k");
		goto out;
	}
	if (c.lo.memory_bytes < (128u << 20)) {
		err_set(&err, EXIT_USAGE, 0,
			"--memory must be at least 128M (the guest runs from RAM)");
		goto out;
	}
	out = cli_open_output(c.output, NULL, &err);
	if (!out)
		goto out;
	sig_install();
	rep.argc = argc + 1;
	rep.argv = argv - 1;
	rep.opts = &c.lo;
	lab_suite_title(&c.lo.suite, rep.suite_title, sizeof(rep.suite_title));
	if (!lab_run(&c.lo, &rep, &err))
		goto out;
	if (c.lo.suite.check)
		lab_check_settle_warnings(&rep);
	if (c.json) {
		if (!lab_json_write(&rep, out, &err))
			rc = err_report(&err);
	} else if (c.csv) {
		if (!lab_csv_write(&rep, out, &err))
			rc = err_report(&err);
	} else if (c.lo.suite.check) {
		lab_check_text(&rep, out);
	} else {
		lab_text_print(&rep, out);
	}
	complete = rc == EXIT_OK;
	if (rep.partial)
		rc = sig_exit_code(rep.stop_signal);
	else
		for (size_t i = 0; i < rep.ncells; i++)
			if (rep.cells[i].status == LAB_FAILED)
				rc = EXIT_ENV;
out:
	rc = cli_finish(rc, &err, NULL, out, complete);
	lab_report_free(&rep);
	opts_state_free(&st);
	return rc;
}
