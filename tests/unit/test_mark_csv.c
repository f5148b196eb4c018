// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The test columns of mark, matrix and lab --csv (cmd/mark/mark_csv.h), from
 * a result in memory and from mark's JSON: each figure lands in its
 * column, in its unit; what does not exist is empty.
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

#include "report/csv.h"
#include "report/json_read.h"
#include "cmd/mark/mark_csv.h"
#include "core/hist.h"
#include "util/err.h"
#include "util/warn.h"

#define NCOLS 26 /* the test columns and the tail, without mix */

/* The fields of one CSV line (no quoting in these tests). */
static int fields(const char *line, char out[][64], int max)
{
	int n = 0;
	const char *p = line;

	while (n < max) {
		size_t len = strcspn(p, ",\n");

		snprintf(out[n++], 64, "%.*s", (int)len, p);
		if (p[len] != ',')
			break;
		p += len + 1;
	}
	return n;
}

static char *render(const struct mark_row *row, bool mix, bool head)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct csv w;

	assert_non_null(f);
	csv_init(&w, f);
	if (head)
		mark_csv_head(&w, mix);
	else
		mark_csv_fields(&w, row, mix);
	csv_end_line(&w);
	fclose(f);
	return buf;
}

static int col(const char *name, bool mix)
{
	char *h = render(NULL, mix, true);
	char names[40][64];
	int n = fields(h, names, 40);

	free(h);
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	fail_msg("no column %s", name);
	return -1;
}

static const struct mark_test rnd4k = { .random = true,
					.bs = 4096,
					.qd = 1,
					.threads = 1 };

static void spec_one(struct mark_spec *s)
{
	mark_spec_defaults(s);
	s->ntests = 1;
	s->tests[0] = rnd4k;
}

static void test_head(void **state)
{
	char *h = render(NULL, false, true);
	char *hm = render(NULL, true, true);
	char v[40][64];

	(void)state;
	assert_int_equal(fields(h, v, 40), NCOLS);
	assert_string_equal(v[0], "test");
	assert_string_equal(v[NCOLS - 1], "warnings");
	assert_int_equal(fields(hm, v, 40), NCOLS + 5);
	assert_non_null(strstr(hm, ",mix_read_pct,mix_read_MB_s_max,"));
	free(h);
	free(hm);
}

static void test_from_cell(void **state)
{
	struct mark_spec s;
	struct mark_cell c = { 0 };
	struct hist h;
	struct mark_row row;
	char v[40][64], *line;

	(void)state;
	spec_one(&s);
	hist_init(&h);
	for (int i = 0; i < 99; i++)
		hist_record(&h, 50000); /* 50 us */
	hist_record(&h, 2000000); /* one 2 ms straggler */
	c.started = true;
	c.scored = 3;
	c.nruns = 3;
	c.mbps = (struct mark_stat){ 41.5, 40.25, 39.0, 1.25 };
	c.iops = (struct mark_stat){ 10131.8, 9826.7, 9521.5, 305.2 };
	c.rel_ci = 0.0776;
	c.lat = &h;
	warn_add(&c.warnings, "few-samples", "only %d I/Os", 100);
	warn_add(&c.warnings, "high-latency", "slow");
	mark_row_from_cell(&row, &s, 0, MARK_WRITE, &c);
	line = render(&row, false, false);
	assert_int_equal(fields(line, v, 40), NCOLS);
	assert_string_equal(v[col("test", false)], "RND4K Q1T1");
	assert_string_equal(v[col("pattern", false)], "random");
	assert_string_equal(v[col("bs_bytes", false)], "4096");
	assert_string_equal(v[col("direction", false)], "write");
	assert_string_equal(v[col("runs_scored", false)], "3");
	assert_string_equal(v[col("MB_s_max", false)], "41.5");
	/* The precision procedure's headline: the mean, and its interval
	 * in percent of it. */
	assert_string_equal(v[col("MB_s", false)], "40.25");
	assert_string_equal(v[col("MB_s_ci95_pct", false)], "7.76");
	assert_string_equal(v[col("iops", false)], "9826.7");
	assert_string_equal(v[col("MB_s_min", false)], "39");
	assert_string_equal(v[col("MB_s_stddev", false)], "1.25");
	assert_string_equal(v[col("iops_mean", false)], "9826.7");
	/* Latency in microseconds; min and max exact. */
	assert_string_equal(v[col("lat_min_us", false)], "50");
	assert_string_equal(v[col("lat_max_us", false)], "2000");
	assert_string_equal(v[col("lat_mean_us", false)], "69.5");
	assert_true(fabs(atof(v[col("lat_p50_us", false)]) - 50) <= 0.5);
	assert_true(fabs(atof(v[col("lat_p99_us", false)]) - 50) <= 0.5);
	assert_string_equal(v[col("partial", false)], "false");
	assert_string_equal(v[col("warnings", false)],
			    "few-samples high-latency");
	free(line);
	warnings_free(&c.warnings);
}

static void test_one_run_no_stddev(void **state)
{
	struct mark_spec s;
	struct mark_cell c = { 0 };
	struct mark_row row;
	char v[40][64], *line;

	(void)state;
	spec_one(&s);
	c.started = true;
	c.scored = 1;
	c.mbps = (struct mark_stat){ 40, 40, 40, 0 };
	c.iops = (struct mark_stat){ 9765.6, 9765.6, 9765.6, 0 };
	mark_row_from_cell(&row, &s, 0, MARK_READ, &c);
	line = render(&row, false, false);
	fields(line, v, 40);
	/* A deviation of one run does not exist: empty, not 0. */
	assert_string_equal(v[col("MB_s_stddev", false)], "");
	assert_string_equal(v[col("iops_stddev", false)], "");
	assert_string_equal(v[col("MB_s_max", false)], "40");
	/* No latency histogram: no latency figures. */
	assert_string_equal(v[col("lat_mean_us", false)], "");
	free(line);
}

static void test_not_run(void **state)
{
	struct mark_spec s;
	struct mark_row row;
	char v[40][64], *line;
	int first = col("runs_scored", true);

	(void)state;
	spec_one(&s);
	s.mix_read_pct = 70;
	mark_row_from_cell(&row, &s, 0, MARK_MIX, NULL);
	line = render(&row, true, false);
	assert_int_equal(fields(line, v, 40), NCOLS + 5);
	assert_string_equal(v[col("direction", true)], "mix");
	/* The test is named; every figure and flag is empty, never 0. */
	for (int i = first; i < NCOLS + 5; i++)
		if (i != col("mix_read_pct", true))
			assert_string_equal(v[i], "");
	assert_string_equal(v[col("mix_read_pct", true)], "70");
	free(line);
}

/* What the lab has: mark's JSON of each guest, as mark_json.c writes it. */
static void test_from_json(void **state)
{
	static const char doc[] =
		"{\"schema_version\":1,\"tool\":{\"name\":\"iolab\","
		"\"version\":\"0.1.0\"},\"command\":\"mark\",\"tests\":[{"
		"\"name\":\"RND4K Q1T1\",\"read\":{\"partial\":false,"
		"\"runs_scored\":2,\"mbps\":{\"max\":7.691,\"mean\":7.5,"
		"\"min\":7.309,\"stddev\":0.27},\"iops\":{\"max\":1877.6,"
		"\"mean\":1831.1,\"min\":1784.4,\"stddev\":65.9},"
		"\"lat_ns\":{\"min\":175732,\"mean\":531755.4,\"p50\":259072,"
		"\"p99\":3489792,\"max\":7572301,\"count\":1000},"
		"\"page_cache_reads\":true,\"warnings\":[{\"id\":\"a\","
		"\"message\":\"x\"},{\"id\":\"b\",\"message\":\"y\"}]},"
		"\"write\":null}]}";
	struct err err = { 0 };
	struct jr_doc *d = jr_parse(doc, "test", &err);
	const struct jr_node *t;
	struct mark_row row;
	char v[40][64], *line;

	(void)state;
	assert_non_null(d);
	t = jr_at(jr_get(jr_root(d), "tests"), 0);
	mark_row_init(&row, &rnd4k, MARK_READ);
	mark_row_from_json(&row, jr_get(t, "read"));
	line = render(&row, false, false);
	assert_int_equal(fields(line, v, 40), NCOLS);
	assert_string_equal(v[col("runs_scored", false)], "2");
	assert_string_equal(v[col("MB_s_max", false)], "7.691");
	assert_string_equal(v[col("MB_s_stddev", false)], "0.27");
	assert_string_equal(v[col("iops_min", false)], "1784.4");
	assert_string_equal(v[col("lat_min_us", false)], "175.732");
	assert_string_equal(v[col("lat_mean_us", false)], "531.755");
	assert_string_equal(v[col("lat_p50_us", false)], "259.072");
	assert_string_equal(v[col("lat_p99_us", false)], "3489.792");
	assert_string_equal(v[col("lat_max_us", false)], "7572.301");
	assert_string_equal(v[col("page_cache_reads", false)], "true");
	assert_string_equal(v[col("partial", false)], "false");
	assert_string_equal(v[col("warnings", false)], "a b");
	free(line);

	/* null: the direction did not run; the row stays empty. */
	mark_row_init(&row, &rnd4k, MARK_WRITE);
	mark_row_from_json(&row, jr_get(t, "write"));
	line = render(&row, false, false);
	fields(line, v, 40);
	for (int i = col("runs_scored", false); i < NCOLS; i++)
		assert_string_equal(v[i], "");
	free(line);
	jr_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_head),
		cmocka_unit_test(test_from_cell),
		cmocka_unit_test(test_one_run_no_stddev),
		cmocka_unit_test(test_not_run),
		cmocka_unit_test(test_from_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
