/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pieces the command drivers share: the report stream (--output), the
 * percentile list, choice tables for option rows, progress decision.
 */
#ifndef IOLAB_CMD_COMMON_H
#define IOLAB_CMD_COMMON_H

#include <stdbool.h>
#include <stdio.h>

struct err;
struct job_spec;
struct target;

/*
 * Open the report stream. @path NULL or "-": stdout. A block device is
 * refused; a terminal, /dev/null or a pipe is written as it is. Any other
 * name gets a new temporary file beside it (never through a link), which
 * cli_close_output() renames over the name only when the report is
 * complete, and removes otherwise, so a failed or refused run leaves an
 * existing file as it was; a link at the name is replaced, not followed.
 * Refuses a path that is the target (@target, may be NULL) itself.
 */
FILE *cli_open_output(const char *path, const char *target, struct err *err);
/* @complete: the whole report was written; keep it. */
bool cli_close_output(FILE *f, bool complete, struct err *err);

/*
 * The end of a command that measured a target: a pending error reported
 * (unless one already was), the target released (saying so when a test
 * file iolab made is kept), the report stream closed (kept if @complete).
 * @t is NULL when it was never prepared, @out when it was never opened.
 * Returns the exit code.
 */
int cli_finish(int rc, struct err *err, struct target *t, FILE *out,
	       bool complete);

/* "1,50,99,99.9" -> j->percentiles (ascending, at most 24). */
bool cli_parse_percentiles(struct job_spec *j, const char *list,
			   struct err *err);

/* A live progress line only when stderr is a terminal. */
bool cli_progress_wanted(void);

/* --pattern's names, by enum data_pattern. */
extern const char *const cli_pattern_names[];

/* The default test file, in the current directory. */
#define CLI_DEFAULT_TARGET "iolab-test.dat"

#endif
