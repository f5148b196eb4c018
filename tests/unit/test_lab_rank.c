// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lab's ranking reads each guest's mark JSON: cells whose reads were a
 * cache's (page_cache_reads, or the below-disk-latency warning the host's
 * page cache causes under cache=writeback) are set aside, writes count
 * their flush (storage_mbps), and each cell's noise is its figures' cv.
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

#include "cmd/lab/lab_report.h"
#include "util/err.h"

static char *mark_json(double rd, double wr, double wr_storage, double cv,
		       const char *read_warning)
{
	char *s = malloc(1024);

	snprintf(s, 1024,
		 "{\"tests\":[{\"name\":\"RND4K Q1T1\","
		 "\"read\":{\"mbps\":{\"max\":%g},\"iops\":{\"max\":1},"
		 "\"lat_ns\":{\"mean\":1},\"storage_mbps\":%g,\"cv\":%g,"
		 "\"page_cache_reads\":false,"
		 "\"warnings\":[{\"id\":\"%s\",\"message\":\"m\"}]},"
		 "\"write\":{\"mbps\":{\"max\":%g},\"iops\":{\"max\":1},"
		 "\"lat_ns\":{\"mean\":1},\"storage_mbps\":%g,\"cv\":%g,"
		 "\"cached_writes\":%s,\"warnings\":[]}}]}",
		 rd, rd, cv, read_warning, wr, wr_storage, cv,
		 wr_storage < wr ? "true" : "false");
	return s;
}

static void cell(struct lab_cell *c, enum engine_kind aio, enum cache_mode m,
		 char *json)
{
	struct err err;

	memset(c, 0, sizeof(*c));
	c->aio = aio;
	c->cache = m;
	c->status = LAB_OK;
	c->result = json;
	assert_true(lab_cell_parse(c, &err));
}

static void test_rank_on_storage(void **state)
{
	struct lab_cell cells[3];
	struct lab_report r = { 0 };
	double score;

	(void)state;
	/* writeback: reads below any disk's latency (host page cache). */
	cell(&cells[0], ENGINE_THREADS, CACHE_WRITEBACK,
	     mark_json(900, 800, 800, 0.02, "below-disk-latency"));
	/* writethrough: fast acknowledged writes, slow flush. */
	cell(&cells[1], ENGINE_THREADS, CACHE_WRITETHROUGH,
	     mark_json(100, 400, 25, 0.02, "none"));
	cell(&cells[2], ENGINE_IO_URING, CACHE_NONE,
	     mark_json(100, 100, 100, 0.02, "none"));
	r.cells = cells;
	r.ncells = 3;
	assert_true(lab_cell_set_aside(&cells[0]));
	assert_false(lab_cell_set_aside(&cells[1]));
	assert_true(lab_cell_cached_writes(&cells[1]));
	assert_float_equal(lab_cell_score(&cells[1]), 50, 1e-6);
	assert_float_equal(lab_cell_unc(&cells[2]), 0.02, 1e-9);
	assert_int_equal(lab_best(&r, -1, -1, true, &score), 2);
	assert_float_equal(score, 100, 1e-6);
	for (int i = 0; i < 3; i++)
		free(cells[i].result);
}

static void test_old_guest_json(void **state)
{
	struct lab_cell c;
	struct err err;
	char json[] = "{\"tests\":[{\"name\":\"SEQ1M Q8T1\","
		      "\"read\":{\"mbps\":{\"max\":250}}}]}";

	(void)state;
	memset(&c, 0, sizeof(c));
	c.status = LAB_OK;
	c.result = json;
	assert_true(lab_cell_parse(&c, &err));
	/* No storage_mbps: the headline stands; no cv: noise unknown. */
	assert_float_equal(lab_cell_score(&c), 250, 1e-6);
	assert_true(isnan(lab_cell_unc(&c)));
	assert_false(lab_cell_set_aside(&c));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rank_on_storage),
		cmocka_unit_test(test_old_guest_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
