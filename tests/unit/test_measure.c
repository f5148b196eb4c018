// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The measuring commands' one path (cmd/measure.c) with a fake command:
 * which hooks run in which order, which renderer the flags pick, when the
 * -o file is kept, the exit code, and the test file made and removed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cmd/measure.h"
#include "cmd/opts.h"
#include "util/err.h"

struct fake_opts {
	struct measure_flags m;
};

static const struct opt fake_table[] = {
	{ .kind = OPT_GROUP, .name = "", .help = "Target" },
	OPT_ROWS_REGION(struct fake_opts),
	OPT_ROWS_SAFETY(struct fake_opts),
	{ .kind = OPT_GROUP, .name = "", .help = "Output" },
	OPT_ROWS_OUTPUT(struct fake_opts, "json", "csv"),
	OPT_ROW_NO_PROGRESS(struct fake_opts),
	{ .kind = OPT_GROUP },
};

static const struct opt_cmd fake_cmd = {
	.name = "fake",
	.synopsis = "iolab fake [TARGET]",
	.summary = "fake",
	.opts = fake_table,
	.max_positional = 1,
};

/* What the hooks saw and what they are told to do. */
struct fake {
	struct fake_opts o;
	char log[256];
	bool fail_prepare, fail_run, fail_render;
	int status_rc; /* -1: keep rc */
	uint64_t region_len; /* as run saw it */
	bool output_open_in_run; /* the -o temporary file existed */
};

static void logf_(struct fake *f, const char *what)
{
	size_t n = strlen(f->log);

	snprintf(f->log + n, sizeof(f->log) - n, "%s%s", n ? "," : "", what);
}

static bool fake_prepare(struct measure *m, struct err *err)
{
	struct fake *f = m->self;

	logf_(f, "prepare");
	if (f->fail_prepare)
		return err_set(err, EXIT_USAGE, 0, "prepare refused");
	m->req.fill = PATTERN_ZERO;
	return true;
}

static void fake_announce(struct measure *m)
{
	logf_(m->self, "announce");
}

static bool fake_run(struct measure *m, struct err *err)
{
	struct fake *f = m->self;

	logf_(f, "run");
	f->region_len = m->t.region_len;
	if (f->fail_run)
		return err_set(err, EXIT_ENV, 0, "run failed");
	return true;
}

static bool render(struct measure *m, FILE *out, struct err *err,
		   const char *what)
{
	struct fake *f = m->self;

	logf_(f, what);
	/* The JSON echo gets the whole command line. */
	assert_string_equal(m->argv[0], "iolab");
	assert_string_equal(m->argv[1], "fake");
	fprintf(out, "%s report\n", what);
	if (f->fail_render)
		return err_set(err, EXIT_ENV, 0, "render failed");
	return true;
}

static bool fake_text(struct measure *m, FILE *out, struct err *err)
{
	return render(m, out, err, "text");
}

static bool fake_json(struct measure *m, FILE *out, struct err *err)
{
	return render(m, out, err, "json");
}

static bool fake_csv(struct measure *m, FILE *out, struct err *err)
{
	return render(m, out, err, "csv");
}

static int fake_status(struct measure *m, int rc)
{
	struct fake *f = m->self;

	logf_(f, "status");
	return f->status_rc >= 0 ? f->status_rc : rc;
}

static void fake_done(struct measure *m)
{
	logf_(m->self, "done");
}

static const struct measure_cmd fake_measure = {
	.opts = &fake_cmd,
	.prepare = fake_prepare,
	.announce = fake_announce,
	.run = fake_run,
	.render = { [MEASURE_TEXT] = fake_text,
		    [MEASURE_JSON] = fake_json,
		    [MEASURE_CSV] = fake_csv },
	.status = fake_status,
	.done = fake_done,
};

static char dir[64], target[128], report[128];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/iolab-test-measure.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(target, sizeof(target), "%s/t.dat", dir);
	snprintf(report, sizeof(report), "%s/report.txt", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(target);
	unlink(report);
	return rmdir(dir);
}

/* Run the fake command with @args (NULL-terminated) after "fake". */
static int run_fake(struct fake *f, const char *const *args)
{
	char *argv[16] = { "iolab", "fake" };
	int argc = 1;

	unlink(report);
	unlink(target);
	memset(f->log, 0, sizeof(f->log));
	memset(&f->o, 0, sizeof(f->o));
	for (; *args; args++)
		argv[1 + argc++] = (char *)*args;
	return measure_main(&fake_measure, f, &f->o, &f->o.m, argc, argv + 1);
}

static char *slurp(const char *path, char *buf, size_t len)
{
	FILE *fp = fopen(path, "r");
	size_t n;

	if (!fp)
		return NULL;
	n = fread(buf, 1, len - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

static void test_whole_path(void **state)
{
	struct fake f = { .status_rc = -1 };
	const char *args[] = { "--size", "64k", "-o", report, target, NULL };
	char buf[64];

	(void)state;
	assert_int_equal(run_fake(&f, args), EXIT_OK);
	assert_string_equal(f.log, "prepare,announce,run,text,status,done");
	assert_int_equal(f.region_len, 65536);
	assert_non_null(slurp(report, buf, sizeof(buf)));
	assert_string_equal(buf, "text report\n");
	/* The test file iolab made is removed without --keep. */
	assert_false(exists(target));
}

static void test_format_picks_renderer(void **state)
{
	struct fake f = { .status_rc = -1 };
	const char *json[] = { "--size=64k", "--json", "-o",
			       report,	     target,   NULL };
	const char *csv[] = {
		"--size=64k", "--csv", "-o", report, target, NULL
	};
	char buf[64];

	(void)state;
	assert_int_equal(run_fake(&f, json), EXIT_OK);
	assert_string_equal(f.log, "prepare,announce,run,json,status,done");
	assert_string_equal(slurp(report, buf, sizeof(buf)), "json report\n");
	assert_int_equal(run_fake(&f, csv), EXIT_OK);
	assert_string_equal(f.log, "prepare,announce,run,csv,status,done");
	assert_string_equal(slurp(report, buf, sizeof(buf)), "csv report\n");
}

static void test_refusals_before_anything(void **state)
{
	struct fake f = { .status_rc = -1 };
	const char *both[] = { "--json", "--csv", "-o", report, target, NULL };
	const char *help[] = { "--help", NULL };
	const char *bad[] = { "--sise", "1", NULL };

	(void)state;
	assert_int_equal(run_fake(&f, both), EXIT_USAGE);
	assert_string_equal(f.log, "");
	assert_false(exists(report));
	assert_false(exists(target));
	assert_int_equal(run_fake(&f, bad), EXIT_USAGE);
	assert_string_equal(f.log, "");
	assert_int_equal(run_fake(&f, help), EXIT_OK);
	assert_string_equal(f.log, "");

	f.fail_prepare = true;
	assert_int_equal(
		run_fake(&f, (const char *[]){ "-o", report, target, NULL }),
		EXIT_USAGE);
	assert_string_equal(f.log, "prepare");
	assert_false(exists(report));
	assert_false(exists(target));
}

static void test_failures_leave_no_report(void **state)
{
	struct fake f = { .status_rc = -1, .fail_run = true };
	const char *args[] = { "--size", "64k", "-o", report, target, NULL };

	(void)state;
	assert_int_equal(run_fake(&f, args), EXIT_ENV);
	assert_string_equal(f.log, "prepare,announce,run");
	assert_false(exists(report));
	assert_false(exists(target));

	/* A report that could not be written whole is not kept; the result
	 * is still judged and freed. */
	f.fail_run = false;
	f.fail_render = true;
	assert_int_equal(run_fake(&f, args), EXIT_ENV);
	assert_string_equal(f.log, "prepare,announce,run,text,status,done");
	assert_false(exists(report));
}

static void test_status_sets_exit_code(void **state)
{
	struct fake f = { .status_rc = EXIT_IO };
	const char *args[] = { "--size", "64k",	 "--keep", "-o",
			       report,	 target, NULL };
	char buf[64];

	(void)state;
	/* An I/O error in the result: the report is complete and kept. */
	assert_int_equal(run_fake(&f, args), EXIT_IO);
	assert_string_equal(slurp(report, buf, sizeof(buf)), "text report\n");
	/* --keep keeps the test file. */
	assert_true(exists(target));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_path),
		cmocka_unit_test(test_format_picks_renderer),
		cmocka_unit_test(test_refusals_before_anything),
		cmocka_unit_test(test_failures_leave_no_report),
		cmocka_unit_test(test_status_sets_exit_code),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
