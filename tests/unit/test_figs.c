// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The figure tables of run (cmd/run/run_figs.c), mark (cmd/mark/
 * mark_figs.c) and calibrate's curve points (calibrate_figs.c) that the
 * text, CSV and compare/report views are generated from: keys and columns
 * are unique, a figure nothing was measured for has no value (never 0),
 * and the document's figures are found where the writer puts them.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/calibrate/calibrate_figs.h"
#include "cmd/mark/mark_figs.h"
#include "cmd/run/run_figs.h"
#include "core/hist.h"
#include "report/json_read.h"
#include "util/err.h"

/* A document around @body, as jr_parse() takes it: {..., "x": body}. */
#define DOC(body)                                                         \
	"{\"schema_version\":1,\"tool\":{\"name\":\"iolab\",\"version\":" \
	"\"0.1.0\"},\"command\":\"run\",\"x\":" body "}"

static void unique(const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (v[i] && v[j] && !strcmp(v[i], v[j]))
				fail_msg("\"%s\" twice", v[i]);
}

static void test_run_table(void **state)
{
	const char *keys[64], *csv[64], *heads[64];
	size_t n = 0, nhead = 0;

	(void)state;
	for (const struct run_fig *f = run_dir_figs; f->key; f++, n++) {
		keys[n] = f->key;
		csv[n] = f->csv;
		heads[n] = f->head;
		nhead += f->head != NULL;
		/* A compare figure must be found in the document. */
		if (f->name)
			assert_true(f->json || f->pct > 0);
		if (f->head)
			assert_true(f->width > 0);
		if (!f->pct)
			assert_non_null(f->get);
	}
	unique(keys, n);
	unique(csv, n);
	unique(heads, n);
	assert_int_equal(run_fig_columns(), nhead);
}

static const struct run_fig *run_fig(const char *key)
{
	for (const struct run_fig *f = run_dir_figs; f->key; f++)
		if (!strcmp(f->key, key))
			return f;
	fail_msg("no run figure %s", key);
	return NULL;
}

static void test_run_values(void **state)
{
	struct run_result r = { 0 };

	(void)state;
	r.elapsed_s = 2;
	r.dir[DIR_READ].ios = 1000;
	r.dir[DIR_READ].bytes = 1000 * 4096;
	hist_init(&r.dir[DIR_READ].lat);
	hist_init(&r.dir[DIR_WRITE].lat);
	hist_init(&r.dir[DIR_FLUSH].lat);
	for (int i = 0; i < 1000; i++)
		hist_record(&r.dir[DIR_READ].lat, 100000);
	r.dir[DIR_FLUSH].ios = 3;
	for (int i = 0; i < 3; i++)
		hist_record(&r.dir[DIR_FLUSH].lat, 5000000);

	assert_float_equal(run_fig_value(run_fig("iops"), &r, DIR_READ), 500,
			   1e-9);
	assert_float_equal(run_fig_value(run_fig("mbps"), &r, DIR_READ),
			   500 * 4096 / 1e6, 1e-9);
	assert_float_equal(run_fig_value(run_fig("lat_p99"), &r, DIR_READ),
			   100000, 1000);
	/* Nothing written: no figure, not 0. */
	assert_true(isnan(run_fig_value(run_fig("iops"), &r, DIR_WRITE)));
	assert_true(isnan(run_fig_value(run_fig("lat_mean"), &r, DIR_WRITE)));
	assert_true(isnan(run_fig_value(run_fig("lat_p50"), &r, DIR_WRITE)));
	/* A flush moves no data; its count and latency are figures. */
	assert_true(isnan(run_fig_value(run_fig("mbps"), &r, DIR_FLUSH)));
	assert_true(isnan(run_fig_value(run_fig("bytes"), &r, DIR_FLUSH)));
	assert_float_equal(run_fig_value(run_fig("ios"), &r, DIR_FLUSH), 3, 0);
	assert_float_equal(run_fig_value(run_fig("lat_max"), &r, DIR_FLUSH),
			   5000000, 100000);
}

static void test_run_json(void **state)
{
	static const char text[] = DOC(
		"{\"read\":{\"ios\":10,\"iops\":5.5,\"lat_ns\":{\"mean\":12.5,"
		"\"percentiles\":[{\"p\":99,\"ns\":40}]}},"
		"\"write\":{\"ios\":0,\"lat_ns\":null}}");
	struct err err = { 0 };
	struct jr_doc *doc = jr_parse(text, "test", &err);
	const struct jr_node *rd, *wr;
	double v;

	(void)state;
	assert_non_null(doc);
	rd = jr_get(jr_root(doc), "x.read");
	wr = jr_get(jr_root(doc), "x.write");
	assert_true(run_fig_json(run_fig("iops"), rd, &v));
	assert_float_equal(v, 5.5, 0);
	assert_true(run_fig_json(run_fig("lat_mean"), rd, &v));
	assert_float_equal(v, 12.5, 0);
	assert_true(run_fig_json(run_fig("lat_p99"), rd, &v));
	assert_float_equal(v, 40, 0);
	/* Beside its siblings but missing: there, without a value. */
	assert_true(run_fig_json(run_fig("mbps"), rd, &v));
	assert_true(isnan(v));
	assert_true(run_fig_json(run_fig("lat_max"), rd, &v));
	assert_true(isnan(v));
	/* A percentile not asked for, a latency of nothing: not there. */
	assert_false(run_fig_json(run_fig("lat_p99_9"), rd, &v));
	assert_false(run_fig_json(run_fig("lat_mean"), wr, &v));
	jr_free(doc);
}

static void test_mark_table(void **state)
{
	const char *keys[MARK_NFIGS], *csv[MARK_NFIGS], *heads[MARK_NFIGS];

	(void)state;
	for (int k = 0; k < MARK_NFIGS; k++) {
		const struct mark_fig *f = &mark_figs[k];

		assert_non_null(f->key);
		assert_non_null(f->get);
		assert_non_null(f->json);
		assert_true(f->csv_div > 0);
		if (f->head)
			assert_true(f->width > 0);
		keys[k] = f->key;
		csv[k] = f->csv;
		heads[k] = f->head;
	}
	unique(keys, MARK_NFIGS);
	unique(csv, MARK_NFIGS);
	unique(heads, MARK_NFIGS);
}

static void test_mark_values(void **state)
{
	static const char text[] = DOC(
		"{\"mbps\":{\"max\":120.5,\"mean\":110,\"min\":100,"
		"\"stddev\":8},\"lat_ns\":{\"p99\":2000000},\"read_mbps\":null}");
	struct mark_cell c = { 0 };
	struct err err = { 0 };
	struct jr_doc *doc;
	struct hist h;

	(void)state;
	hist_init(&h);
	hist_record(&h, 50000);
	c.started = true;
	c.scored = 2;
	c.procedure = MARK_FIXED; /* CrystalDiskMark's: the best run */
	c.mbps.max = 120.5;
	c.mbps.mean = 110;
	c.read_mbps.max = 80;
	c.lat = &h;
	for (int k = 0; k < MARK_NFIGS; k++) {
		const struct mark_fig *f = &mark_figs[k];

		if (!strcmp(f->key, "mbps"))
			assert_float_equal(mark_fig_value(f, &c, MARK_READ),
					   120.5, 0);
		if (!strcmp(f->key, "lat_mean"))
			assert_float_equal(mark_fig_value(f, &c, MARK_READ),
					   50000, 500);
		/* The mix tests' own figures only on a mix test. */
		if (!strcmp(f->key, "read_mbps")) {
			assert_true(isnan(mark_fig_value(f, &c, MARK_READ)));
			assert_float_equal(mark_fig_value(f, &c, MARK_MIX), 80,
					   0);
		}
	}
	/* The precision procedure's headline is the mean. */
	c.procedure = MARK_PRECISION;
	assert_float_equal(mark_fig_value(&mark_figs[0], &c, MARK_READ), 110,
			   0);
	/* Not scored: no MB/s, whatever the cell holds. */
	c.scored = 0;
	assert_true(isnan(mark_fig_value(&mark_figs[0], &c, MARK_READ)));

	doc = jr_parse(text, "test", &err);
	assert_non_null(doc);
	for (int k = 0; k < MARK_NFIGS; k++) {
		const struct mark_fig *f = &mark_figs[k];
		double v = mark_fig_json(f, jr_get(jr_root(doc), "x"));

		if (!strcmp(f->key, "mbps_stddev"))
			assert_float_equal(v, 8, 0);
		else if (!strcmp(f->key, "mbps"))
			/* No "headline": a document of CDM's procedure. */
			assert_float_equal(v, 120.5, 0);
		else if (!strcmp(f->key, "lat_p99"))
			assert_float_equal(v, 2000000, 0);
		else if (!strcmp(f->key, "read_mbps") ||
			 !strcmp(f->key, "iops"))
			assert_true(isnan(v));
	}
	jr_free(doc);
}

static void test_cal_points(void **state)
{
	static const char text[] =
		DOC("{\"iops\":1500,\"lat_ms\":{\"mean\":0.5},"
		    "\"lat_ns\":{\"p99\":9}}");
	struct cal_point p = { .iops = 0, .mbps = 0, .mean_ns = 2e6 };
	struct err err = { 0 };
	struct jr_doc *doc = jr_parse(text, "test", &err);
	const struct jr_node *x;

	(void)state;
	assert_non_null(doc);
	x = jr_get(jr_root(doc), "x");
	for (const struct cal_fig *f = cal_point_figs; f->head; f++) {
		double v = cal_fig_value(f, &p);

		assert_non_null(f->csv);
		/* A load that completed no read has no rate, not 0. */
		if (f->scope & CAL_FIG_RATE)
			assert_true(isnan(v));
		if (!strcmp(f->head, "mean")) {
			assert_float_equal(v, 2e6, 0);
			/* lat_ms in the document, ns in the figure. */
			assert_float_equal(cal_fig_json(f, x), 0.5e6, 1e-6);
		}
		if (!strcmp(f->head, "p99"))
			assert_float_equal(cal_fig_json(f, x), 9, 0);
		if (!strcmp(f->head, "IOPS"))
			assert_float_equal(cal_fig_json(f, x), 1500, 0);
	}
	p.iops = 10;
	assert_float_equal(cal_fig_value(&cal_point_figs[0], &p), 10, 0);
	jr_free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_table),
		cmocka_unit_test(test_run_values),
		cmocka_unit_test(test_run_json),
		cmocka_unit_test(test_mark_table),
		cmocka_unit_test(test_mark_values),
		cmocka_unit_test(test_cal_points),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
