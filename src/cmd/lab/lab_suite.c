// SPDX-License-Identifier: GPL-2.0-or-later
/* The lab guest's suite: iolab mark with the lab's settings; see suite.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab_check.h"
#include "lab_suite.h"
#include "../../core/target.h"
#include "../mark/mark_report.h"
#include "../../util/err.h"
#include "../../util/parse.h"
#include "../../util/warn.h"
#include "../../util/xmem.h"

#define SEC 1000000000ull

void lab_suite_defaults(struct lab_suite *s)
{
	struct mark_spec *m = &s->spec;

	mark_spec_defaults(m);
	s->check = NULL;
	s->check_runtime_ns = 0;
	mark_spec_set_preset(m, mark_preset_find("cdm6"));
	m->time_ns = SEC / 4;
	m->max_ns = 2 * SEC;
	m->interval_ns = 0;
	m->base.cache = CACHE_NONE; /* O_DIRECT in the guest, as CDM */
	m->label = "mark";
}

bool lab_suite_set_preset(struct lab_suite *s, const char *name,
			  struct err *err)
{
	const struct mark_preset *p = mark_preset_find(name);
	char list[256] = "";

	if (p) {
		uint64_t t = s->spec.time_ns;

		mark_spec_set_preset(&s->spec, p);
		/* A preset's own time and pause (flash) yield to the lab's:
		 * --time decides, and guests do not pause. */
		s->spec.time_ns = t;
		s->spec.interval_ns = 0;
		return true;
	}
	for (p = mark_presets; p->name; p++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s", list[0] ? ", " : "", p->name);
	return err_set(err, EXIT_USAGE, 0, "--preset %s: unknown; choose %s",
		       name, list);
}

bool lab_suite_set_tests(struct lab_suite *s, const char *list, struct err *err)
{
	int n = mark_tests_parse(list, s->spec.tests, MARK_MAX_TESTS, err);

	if (n < 0) {
		err_prefix(err, "--tests");
		return false;
	}
	s->spec.ntests = (unsigned int)n;
	s->spec.preset = NULL;
	return true;
}

bool lab_suite_set_check(struct lab_suite *s, const char *name,
			 uint64_t runtime_ns, struct err *err)
{
	char t[32];

	s->check = check_profile_find(name);
	if (!s->check)
		return err_set(
			err, EXIT_USAGE, 0,
			"--check: no profile '%.64s'; iolab check --list shows them (etcd, postgresql, mysql, oracle, zookeeper)",
			name);
	if (runtime_ns < SEC)
		return err_set(
			err, EXIT_USAGE, 0,
			"--check judges rates over each step's --time (%s): give at least 1s",
			fmt_duration(runtime_ns, t, sizeof(t)));
	s->check_runtime_ns = runtime_ns;
	return true;
}

bool lab_suite_finish(struct lab_suite *s, unsigned int runs, uint64_t time_ns,
		      double precision_pct, uint64_t max_ns, struct err *err)
{
	struct mark_spec *m = &s->spec;

	if (s->check)
		return true; /* the profile's steps, checked when set */
	if (runs && (precision_pct > 0 || max_ns))
		return err_set(
			err, EXIT_USAGE, 0,
			"--runs fixes the number of runs (CrystalDiskMark's procedure); --precision and --max-time stop when the figure is known: give one or the other");
	if (runs) {
		/* The lab's fixed procedure: 2 s runs, no pauses. */
		m->procedure = MARK_FIXED;
		m->runs = runs;
		m->time_ns = 2 * SEC;
	}
	if (precision_pct > 0)
		m->precision = precision_pct / 100;
	if (max_ns)
		m->max_ns = max_ns;
	if (time_ns)
		m->time_ns = time_ns;
	if (time_ns && !max_ns)
		mark_spec_fit_cap(m);
	return mark_spec_validate(m, err);
}

const struct mark_spec *lab_suite_spec(const struct lab_suite *s)
{
	return &s->spec;
}

const char *lab_suite_preset(const struct lab_suite *s)
{
	return s->spec.preset;
}

unsigned int lab_suite_ntests(const struct lab_suite *s)
{
	return s->spec.ntests;
}

const char *lab_suite_test_name(const struct lab_suite *s, unsigned int i,
				char *buf, size_t len)
{
	return mark_test_name(&s->spec.tests[i], buf, len);
}

unsigned int lab_suite_runs(const struct lab_suite *s)
{
	return s->spec.runs;
}

uint64_t lab_suite_time_ns(const struct lab_suite *s)
{
	return s->spec.time_ns;
}

uint64_t lab_suite_estimate_ns(const struct lab_suite *s)
{
	if (s->check)
		return (uint64_t)s->check->nsteps * s->check_runtime_ns;
	return mark_estimate_ns(&s->spec);
}

uint64_t lab_suite_estimate_max_ns(const struct lab_suite *s)
{
	return mark_estimate_max_ns(&s->spec);
}

uint64_t lab_suite_step_ns(const struct lab_suite *s)
{
	if (s->check)
		return s->check_runtime_ns;
	return s->spec.time_ns + s->spec.interval_ns;
}

const char *lab_suite_title(const struct lab_suite *s, char *buf, size_t len)
{
	const struct mark_spec *m = &s->spec;
	char t[32], cap[32], name[32];
	size_t n;

	if (s->check) {
		snprintf(
			buf, len,
			"iolab check %s (%s) in the guest on its whole test disk, each of its %d step%s for %s",
			s->check->name, s->check->title, s->check->nsteps,
			s->check->nsteps == 1 ? "" : "s",
			fmt_duration(s->check_runtime_ns, t, sizeof(t)));
		return buf;
	}
	n = (size_t)snprintf(buf, len, "%s%s(",
			     s->spec.preset ? s->spec.preset : "",
			     s->spec.preset ? " " : "");
	for (unsigned int i = 0; i < s->spec.ntests && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
				      lab_suite_test_name(s, i, name,
							  sizeof(name)));
	if (n >= len)
		return buf;
	if (m->procedure == MARK_FIXED)
		snprintf(
			buf + n, len - n,
			"), read and write, each a warm-up and %u run%s of %s, the maximum shown; iolab mark in the guest, %s with O_DIRECT",
			m->runs, m->runs == 1 ? "" : "s",
			fmt_duration(m->time_ns, t, sizeof(t)),
			engine_name(m->base.engine));
	else
		snprintf(
			buf + n, len - n,
			"), read and write, each a warm-up and runs of %s until the mean is known to +-%g%% (%s at most), the mean shown; iolab mark in the guest, %s with O_DIRECT",
			fmt_duration(m->time_ns, t, sizeof(t)),
			100 * m->precision,
			fmt_duration(m->max_ns, cap, sizeof(cap)),
			engine_name(m->base.engine));
	return buf;
}

/* "SEQ1M-Q8T1,RND4K-Q1T1": the tests as one token. */
static void tests_token(const struct lab_suite *s, char *buf, size_t len)
{
	char name[32];

	buf[0] = '\0';
	for (unsigned int i = 0; i < s->spec.ntests; i++) {
		char *sp;

		lab_suite_test_name(s, i, name, sizeof(name));
		sp = strchr(name, ' ');
		if (sp)
			*sp = '-';
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 i ? "," : "", name);
	}
}

char *lab_suite_conf(const struct lab_suite *s)
{
	char tests[MARK_MAX_TESTS * 24];

	if (s->check)
		return xasprintf("suite=check %s %llu\n", s->check->name,
				 (unsigned long long)s->check_runtime_ns);
	tests_token(s, tests, sizeof(tests));
	/* runs 0: the precision procedure, with its precision and cap. */
	return xasprintf("suite=%s %u %llu %s %.6g %llu\n",
			 s->spec.preset ? s->spec.preset : "-",
			 s->spec.procedure == MARK_FIXED ? s->spec.runs : 0,
			 (unsigned long long)s->spec.time_ns, tests,
			 100 * s->spec.precision,
			 (unsigned long long)s->spec.max_ns);
}

bool lab_suite_from_conf(struct lab_suite *s, const char *value,
			 struct err *err)
{
	char preset[32], tests[MARK_MAX_TESTS * 24];
	unsigned long long t, max;
	unsigned int runs;
	double prec;

	lab_suite_defaults(s);
	if (!strncmp(value, "check ", 6)) {
		char name[32];

		if (sscanf(value + 6, "%31s %llu", name, &t) != 2)
			return err_set(err, EXIT_USAGE, 0,
				       "bad suite line '%s'", value);
		return lab_suite_set_check(s, name, t, err);
	}
	if (sscanf(value, "%31s %u %llu %383s %lf %llu", preset, &runs, &t,
		   tests, &prec, &max) != 6)
		return err_set(err, EXIT_USAGE, 0, "bad suite line '%s'",
			       value);
	if (strcmp(preset, "-") ? !lab_suite_set_preset(s, preset, err) :
				  !lab_suite_set_tests(s, tests, err))
		return false;
	return lab_suite_finish(s, runs, t, runs ? 0 : prec, runs ? 0 : max,
				err);
}

int lab_suite_run(const struct lab_suite *s, const char *dev,
		  const char *json_path, struct err *err)
{
	struct mark_spec m = s->spec;
	struct target_req req = {
		.path = dev,
		.need_write = mark_needs_write(&m),
		.allow_write_device = true,
	};
	char runs[16], time[32], prec[32], cap[32];
	/* What a user would type in a VM to get the same document. */
	char *argv[] = { (char *)"iolab",
			 (char *)"mark",
			 (char *)(m.preset ? "--preset" : "--tests"),
			 NULL,
			 (char *)"--time",
			 time,
			 (char *)"--interval",
			 (char *)"0",
			 (char *)"--allow-write-device",
			 (char *)dev,
			 NULL,
			 NULL,
			 NULL,
			 NULL,
			 NULL };
	int argc = 10;
	char tests[MARK_MAX_TESTS * 24];
	struct mark_result r;
	struct mark_report rep;
	struct warnings w = { 0 };
	struct target t;
	bool ok, wrote = false;
	FILE *f;
	int fd, rc;

	if (s->check) {
		return lab_check_guest_run(s->check, s->check_runtime_ns, dev,
					   json_path, err);
	}
	tests_token(s, tests, sizeof(tests));
	argv[3] = (char *)(m.preset ? m.preset : tests);
	snprintf(time, sizeof(time), "%llums",
		 (unsigned long long)(m.time_ns / 1000000ull));
	if (m.procedure == MARK_FIXED) {
		snprintf(runs, sizeof(runs), "%u", m.runs);
		argv[argc++] = (char *)"--runs";
		argv[argc++] = runs;
	} else {
		snprintf(prec, sizeof(prec), "%g", 100 * m.precision);
		snprintf(cap, sizeof(cap), "%llums",
			 (unsigned long long)(m.max_ns / 1000000ull));
		argv[argc++] = (char *)"--precision";
		argv[argc++] = prec;
		argv[argc++] = (char *)"--max-time";
		argv[argc++] = cap;
	}
	m.progress = true; /* relayed to the host by the guest init */
	if (!target_prepare(&t, &req, &w, err)) {
		target_release(&t);
		warnings_free(&w);
		return err->exit_code ? err->exit_code : EXIT_ENV;
	}
	ok = mark_run(&m, &t, &r, err);
	rep = (struct mark_report){ .argc = argc,
				    .argv = argv,
				    .target = &t,
				    .res = &r,
				    .warnings = &w };
	/* A new file: never one that was there, never through a link. */
	fd = open(json_path,
		  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f && fd >= 0)
		close(fd);
	if (f) {
		struct err e2 = { 0 };

		wrote = mark_json_write(&rep, f, &e2);
		if (fclose(f))
			wrote = false;
		if (!wrote && ok)
			*err = e2;
	} else if (ok) {
		err_set(err, EXIT_ENV, errno, "cannot write %s: %s", json_path,
			strerror(errno));
	}
	if (!ok)
		rc = err->exit_code ? err->exit_code : EXIT_ENV;
	else if (!wrote)
		rc = EXIT_ENV;
	else
		rc = r.partial ? EXIT_IO : EXIT_OK;
	mark_result_free(&r);
	target_release(&t);
	warnings_free(&w);
	return rc;
}
