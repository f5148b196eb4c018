// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading iolab JSON back (envelope and schema_version checks, typed
 * getters), CSV quoting, and the SVG scales' ticks and colours.
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
#include "report/html/html_impl.h"
#include "report/json_read.h"
#include "util/err.h"

#define ENV "\"tool\":{\"name\":\"iolab\",\"version\":\"0.1.0\"},"

static void test_envelope(void **state)
{
	static const struct {
		const char *text;
		int exit_code; /* 0: accepted */
		const char *msg;
	} cases[] = {
		{ "{\"schema_version\":1," ENV "\"command\":\"run\"}", 0,
		  NULL },
		{ "{\"schema_version\":2," ENV "\"command\":\"run\"}", EXIT_ENV,
		  "newer" },
		{ "{\"schema_version\":0," ENV "\"command\":\"run\"}", EXIT_ENV,
		  "unknown schema_version" },
		{ "{\"schema_version\":\"1\"," ENV "\"command\":\"run\"}",
		  EXIT_ENV, "unknown schema_version" },
		{ "{\"schema_version\":1,\"tool\":{\"name\":\"fio\"},\"command\":\"run\"}",
		  EXIT_USAGE, "not an iolab JSON" },
		{ "{\"fio version\":\"fio-3.33\"}", EXIT_USAGE,
		  "not an iolab JSON" },
		{ "[1,2]", EXIT_USAGE, "not an iolab JSON" },
		{ "{\"schema_version\":1,\"tool\":{\"name\":\"iolab\"}}",
		  EXIT_USAGE, "no \"command\"" },
		{ "{\"schema_version\":1,", EXIT_USAGE, "not valid JSON" },
		{ "", EXIT_USAGE, "JSON" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct err err = { 0 };
		struct jr_doc *d = jr_parse(cases[i].text, "t.json", &err);

		if (!cases[i].exit_code) {
			assert_non_null(d);
			assert_string_equal(jr_command(d), "run");
			assert_string_equal(jr_tool_version(d), "0.1.0");
			jr_free(d);
			continue;
		}
		assert_null(d);
		assert_int_equal(err.exit_code, cases[i].exit_code);
		assert_non_null(strstr(err.msg, cases[i].msg));
		assert_non_null(strstr(err.msg, "t.json"));
	}
}

static void test_getters(void **state)
{
	struct err err = { 0 };
	struct jr_doc *d = jr_parse(
		"{\"schema_version\":1," ENV "\"command\":\"run\","
		"\"a\":{\"b\":{\"c\":4096,\"r\":1.5,\"s\":\"x\",\"t\":true,"
		"\"n\":null},\"l\":[1,null,3]}}",
		"t.json", &err);
	const struct jr_node *r;
	char buf[32];
	double v;
	bool b;

	(void)state;
	assert_non_null(d);
	r = jr_root(d);
	assert_true(jr_num(r, "a.b.c", &v));
	assert_true(v == 4096);
	assert_true(jr_numd(r, "a.b.r", 0) == 1.5);
	assert_true(isnan(jr_numd(r, "a.b.zz", NAN)));
	assert_false(jr_num(r, "a.b.s", &v));
	assert_string_equal(jr_str(r, "a.b.s"), "x");
	assert_null(jr_str(r, "a.b.c"));
	assert_true(jr_bool(r, "a.b.t", &b) && b);
	/* JSON null reads as absent. */
	assert_null(jr_get(r, "a.b.n"));
	assert_int_equal(jr_len(jr_get(r, "a.l")), 3);
	assert_null(jr_at(jr_get(r, "a.l"), 1));
	assert_string_equal(jr_scalar(r, "a.b.c", buf, sizeof(buf)), "4096");
	assert_string_equal(jr_scalar(r, "a.b.r", buf, sizeof(buf)), "1.5");
	assert_string_equal(jr_scalar(r, "a.b.t", buf, sizeof(buf)), "true");
	assert_null(jr_scalar(r, "a.b", buf, sizeof(buf)));
	jr_free(d);
}

static void test_csv(void **state)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct err err = { 0 };
	struct csv w;

	(void)state;
	csv_init(&w, f);
	csv_str(&w, "plain");
	csv_str(&w, "a,b");
	csv_str(&w, "say \"hi\"");
	csv_str(&w, NULL);
	csv_num(&w, 15925653504.0);
	csv_num(&w, 12.5);
	csv_num(&w, NAN);
	csv_end_line(&w);
	assert_true(csv_finish(&w, &err));
	fclose(f);
	assert_string_equal(
		out, "plain,\"a,b\",\"say \"\"hi\"\"\",,15925653504,12.5,\n");
	free(out);
}

static void test_scales(void **state)
{
	struct svg_scale s;
	double t[32];
	size_t n;
	char buf[32];

	(void)state;
	/* Linear from zero with 1-2-5 steps. */
	svg_scale_fit(&s, RSC_LIN, 0, 8602, true, 0, 100);
	assert_true(s.d0 == 0 && s.d1 == 10000);
	n = svg_ticks(&s, t, 32);
	assert_int_equal(n, 6);
	assert_true(t[1] == 2000 && t[5] == 10000);
	assert_true(fabs(svg_map(&s, 5000) - 50) < 1e-9);
	/* Log: whole decades. */
	svg_scale_fit(&s, RSC_LOG, 32000, 4.9e6, false, 0, 100);
	assert_true(s.d0 == 1e4 && s.d1 == 1e7);
	assert_true(fabs(svg_map(&s, 1e5) - 100.0 / 3) < 1e-9);
	/* Nines: p99 sits twice as far as p90. */
	svg_scale_fit(&s, RSC_NINES, 1, 99.99, false, 0, 400);
	assert_true(s.d1 == 4);
	assert_true(fabs(svg_map(&s, 90) - 100) < 1e-9);
	assert_true(fabs(svg_map(&s, 99) - 200) < 1e-9);
	n = svg_ticks(&s, t, 32);
	assert_true(n == 6 && t[5] == 99.99);
	assert_string_equal(svg_tick_label(RU_PCT, RSC_NINES, 99.9, buf, 32),
			    "p99.9");
	assert_string_equal(svg_tick_label(RU_NS, RSC_LOG, 2e5, buf, 32),
			    "200 us");
	assert_string_equal(svg_tick_label(RU_IOPS, RSC_LIN, 20000, buf, 32),
			    "20k");
}

static void test_colors(void **state)
{
	char bg[8];
	const char *fg;

	(void)state;
	svg_heat_color(0, bg, &fg);
	assert_string_equal(bg, "#ffffd9");
	assert_string_equal(fg, "#111111");
	svg_heat_color(1, bg, &fg);
	assert_string_equal(bg, "#081d58");
	assert_string_equal(fg, "#ffffff");
	/* A ratio of 1 is neutral; better is green, worse red. */
	svg_ratio_color(1, true, bg, &fg);
	assert_string_equal(bg, "#f7f7f7");
	svg_ratio_color(8, true, bg, &fg);
	assert_string_equal(bg, "#1a9850");
	svg_ratio_color(8, false, bg, &fg);
	assert_string_equal(bg, "#d73027");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_envelope), cmocka_unit_test(test_getters),
		cmocka_unit_test(test_csv),	 cmocka_unit_test(test_scales),
		cmocka_unit_test(test_colors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
