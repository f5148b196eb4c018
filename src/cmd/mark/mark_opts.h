/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `iolab mark` and `iolab matrix` share on the command line: the
 * suite's flags (preset, tests, directions, runs, times), how they become
 * a mark spec, and the
 * estimate printed before starting.
 */
#ifndef IOLAB_CMD_MARK_MARK_OPTS_H
#define IOLAB_CMD_MARK_MARK_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "../measure.h"
#include "../opts.h"
#include "../../core/target.h"
#include "mark_suite.h"

struct err;

struct suite_cli {
	struct mark_spec s;
	const char *preset, *tests, *only;
	const char *engines, *caches; /* matrix's lists */
	const char *check; /* matrix --check PROFILE */
	uint64_t time_ns, interval_ns; /* applied over the preset's */
	bool time_set; /* --time was given */
	unsigned int runs; /* --runs: CrystalDiskMark's fixed procedure */
	double precision_pct; /* --precision */
	struct measure_flags m; /* region, safety, output */
};

/*
 * The procedure's rows, mark's and matrix's: --precision, --max-time
 * (@cap its default, "20s"), --runs (CrystalDiskMark's). --time and
 * --interval follow in each table, worded for the command.
 */
/* clang-format off */
#define OPT_ROWS_PROCEDURE(cap)						\
	{ "precision", 0, OPT_DOUBLE, "PCT",				\
	  offsetof(struct suite_cli, precision_pct),			\
	  "run each test until the 95% interval of its mean MB/s is within +-PCT% (default 5)", \
	  NULL, 0.1, 50 },						\
	{ "max-time", 0, OPT_DURATION, "TIME",				\
	  offsetof(struct suite_cli, s.max_ns),				\
	  "at most this long per test and direction, warm-up included; a figure not known by then is marked noisy (default " cap ")" }, \
	{ "runs", 'n', OPT_UINT, "N", offsetof(struct suite_cli, runs),	\
	  "CrystalDiskMark's procedure instead: exactly N runs per test after 1 warm-up, the best shown (with it --time defaults to 5s, --interval to 5s)", \
	  NULL, 1, 1000 }
/* clang-format on */

/* Defaults before parsing (the matrix then changes preset and runs). */
void suite_cli_init(struct suite_cli *c);
/*
 * After parsing: preset or tests, directions, times, mix and flush rules.
 * @default_preset applies when neither --preset nor --tests was given.
 */
bool suite_cli_finish(struct suite_cli *c, const struct opt_cmd *cmd,
		      const struct opt_state *st, const char *default_preset,
		      struct err *err);
/*
 * Before starting, on stderr: what will run and about how long it takes,
 * "iolab mark: 8 tests (read, write), 1 warm-up + 5 runs of 5 s per test,
 * 5 s between tests: about 4 min 35 s, after writing the 1 GiB test file".
 */
void suite_print_estimate(const char *who, const struct suite_cli *c,
			  const char *path, unsigned int ntests,
			  uint64_t total_ns, uint64_t max_ns);
/* "about 4 min 35 s", or "16 s to 2 min 40 s" when the procedure stops
 * on precision (@max_ns the cap). */
const char *suite_fmt_span(uint64_t ns, uint64_t max_ns, char *buf, size_t len);
/* "4 min 35 s", "50 s", "1 h 02 min". */
const char *suite_fmt_eta(uint64_t ns, char *buf, size_t len);

#endif
