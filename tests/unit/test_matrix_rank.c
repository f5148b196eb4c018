// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * matrix's ranking: only cells whose figures reached the storage are
 * ranked (page-cache reads are set aside and named), the lead over the
 * next safe cell carries its noise, and a lead inside the noise is "too
 * close to call", never "1.4x better".
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/matrix/matrix_report.h"
#include "cmd/matrix/matrix_suite.h"

static void cell(struct matrix_cell *c, enum engine_kind e, enum cache_mode m,
		 double mbps, double unc, bool page)
{
	memset(c, 0, sizeof(*c));
	c->engine = e;
	c->cache = m;
	c->status = MATRIX_OK;
	c->measured = true;
	c->score_mbps = mbps;
	c->score_n = 4;
	c->score_unc = unc;
	c->page_cache_reads = page;
}

static int recommend(struct matrix_result *r, char lines[][512])
{
	matrix_rank(r);
	return matrix_recommend(r, lines, MATRIX_REC_LINES);
}

static bool has(char lines[][512], int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strstr(lines[i], s))
			return true;
	return false;
}

static void test_margin(void **state)
{
	struct matrix_cell a, b;
	struct matrix_result r = { .again = -1 };
	struct margin m;

	(void)state;
	cell(&a, ENGINE_IO_URING, CACHE_NONE, 140, 0.05, false);
	cell(&b, ENGINE_THREADS, CACHE_NONE, 100, 0.05, false);
	m = matrix_margin(&r, &a, &b);
	assert_float_equal(m.ratio, 1.4, 1e-9);
	assert_float_equal(m.unc, sqrt(0.005), 1e-9);
	assert_false(m.too_close); /* ln 1.4 = 0.34 > 2 x 0.071 */

	a.score_unc = b.score_unc = 0.2; /* 2 x 0.28 > 0.34 */
	assert_true(matrix_margin(&r, &a, &b).too_close);

	a.score_unc = NAN; /* unknown noise: never "too close", never sure */
	m = matrix_margin(&r, &a, &b);
	assert_false(m.too_close);
	assert_true(isnan(m.unc));
}

/* The leader measured again 30 % slower: that drift between cells is in
 * every margin, and a 1.4x lead is no longer called. */
static void test_measured_again(void **state)
{
	struct matrix_cell cells[2];
	struct matrix_result r = { 0 };
	char lines[MATRIX_REC_LINES][512];
	int n;

	(void)state;
	cell(&cells[0], ENGINE_IO_URING, CACHE_NONE, 140, 0.05, false);
	cell(&cells[1], ENGINE_THREADS, CACHE_NONE, 100, 0.05, false);
	r.cells = cells;
	r.ncells = 2;
	r.again = -1;
	n = recommend(&r, lines);
	assert_true(has(lines, n, "1.40x the next"));
	assert_false(has(lines, n, "measured again"));

	r.again = 0;
	r.again_mbps = 98;
	assert_float_equal(matrix_drift_unc(&r),
			   fabs(log(98.0 / 140)) / sqrt(2), 1e-12);
	assert_float_equal(
		matrix_margin(&r, &cells[0], &cells[1]).unc,
		sqrt(2 * (0.05 * 0.05 +
			  matrix_drift_unc(&r) * matrix_drift_unc(&r))),
		1e-9);
	n = recommend(&r, lines);
	assert_true(has(
		lines, n,
		"aio=io_uring cache=none measured again after every cell: 98.0 MB/s against 140.0 at first (-30%)"));
	assert_true(has(lines, n, "too close to call against aio=threads"));
}

static void test_page_cache_set_aside(void **state)
{
	struct matrix_cell cells[3];
	struct matrix_result r = { 0 };
	char lines[MATRIX_REC_LINES][512];
	int n;

	(void)state;
	/* writeback is 5x faster, but its reads were the page cache's. */
	cell(&cells[0], ENGINE_THREADS, CACHE_WRITEBACK, 1000, 0.02, true);
	cell(&cells[1], ENGINE_THREADS, CACHE_NONE, 200, 0.02, false);
	cell(&cells[2], ENGINE_IO_URING, CACHE_NONE, 100, 0.02, false);
	r.cells = cells;
	r.ncells = 3;
	n = recommend(&r, lines);
	assert_int_equal(r.best_safe, 1);
	assert_int_equal(r.next_safe, 2);
	assert_int_equal(r.best_any, 1);
	assert_true(has(lines, n, "Not ranked: aio=threads cache=writeback"));
	assert_true(has(lines, n, "aio=threads cache=none, 200.0 MB/s"));
	assert_true(has(lines, n, "2.00x the next"));
	assert_true(has(lines, n, "beyond the noise"));
	assert_string_equal(
		matrix_cell_set_aside(&cells[0]),
		"its reads came from the host page cache, not the disk");
	assert_null(matrix_cell_set_aside(&cells[1]));
}

static void test_too_close(void **state)
{
	struct matrix_cell cells[2];
	struct matrix_result r = { 0 };
	char lines[MATRIX_REC_LINES][512];
	int n;

	(void)state;
	cell(&cells[0], ENGINE_THREADS, CACHE_NONE, 110, 0.15, false);
	cell(&cells[1], ENGINE_IO_URING, CACHE_NONE, 100, 0.15, false);
	r.cells = cells;
	r.ncells = 2;
	n = recommend(&r, lines);
	assert_true(has(lines, n, "too close to call against aio=io_uring"));
	assert_false(has(lines, n, "the next"));
}

static void test_unknown_noise_and_unsafe(void **state)
{
	struct matrix_cell cells[3];
	struct matrix_result r = { 0 };
	char lines[MATRIX_REC_LINES][512];
	int n;

	(void)state;
	cell(&cells[0], ENGINE_THREADS, CACHE_UNSAFE, 300, NAN, false);
	cell(&cells[1], ENGINE_THREADS, CACHE_NONE, 200, NAN, false);
	cell(&cells[2], ENGINE_IO_URING, CACHE_NONE, 100, 0.01, false);
	cells[1].cached_writes = true;
	r.cells = cells;
	r.ncells = 3;
	n = recommend(&r, lines);
	assert_int_equal(r.best_any, 0);
	assert_int_equal(r.best_safe, 1);
	assert_true(has(lines, n, "the noise is unknown"));
	assert_true(has(
		lines, n,
		"Writes of aio=threads cache=none were acknowledged from a cache"));
	assert_true(has(lines, n, "Fastest overall: aio=threads cache=unsafe"));
}

static void test_nothing_ranked(void **state)
{
	struct matrix_cell cells[1];
	struct matrix_result r = { 0 };
	char lines[MATRIX_REC_LINES][512];
	int n;

	(void)state;
	cell(&cells[0], ENGINE_THREADS, CACHE_WRITEBACK, 900, 0.01, true);
	r.cells = cells;
	r.ncells = 1;
	n = recommend(&r, lines);
	assert_int_equal(r.best_safe, -1);
	assert_true(has(lines, n, "Not ranked"));
	assert_true(has(lines, n, "No recommendation"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_margin),
		cmocka_unit_test(test_measured_again),
		cmocka_unit_test(test_page_cache_set_aside),
		cmocka_unit_test(test_too_close),
		cmocka_unit_test(test_unknown_noise_and_unsafe),
		cmocka_unit_test(test_nothing_ranked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
