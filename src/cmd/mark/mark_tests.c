// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CrystalDiskMark's presets and test names, and the mark spec built from
 * them; see mark.h. The tables are reference/calibrate.md 5.2 and
 * reference/features.md 2.2, read from CrystalDiskMark's DiskBench.cpp.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mark_suite.h"
#include "../../util/err.h"
#include "../../util/parse.h"

#define KIB 1024ull
#define MIB (1024ull * 1024ull)
#define SEC 1000000000ull

#define SEQ(bs, q, t)                 \
	{                             \
		false, (bs), (q), (t) \
	}
#define RND(bs, q, t)                \
	{                            \
		true, (bs), (q), (t) \
	}

const struct mark_preset mark_presets[] = {
	{ "default",
	  "CrystalDiskMark 8/9 default",
	  4,
	  { SEQ(MIB, 8, 1), SEQ(MIB, 1, 1), RND(4 * KIB, 32, 1),
	    RND(4 * KIB, 1, 1) } },
	{ "nvme",
	  "CrystalDiskMark 8/9 NVMe SSD",
	  4,
	  { SEQ(MIB, 8, 1), SEQ(128 * KIB, 32, 1), RND(4 * KIB, 32, 16),
	    RND(4 * KIB, 1, 1) } },
	{ "cdm7",
	  "CrystalDiskMark 7 default",
	  4,
	  { SEQ(MIB, 8, 1), SEQ(MIB, 1, 1), RND(4 * KIB, 32, 16),
	    RND(4 * KIB, 1, 1) } },
	{ "cdm6",
	  "CrystalDiskMark 6",
	  4,
	  { SEQ(128 * KIB, 32, 1), RND(4 * KIB, 8, 8), RND(4 * KIB, 32, 1),
	    RND(4 * KIB, 1, 1) } },
	{ "peak",
	  "CrystalDiskMark 8/9 Peak Performance",
	  2,
	  { SEQ(MIB, 8, 1), RND(4 * KIB, 32, 1) } },
	{ "real",
	  "CrystalDiskMark 8/9 Real World Performance",
	  2,
	  { SEQ(MIB, 1, 1), RND(4 * KIB, 1, 1) } },
	/* CDM 9's "Flash Memory" profile: the default tests, measured for 1 s
	 * with 30 s pauses so that a USB stick or SD card cools down. */
	{ "flash",
	  "CrystalDiskMark 9 Flash Memory",
	  4,
	  { SEQ(MIB, 8, 1), SEQ(MIB, 1, 1), RND(4 * KIB, 32, 1),
	    RND(4 * KIB, 1, 1) },
	  1 * SEC,
	  30 * SEC,
	  true },
	{ NULL },
};

const struct mark_preset *mark_preset_find(const char *name)
{
	for (const struct mark_preset *p = mark_presets; p->name; p++)
		if (!strcasecmp(name, p->name))
			return p;
	return NULL;
}

/* Digits at *p as an unsigned int in [1, max]; advances *p. */
static bool take_uint(const char **p, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)**p))
		return false;
	v = strtoul(*p, &end, 10);
	if (!v || v > max)
		return false;
	*p = end;
	*out = v;
	return true;
}

static bool bad_test(struct err *err, const char *s, const char *what)
{
	return err_set(
		err, EXIT_USAGE, 0,
		"test '%s': %s; write tests as SEQ1M-Q8T1 or RND4K-Q32T16 (SEQ or RND, a block size in K or M, Q<depth>T<threads>)",
		s, what);
}

bool mark_test_parse(const char *s, struct mark_test *t, struct err *err)
{
	const char *p = s;
	unsigned long bs, q, th;

	memset(t, 0, sizeof(*t));
	if (!strncasecmp(p, "SEQ", 3))
		t->random = false;
	else if (!strncasecmp(p, "RND", 3))
		t->random = true;
	else
		return bad_test(err, s, "it must start with SEQ or RND");
	p += 3;
	if (!take_uint(&p, 64 * 1024, &bs))
		return bad_test(err, s,
				"the block size after SEQ/RND is missing");
	if (!strncasecmp(p, "KiB", 3)) {
		bs *= KIB;
		p += 3;
	} else if (!strncasecmp(p, "MiB", 3)) {
		bs *= MIB;
		p += 3;
	} else if (toupper((unsigned char)*p) == 'K') {
		bs *= KIB;
		p++;
	} else if (toupper((unsigned char)*p) == 'M') {
		bs *= MIB;
		p++;
	} else {
		return bad_test(
			err, s,
			"the block size needs a unit, K (KiB) or M (MiB)");
	}
	if (bs > 64 * MIB)
		return bad_test(err, s, "the block size is above 64 MiB");
	if (*p == '-' || *p == '_' || *p == ' ')
		p++;
	if (toupper((unsigned char)*p) != 'Q')
		return bad_test(err, s, "the queue depth Q<n> is missing");
	p++;
	if (!take_uint(&p, 4096, &q))
		return bad_test(err, s, "the queue depth must be 1 to 4096");
	if (toupper((unsigned char)*p) != 'T')
		return bad_test(err, s, "the thread count T<n> is missing");
	p++;
	if (!take_uint(&p, 256, &th))
		return bad_test(err, s, "the thread count must be 1 to 256");
	if (*p)
		return bad_test(err, s, "unexpected text at the end");
	t->bs = bs;
	t->qd = (unsigned int)q;
	t->threads = (unsigned int)th;
	return true;
}

int mark_tests_parse(const char *list, struct mark_test *out, int max,
		     struct err *err)
{
	char buf[1024], *items[MARK_MAX_TESTS + 1];
	int n;

	if (strlen(list) >= sizeof(buf)) {
		err_set(err, EXIT_USAGE, 0, "--tests: the list is too long");
		return -1;
	}
	strcpy(buf, list);
	n = parse_list(buf, items, max < MARK_MAX_TESTS ? max : MARK_MAX_TESTS,
		       err);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		char *s = items[i];
		size_t len;

		while (*s == ' ')
			s++;
		len = strlen(s);
		while (len && s[len - 1] == ' ')
			s[--len] = '\0';
		if (!mark_test_parse(s, &out[i], err))
			return -1;
	}
	return n;
}

const char *mark_test_name(const struct mark_test *t, char *buf, size_t len)
{
	if (t->bs % MIB == 0)
		snprintf(buf, len, "%s%lluM Q%uT%u", t->random ? "RND" : "SEQ",
			 (unsigned long long)(t->bs / MIB), t->qd, t->threads);
	else
		snprintf(buf, len, "%s%lluK Q%uT%u", t->random ? "RND" : "SEQ",
			 (unsigned long long)(t->bs / KIB), t->qd, t->threads);
	return buf;
}

void mark_spec_defaults(struct mark_spec *s)
{
	memset(s, 0, sizeof(*s));
	job_defaults(&s->base);
	s->dir[MARK_READ] = s->dir[MARK_WRITE] = true;
	s->mix_read_pct = 70;
	s->procedure = MARK_PRECISION;
	s->runs = 5;
	s->time_ns = SEC / 2;
	s->interval_ns = 0;
	s->precision = 0.05;
	s->max_ns = 20 * SEC;
	s->min_runs = 3;
	s->label = "mark";
	mark_spec_set_preset(s, &mark_presets[0]);
}

void mark_spec_set_fixed(struct mark_spec *s, unsigned int runs)
{
	s->procedure = MARK_FIXED;
	s->runs = runs;
	s->time_ns = 5 * SEC;
	s->interval_ns = 5 * SEC;
}

void mark_spec_fit_cap(struct mark_spec *s)
{
	uint64_t room = 2 * (uint64_t)(s->min_runs + 1) * s->time_ns;

	if (s->procedure == MARK_PRECISION && s->max_ns < room)
		s->max_ns = room;
}

unsigned int mark_max_runs(const struct mark_spec *s)
{
	uint64_t n;

	if (s->procedure == MARK_FIXED || !s->time_ns)
		return s->runs;
	/* The warm-up takes one run's time out of the cap. */
	n = s->max_ns / s->time_ns;
	n = n > 1 ? n - 1 : 1;
	if (n < s->min_runs)
		n = s->min_runs;
	return n > 1000 ? 1000 : (unsigned int)n;
}

void mark_spec_set_preset(struct mark_spec *s, const struct mark_preset *p)
{
	s->preset = p->name;
	s->ntests = p->ntests;
	memcpy(s->tests, p->tests, p->ntests * sizeof(p->tests[0]));
	if (p->time_ns)
		s->time_ns = p->time_ns;
	if (p->has_interval)
		s->interval_ns = p->interval_ns;
}

bool mark_needs_write(const struct mark_spec *s)
{
	return !engine_has(s->base.engine, ENGINE_NO_IO) &&
	       (s->dir[MARK_WRITE] ||
		(s->dir[MARK_MIX] && s->mix_read_pct < 100));
}

void mark_job(const struct mark_spec *s, unsigned int i, enum mark_dir d,
	      unsigned int run, struct job_spec *j)
{
	const struct mark_test *t = &s->tests[i];

	*j = s->base;
	switch (d) {
	case MARK_READ:
		j->rw = t->random ? RW_RANDREAD : RW_READ;
		break;
	case MARK_WRITE:
		j->rw = t->random ? RW_RANDWRITE : RW_WRITE;
		break;
	default:
		j->rw = t->random ? RW_RANDRW : RW_RW;
		break;
	}
	j->mix_read_pct = s->mix_read_pct;
	j->bs = t->bs;
	j->qd = t->qd;
	j->threads = t->threads;
	j->runtime_ns = s->time_ns;
	j->ramp_ns = 0;
	j->ios = 0;
	j->rate_iops = 0;
	if (!rw_writes(j))
		j->flush_every = 0;
	/* A new random sequence per run, as DiskSpd seeds each run anew;
	 * still reproducible from --seed. */
	j->seed = s->base.seed + 0x9e3779b9ull * (i * MARK_DIRS + d) +
		  0x85ebca6bull * run;
}

unsigned int mark_count(const struct mark_spec *s)
{
	unsigned int dirs = 0;

	for (int d = 0; d < MARK_DIRS; d++)
		dirs += s->dir[d];
	return dirs * s->ntests;
}

uint64_t mark_estimate_ns(const struct mark_spec *s)
{
	unsigned int n = mark_count(s);

	unsigned int runs = s->procedure == MARK_FIXED ? s->runs : s->min_runs;

	if (!n)
		return 0;
	return (uint64_t)n * (runs + 1) * s->time_ns +
	       (uint64_t)(n - 1) * s->interval_ns;
}

uint64_t mark_estimate_max_ns(const struct mark_spec *s)
{
	unsigned int n = mark_count(s);

	if (!n || s->procedure == MARK_FIXED)
		return mark_estimate_ns(s);
	return (uint64_t)n * (mark_max_runs(s) + 1) * s->time_ns +
	       (uint64_t)(n - 1) * s->interval_ns;
}

bool mark_spec_validate(const struct mark_spec *s, struct err *err)
{
	char name[32];

	if (!s->ntests)
		return err_set(err, EXIT_USAGE, 0,
			       "no tests: give --preset or --tests");
	if (s->ntests > MARK_MAX_TESTS)
		return err_set(err, EXIT_USAGE, 0,
			       "at most %d tests in one run", MARK_MAX_TESTS);
	if (!mark_count(s))
		return err_set(err, EXIT_USAGE, 0,
			       "no direction: --only takes read, write or mix");
	if (!s->runs || s->runs > 1000)
		return err_set(err, EXIT_USAGE, 0,
			       "--runs must be between 1 and 1000");
	if (s->time_ns < JOB_MIN_RUNTIME_NS)
		return err_set(
			err, EXIT_USAGE, 0,
			"--time must be at least 1ms (e.g. 5s or 500ms): a shorter run ends before an I/O can complete");
	if (s->procedure == MARK_PRECISION) {
		char t[32], m[32], least[32];

		if (!(s->precision >= 0.001 && s->precision <= 0.5))
			return err_set(
				err, EXIT_USAGE, 0,
				"--precision is the half-width of the interval in percent of the figure: 0.1 to 50 (e.g. 5)");
		if (s->min_runs < 2)
			return err_set(err, EXIT_USAGE, 0,
				       "an interval needs 2 runs at least");
		if (s->max_ns < (uint64_t)(s->min_runs + 1) * s->time_ns)
			return err_set(
				err, EXIT_USAGE, 0,
				"--max-time %s leaves no room for the warm-up and %u runs of %s: give at least %s, or a shorter --time",
				fmt_duration(s->max_ns, m, sizeof(m)),
				s->min_runs,
				fmt_duration(s->time_ns, t, sizeof(t)),
				fmt_duration((uint64_t)(s->min_runs + 1) *
						     s->time_ns,
					     least, sizeof(least)));
	}
	if (s->mix_read_pct > 100)
		return err_set(err, EXIT_USAGE, 0,
			       "--mix is a percentage of reads: 0 to 100");
	for (unsigned int i = 0; i < s->ntests; i++) {
		for (int d = 0; d < MARK_DIRS; d++) {
			struct job_spec j;

			if (!s->dir[d])
				continue;
			mark_job(s, i, (enum mark_dir)d, 1, &j);
			if (engine_has(j.engine, ENGINE_ONE_AT_A_TIME) &&
			    j.qd > 1)
				return err_set(
					err, EXIT_USAGE, 0,
					"test %s keeps %u I/Os in flight per thread, but --engine %s does one at a time; use --engine threads (QEMU's aio=threads) or tests with Q1 such as --preset real",
					mark_test_name(&s->tests[i], name,
						       sizeof(name)),
					j.qd, engine_name(j.engine));
			if (!job_validate(&j, err)) {
				/* QEMU's refusal keeps its own words. */
				if (err->exit_code == EXIT_USAGE)
					err_prefix(err, "%s",
						   mark_test_name(
							   &s->tests[i], name,
							   sizeof(name)));
				return false;
			}
			/* The jobs run one at a time: each must fit. */
			if (!job_check_memory(
				    &j,
				    "use tests with a smaller Q, T or block size (--tests, --preset)",
				    err)) {
				err_prefix(err, "test %s",
					   mark_test_name(&s->tests[i], name,
							  sizeof(name)));
				return false;
			}
		}
	}
	return true;
}
