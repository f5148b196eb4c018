// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab mark`: its flags, and the driver from flags to report. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../commands.h"
#include "../common.h"
#include "../opts.h"
#include "mark_opts.h"
#include "../../core/target.h"
#include "mark_report.h"
#include "../../util/err.h"
#include "../../util/sig.h"

static const char *const pattern_names[] = { "random", "zero", NULL };

#define OFF(f) offsetof(struct suite_cli, f)
#define EOFF(f) OPT_ENUM_OFF(struct suite_cli, f)

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
	{ .kind = OPT_GROUP,
	  .name = "",
	  .help = "Procedure (CrystalDiskMark's)" },
	{ "runs", 'n', OPT_UINT, "N", OFF(s.runs),
	  "scored runs per test and direction, after 1 warm-up (default 5)",
	  NULL, 1, 1000 },
	{ "time", 0, OPT_DURATION, "TIME", OFF(time_ns),
	  "length of each run, e.g. 5s, 500ms (default 5s; flash 1s; at least 1ms)" },
	{ "interval", 0, OPT_DURATION, "TIME", OFF(interval_ns),
	  "pause between tests, 0 for none (default 5s; flash 30s)" },
	{ .kind = OPT_GROUP, .name = "", .help = "QEMU engine and cache mode" },
	{ "engine", 'e', OPT_ENUM, "NAME", EOFF(s.base.engine),
	  "io_uring|native|threads|sync|null (default: io_uring if usable)",
	  engine_names },
	{ "cache", 'c', OPT_ENUM, "MODE", EOFF(s.base.cache),
	  "none|directsync|writethrough|writeback|unsafe (default none)",
	  cache_names },
	{ "flush-every", 0, OPT_U64, "N", OFF(s.base.flush_every),
	  "fdatasync after every N writes in write and mix tests", NULL, 1,
	  1e12 },
	{ "force", 0, OPT_FLAG, NULL, OFF(s.base.force),
	  "measure settings QEMU refuses (native without O_DIRECT)" },
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
	  "JSON report on stdout, with every run" },
	{ "csv", 0, OPT_FLAG, NULL, OFF(csv),
	  "CSV on stdout: a line per test and direction" },
	{ "output", 'o', OPT_STRING, "FILE", OFF(output),
	  "write the report to FILE instead of stdout" },
	{ "no-progress", 0, OPT_FLAG, NULL, OFF(no_progress),
	  "no live progress line on stderr" },
	{ .kind = OPT_GROUP },
};

static const struct opt_cmd mark_cmd = {
	.name = "mark",
	.synopsis = "iolab mark [OPTIONS] [TARGET]",
	.summary =
		"CrystalDiskMark's suites, done as CrystalDiskMark does them: per test and\n"
		"direction one unscored warm-up run, then --runs runs of --time, reads first,\n"
		"then writes, then mix, --interval between tests. The headline is the best\n"
		"run (as CrystalDiskMark); mean, minimum and standard deviation sit beside it.\n"
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
		"  runs_scored, mbps_max/_mean/_min/_stddev, iops_max/_mean/_min/_stddev,\n"
		"  lat_min/_mean/_p50/_p99/_max_us (microseconds), mix_read_pct and\n"
		"  mix_read/write_mbps_max/_mean (with mix tests), page_cache_reads, partial,\n"
		"  warnings. Empty = no figure (stddev needs 2 runs).\n"
		"Sizes: 4k, 1M, 1g (powers of 1024), 4kB, 1MB (powers of 1000). Durations: 500ms, 5s, 2m.\n"
		"Exit: 0 ok, 1 usage, 2 environment or refused, 3 I/O error, 130 interrupted.\n",
	.max_positional = 1,
};

int cmd_mark(int argc, char **argv)
{
	struct suite_cli c;
	struct target_req req;
	struct mark_result res;
	struct warnings tw = { 0 };
	struct target t = { 0 };
	struct opt_state st;
	struct err err = { 0 };
	FILE *out = NULL;
	const char *path;
	int rc = EXIT_OK, prc;
	bool prepared = false, complete = false;

	suite_cli_init(&c);
	prc = opts_parse(&mark_cmd, argc, argv, &c, &st, &err);
	if (prc != OPTS_OK) {
		opts_state_free(&st);
		return prc == OPTS_HELP ? EXIT_OK : err_report(&err);
	}
	if (!suite_cli_finish(&c, &mark_cmd, &st, "default", &err) ||
	    !mark_spec_validate(&c.s, &err))
		goto out;

	path = st.npositional ? st.positional[0] : CLI_DEFAULT_TARGET;
	suite_target_req(&c, path, mark_needs_write(&c.s), &req);
	out = cli_open_output(c.output, path, &err);
	if (!out)
		goto out;
	sig_install();
	prepared = true;
	suite_print_estimate("iolab mark", &c, path, mark_count(&c.s),
			     mark_estimate_ns(&c.s));
	if (!target_prepare(&t, &req, &tw, &err))
		goto out;
	if (!mark_run(&c.s, &t, &res, &err)) {
		mark_result_free(&res);
		goto out;
	}
	{
		struct mark_report rep = {
			.argc = argc + 1,
			.argv = argv - 1,
			.target = &t,
			.res = &res,
			.warnings = &tw,
		};

		if (c.json) {
			if (!mark_json_write(&rep, out, &err))
				rc = err_report(&err);
		} else if (c.csv) {
			if (!mark_csv_write(&rep, out, &err))
				rc = err_report(&err);
		} else {
			mark_text_print(&rep, out);
		}
	}
	complete = rc == EXIT_OK;
	if (res.errors)
		rc = EXIT_IO;
	else if (res.stop_signal)
		rc = sig_exit_code(res.stop_signal);
	mark_result_free(&res);
out:
	rc = cli_finish(rc, &err, prepared ? &t : NULL, out, complete);
	warnings_free(&tw);
	opts_state_free(&st);
	return rc;
}
