// SPDX-License-Identifier: GPL-2.0-or-later
/* fio's job options applied and translated into run's; see run_fio_opts.h. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_fio_opts.h"
#include "../../util/err.h"
#include "../../util/parse.h"
#include "../../util/term.h"
#include "../../util/xmem.h"

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
bool fio_opt_apply(struct fset *s, const char *key, const char *val,
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
bool fio_opt_translate(struct fio_job *j, const struct fset *s, int idx,
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

void fio_opt_defaults(struct fset *s)
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
