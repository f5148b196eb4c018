// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab run --fio-job FILE`: each job of the file run as `iolab run` with
 * the options it translates to (run_fio_job.c), one after another, then
 * the flags of the command line, which win; the same target checks and
 * write safety as any run. The report is one stream for all the jobs: the
 * text of each, or one fio JSON document with every job.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common.h"
#include "../opts.h"
#include "run_fio_job.h"
#include "run_report.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

/* The file, a regular one and at most FIO_JOB_MAX_BYTES; never blocks on a
 * FIFO or a device given as the job file. */
static char *read_job_file(const char *path, size_t *len, struct err *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	char *buf;
	size_t n = 0;

	if (fd < 0)
		return err_set(err, EXIT_USAGE, errno,
			       "cannot open the job file %.200s", path),
		       NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return err_set(err, EXIT_USAGE, 0,
			       "the job file %.200s is not a regular file",
			       path),
		       NULL;
	}
	buf = xmalloc(FIO_JOB_MAX_BYTES + 2);
	while (n <= FIO_JOB_MAX_BYTES) {
		ssize_t r = read(fd, buf + n, FIO_JOB_MAX_BYTES + 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err_set(err, EXIT_USAGE, errno,
				"cannot read the job file %.200s", path);
			close(fd);
			free(buf);
			return NULL;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = 0;
	*len = n;
	return buf;
}

/* Flags of the command line that belong to the whole file, not a job. */
static int file_flag(const char *a)
{
	static const char *const valued[] = { "--fio-job", "--output",
					      "--output-format", "-o", NULL };
	static const char *const plain[] = { "--json", "--csv", NULL };
	size_t n;

	for (int i = 0; valued[i]; i++) {
		n = strlen(valued[i]);
		if (!strncmp(a, valued[i], n) && (!a[n] || a[n] == '='))
			return a[n] ? 1 : 2; /* args it takes up */
	}
	for (int i = 0; plain[i]; i++)
		if (!strcmp(a, plain[i]))
			return 1;
	return 0;
}

static bool is_operand(const struct opt_state *st, const char *a)
{
	for (int i = 0; i < st->npositional; i++)
		if (st->positional[i] == a)
			return true;
	return false;
}

/* Options as fio echoes them: those with a value (fio leaves out
 * time_based, stonewall ...), under their section's name. */
static json_t *jkv(const struct fio_kv *kv, int n)
{
	json_t *o = json_object();

	for (int i = 0; i < n; i++) {
		json_t *v;

		if (!kv[i].value)
			continue;
		/* jansson refuses invalid UTF-8: the file is not trusted. */
		v = json_string(kv[i].value);
		json_object_set_new(o, kv[i].key, v ? v : json_string("?"));
	}
	return o;
}

/* One job's command line: "run", its options, the user's flags, target. */
static char **job_argv(const struct fio_job *j, const struct opt_state *st,
		       int argc, char **argv, const char *user_target,
		       int *out_argc)
{
	char **av = xcalloc((size_t)(j->nargs + argc + 3), sizeof(char *));
	const char *target = j->target ? j->target : user_target;
	int n = 0;

	av[n++] = "run";
	for (int i = 0; i < j->nargs; i++)
		av[n++] = j->args[i];
	for (int i = 1; i < argc; i++) {
		int skip;

		if (!strcmp(argv[i], "--"))
			break; /* operands only after it */
		if (is_operand(st, argv[i]))
			continue;
		skip = file_flag(argv[i]);
		if (skip) {
			i += skip - 1;
			continue;
		}
		av[n++] = argv[i];
	}
	if (target) {
		av[n++] = "--";
		av[n++] = (char *)target;
	}
	*out_argc = n;
	return av;
}

static void say_job(FILE *f, const struct fio_job *j, int i, int n, int ac,
		    char **av)
{
	fprintf(f, "%sfio job '%s' (%d of %d): iolab", i ? "\n" : "", j->name,
		i + 1, n);
	for (int k = 0; k < ac; k++)
		/* The target is the file's text: not printed raw. */
		if (k == ac - 1 && j->target)
			fprintf(f, " (filename=)");
		else
			fprintf(f, " %s", av[k]);
	fprintf(f, "\n");
}

bool run_fio_is_job_file(const char *path)
{
	size_t n = strlen(path);
	char buf[4096];
	struct stat st;
	ssize_t got;
	int fd;

	if (n < 5 || strcmp(path + n - 4, ".fio"))
		return false;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return false;
	}
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got <= 0)
		return false;
	buf[got] = 0;
	/* The first line that is not blank or a comment opens a section. */
	for (char *p = buf; *p;) {
		p += strspn(p, " \t\r\n");
		if (*p == ';' || *p == '#') {
			p += strcspn(p, "\n");
			continue;
		}
		return *p == '[';
	}
	return false;
}

int run_fio_jobs(run_one_fn run_one, const struct opt_state *st, int argc,
		 char **argv, const char *file, const char *target,
		 const char *output, bool iolab_format, int fio_format)
{
	struct fio_jobfile jf;
	struct run_collect c = { 0 };
	struct err err = { 0 };
	size_t len = 0;
	char *text;
	int rc = EXIT_OK;
	bool complete = false;

	if (iolab_format)
		return err_set(&err, EXIT_USAGE, 0,
			       "--fio-job reports as text or --output-format json|json+ (one document for all its jobs); --json and --csv describe one run"),
		       err_report(&err);
	text = read_job_file(file, &len, &err);
	if (!text)
		return err_report(&err);
	if (!fio_job_parse(text, len, file, &jf, &err)) {
		free(text);
		return err_report(&err);
	}
	free(text);
	c.out = cli_open_output(output, NULL, &err);
	if (!c.out) {
		fio_jobfile_free(&jf);
		return err_report(&err);
	}
	if (fio_format)
		c.jobs = json_array();
	for (int i = 0; i < jf.njobs && rc == EXIT_OK; i++) {
		const struct fio_job *j = &jf.jobs[i];
		int ac;
		char **av = job_argv(j, st, argc, argv, target, &ac);

		if (j->random_map_note)
			fprintf(stderr,
				"iolab: note: job '%s': fio visits each random block once (its random map); iolab draws offsets independently, as fio's norandommap\n",
				j->name);
		if (!fio_format) {
			say_job(c.out, j, i, jf.njobs, ac, av);
			fflush(c.out);
		} else {
			/* The JSON goes nowhere until every job ran. */
			av = xrealloc(av, (size_t)(ac + 3) * sizeof(char *));
			memmove(av + 3, av + 1,
				(size_t)(ac - 1) * sizeof(char *));
			av[1] = "--output-format";
			av[2] = fio_format == 2 ? "json+" : "json";
			ac += 2;
		}
		c.name = j->name;
		c.index = i;
		c.job_options = fio_format ? jkv(j->kv, j->nkv) : NULL;
		rc = run_one(ac, av, &c);
		json_decref(c.job_options);
		c.job_options = NULL;
		free(av);
	}
	if (rc == EXIT_OK && fio_format) {
		json_t *g = jf.nglobal ? jkv(jf.global, jf.nglobal) : NULL;

		complete = fio_json_write(c.jobs, g, c.out, &err);
		c.jobs = NULL;
		if (!complete)
			rc = err_report(&err);
	} else if (rc == EXIT_OK) {
		complete = true;
	}
	json_decref(c.jobs);
	if (!cli_close_output(c.out, complete, &err) && rc == EXIT_OK)
		rc = err_report(&err);
	fio_jobfile_free(&jf);
	return rc;
}
