/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio's job files (`iolab run --fio-job FILE`): the INI text read into jobs,
 * each job translated into the `iolab run` options that measure the same
 * thing. An option iolab cannot honour is refused by name, never ignored.
 * The text is untrusted: its size, line length, sections and options are
 * bounded, and control characters are refused.
 */
#ifndef IOLAB_CMD_RUN_RUN_FIO_JOB_H
#define IOLAB_CMD_RUN_RUN_FIO_JOB_H

#include <stdbool.h>
#include <stddef.h>

struct err;

#define FIO_JOB_MAX_BYTES (64 * 1024)
#define FIO_JOB_MAX_LINE 1024
#define FIO_JOB_MAX_JOBS 64
#define FIO_JOB_MAX_KV 64 /* options of one section */
#define FIO_JOB_MAX_NAME 64
#define FIO_JOB_MAX_ARGS 32

/* One option as the file writes it: "bs" "4k"; value NULL for "time_based". */
struct fio_kv {
	char *key, *value;
};

struct fio_job {
	char name[FIO_JOB_MAX_NAME + 1];
	/* The options of its own section, as written: fio's "job options". */
	struct fio_kv kv[FIO_JOB_MAX_KV];
	int nkv;
	/* The iolab run options: "--rw=randread", ... ("--name=value"). */
	char *args[FIO_JOB_MAX_ARGS];
	int nargs;
	/* filename=, under directory= when both are given; NULL if neither
	 * (directory= alone: the directory, where iolab makes its file). */
	char *target;
	/* fio would visit each random block once (its random map); iolab
	 * draws offsets independently: said on stderr, not hidden. */
	bool random_map_note;
};

struct fio_jobfile {
	struct fio_job *jobs;
	int njobs;
	/* Every [global] option, as written: fio's "global options". */
	struct fio_kv global[FIO_JOB_MAX_KV];
	int nglobal;
};

/*
 * Read @len bytes of @text (a job file named @what in messages) into @out.
 * On false @err holds one line naming the line, job or option and what to
 * do, and @out holds nothing to free.
 */
bool fio_job_parse(const char *text, size_t len, const char *what,
		   struct fio_jobfile *out, struct err *err);
void fio_jobfile_free(struct fio_jobfile *f);

#endif
