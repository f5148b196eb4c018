// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The guest suite (stand-in for `iolab mark`); see suite.h. The tests
 * follow CrystalDiskMark's naming and order: every test read, then every
 * test written; each run is a job of the measuring core (runner_run) on
 * the guest's test disk with io_uring (or the best engine) and O_DIRECT,
 * as CrystalDiskMark reads and writes unbuffered.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"
#include "../core/runner.h"
#include "../core/target.h"
#include "../util/err.h"
#include "../util/parse.h"
#include "../util/sig.h"
#include "../util/xmem.h"

static const struct {
	const char *name;
	const char *tests;
} presets[] = {
	/* CrystalDiskMark 8/9 default. */
	{ "default", "SEQ1M-Q8T1,SEQ1M-Q1T1,RND4K-Q32T1,RND4K-Q1T1" },
	/* CrystalDiskMark 6, the second story's table. */
	{ "cdm6", "SEQ128K-Q32T1,RND4K-Q8T8,RND4K-Q32T1,RND4K-Q1T1" },
	{ "nvme", "SEQ1M-Q8T1,SEQ128K-Q32T1,RND4K-Q32T16,RND4K-Q1T1" },
};

void lab_suite_defaults(struct lab_suite *s)
{
	memset(s, 0, sizeof(*s));
	s->runs = 1;
	s->time_ns = 2000000000ull;
	lab_suite_set_preset(s, "cdm6", NULL);
}

static bool test_parse(const char *in, struct suite_test *t, struct err *err)
{
	char kind[4] = { 0 }, unit = 0, sep = 0, q = 0, tt = 0;
	unsigned int size = 0;
	int end = 0;

	memset(t, 0, sizeof(*t));
	if (strlen(in) < 3)
		goto bad;
	for (int i = 0; i < 3; i++)
		kind[i] = (char)toupper((unsigned char)in[i]);
	if (sscanf(in + 3, "%u%c%c%c%u%c%u%n", &size, &unit, &sep, &q, &t->qd,
		   &tt, &t->threads, &end) != 7 ||
	    in[3 + end] != '\0')
		goto bad;
	unit = (char)toupper((unsigned char)unit);
	if ((strcmp(kind, "SEQ") && strcmp(kind, "RND")) ||
	    (unit != 'K' && unit != 'M') || (sep != '-' && sep != ' ') ||
	    toupper((unsigned char)q) != 'Q' ||
	    toupper((unsigned char)tt) != 'T' || !size || !t->qd ||
	    !t->threads || t->qd > 512 || t->threads > 64)
		goto bad;
	t->random = kind[0] == 'R';
	t->bs = (uint64_t)size << (unit == 'K' ? 10 : 20);
	if (t->bs > (64u << 20) || t->bs % 4096)
		goto bad;
	snprintf(t->name, sizeof(t->name), "%s%u%c Q%uT%u", kind, size, unit,
		 t->qd, t->threads);
	return true;
bad:
	return err_set(
		err, EXIT_USAGE, 0,
		"--tests: '%s' is not a test; write SEQ or RND, a block size in K or M (a multiple of 4K), then -Q<depth>T<threads>, e.g. SEQ1M-Q8T1,RND4K-Q32T1",
		in);
}

bool lab_suite_set_tests(struct lab_suite *s, const char *list, struct err *err)
{
	char *buf = xstrdup(list), *items[SUITE_MAX_TESTS];
	int n = parse_list(buf, items, SUITE_MAX_TESTS, err);

	if (n < 0) {
		free(buf);
		err_prefix(err, "--tests");
		return false;
	}
	for (int i = 0; i < n; i++) {
		if (!test_parse(items[i], &s->tests[i], err)) {
			free(buf);
			return false;
		}
	}
	s->ntests = (unsigned int)n;
	free(buf);
	return true;
}

bool lab_suite_set_preset(struct lab_suite *s, const char *name,
			  struct err *err)
{
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		if (strcmp(name, presets[i].name))
			continue;
		snprintf(s->preset, sizeof(s->preset), "%s", name);
		return lab_suite_set_tests(s, presets[i].tests, err);
	}
	return err_set(err, EXIT_USAGE, 0,
		       "--preset %s: unknown; choose default, cdm6 or nvme",
		       name);
}

unsigned int lab_suite_steps(const struct lab_suite *s)
{
	return s->ntests * 2;
}

uint64_t lab_suite_estimate_ns(const struct lab_suite *s)
{
	return (uint64_t)lab_suite_steps(s) * s->runs * s->time_ns;
}

char *lab_suite_conf(const struct lab_suite *s)
{
	char tests[SUITE_MAX_TESTS * 24] = "";

	for (unsigned int i = 0; i < s->ntests; i++) {
		char one[40], *sp;

		snprintf(one, sizeof(one), "%s%s", i ? "," : "",
			 s->tests[i].name);
		sp = strchr(one, ' ');
		if (sp)
			*sp = '-';
		strncat(tests, one, sizeof(tests) - strlen(tests) - 1);
	}
	return xasprintf("suite=%s %u %llu %s\n",
			 s->preset[0] ? s->preset : "-", s->runs,
			 (unsigned long long)s->time_ns, tests);
}

bool lab_suite_from_conf(struct lab_suite *s, const char *value,
			 struct err *err)
{
	char preset[32], tests[SUITE_MAX_TESTS * 24];
	unsigned long long t;

	memset(s, 0, sizeof(*s));
	if (sscanf(value, "%31s %u %llu %383s", preset, &s->runs, &t, tests) !=
	    4)
		return err_set(err, EXIT_USAGE, 0, "bad suite line '%s'",
			       value);
	s->time_ns = t;
	if (strcmp(preset, "-"))
		snprintf(s->preset, sizeof(s->preset), "%s", preset);
	return lab_suite_set_tests(s, tests, err);
}

static void job_for(const struct lab_suite *s, unsigned int i, int dir,
		    struct job_spec *j)
{
	const struct suite_test *t = &s->tests[i];

	job_defaults(j);
	if (t->random)
		j->rw = dir ? RW_RANDWRITE : RW_RANDREAD;
	else
		j->rw = dir ? RW_WRITE : RW_READ;
	j->bs = t->bs;
	j->qd = t->qd;
	j->threads = t->threads;
	j->runtime_ns = s->time_ns;
	j->cache = CACHE_NONE;
}

bool lab_suite_run(const struct lab_suite *s, const char *dev,
		   void (*progress)(unsigned int done, unsigned int total,
				    const char *label, void *ctx),
		   void *ctx, struct suite_result *r)
{
	struct target_req req = {
		.path = dev,
		.need_write = true,
		.allow_write_device = true,
	};
	struct warnings w = { 0 };
	struct target t;
	struct err err = { 0 };
	unsigned int step = 0, total = lab_suite_steps(s);
	bool ok = true;

	memset(r, 0, sizeof(*r));
	r->spec = s;
	r->device = dev;
	if (!target_prepare(&t, &req, &w, &err)) {
		snprintf(r->error, sizeof(r->error), "%s", err.msg);
		r->partial = true;
		target_release(&t);
		warnings_free(&w);
		return false;
	}
	for (int dir = 0; ok && dir < 2; dir++) {
		for (unsigned int i = 0; ok && i < s->ntests; i++) {
			struct suite_dir *d = &r->dir[i][dir];
			char label[64];

			snprintf(label, sizeof(label), "%s %s",
				 s->tests[i].name, dir ? "write" : "read");
			if (progress)
				progress(step, total, label, ctx);
			d->runs = xcalloc(s->runs, sizeof(*d->runs));
			for (unsigned int k = 0; ok && k < s->runs; k++) {
				/* Its live line reaches the host through
				 * the guest init's relay of stderr. */
				struct runner_opts ro = { .label = label,
							  .progress = true };
				struct job_spec j;

				job_for(s, i, dir, &j);
				if (!job_validate(&j, &err) ||
				    !target_check_job(&t, &j, &err) ||
				    !runner_run(&j, &t, &ro, &d->runs[k],
						&err)) {
					snprintf(r->error, sizeof(r->error),
						 "%s: %s", label, err.msg);
					ok = false;
					break;
				}
				d->nruns++;
				if (d->runs[k].errors || d->runs[k].partial) {
					snprintf(r->error, sizeof(r->error),
						 "%s: %s", label,
						 d->runs[k].errors ?
							 "I/O error" :
							 "interrupted");
					ok = false;
				}
			}
			step++;
		}
	}
	if (progress && ok)
		progress(total, total, "done", ctx);
	r->partial = !ok;
	target_release(&t);
	warnings_free(&w);
	return ok;
}

void suite_result_free(struct suite_result *r)
{
	for (unsigned int i = 0; i < SUITE_MAX_TESTS; i++) {
		for (int d = 0; d < 2; d++) {
			for (unsigned int k = 0; k < r->dir[i][d].nruns; k++)
				result_free(&r->dir[i][d].runs[k]);
			free(r->dir[i][d].runs);
		}
	}
	memset(r, 0, sizeof(*r));
}
