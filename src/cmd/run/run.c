// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab run`: its flags, and the driver from flags to report. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../commands.h"
#include "../common.h"
#include "../opts.h"
#include "../../core/job.h"
#include "../../core/runner.h"
#include "../../core/target.h"
#include "run_report.h"
#include "../../util/err.h"
#include "../../util/sig.h"

struct run_opts {
	struct job_spec j;
	uint64_t size, offset;
	bool keep, allow_write_file, allow_write_device, json, csv, no_progress;
	const char *output;
};

static const char *const pattern_names[] = { "random", "zero", NULL };

static bool set_percentiles(void *o, const char *arg, struct err *err)
{
	return cli_parse_percentiles(&((struct run_opts *)o)->j, arg, err);
}

#define OFF(f) offsetof(struct run_opts, f)
#define EOFF(f) OPT_ENUM_OFF(struct run_opts, f)

static const struct opt run_table[] = {
	{ .kind = OPT_GROUP, .name = "", .help = "Workload" },
	{ "rw", 0, OPT_ENUM, "MODE", EOFF(j.rw),
	  "read|write|randread|randwrite|rw|randrw (default randread)",
	  rw_names },
	{ "mix", 0, OPT_UINT, "PCT", OFF(j.mix_read_pct),
	  "share of reads in rw/randrw, percent (default 70)", NULL, 0, 100 },
	{ "bs", 0, OPT_SIZE, "SIZE", OFF(j.bs), "block size (default 4k)" },
	{ "qd", 0, OPT_UINT, "N", OFF(j.qd),
	  "requests in flight per thread (default 1)", NULL, 1, 4096 },
	{ "threads", 0, OPT_UINT, "N", OFF(j.threads),
	  "job threads, each with its own queue (default 1)", NULL, 1, 256 },
	{ "size", 0, OPT_SIZE, "SIZE", OFF(size),
	  "test file size, or the region of a device/file (default: 1G for a new file, else all)" },
	{ "offset", 0, OPT_SIZE, "SIZE", OFF(offset),
	  "start of the region (default 0)" },
	{ "pattern", 0, OPT_ENUM, "random|zero", EOFF(j.pattern),
	  "data written (default random: incompressible)", pattern_names },
	{ "seed", 0, OPT_U64, "N", OFF(j.seed),
	  "seed of the offset and data generators", NULL, 0, 1.8e19 },
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
	{ "engine", 'e', OPT_ENUM, "NAME", EOFF(j.engine),
	  "io_uring|native|threads|sync|null (default: io_uring if usable)",
	  engine_names },
	{ "cache", 'c', OPT_ENUM, "MODE", EOFF(j.cache),
	  "none|directsync|writethrough|writeback|unsafe (default none)",
	  cache_names },
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
	{ "keep", 0, OPT_FLAG, NULL, OFF(keep),
	  "keep the test file iolab created" },
	{ "allow-write-file", 0, OPT_FLAG, NULL, OFF(allow_write_file),
	  "allow writing to an existing file iolab did not create" },
	{ "allow-write-device", 0, OPT_FLAG, NULL, OFF(allow_write_device),
	  "allow writing to a block device (destroys its data)" },
	{ .kind = OPT_GROUP, .name = "", .help = "Output" },
	{ "json", 0, OPT_FLAG, NULL, OFF(json), "JSON report on stdout" },
	{ "csv", 0, OPT_FLAG, NULL, OFF(csv),
	  "CSV on stdout: one line per direction, for spreadsheets" },
	{ "output", 'o', OPT_STRING, "FILE", OFF(output),
	  "write the report to FILE instead of stdout" },
	{ "percentiles", 0, OPT_CALL, "LIST", 0,
	  "latency percentiles, e.g. 50,99,99.9 (default fio's list)", NULL, 0,
	  0, set_percentiles },
	{ "no-progress", 0, OPT_FLAG, NULL, OFF(no_progress),
	  "no live progress line on stderr" },
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

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { 0 };
	struct target_req req = { 0 };
	struct run_result res;
	struct warnings tw = { 0 };
	struct target t = { 0 };
	struct opt_state st;
	struct err err = { 0 };
	struct runner_opts ro = { .label = "iolab run" };
	FILE *out = NULL;
	int rc = EXIT_OK, prc;
	bool prepared = false, complete = false;

	job_defaults(&o.j);
	prc = opts_parse(&run_cmd, argc, argv, &o, &st, &err);
	if (prc != OPTS_OK) {
		opts_state_free(&st);
		return prc == OPTS_HELP ? EXIT_OK : err_report(&err);
	}
	if (opts_was_set(&run_cmd, &st, "ios") &&
	    !opts_was_set(&run_cmd, &st, "runtime"))
		o.j.runtime_ns = 0;
	if (opts_was_set(&run_cmd, &st, "mix") && o.j.rw != RW_RW &&
	    o.j.rw != RW_RANDRW) {
		err_set(&err, EXIT_USAGE, 0,
			"--mix applies to --rw rw or randrw, not %s",
			rw_name(o.j.rw));
		goto out;
	}
	if (o.json && o.csv) {
		err_set(&err, EXIT_USAGE, 0,
			"--json and --csv exclude each other; choose one");
		goto out;
	}
	/* Before the report file or the test file exists. */
	if (!job_validate(&o.j, &err) ||
	    !job_check_memory(&o.j, "use a smaller --qd, --threads or --bs",
			      &err))
		goto out;

	req.path = st.npositional ? st.positional[0] : CLI_DEFAULT_TARGET;
	req.size = o.size;
	req.create_size = 1ull << 30;
	req.offset = o.offset;
	req.need_write = rw_writes(&o.j) && o.j.engine != ENGINE_NULL;
	req.allow_write_file = o.allow_write_file;
	req.allow_write_device = o.allow_write_device;
	req.keep = o.keep;
	req.fill = o.j.pattern;
	req.progress = !o.no_progress && cli_progress_wanted();

	out = cli_open_output(o.output, req.path, &err);
	if (!out)
		goto out;
	sig_install();
	prepared = true;
	if (!target_prepare(&t, &req, &tw, &err))
		goto out;
	ro.progress = req.progress;
	if (!runner_run(&o.j, &t, &ro, &res, &err))
		goto out;
	warn_merge(&tw, &res.warnings);
	{
		struct run_report rep = {
			.argc = argc + 1,
			.argv = argv - 1,
			.target = &t,
			.res = &res,
			.warnings = &tw,
		};

		if (o.json) {
			if (!run_json_write(&rep, out, &err))
				rc = err_report(&err);
		} else if (o.csv) {
			if (!run_csv_write(&rep, out, &err))
				rc = err_report(&err);
		} else {
			run_text_print(&rep, out);
		}
	}
	complete = rc == EXIT_OK;
	if (res.errors)
		rc = EXIT_IO;
	else if (res.stop_signal)
		rc = sig_exit_code(res.stop_signal);
	result_free(&res);
out:
	rc = cli_finish(rc, &err, prepared ? &t : NULL, out, complete);
	warnings_free(&tw);
	opts_state_free(&st);
	return rc;
}
