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
#include "util/student.h"

/* Welch's test and its t quantile against textbook values. */
static void test_student(void **state)
{
	(void)state;
	/* t(1) is Cauchy: P(|T| > 1) = 0.5; the 5 % points of t tables. */
	assert_true(fabs(student_p(1, 1) - 0.5) < 1e-9);
	assert_true(fabs(student_crit(0.05, 1) - 12.7062047) < 1e-5);
	assert_true(fabs(student_crit(0.05, 2) - 4.30265273) < 1e-6);
	assert_true(fabs(student_crit(0.05, 10) - 2.22813885) < 1e-6);
	assert_true(fabs(student_crit(0.05, 1e6) - 1.95996) < 1e-4);
	assert_true(fabs(student_p(2.22813885, 10) - 0.05) < 1e-7);
	assert_true(student_p(0, 4) > 0.999999);
	assert_true(student_p(INFINITY, 4) == 0);
}

/* The interval of a mean of runs in order: independent-looking runs get
 * the textbook interval, a drift a wider one. */
static void test_mean_half(void **state)
{
	const double flat[] = { 10, 12, 11, 9 };
	const double alt[] = { 10, 12, 10, 12, 10, 12, 10, 12 };
	const double drift[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	double m, ne, h;

	(void)state;
	h = student_mean_half(flat, 1, 0.05, &m, &ne);
	assert_true(isnan(h) && m == 10);
	/* 4 runs: below STUDENT_AR_MIN, sd 1.29099, t(3) 3.18245. */
	h = student_mean_half(flat, 4, 0.05, &m, &ne);
	assert_true(m == 10.5 && ne == 4);
	assert_true(fabs(h - 3.18245 * 1.29099 / 2) < 1e-4);
	/* Alternation is a negative r: never narrower than the textbook. */
	h = student_mean_half(alt, 8, 0.05, &m, &ne);
	assert_true(ne == 8);
	assert_true(fabs(h - student_crit(0.05, 7) * 1.069045 / sqrt(8)) <
		    1e-5);
	/* A steady climb: r = 0.7, 10 runs worth 1.76, so 2 (the floor). */
	h = student_mean_half(drift, 10, 0.05, &m, &ne);
	assert_true(m == 5.5 && ne == 2);
	assert_true(fabs(h - 12.7062047 * 3.0276504 / sqrt(2)) < 1e-4);
	/* Without a drift the same 10 values give the textbook interval. */
	{
		const double mixed[] = { 1, 10, 3, 8, 5, 6, 7, 4, 9, 2 };

		h = student_mean_half(mixed, 10, 0.05, &m, &ne);
		assert_true(ne == 10);
		assert_true(fabs(h - 2.26215716 * 3.0276504 / sqrt(10)) < 1e-5);
	}
}

/* Without samples: the ratio and threshold alone. */
static void test_judge_plain(void **state)
{
	(void)state;
	/* Within 5 % either way in ratio is the same, spread or not. */
	assert_int_equal(cmp_judge(RU_IOPS, RB_HIGHER, 100, 104, 0.05, NULL),
			 CV_SAME);
	assert_int_equal(cmp_judge(RU_IOPS, RB_HIGHER, 100, 95.5, 0.05, NULL),
			 CV_SAME);
	assert_int_equal(cmp_judge(RU_IOPS, RB_HIGHER, 7, 7, 0, NULL), CV_SAME);
	/* Beyond it, with no spread known: neither better nor worse. */
	assert_int_equal(cmp_judge(RU_IOPS, RB_HIGHER, 100, 211, 0.05, NULL),
			 CV_NOSPREAD);
	assert_int_equal(cmp_judge(RU_NS, RB_LOWER, 1000, 500, 0.05, NULL),
			 CV_NOSPREAD);
	assert_int_equal(cmp_judge(RU_IOPS, RB_HIGHER, 0, 5, 0.05, NULL),
			 CV_NOSPREAD);
	/* Counts are exact, whatever the threshold. */
	assert_int_equal(cmp_judge(RU_COUNT, RB_LOWER, 2, 0, 0.05, NULL),
			 CV_BETTER);
	assert_int_equal(cmp_judge(RU_COUNT, RB_LOWER, 100, 101, 0.05, NULL),
			 CV_WORSE);
	assert_int_equal(cmp_judge(RU_COUNT, RB_LOWER, 3, 3, 0.05, NULL),
			 CV_SAME);
	/* No direction, no verdict; NAN, no verdict. */
	assert_int_equal(cmp_judge(RU_LOAD, RB_NONE, 1, 8, 0.05, NULL),
			 CV_NONE);
	assert_int_equal(cmp_judge(RU_IOPS, RB_HIGHER, NAN, 8, 0.05, NULL),
			 CV_NONE);
}

static enum cmp_verdict judge(enum runit u, enum rbetter b, double base,
			      double v, enum rspread kind, const double *a,
			      size_t na, const double *x, size_t nx,
			      struct cmp_noise *nz)
{
	cmp_noise_init(nz, kind, a, na, x, nx);
	return cmp_judge(u, b, base, v, 0.05, nz);
}

/* Several runs each: Welch's t-test on the per-run values. */
static void test_judge_runs(void **state)
{
	static const double a[] = { 1000, 1010, 990, 1005, 995 };
	static const double fast[] = { 1200, 1190, 1210, 1205, 1195 };
	static const double wide[] = { 700, 1500, 900, 1400, 1100 };
	static const double lat_a[] = { 100, 102, 98 };
	static const double lat_b[] = { 150, 149, 151 };
	struct cmp_noise nz;
	char buf[96];
	struct cmp_row row = { .unit = RU_IOPS, .better = RB_HIGHER };

	(void)state;
	/* Clearly different: 20 % up, runs 1 % apart. */
	assert_int_equal(judge(RU_IOPS, RB_HIGHER, 1010, 1210, RSP_RUNS, a, 5,
			       fast, 5, &nz),
			 CV_BETTER);
	assert_true(nz.p < 1e-6);
	assert_true(isnan(nz.need));
	/* The same samples read as a latency: worse. */
	assert_int_equal(judge(RU_NS, RB_LOWER, 1010, 1210, RSP_RUNS, a, 5,
			       fast, 5, &nz),
			 CV_WORSE);
	assert_int_equal(judge(RU_NS, RB_LOWER, 100, 150, RSP_RUNS, lat_a, 3,
			       lat_b, 3, &nz),
			 CV_WORSE);
	/* Overlapping: 10 % up in the mean, runs spread by +-30 %. */
	assert_int_equal(judge(RU_IOPS, RB_HIGHER, 1000, 1120, RSP_RUNS, a, 5,
			       wide, 5, &nz),
			 CV_NOISE);
	assert_true(nz.p > 0.05);
	/* n = 2 (1.96 + 0.84)^2 s^2 / delta^2, s^2 the mean variance. */
	{
		double s2 = (nz.sd_a * nz.sd_a + nz.sd_b * nz.sd_b) / 2;
		double delta = 0.12 * nz.mean_a;
		double want = ceil(2 * pow(1.959964 + 0.841621, 2) * s2 /
				   (delta * delta));

		assert_true(fabs(nz.need - want) <= 1);
		assert_true(nz.need > 5);
	}
	/* The ratio carries the spread; the verdict says what to do. */
	row.ratio[1] = 1.12;
	row.verdict[1] = CV_NOISE;
	row.noise[1] = nz;
	assert_non_null(strstr(cmp_ratio_text(&row, 1, buf, sizeof(buf)),
			       "1.12\u00d7 \u00b1"));
	assert_non_null(strstr(cmp_verdict_text(&row, 1, buf, sizeof(buf)),
			       "within noise ("));
	assert_non_null(strstr(buf, " runs to tell)"));
	/* Significant, but the runs move against the figure (a best run
	 * up, the mean down): within noise, never better. */
	assert_int_equal(judge(RU_IOPS, RB_HIGHER, 1000, 1300, RSP_RUNS, fast,
			       5, a, 5, &nz),
			 CV_NOISE);
	/* One run on a side: no spread known. */
	assert_int_equal(judge(RU_IOPS, RB_HIGHER, 1000, 1300, RSP_RUNS, a, 1,
			       fast, 5, &nz),
			 CV_NOSPREAD);
	/* Runs that do not vary at all: any difference of means is real. */
	{
		static const double c1[] = { 5, 5, 5 }, c2[] = { 6, 6, 6 };

		assert_int_equal(judge(RU_IOPS, RB_HIGHER, 5, 6, RSP_RUNS, c1,
				       3, c2, 3, &nz),
				 CV_BETTER);
	}
}

/* One run each: the run's per-second values are the noise. */
static void test_judge_seconds(void **state)
{
	static const double s1[] = { 7052, 3728, 6100, 5200 };
	static const double s2[] = { 4100, 6900, 5000, 7000 };
	static const double q1[] = { 20841, 20305, 20468, 20600 };
	static const double q2[] = { 61000, 60500, 61200, 60900 };
	struct cmp_noise nz;
	struct cmp_row row = { .unit = RU_IOPS, .better = RB_HIGHER };
	char buf[96];

	(void)state;
	/* Seconds scattered by a loaded machine: 2.1x is within noise. */
	assert_int_equal(judge(RU_IOPS, RB_HIGHER, 3000, 6300, RSP_SECONDS, s1,
			       4, s2, 4, &nz),
			 CV_NOISE);
	row.ratio[1] = 2.1;
	row.verdict[1] = CV_NOISE;
	row.noise[1] = nz;
	assert_non_null(strstr(cmp_verdict_text(&row, 1, buf, sizeof(buf)),
			       "within noise (runs of "));
	/* Steady seconds, three times the IOPS: better. */
	assert_int_equal(judge(RU_IOPS, RB_HIGHER, 20554, 60900, RSP_SECONDS,
			       q1, 4, q2, 4, &nz),
			 CV_BETTER);
	assert_true(nz.half > 0.005 && nz.half < 0.05);
	/* Kinds that differ (runs against seconds) were never mixed:
	 * cmp_build passes RSP_NONE, which is no spread known. */
	assert_int_equal(judge(RU_IOPS, RB_HIGHER, 20554, 60900, RSP_NONE, q1,
			       4, q2, 4, &nz),
			 CV_NOSPREAD);
	assert_true(isnan(nz.half));
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
	/* Five runs each, 1 % apart: a 5 % change is beyond the noise. */
	{
		double v[5];

		for (int i = 0; i < 5; i++)
			v[i] = iops * (0.98 + 0.01 * i);
		rdoc_fig_samples(d, "read/iops", RSP_RUNS, v, 5);
		for (int i = 0; i < 5; i++)
			v[i] = lat * (0.98 + 0.01 * i);
		rdoc_fig_samples(d, "read/lat_mean", RSP_RUNS, v, 5);
	}
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
	assert_non_null(strstr(cmp_ratio_text(&c.rows[0], 1, buf, sizeof(buf)),
			       "3.36\u00d7 \u00b10.0"));
	/* Latency: ratio and change in percent. */
	assert_true(fabs(c.rows[1].ratio[1] - 4.76) < 1e-12);
	assert_int_equal(c.rows[1].verdict[1], CV_WORSE);
	assert_non_null(strstr(cmp_ratio_text(&c.rows[1], 1, buf, sizeof(buf)),
			       "4.76\u00d7 \u00b1"));
	assert_non_null(strstr(buf, " (+376 %)"));
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
		cmocka_unit_test(test_student),
		cmocka_unit_test(test_mean_half),
		cmocka_unit_test(test_judge_plain),
		cmocka_unit_test(test_judge_runs),
		cmocka_unit_test(test_judge_seconds),
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_mixed_commands),
		cmocka_unit_test(test_findings),
		cmocka_unit_test(test_status_figures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
