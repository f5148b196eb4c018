// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab calibrate`: its flags, and the driver from flags to report. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../commands.h"
#include "../common.h"
#include "../measure.h"
#include "../opts.h"
#include "../../core/job.h"
#include "../../core/resources.h"
#include "../../core/target.h"
#include "../../engine/engine.h"
#include "calibrate_report.h"
#include "calibrate_suite.h"
#include "../../util/clock.h"
#include "../../util/err.h"
#include "../../util/fsread.h"
#include "../../util/parse.h"
#include "../../util/sig.h"

#define MIN_BUDGET_NS 3000000000ull

struct calibrate_opts {
	unsigned int disks;
	double max_latency_ms;
	enum cal_stat stat;
	enum engine_kind engine;
	enum cache_mode cache;
	uint64_t bs, budget_ns;
	double precision_pct;
	struct measure_flags m; /* never writes: no --allow-write-* */
};

#define OFF(f) offsetof(struct calibrate_opts, f)
#define EOFF(f) OPT_ENUM_OFF(struct calibrate_opts, f)

static const struct opt calibrate_table[] = {
	{ .kind = OPT_GROUP,
	  .name = "",
	  .help = "Calibration (Oracle's parameters)" },
	{ "disks", 0, OPT_UINT, "N", OFF(disks),
	  "disks behind the target (Oracle's num_physical_disks): up to 32 x N small, 8 x N large reads in flight (default: from the device)",
	  NULL, 1, 1000 },
	{ "max-latency", 0, OPT_DOUBLE, "MS", OFF(max_latency_ms),
	  "latency cap of the small reads in ms, fractions allowed (default 10)",
	  NULL, 0.001, 1e6 },
	{ "latency-stat", 0, OPT_ENUM, "mean|p99", EOFF(stat),
	  "statistic held to the cap (default mean, as Oracle)",
	  cal_stat_names },
	{ "block-size", 0, OPT_SIZE, "SIZE", OFF(bs),
	  "size of the small reads, the database block (default 8k)" },
	{ "budget", 0, OPT_DURATION, "TIME", OFF(budget_ns),
	  "time for the whole calibration, test-file preparation included (default 60s, at least 3s)" },
	{ "max-time", 0, OPT_DURATION, "TIME", OFF(budget_ns),
	  "the same as --budget (mark's and matrix's name for the cap)" },
	{ "precision", 0, OPT_DOUBLE, "PCT", OFF(precision_pct),
	  "a point's windows must agree within +-PCT% (default 10); one that does not is measured again, up to 3 windows, their median taken, and marked noisy if they still disagree",
	  NULL, 1, 50 },
	{ .kind = OPT_GROUP, .name = "", .help = "Target" },
	OPT_ROWS_REGION(struct calibrate_opts),
	OPT_ROW_KEEP(struct calibrate_opts),
	{ .kind = OPT_GROUP, .name = "", .help = "QEMU engine and cache mode" },
	OPT_ROWS_ENGINE(struct calibrate_opts, engine, cache,
			"; buffered modes are warned about"),
	{ .kind = OPT_GROUP, .name = "", .help = "Output" },
	OPT_ROWS_OUTPUT(struct calibrate_opts, "JSON report on stdout",
			"CSV on stdout: a line per point of the curves"),
	OPT_ROW_NO_PROGRESS(struct calibrate_opts),
	{ .kind = OPT_GROUP },
};

static const struct opt_cmd calibrate_cmd = {
	.name = "calibrate",
	.synopsis = "iolab calibrate [OPTIONS] [TARGET]",
	.summary =
		"Oracle DBMS_RESOURCE_MANAGER.CALIBRATE_IO's figures for TARGET, read only:\n"
		"max_iops (random --block-size reads at the highest rate whose latency stays\n"
		"within --max-latency), latency (their mean, ms), max_mbps (random 1 MiB\n"
		"reads) and max_pmbps (the same from one thread at QD1), with the curve\n"
		"behind them. TARGET is a file (created and filled if missing) or a block\n"
		"device, never written; it defaults to " CLI_DEFAULT_TARGET
		" in the current directory.",
	.opts = calibrate_table,
	.footer =
		"Sizes: 8k, 8K, 8KiB, 1M (powers of 1024), 8kB (1000), bytes. Durations: 30s, 2m.\n"
		"--csv: a line per point, phases small, large, single: phase, block_size_bytes,\n"
		"  load, qd, threads, iops, mbps, lat_mean/_p50/_p99_ms, windows, spread, noisy,\n"
		"  meets_cap, best; then on every line the calibration: engine, cache, disks,\n"
		"  max_latency_ms, latency_stat, cap_met, max_iops, actual_latency_ms, max_mbps,\n"
		"  max_pmbps, knee_load, knee_iops, knee_lat_mean_ms, qd1_lat_mean_ms,\n"
		"  budget_cut_short, partial. Empty = no such figure (e.g. cap not met).\n"
		"Exit: 0 ok, 1 usage, 2 environment or refused, 3 I/O error,\n"
		"      4 --max-latency cannot be met even at QD1 (the report is still printed),\n"
		"      130 interrupted (partial report printed).\n",
	.max_positional = 1,
};

static bool validate(const struct calibrate_opts *o, struct err *err)
{
	struct job_spec j;

	if (o->budget_ns < MIN_BUDGET_NS) {
		char b[32];

		return err_set(
			err, EXIT_USAGE, 0,
			"--budget %s is too short for a calibration; give at least 3s (the default is 60s)",
			fmt_duration(o->budget_ns, b, sizeof(b)));
	}
	if (o->bs < 512)
		return err_set(
			err, EXIT_USAGE, 0,
			"--block-size must be at least 512 bytes (a database block is 2k to 32k; the default is 8k)");
	if (o->bs > (64u << 20))
		return err_set(err, EXIT_USAGE, 0,
			       "--block-size is above the 64 MiB limit");
	/* What the runner would refuse (aio=native without O_DIRECT), said
	 * before a test file is made. */
	job_defaults(&j);
	j.bs = o->bs;
	j.engine = o->engine;
	j.cache = o->cache;
	if (!job_validate(&j, err))
		return false;
	{
		char desc[96], bs[16];
		unsigned int load =
			calibrate_small_load_bound(o->disks, j.engine);

		snprintf(desc, sizeof(desc),
			 "up to %u reads of %s in flight (%u per disk)", load,
			 fmt_size(o->bs, bs, sizeof(bs)), CAL_SMALL_PER_DISK);
		return res_check_buffers(
			&fsview_host,
			calibrate_buffer_bound(o->disks, j.engine, o->bs), desc,
			"use a smaller --block-size or --disks", err);
	}
}

static int exit_code(const struct cal_result *r)
{
	if (r->io_error)
		return EXIT_IO;
	if (r->stop_signal)
		return sig_exit_code(r->stop_signal);
	if (!r->cap_met && cal_search_at(&r->ph[CAL_PHASE_SMALL].s, 1))
		return EXIT_FINDING;
	return EXIT_OK;
}

/* One invocation: the flags, then the calibration. */
struct calibrate_state {
	struct calibrate_opts o;
	struct cal_opts co;
	struct cal_result res;
};

static bool calibrate_prepare(struct measure *m, struct err *err)
{
	if (!validate(&((struct calibrate_state *)m->self)->o, err))
		return false;
	m->req.need_write = false; /* read only: safe on a live device */
	m->req.fill = PATTERN_RANDOM;
	return true;
}

static bool calibrate_measure(struct measure *m, struct err *err)
{
	struct calibrate_state *s = m->self;
	const struct calibrate_opts *o = &s->o;
	struct cal_opts *co = &s->co;

	if (m->t.region_len < CAL_LARGE_BS)
		return err_set(
			err, EXIT_USAGE, 0,
			"the region of %s is smaller than 1 MiB, the size of the large reads; use a larger --size",
			m->t.path);

	if (cache_direct(o->cache) && !engine_has(o->engine, ENGINE_NO_IO) &&
	    o->bs % m->t.logical_block_size)
		return err_set(
			err, EXIT_USAGE, 0,
			"--block-size %llu is not a multiple of the %u-byte block size of %s, which O_DIRECT (--cache %s) requires; use 8k",
			(unsigned long long)o->bs, m->t.logical_block_size,
			m->t.path, cache_name(o->cache));
	co->disks = o->disks;
	co->max_latency_ms = o->max_latency_ms;
	co->stat = o->stat;
	co->bs = o->bs;
	co->budget_ns = o->budget_ns;
	co->precision = o->precision_pct / 100;
	co->engine = o->engine;
	co->cache = o->cache;
	co->progress = m->req.progress;
	if (!calibrate_run(co, &m->t, &s->res, err))
		return false;
	warn_merge(&m->warnings, &s->res.warnings);
	return true;
}

static struct calibrate_report report_of(struct measure *m)
{
	struct calibrate_state *s = m->self;

	return (struct calibrate_report){
		.argc = m->argc,
		.argv = m->argv,
		.target = &m->t,
		.opts = &s->co,
		.res = &s->res,
		.warnings = &m->warnings,
	};
}

static bool render_text(struct measure *m, FILE *out, struct err *err)
{
	struct calibrate_report rep = report_of(m);

	(void)err;
	calibrate_text_print(&rep, out);
	return true;
}

static bool render_json(struct measure *m, FILE *out, struct err *err)
{
	struct calibrate_report rep = report_of(m);

	return calibrate_json_write(&rep, out, err);
}

static bool render_csv(struct measure *m, FILE *out, struct err *err)
{
	struct calibrate_report rep = report_of(m);

	return calibrate_csv_write(&rep, out, err);
}

static int calibrate_status(struct measure *m, int rc)
{
	const struct cal_result *res =
		&((struct calibrate_state *)m->self)->res;

	if (rc == EXIT_OK)
		rc = exit_code(res);
	if (res->io_error)
		fprintf(stderr, "iolab: %s\n", res->io_error_msg);
	return rc;
}

static void calibrate_done(struct measure *m)
{
	calibrate_free(&((struct calibrate_state *)m->self)->res);
}

static const struct measure_cmd calibrate_measure_cmd = {
	.opts = &calibrate_cmd,
	.prepare = calibrate_prepare,
	.run = calibrate_measure,
	.render = { [MEASURE_TEXT] = render_text,
		    [MEASURE_JSON] = render_json,
		    [MEASURE_CSV] = render_csv },
	.status = calibrate_status,
	.done = calibrate_done,
};

int cmd_calibrate(int argc, char **argv)
{
	struct calibrate_state s = {
		.o = {
			.max_latency_ms = 10,
			.stat = CAL_STAT_MEAN,
			.bs = 8192,
			.budget_ns = 60000000000ull,
		},
		/* The budget counts from the start, test-file preparation
		 * included. */
		.co = { .start_ns = clock_ns() },
	};
	struct job_spec d;

	job_defaults(&d);
	s.o.engine = d.engine;
	s.o.cache = d.cache;
	return measure_main(&calibrate_measure_cmd, &s, &s.o, &s.o.m, argc,
			    argv);
}
