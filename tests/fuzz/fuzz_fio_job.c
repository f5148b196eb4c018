// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for `iolab run --fio-job`'s reader of fio job files:
 * the input is read as a job file, and every job it accepts must come out
 * as bounded run options with a name of the characters allowed.
 * replay.c runs it over the kept corpus.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/run/run_fio_job.h"
#include "util/err.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fio_jobfile jf;
	struct err err = { 0 };

	if (!fio_job_parse((const char *)data, size, "fuzz.fio", &jf, &err)) {
		/* One line: the message reaches a terminal. */
		if (!err.msg[0] || strchr(err.msg, '\n'))
			abort();
		return 0;
	}
	if (jf.njobs < 1 || jf.njobs > FIO_JOB_MAX_JOBS)
		abort();
	for (int i = 0; i < jf.njobs; i++) {
		const struct fio_job *j = &jf.jobs[i];

		if (!j->name[0] || strlen(j->name) > FIO_JOB_MAX_NAME ||
		    j->nargs < 1 || j->nargs > FIO_JOB_MAX_ARGS)
			abort();
		for (int a = 0; a < j->nargs; a++)
			if (strncmp(j->args[a], "--", 2))
				abort();
	}
	fio_jobfile_free(&jf);
	return 0;
}
