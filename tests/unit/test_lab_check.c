// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lab --check reads each guest's iolab check document (untrusted: matched
 * by criterion id, text stripped of controls, another profile's result is
 * none) and judges each cell's safety: a pass whose flushes reached no
 * storage (cache=unsafe, an image in RAM) is inconclusive, never a pass,
 * and only cells that keep data are named among the passing.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/check/check_profile.h"
#include "cmd/lab/lab_host.h"
#include "cmd/lab/lab_report.h"
#include "util/err.h"
#include "util/warn.h"

/* A check document as the guest writes it, criteria in reverse order. */
static char *check_json(const char *profile, const char *verdict, double p99_ns,
			const char *reason)
{
	char *s = malloc(2048);

	snprintf(s, 2048,
		 "{\"command\":\"check\",\"profile\":\"%s\","
		 "\"verdict\":\"%s\",\"criteria\":["
		 "{\"id\":\"wal-appends-rate\",\"verdict\":\"pass\","
		 "\"value\":400.5,\"reason\":null},"
		 "{\"id\":\"wal-fdatasync-p99\",\"verdict\":\"%s\","
		 "\"value\":%g,\"reason\":\"%s\"}]}",
		 profile, verdict, verdict, p99_ns, reason);
	return s;
}

static struct lab_opts opts;

static void setup_report(struct lab_report *r, struct lab_cell *cells, size_t n)
{
	struct err err = { 0 };

	lab_opts_defaults(&opts);
	assert_true(
		lab_suite_set_check(&opts.suite, "etcd", 2000000000ull, &err));
	memset(r, 0, sizeof(*r));
	r->opts = &opts;
	r->cells = cells;
	r->ncells = n;
}

static void cell(struct lab_cell *c, enum cache_mode m, char *json)
{
	struct err err = { 0 };

	memset(c, 0, sizeof(*c));
	c->aio = ENGINE_THREADS;
	c->cache = m;
	c->status = LAB_OK;
	c->result = json;
	assert_true(lab_cell_parse(c, &err));
}

static void test_parse_by_id(void **state)
{
	struct lab_cell c;
	struct lab_report r;

	(void)state;
	cell(&c, CACHE_NONE,
	     check_json("etcd", "fail", 21.5e6, "bad\\u001b[2Jterm"));
	setup_report(&r, &c, 1);
	assert_ptr_equal(c.check.profile, check_profile_find("etcd"));
	assert_true(c.check.judged);
	/* The profile's order, whatever the guest's. */
	assert_int_equal(c.check.fig[0].verdict, CHECK_FAIL);
	assert_true(fabs(c.check.fig[0].value - 21.5e6) < 1);
	assert_int_equal(c.check.fig[1].verdict, CHECK_PASS);
	assert_true(fabs(c.check.fig[1].value - 400.5) < 1e-6);
	/* No escape reaches a terminal. */
	assert_null(strchr(c.check.fig[0].reason, '\033'));
	assert_int_equal(lab_check_verdict(&r, &c, NULL), CHECK_FAIL);
	free(c.result);
}

static void test_unsafe_never_passes(void **state)
{
	struct lab_cell cells[2];
	struct lab_report r;
	char lines[8][512];
	const char *why;
	int n;

	(void)state;
	cell(&cells[0], CACHE_UNSAFE, check_json("etcd", "pass", 3e6, ""));
	cell(&cells[1], CACHE_NONE, check_json("etcd", "pass", 4e6, ""));
	setup_report(&r, cells, 2);
	assert_int_equal(lab_check_verdict(&r, &cells[0], &why),
			 CHECK_INCONCLUSIVE);
	assert_non_null(strstr(why, "unsafe"));
	assert_int_equal(lab_check_verdict(&r, &cells[1], &why), CHECK_PASS);
	assert_string_equal(why, "");
	n = lab_check_recommend(&r, lines, 8);
	assert_true(n >= 2);
	assert_non_null(strstr(lines[0], "cache=none"));
	assert_null(strstr(lines[0], "unsafe"));
	assert_non_null(strstr(lines[n - 1], "cache=unsafe"));
	/* An image in host RAM: nothing reached storage anywhere. */
	warn_add(&r.warnings, "image-in-ram", "on tmpfs");
	assert_int_equal(lab_check_verdict(&r, &cells[1], &why),
			 CHECK_INCONCLUSIVE);
	assert_non_null(strstr(why, "RAM"));
	n = lab_check_recommend(&r, lines, 8);
	assert_non_null(strstr(lines[0], "No cell"));
	warnings_free(&r.warnings);
	free(cells[0].result);
	free(cells[1].result);
}

static void test_bad_documents(void **state)
{
	struct lab_cell c;
	struct lab_report r;
	struct err err = { 0 };

	(void)state;
	/* Another profile's result than asked is no verdict. */
	cell(&c, CACHE_NONE, check_json("zookeeper", "pass", 1e6, ""));
	setup_report(&r, &c, 1);
	assert_int_equal(lab_check_verdict(&r, &c, NULL), -1);
	free(c.result);
	/* An unknown profile, or no criteria: refused. */
	memset(&c, 0, sizeof(c));
	c.result = check_json("nosuch", "pass", 1e6, "");
	assert_false(lab_cell_parse(&c, &err));
	free(c.result);
	c.result = strdup("{\"command\":\"check\",\"profile\":\"etcd\"}");
	assert_false(lab_cell_parse(&c, &err));
	free(c.result);
	/* A stopped run (verdict null) is parsed but not judged. */
	memset(&c, 0, sizeof(c));
	c.status = LAB_OK;
	c.result = strdup("{\"command\":\"check\",\"profile\":\"etcd\","
			  "\"verdict\":null,\"criteria\":[]}");
	assert_true(lab_cell_parse(&c, &err));
	assert_false(c.check.judged);
	assert_int_equal(lab_check_verdict(&r, &c, NULL), -1);
	free(c.result);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_by_id),
		cmocka_unit_test(test_unsafe_never_passes),
		cmocka_unit_test(test_bad_documents),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
