// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare's model: verdicts by direction and threshold, ratio texts,
 * matching figures, settings and findings across documents, refusals.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "report/compare.h"
#include "report/rdoc.h"
#include "util/err.h"

static void test_judge(void **state)
{
	(void)state;
	/* Higher is better: 10 % up is better, 10 % down worse. */
	assert_int_equal(cmp_judge(RU_IOPS, RB_HIGHER, 100, 110, 0.05),
			 CV_BETTER);
	assert_int_equal(cmp_judge(RU_IOPS, RB_HIGHER, 100, 90, 0.05),
			 CV_WORSE);
	assert_int_equal(cmp_judge(RU_IOPS, RB_HIGHER, 100, 104, 0.05),
			 CV_SAME);
	/* Symmetric in ratio: 1/1.05 is the edge downwards. */
	assert_int_equal(cmp_judge(RU_IOPS, RB_HIGHER, 100, 95.5, 0.05),
			 CV_SAME);
	assert_int_equal(cmp_judge(RU_IOPS, RB_HIGHER, 100, 95.2, 0.05),
			 CV_WORSE);
	/* Lower is better: latency. */
	assert_int_equal(cmp_judge(RU_NS, RB_LOWER, 1000, 500, 0.05),
			 CV_BETTER);
	assert_int_equal(cmp_judge(RU_NS, RB_LOWER, 1000, 2000, 0.05),
			 CV_WORSE);
	/* Counts by difference, whatever the threshold. */
	assert_int_equal(cmp_judge(RU_COUNT, RB_LOWER, 2, 0, 0.05), CV_BETTER);
	assert_int_equal(cmp_judge(RU_COUNT, RB_LOWER, 100, 101, 0.05),
			 CV_WORSE);
	assert_int_equal(cmp_judge(RU_COUNT, RB_LOWER, 3, 3, 0.05), CV_SAME);
	/* From zero: only the direction. */
	assert_int_equal(cmp_judge(RU_IOPS, RB_HIGHER, 0, 5, 0.05), CV_BETTER);
	/* Equal is the same even with no threshold. */
	assert_int_equal(cmp_judge(RU_IOPS, RB_HIGHER, 7, 7, 0), CV_SAME);
	/* No direction, no verdict; NAN, no verdict. */
	assert_int_equal(cmp_judge(RU_LOAD, RB_NONE, 1, 8, 0.05), CV_NONE);
	assert_int_equal(cmp_judge(RU_IOPS, RB_HIGHER, NAN, 8, 0.05), CV_NONE);
}

static struct rdoc *doc(const char *cmd, double iops, double lat,
			const char *qd)
{
	struct rdoc *d = rdoc_new(cmd);

	d->label = strdup("x");
	d->path = strdup("x.json");
	rdoc_fig(d, "read/iops", "read", "IOPS", RU_IOPS, RB_HIGHER, iops,
		 RF_CHART);
	rdoc_fig(d, "read/lat_mean", "read", "mean latency", RU_NS, RB_LOWER,
		 lat, 0);
	rdoc_set(d, RS_WORKLOAD, "qd", "queue depth", qd);
	rdoc_set(d, RS_WORKLOAD, "bs", "block size", "4 KiB");
	return d;
}

static void test_build(void **state)
{
	struct rdoc *docs[3] = { doc("run", 1000, 50000, "1"),
				 doc("run", 3360, 238000, "16"),
				 doc("run", 1020, 50000, "1") };
	struct err err = { 0 };
	struct cmp c;
	char buf[64];

	(void)state;
	/* A figure only the second document has. */
	rdoc_fig(docs[1], "write/iops", "write", "IOPS", RU_IOPS, RB_HIGHER, 5,
		 0);
	assert_true(cmp_build(&c, docs, 3, 0.05, &err));
	assert_int_equal(c.nrows, 3);
	assert_string_equal(c.rows[0].key, "read/iops");
	assert_true(fabs(c.rows[0].ratio[1] - 3.36) < 1e-12);
	assert_int_equal(c.rows[0].verdict[1], CV_BETTER);
	assert_int_equal(c.rows[0].verdict[2], CV_SAME);
	assert_int_equal(c.rows[0].verdict[0], CV_NONE);
	assert_string_equal(cmp_ratio_text(&c.rows[0], 1, buf, sizeof(buf)),
			    "3.36\u00d7");
	/* Latency: ratio and change in percent. */
	assert_true(fabs(c.rows[1].ratio[1] - 4.76) < 1e-12);
	assert_int_equal(c.rows[1].verdict[1], CV_WORSE);
	assert_string_equal(cmp_ratio_text(&c.rows[1], 1, buf, sizeof(buf)),
			    "4.76\u00d7 (+376 %)");
	/* Missing in A: no ratio. */
	assert_null(c.rows[2].f[0]);
	assert_true(isnan(c.rows[2].ratio[1]));
	assert_string_equal(cmp_ratio_text(&c.rows[2], 1, buf, sizeof(buf)),
			    "");
	/* Only the queue depth differs. */
	assert_int_equal(c.ndiffs, 1);
	assert_string_equal(c.diffs[0].key, "qd");
	assert_string_equal(c.diffs[0].value[1], "16");
	assert_true(warn_has(&c.warns, "settings-differ"));
	cmp_free(&c);
	for (int i = 0; i < 3; i++)
		rdoc_free(docs[i]);
}

static void test_mixed_commands(void **state)
{
	struct rdoc *docs[2] = { doc("run", 1, 1, "1"),
				 doc("mark", 1, 1, "1") };
	struct err err = { 0 };
	struct cmp c;

	(void)state;
	assert_false(cmp_build(&c, docs, 2, 0.05, &err));
	assert_int_equal(err.exit_code, EXIT_USAGE);
	assert_non_null(strstr(err.msg, "one command"));
	assert_false(cmp_build(&c, docs, 1, 0.05, &err));
	rdoc_free(docs[0]);
	rdoc_free(docs[1]);
}

static void test_findings(void **state)
{
	struct rdoc *a = rdoc_new("doctor"), *b = rdoc_new("doctor");
	struct rdoc *docs[2] = { a, b };
	struct err err = { 0 };
	struct cmp c;

	(void)state;
	rdoc_finding(a, "critical", "emulated-ide", "sda", "IDE", NULL, NULL);
	rdoc_finding(a, "warning", "no-guest-agent", NULL, "no agent", NULL,
		     NULL);
	rdoc_finding(b, "warning", "no-guest-agent", NULL, "no agent", NULL,
		     NULL);
	rdoc_finding(b, "info", "queues", "vda", "2 queues", NULL, NULL);
	assert_true(cmp_build(&c, docs, 2, 0.05, &err));
	assert_int_equal(c.nfinds, 3);
	assert_true(c.finds[0].present[0] && !c.finds[0].present[1]);
	assert_true(c.finds[1].present[0] && c.finds[1].present[1]);
	assert_true(!c.finds[2].present[0] && c.finds[2].present[1]);
	assert_int_equal(c.finds[0].f->rank, 3);
	cmp_free(&c);
	rdoc_free(a);
	rdoc_free(b);
}

static void test_status_figures(void **state)
{
	struct rdoc *a = rdoc_new("matrix"), *b = rdoc_new("matrix");
	struct rdoc *docs[2] = { a, b };
	struct err err = { 0 };
	struct cmp c;

	(void)state;
	rdoc_fig_status(a, "native/writeback/x", "g", "MB/s", RU_MBPS,
			RB_HIGHER, "refused");
	rdoc_fig(b, "native/writeback/x", "g", "MB/s", RU_MBPS, RB_HIGHER, 40,
		 0);
	/* A missing value is not a figure at all, never a 0. */
	rdoc_fig(b, "nan", "g", "MB/s", RU_MBPS, RB_HIGHER, NAN, 0);
	assert_null(rdoc_find_fig(b, "nan"));
	assert_true(cmp_build(&c, docs, 2, 0.05, &err));
	assert_int_equal(c.nrows, 1);
	assert_true(isnan(c.rows[0].ratio[1]));
	assert_int_equal(c.rows[0].verdict[1], CV_NONE);
	cmp_free(&c);
	rdoc_free(a);
	rdoc_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_mixed_commands),
		cmocka_unit_test(test_findings),
		cmocka_unit_test(test_status_figures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
