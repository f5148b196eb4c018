// SPDX-License-Identifier: GPL-2.0-or-later
/* fio job files read and translated into iolab run options; see the header. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_fio_job.h"
#include "../../util/err.h"
#include "../../util/parse.h"
#include "../../util/term.h"
#include "../../util/xmem.h"

/* What a job asks for once its [global] and own options are applied. */
struct fset {
	const char *rw; /* iolab's name */
	uint64_t bs;
	unsigned int iodepth, numjobs, batch, loops;
	int direct; /* fio's default 0: the page cache */
	const char *engine; /* iolab's name; fio's default psync is sync */
	uint64_t size, offset, io_size, number_ios;
	uint64_t runtime_ns, ramp_ns, rate_iops, fdatasync, seed;
	int mix; /* share of reads, -1 when not given */
	bool time_based, stonewall, zero_buffers, invalidate, norandommap;
	bool seed_set;
	const char *filename, *directory, *cpus;
	char percentiles[256];
};

/* @s made safe for one line of a terminal (term.h), shortened. */
static const char *shown(const char *s, char *buf, size_t len)
{
	if (term_sanitize(buf, len, s ? s : "", 0) >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
	return buf;
}

static bool bad(struct err *err, const char *key, const char *val,
		const char *why)
{
	char k[40], v[64];

	if (val)
		return err_set(err, EXIT_USAGE, 0, "%s=%s %s",
			       shown(key, k, sizeof(k)),
			       shown(val, v, sizeof(v)), why);
	return err_set(err, EXIT_USAGE, 0, "%s %s", shown(key, k, sizeof(k)),
		       why);
}

static bool need_value(const char *key, const char *val, struct err *err)
{
	return (val && *val) || bad(err, key, NULL, "needs a value");
}

static bool fbool(const char *key, const char *val, bool *out, struct err *err)
{
	if (!val || !strcmp(val, "1")) {
		*out = true;
		return true;
	}
	if (!strcmp(val, "0")) {
		*out = false;
		return true;
	}
	return bad(err, key, val, "is not 0 or 1");
}

static bool fuint(const char *key, const char *val, uint64_t min, uint64_t max,
		  uint64_t *out, struct err *err)
{
	struct err e = { 0 };

	if (!need_value(key, val, err))
		return false;
	if (!parse_u64(val, min, max, out, &e))
		return bad(err, key, val, "is not a whole number in range");
	return true;
}

/*
 * A size as fio reads it by default (kb_base=1024): k, kb, m, mb, g, gb,
 * t, tb in any case are powers of 1024. fio's compatibility mode makes
 * KiB a power of 1000, which no reader expects: refused, not guessed.
 */
static bool fsize(const char *key, const char *val, uint64_t *out,
		  struct err *err)
{
	static const char *const sfx[] = { "", "k", "m", "g", "t" };
	char *end, low[8];
	unsigned long long v;
	size_t n;

	if (!need_value(key, val, err))
		return false;
	if (!isdigit((unsigned char)val[0]))
		return bad(err, key, val, "is not a size (4k, 1m, 2g)");
	v = strtoull(val, &end, 10);
	n = strlen(end);
	if (strchr(val, '%'))
		return bad(
			err, key, val,
			"is a share of the device; give a size (4k, 1m, 2g)");
	if (strchr(end, 'i') || strchr(end, 'I'))
		return bad(
			err, key, val,
			"is ambiguous: fio (kb_base=1024, its default) reads KiB as 1000 bytes; write 4k or 4096");
	if (n > 2)
		return bad(err, key, val, "is not a size (4k, 1m, 2g)");
	for (size_t i = 0; i < n; i++)
		low[i] = (char)tolower((unsigned char)end[i]);
	low[n] = 0;
	if (n == 2 && low[1] != 'b')
		return bad(err, key, val, "is not a size (4k, 1m, 2g)");
	if (n == 2)
		low[1] = 0;
	for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		if (strcmp(low, sfx[i]))
			continue;
		for (size_t k = 0; k < i; k++) {
			if (v > UINT64_MAX / 1024)
				return bad(err, key, val, "is too large");
			v *= 1024;
		}
		*out = v;
		return true;
	}
	return bad(err, key, val, "is not a size (4k, 1m, 2g)");
}

static bool ftime(const char *key, const char *val, uint64_t *out,
		  struct err *err)
{
	struct err e = { 0 };

	if (!need_value(key, val, err))
		return false;
	if (!parse_duration(val, out, &e))
		return bad(err, key, val,
			   "is not a time (plain seconds, or 500ms, 10s, 2m)");
	return true;
}

static bool set_rw(struct fset *s, const char *key, const char *val,
		   struct err *err)
{
	static const char *const ok[] = { "read",      "read",	    "write",
					  "write",     "randread",  "randread",
					  "randwrite", "randwrite", "rw",
					  "rw",	       "readwrite", "rw",
					  "randrw",    "randrw",    NULL };

	if (!need_value(key, val, err))
		return false;
	if (strchr(val, ':'))
		return bad(
			err, key, val,
			"(an offset modifier) is not supported: drop the ':N'");
	for (int i = 0; ok[i]; i += 2)
		if (!strcmp(val, ok[i])) {
			s->rw = ok[i + 1];
			return true;
		}
	return bad(
		err, key, val,
		"is not supported: iolab runs read, write, randread, randwrite, rw, randrw");
}

static bool set_engine(struct fset *s, const char *key, const char *val,
		       struct err *err)
{
	/* libaio is QEMU's aio=native; the synchronous engines are one
	 * request at a time, which is iolab's sync. */
	static const char *const ok[] = { "io_uring", "io_uring", "libaio",
					  "native",   "psync",	  "sync",
					  "sync",     "sync",	  "pvsync",
					  "sync",     "pvsync2",  "sync",
					  "null",     "null",	  NULL };

	if (!need_value(key, val, err))
		return false;
	for (int i = 0; ok[i]; i += 2)
		if (!strcmp(val, ok[i])) {
			s->engine = ok[i + 1];
			return true;
		}
	return bad(
		err, key, val,
		"is not supported: iolab has io_uring, libaio, psync, sync, pvsync, pvsync2, null");
}

static bool set_direct(struct fset *s, const char *key, const char *val,
		       bool buffered, struct err *err)
{
	bool b;

	if (!fbool(key, val, &b, err))
		return false;
	s->direct = buffered ? !b : b;
	return true;
}

static bool set_mix(struct fset *s, const char *key, const char *val,
		    bool reads, struct err *err)
{
	uint64_t v;

	if (!fuint(key, val, 0, 100, &v, err))
		return false;
	s->mix = reads ? (int)v : 100 - (int)v;
	return true;
}

/* percentile_list=1:50:99.9 -> "1,50,99.9" for --percentiles. */
static bool set_percentiles(struct fset *s, const char *key, const char *val,
			    struct err *err)
{
	size_t n;

	if (!need_value(key, val, err))
		return false;
	n = strlen(val);
	if (n >= sizeof(s->percentiles))
		return bad(err, key, NULL, "is too long");
	for (size_t i = 0; i <= n; i++)
		s->percentiles[i] = val[i] == ':' ? ',' : val[i];
	return true;
}

/* fio options that only shape fio's own report or process model. */
static const char *const report_only[] = {
	"description",	   "group_reporting",
	"thread",	   "clat_percentiles",
	"lat_percentiles", "randrepeat",
	"refill_buffers",  "unlink",
	"per_job_logs",	   NULL,
};

/* Apply one option to @s; false with @err naming what to do. */
static bool apply(struct fset *s, const char *key, const char *val,
		  struct err *err)
{
	uint64_t v;

	for (int i = 0; report_only[i]; i++)
		if (!strcmp(key, report_only[i]))
			return true;
	if (!strcmp(key, "rw") || !strcmp(key, "readwrite"))
		return set_rw(s, key, val, err);
	if (!strcmp(key, "bs") || !strcmp(key, "blocksize")) {
		if (val &&
		    (strchr(val, ',') || strchr(val, '-') || strchr(val, ':')))
			return bad(
				err, key, val,
				"(sizes per direction or a range) is not supported: give one size");
		return fsize(key, val, &s->bs, err);
	}
	if (!strcmp(key, "iodepth")) {
		if (!fuint(key, val, 1, 4096, &v, err))
			return false;
		s->iodepth = (unsigned int)v;
		return true;
	}
	if (!strcmp(key, "numjobs")) {
		if (!fuint(key, val, 1, 256, &v, err))
			return false;
		s->numjobs = (unsigned int)v;
		return true;
	}
	if (!strcmp(key, "iodepth_batch") ||
	    !strcmp(key, "iodepth_batch_submit")) {
		if (!fuint(key, val, 1, 4096, &v, err))
			return false;
		s->batch = (unsigned int)v;
		return true;
	}
	if (!strcmp(key, "loops")) {
		if (!fuint(key, val, 1, 1000000, &v, err))
			return false;
		s->loops = (unsigned int)v;
		return true;
	}
	if (!strcmp(key, "direct"))
		return set_direct(s, key, val, false, err);
	if (!strcmp(key, "buffered"))
		return set_direct(s, key, val, true, err);
	if (!strcmp(key, "ioengine"))
		return set_engine(s, key, val, err);
	if (!strcmp(key, "size"))
		return fsize(key, val, &s->size, err);
	if (!strcmp(key, "offset"))
		return fsize(key, val, &s->offset, err);
	if (!strcmp(key, "io_size") || !strcmp(key, "io_limit"))
		return fsize(key, val, &s->io_size, err);
	if (!strcmp(key, "number_ios"))
		return fuint(key, val, 1, 1e18, &s->number_ios, err);
	if (!strcmp(key, "runtime") || !strcmp(key, "timeout"))
		return ftime(key, val, &s->runtime_ns, err);
	if (!strcmp(key, "ramp_time"))
		return ftime(key, val, &s->ramp_ns, err);
	if (!strcmp(key, "time_based"))
		return fbool(key, val, &s->time_based, err);
	if (!strcmp(key, "stonewall") || !strcmp(key, "wait_for_previous"))
		return fbool(key, val, &s->stonewall, err);
	if (!strcmp(key, "norandommap"))
		return fbool(key, val, &s->norandommap, err);
	if (!strcmp(key, "invalidate"))
		return fbool(key, val, &s->invalidate, err);
	if (!strcmp(key, "zero_buffers"))
		return fbool(key, val, &s->zero_buffers, err);
	if (!strcmp(key, "rate_iops")) {
		if (val && strchr(val, ','))
			return bad(
				err, key, val,
				"(rates per direction) is not supported: give one rate");
		return fuint(key, val, 1, 1e8, &s->rate_iops, err);
	}
	if (!strcmp(key, "rwmixread"))
		return set_mix(s, key, val, true, err);
	if (!strcmp(key, "rwmixwrite"))
		return set_mix(s, key, val, false, err);
	if (!strcmp(key, "fdatasync"))
		return fuint(key, val, 0, 1e12, &s->fdatasync, err);
	if (!strcmp(key, "fsync")) {
		if (!fuint(key, val, 0, 1e12, &v, err))
			return false;
		return !v ||
		       bad(err, key, val,
			   "is not supported: iolab flushes with fdatasync; write fdatasync=N");
	}
	if (!strcmp(key, "randseed") || !strcmp(key, "seed")) {
		s->seed_set = true;
		return fuint(key, val, 0, UINT64_MAX, &s->seed, err);
	}
	if (!strcmp(key, "kb_base")) {
		if (!fuint(key, val, 1000, 1024, &v, err))
			return false;
		return v == 1024 ||
		       bad(err, key, val,
			   "is not supported: sizes are read as fio's default kb_base=1024");
	}
	if (!strcmp(key, "percentile_list"))
		return set_percentiles(s, key, val, err);
	if (!strcmp(key, "cpus_allowed")) {
		if (!need_value(key, val, err))
			return false;
		s->cpus = val;
		return true;
	}
	if (!strcmp(key, "filename")) {
		if (!need_value(key, val, err))
			return false;
		if (strchr(val, ':'))
			return bad(
				err, key, val,
				"(several files, or a ':' fio would split on) is not supported: one file per job");
		s->filename = val;
		return true;
	}
	if (!strcmp(key, "directory")) {
		if (!need_value(key, val, err))
			return false;
		if (strchr(val, ':'))
			return bad(
				err, key, val,
				"(several directories) is not supported: give one");
		s->directory = val;
		return true;
	}
	return bad(
		err, key, NULL,
		"is not supported by iolab and would change what is measured: remove it, or run this job with fio");
}

/* "--runtime=10s": a duration as a reader would write it. */
static char *dur_arg(const char *name, uint64_t ns)
{
	unsigned long long v = (unsigned long long)ns;

	if (!(v % 1000000000ull))
		return xasprintf("--%s=%llus", name, v / 1000000000ull);
	if (!(v % 1000000ull))
		return xasprintf("--%s=%llums", name, v / 1000000ull);
	return xasprintf("--%s=%lluns", name, v);
}

static void add_arg(struct fio_job *j, char *a)
{
	/* FIO_JOB_MAX_ARGS is above the rows written below. */
	if (j->nargs < FIO_JOB_MAX_ARGS)
		j->args[j->nargs++] = a;
	else
		free(a);
}

/* @s as the iolab run options of @j. */
static bool translate(struct fio_job *j, const struct fset *s, int idx,
		      struct err *err)
{
	uint64_t ios = 0, per_ios;
	unsigned int qd = s->iodepth;

	if (idx > 0 && !s->stonewall)
		return err_set(
			err, EXIT_USAGE, 0,
			"fio would run it at the same time as the job before it; iolab runs jobs one after another: add stonewall to it (or to [global])");
	if (s->numjobs > 1 && !s->filename)
		return err_set(
			err, EXIT_USAGE, 0,
			"numjobs=%u without filename= gives each fio clone its own file, where iolab's threads share one: set filename=",
			s->numjobs);
	if (s->time_based && !s->runtime_ns)
		return err_set(err, EXIT_USAGE, 0, "time_based needs runtime=");
	if (!s->time_based) {
		/* fio moves size= (or io_size=) bytes once, loops times. */
		uint64_t bytes = s->io_size ? s->io_size : s->size;

		if (s->number_ios)
			ios = s->number_ios;
		else if (bytes)
			ios = bytes / (s->bs ? s->bs : 4096);
		else
			return err_set(
				err, EXIT_USAGE, 0,
				"without time_based fio moves size= bytes: give size=, or time_based with runtime=");
		if (!ios)
			return err_set(err, EXIT_USAGE, 0,
				       "size= is smaller than bs=");
		per_ios = ios;
		ios *= s->loops;
		if (ios / s->loops != per_ios)
			return err_set(err, EXIT_USAGE, 0,
				       "loops= is too large");
		j->random_map_note = !s->norandommap &&
				     strncmp(s->rw, "rand", 4) == 0;
	}
	/* fio's synchronous engines ignore iodepth: they run at depth 1. */
	if (!strcmp(s->engine, "sync"))
		qd = 1;
	add_arg(j, xasprintf("--rw=%s", s->rw));
	add_arg(j, xasprintf("--bs=%llu",
			     (unsigned long long)(s->bs ? s->bs : 4096)));
	add_arg(j, xasprintf("--qd=%u", qd));
	add_arg(j, xasprintf("--threads=%u", s->numjobs));
	add_arg(j, xasprintf("--engine=%s", s->engine));
	/* direct=0 is the page cache, whose flushes fio sends only when
	 * told to (fdatasync=): QEMU's writeback. */
	add_arg(j, xasprintf("--cache=%s", s->direct ? "none" : "writeback"));
	if (s->size)
		add_arg(j,
			xasprintf("--size=%llu", (unsigned long long)s->size));
	if (s->offset)
		add_arg(j, xasprintf("--offset=%llu",
				     (unsigned long long)s->offset));
	if (ios)
		add_arg(j, xasprintf("--ios=%llu", (unsigned long long)ios));
	if (s->runtime_ns)
		add_arg(j, dur_arg("runtime", s->runtime_ns));
	if (s->ramp_ns)
		add_arg(j, dur_arg("ramp", s->ramp_ns));
	/* fio's rate is each clone's; iolab's the whole run's. */
	if (s->rate_iops)
		add_arg(j, xasprintf("--rate-iops=%llu",
				     (unsigned long long)(s->rate_iops *
							  s->numjobs)));
	if (s->mix >= 0)
		add_arg(j, xasprintf("--mix=%d", s->mix));
	if (s->fdatasync)
		add_arg(j, xasprintf("--flush-every=%llu",
				     (unsigned long long)s->fdatasync));
	if (s->batch)
		add_arg(j, xasprintf("--batch=%u", s->batch));
	if (s->seed_set)
		add_arg(j,
			xasprintf("--seed=%llu", (unsigned long long)s->seed));
	if (s->zero_buffers)
		add_arg(j, xstrdup("--pattern=zero"));
	if (!s->invalidate)
		add_arg(j, xstrdup("--warm-cache"));
	if (s->percentiles[0])
		add_arg(j, xasprintf("--percentiles=%s", s->percentiles));
	if (s->cpus)
		add_arg(j, xasprintf("--cpus=%s", s->cpus));
	if (s->filename && s->directory && s->filename[0] != '/')
		j->target = xasprintf("%s/%s", s->directory, s->filename);
	else if (s->filename)
		j->target = xstrdup(s->filename);
	else if (s->directory)
		j->target = xstrdup(s->directory);
	return true;
}

static void fset_defaults(struct fset *s)
{
	/* fio's defaults, which are not all iolab's. */
	memset(s, 0, sizeof(*s));
	s->rw = "read";
	s->iodepth = 1;
	s->numjobs = 1;
	s->loops = 1;
	s->engine = "sync";
	s->mix = -1;
	s->invalidate = true;
}

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
	char nm[FIO_JOB_MAX_NAME + 8];

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
	fset_defaults(&s);
	for (int i = 0; i < f->nglobal; i++)
		if (!apply(&s, f->global[i].key, f->global[i].value, err)) {
			err_prefix(err, "%s, [global] (for job '%s')", what,
				   shown(j->name, nm, sizeof(nm)));
			return false;
		}
	for (int i = 0; i < j->nkv; i++)
		if (!apply(&s, j->kv[i].key, j->kv[i].value, err))
			goto fail;
	if (translate(j, &s, f->njobs - 1, err))
		return true;
fail:
	err_prefix(err, "%s, job '%s'", what, shown(j->name, nm, sizeof(nm)));
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
