/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one path of the commands that measure a target (run, mark, matrix,
 * calibrate): parse the flags, let the command check them, open the report
 * stream, prepare the target, let the command measure, render the format
 * asked for, and end (exit code, kept test file, report kept only when
 * complete). A command fills a struct measure_cmd with its hooks and calls
 * measure_main() from its cmd_<name>().
 */
#ifndef IOLAB_CMD_MEASURE_H
#define IOLAB_CMD_MEASURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "opts.h"
#include "../core/target.h"
#include "../util/warn.h"

struct err;

/*
 * The flags every measuring command has; its options struct embeds one as
 * member `m`, which the OPT_ROWS_* macros of opts.h describe.
 */
struct measure_flags {
	uint64_t size, offset; /* --size, --offset: the region */
	bool keep, allow_write_file, allow_write_device;
	bool json, csv, no_progress;
	const char *output; /* -o */
};

enum measure_format {
	MEASURE_TEXT,
	MEASURE_JSON,
	MEASURE_CSV,
	MEASURE_FORMATS
};

/* One invocation, as the hooks see it. */
struct measure {
	void *self; /* the command's state: options, spec, result */
	const struct opt_cmd *opts;
	struct opt_state st; /* what was given, the operands */
	int argc; /* the whole command line, "iolab" first, */
	char **argv; /* for the JSON echo */
	/*
	 * Filled from the flags before prepare (path, region, safety,
	 * progress, a 1 GiB file when one is made); prepare sets need_write
	 * and fill.
	 */
	struct target_req req;
	/* TARGET named a directory: the test file inside it, as fio, ioping
	 * and CrystalDiskMark take a directory. */
	char dir_target[4096];
	struct target t; /* prepared before run */
	struct warnings warnings; /* the target's; run adds the result's */
};

struct measure_cmd {
	const struct opt_cmd *opts;
	/* After parsing: check and complete the options, finish m->req. */
	bool (*prepare)(struct measure *m, struct err *err);
	/* With the report stream open, before the target: what will run. */
	void (*announce)(struct measure *m); /* may be NULL */
	/* Measure m->t. On false nothing is left to free. */
	bool (*run)(struct measure *m, struct err *err);
	/* Write the report; false with @err set when it could not be. */
	bool (*render[MEASURE_FORMATS])(struct measure *m, FILE *out,
					struct err *err);
	/* The exit code from the result, given @rc after rendering. */
	int (*status)(struct measure *m, int rc);
	/* Free what run kept. */
	void (*done)(struct measure *m);
};

/*
 * Run @cmd: parse into @opts (defaults already set), which embeds @flags;
 * the hooks see @self as m->self. @argc/@argv as the subcommand gets them
 * (argv[0] its name). Returns the exit code.
 */
int measure_main(const struct measure_cmd *cmd, void *self, void *opts,
		 struct measure_flags *flags, int argc, char **argv);

#endif
