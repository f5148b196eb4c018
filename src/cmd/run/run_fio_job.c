// SPDX-License-Identifier: GPL-2.0-or-later
/* fio job files read: sections, lines, bounds; see run_fio_job.h. Each
 * job's options are applied and translated by run_fio_opts.c. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_fio_opts.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

/* A section being read. */
struct section {
	char name[FIO_JOB_MAX_NAME + 1];
	struct fio_kv kv[FIO_JOB_MAX_KV];
	int nkv;
	int line;
};

static void kv_free(struct fio_kv *kv, int n)
{
	for (int i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
}

static bool job_of(struct fio_jobfile *f, struct section *sec, const char *what,
		   struct err *err)
{
	struct fio_job *j;
	struct fset s;

	if (f->njobs >= FIO_JOB_MAX_JOBS)
		return err_set(err, EXIT_USAGE, 0,
			       "%s: more than %d jobs; split the file", what,
			       FIO_JOB_MAX_JOBS);
	j = &f->jobs[f->njobs];
	memset(j, 0, sizeof(*j));
	memcpy(j->name, sec->name, sizeof(j->name));
	memcpy(j->kv, sec->kv, sizeof(sec->kv));
	j->nkv = sec->nkv;
	sec->nkv = 0; /* the job owns the strings now */
	f->njobs++;
	fio_opt_defaults(&s);
	for (int i = 0; i < f->nglobal; i++)
		if (!fio_opt_apply(&s, f->global[i].key, f->global[i].value,
				   err)) {
			err_prefix(err, "%s, [global] (for job '%s')", what,
				   j->name);
			return false;
		}
	for (int i = 0; i < j->nkv; i++)
		if (!fio_opt_apply(&s, j->kv[i].key, j->kv[i].value, err))
			goto fail;
	if (fio_opt_translate(j, &s, f->njobs - 1, err))
		return true;
fail:
	err_prefix(err, "%s, job '%s'", what, j->name);
	return false;
}

/* The section ending: a job, or more [global] options. */
static bool section_end(struct fio_jobfile *f, struct section *sec,
			const char *what, struct err *err)
{
	if (!sec->name[0])
		return true;
	if (strcmp(sec->name, "global"))
		return job_of(f, sec, what, err);
	for (int i = 0; i < sec->nkv; i++) {
		if (f->nglobal >= FIO_JOB_MAX_KV) {
			kv_free(sec->kv + i, sec->nkv - i);
			sec->nkv = 0;
			return err_set(err, EXIT_USAGE, 0,
				       "%s: more than %d [global] options",
				       what, FIO_JOB_MAX_KV);
		}
		f->global[f->nglobal++] = sec->kv[i];
	}
	sec->nkv = 0;
	return true;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = 0;
	return s;
}

static bool name_ok(const char *s, bool key)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(isalnum((unsigned char)*s) || *s == '_' ||
		      (!key && strchr("-.+@", *s))))
			return false;
	return true;
}

/* One line, NUL-terminated, of section @sec. */
static bool line_of(struct fio_jobfile *f, struct section *sec, char *line,
		    int no, const char *what, struct err *err)
{
	char *p = trim(line), *eq, *val = NULL;

	if (!*p || *p == ';' || *p == '#')
		return true;
	if (*p == '[') {
		char *end = strchr(p, ']');

		if (!end || end[1] || end - p - 1 > FIO_JOB_MAX_NAME)
			return err_set(
				err, EXIT_USAGE, 0,
				"%s line %d: a section is [name], a name of at most %d characters",
				what, no, FIO_JOB_MAX_NAME);
		*end = 0;
		if (!name_ok(p + 1, false))
			return err_set(
				err, EXIT_USAGE, 0,
				"%s line %d: a job name is letters, digits and _-.+@",
				what, no);
		if (!section_end(f, sec, what, err))
			return false;
		memset(sec, 0, sizeof(*sec));
		strcpy(sec->name, p + 1);
		sec->line = no;
		return true;
	}
	if (!sec->name[0])
		return err_set(err, EXIT_USAGE, 0,
			       "%s line %d: an option before any [section]",
			       what, no);
	if (!strncmp(p, "include", 7) && (p[7] == ' ' || p[7] == '\t'))
		return err_set(
			err, EXIT_USAGE, 0,
			"%s line %d: include is not supported: put the options in this file",
			what, no);
	eq = strchr(p, '=');
	if (eq) {
		*eq = 0;
		val = trim(eq + 1);
		p = trim(p);
		if (strchr(val, '$'))
			return err_set(
				err, EXIT_USAGE, 0,
				"%s line %d: fio's ${VAR} and $-expressions are not supported: write the value",
				what, no);
	}
	if (!name_ok(p, true))
		return err_set(err, EXIT_USAGE, 0,
			       "%s line %d: an option is name or name=value",
			       what, no);
	if (sec->nkv >= FIO_JOB_MAX_KV)
		return err_set(
			err, EXIT_USAGE, 0,
			"%s line %d: more than %d options in one section", what,
			no, FIO_JOB_MAX_KV);
	sec->kv[sec->nkv].key = xstrdup(p);
	sec->kv[sec->nkv].value = val ? xstrdup(val) : NULL;
	sec->nkv++;
	return true;
}

bool fio_job_parse(const char *text, size_t len, const char *what,
		   struct fio_jobfile *out, struct err *err)
{
	struct section sec = { 0 };
	char line[FIO_JOB_MAX_LINE + 1];
	size_t i = 0;
	int no = 0;

	memset(out, 0, sizeof(*out));
	if (len > FIO_JOB_MAX_BYTES)
		return err_set(err, EXIT_USAGE, 0,
			       "%s: larger than %d KiB; not a job file", what,
			       FIO_JOB_MAX_BYTES / 1024);
	out->jobs = xcalloc(FIO_JOB_MAX_JOBS, sizeof(*out->jobs));
	while (i < len) {
		size_t n = 0;

		no++;
		for (; i < len && text[i] != '\n'; i++) {
			unsigned char c = (unsigned char)text[i];

			if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
				err_set(err, EXIT_USAGE, 0,
					"%s line %d: a control character; not a job file",
					what, no);
				goto fail;
			}
			if (n >= FIO_JOB_MAX_LINE) {
				err_set(err, EXIT_USAGE, 0,
					"%s line %d: longer than %d characters",
					what, no, FIO_JOB_MAX_LINE);
				goto fail;
			}
			line[n++] = (char)c;
		}
		i++; /* the newline */
		line[n] = 0;
		if (!line_of(out, &sec, line, no, what, err))
			goto fail;
	}
	if (!section_end(out, &sec, what, err))
		goto fail;
	if (!out->njobs) {
		err_set(err, EXIT_USAGE, 0, "%s: no job section ([name]) in it",
			what);
		goto fail;
	}
	return true;
fail:
	kv_free(sec.kv, sec.nkv);
	fio_jobfile_free(out);
	return false;
}

void fio_jobfile_free(struct fio_jobfile *f)
{
	for (int i = 0; i < f->njobs; i++) {
		struct fio_job *j = &f->jobs[i];

		kv_free(j->kv, j->nkv);
		for (int a = 0; a < j->nargs; a++)
			free(j->args[a]);
		free(j->target);
	}
	kv_free(f->global, f->nglobal);
	free(f->jobs);
	memset(f, 0, sizeof(*f));
}
