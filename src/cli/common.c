// SPDX-License-Identifier: GPL-2.0-or-later
/* Shared command-driver helpers; see common.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "../core/job.h"
#include "../core/target.h"
#include "../util/err.h"
#include "../util/parse.h"

FILE *cli_open_output(const char *path, const char *target, struct err *err)
{
	struct stat a, b;
	FILE *f;

	if (!path || !strcmp(path, "-"))
		return stdout;
	if (target && !stat(path, &a) && !stat(target, &b) &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
		err_set(err, EXIT_USAGE, 0,
			"--output %s is the target itself; choose another file",
			path);
		return NULL;
	}
	f = fopen(path, "we");
	if (!f)
		err_set(err, EXIT_ENV, errno, "cannot write --output %s: %s",
			path, strerror(errno));
	return f;
}

bool cli_close_output(FILE *f, struct err *err)
{
	if (f == stdout)
		return fflush(f) == 0 ||
		       err_set(err, EXIT_ENV, errno,
			       "cannot write the report: %s", strerror(errno));
	if (fclose(f))
		return err_set(err, EXIT_ENV, errno,
			       "cannot write the report: %s", strerror(errno));
	return true;
}

int cli_finish(int rc, struct err *err, struct target *t, FILE *out)
{
	if (err->msg[0] && rc == EXIT_OK)
		rc = err_report(err);
	if (t) {
		if (t->created && t->keep)
			fprintf(stderr, "iolab: kept test file %s\n", t->path);
		target_release(t);
	}
	if (out && !cli_close_output(out, err) && rc == EXIT_OK)
		rc = err_report(err);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

bool cli_parse_percentiles(struct job_spec *j, const char *list,
			   struct err *err)
{
	char buf[512], *items[JOB_MAX_PERCENTILES];
	int n;

	if (strlen(list) >= sizeof(buf))
		return err_set(err, EXIT_USAGE, 0, "the list is too long");
	strcpy(buf, list);
	/* fio writes the list with colons; accept both. */
	for (char *p = buf; *p; p++)
		if (*p == ':')
			*p = ',';
	n = parse_list(buf, items, JOB_MAX_PERCENTILES, err);
	if (n < 0)
		return false;
	for (int i = 0; i < n; i++)
		if (!parse_double(items[i], 0, 100, &j->percentiles[i], err))
			return false;
	qsort(j->percentiles, (size_t)n, sizeof(double), cmp_double);
	j->npercentiles = n;
	return true;
}

bool cli_progress_wanted(void)
{
	return isatty(STDERR_FILENO);
}
