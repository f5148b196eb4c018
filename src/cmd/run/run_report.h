/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `iolab run` reports: the target, the result, the warnings and the
 * command line; rendered as a table or as JSON.
 */
#ifndef IOLAB_CMD_RUN_RUN_REPORT_H
#define IOLAB_CMD_RUN_RUN_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "../../core/result.h"

struct err;
struct opt_state;
struct target;

struct run_report {
	int argc;
	char *const *argv;
	const struct target *target;
	const struct run_result *res;
	const struct warnings *warnings; /* target's and result's, merged */
};

void run_text_print(const struct run_report *r, FILE *f);
bool run_json_write(const struct run_report *r, FILE *f, struct err *err);
/* One CSV line per direction; see run_csv.c. */
bool run_csv_write(const struct run_report *r, FILE *f, struct err *err);

/*
 * A job of a fio job file (run_fio.c): where its report goes. Text goes to
 * @out, fio's JSON into @jobs, one document written after the last job.
 */
struct run_collect {
	FILE *out;
	json_t *jobs;
	const char *name; /* the job's */
	int index; /* from 0: fio's groupid, a stonewalled job a group */
	json_t *job_options; /* taken by the job's JSON */
};

/* `iolab run` on @argc/@argv, a job file's job when @collect is set. */
int run_main(int argc, char **argv, struct run_collect *collect);
/* One run of a job file's job: run_main(), given by run.c. */
typedef int (*run_one_fn)(int argc, char **argv, struct run_collect *collect);
/*
 * `iolab run --fio-job FILE [TARGET]`, each job run by @run_one: @st and
 * the arguments as parsed from @argc/@argv; @target the jobs' without
 * filename= (NULL: run's default); @output is -o, @iolab_format --json or
 * --csv was given, @fio_format 0 normal, 1 json, 2 json+. Returns the exit
 * code.
 */
int run_fio_jobs(run_one_fn run_one, const struct opt_state *st, int argc,
		 char **argv, const char *file, const char *target,
		 const char *output, bool iolab_format, int fio_format);
/* @path is NAME.fio, a regular file whose first line that is not blank or
 * a comment opens a [section]: `iolab run JOB.fio` as fio takes it. */
bool run_fio_is_job_file(const char *path);

/* fio's JSON layout (run_fio_json.c): one job's object, with @job_options
 * taken; "job options" of a run given by flags; the document around
 * @jobs (taken), with @global_options (taken, may be NULL). */
json_t *fio_json_job(const char *name, int groupid, json_t *job_options,
		     const struct run_result *r, bool plus);
json_t *fio_json_spec_options(const struct job_spec *j, const char *target);
bool fio_json_write(json_t *jobs, json_t *global_options, FILE *f,
		    struct err *err);

/* Shared by the text renderers: "randread 4 KiB QD1 T1". */
const char *text_job_title(const struct job_spec *j, char *buf, size_t len);
/* Print warnings as "  ! message" lines. */
void text_warnings(const struct warnings *w, FILE *f);

#endif
