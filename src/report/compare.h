/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Comparing documents of one command: every figure side by side with its
 * ratio to the first document (the baseline), better/worse judged by the
 * figure's direction, a threshold of interest and the noise of the samples
 * behind the figure (cmp_noise.c), the settings that differ, and for
 * doctor/advise which findings appeared or went away. No printing:
 * compare_text.c, compare_json.c and compare_csv.c render it.
 */
#ifndef IOLAB_REPORT_COMPARE_H
#define IOLAB_REPORT_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "rdoc.h"

struct err;

#define CMP_MAX_DOCS 16

/*
 * CV_NOISE: beyond the threshold, but Welch's test does not tell it from
 * the noise; CV_NOSPREAD: beyond the threshold with nothing known of the
 * noise (no samples), so neither better nor worse.
 */
enum cmp_verdict {
	CV_NONE,
	CV_SAME,
	CV_BETTER,
	CV_WORSE,
	CV_NOISE,
	CV_NOSPREAD,
};

/* The level of compare's test, two-sided. */
#define CMP_ALPHA 0.05

/* The noise of one figure of input B against input A (cmp_noise.c). */
struct cmp_noise {
	enum rspread kind; /* RSP_NONE: no spread known */
	size_t na, nb; /* samples */
	double mean_a, mean_b, sd_a, sd_b;
	double df, t, p; /* Welch's t-test of the means */
	/* 95 % half-width of mean_b - mean_a over mean_a: the "±" */
	double half;
	/* samples per input to tell the change seen (80 % power); NAN
	 * unless the verdict is CV_NOISE */
	double need;
};
struct cmp_row {
	const char *key, *group, *name;
	enum runit unit;
	enum rbetter better;
	unsigned int flags; /* RF_* of the first document that has it */
	const struct rfig *f[CMP_MAX_DOCS]; /* NULL where absent */
	double ratio[CMP_MAX_DOCS]; /* f[i] / f[0]; NAN if not defined */
	double diff[CMP_MAX_DOCS]; /* f[i] - f[0]; NAN if not defined */
	enum cmp_verdict verdict[CMP_MAX_DOCS]; /* [0] is CV_NONE */
	struct cmp_noise noise[CMP_MAX_DOCS]; /* [0] has no spread */
};

struct cmp_setdiff {
	const char *key, *label;
	enum rset_kind kind;
	const char *value[CMP_MAX_DOCS]; /* NULL where not set */
};

struct cmp_find {
	const struct rfinding *f; /* as in the first document with it */
	bool present[CMP_MAX_DOCS];
};

struct cmp {
	size_t n;
	struct rdoc *const *docs;
	double threshold; /* fraction: 0.05 = within 5 % is "same" */
	struct cmp_row *rows;
	size_t nrows;
	struct cmp_setdiff *diffs; /* only the settings that differ */
	size_t ndiffs;
	struct cmp_find *finds;
	size_t nfinds;
	struct warnings warns; /* the comparison's own */
};

/*
 * Compare @n documents (2..CMP_MAX_DOCS) of one command, each against
 * docs[0]. Fails with EXIT_USAGE if the commands differ. The documents
 * must outlive @c.
 */
bool cmp_build(struct cmp *c, struct rdoc *const *docs, size_t n,
	       double threshold, struct err *err);
void cmp_free(struct cmp *c);

/*
 * The noise of B against A from their samples (@kind RSP_NONE, or fewer
 * than two on either side: no spread known).
 */
void cmp_noise_init(struct cmp_noise *nz, enum rspread kind, const double *a,
		    size_t na, const double *b, size_t nb);
/*
 * The verdict for figure value @v against @base. Counts: by the sign of
 * the difference. Otherwise: "same" within @threshold (a fraction) either
 * way in ratio; beyond it, "better"/"worse" if Welch's test on @nz is
 * significant at CMP_ALPHA and its means move as the figure does, "within
 * noise" if not (then nz->need is set), "no spread known" without @nz or
 * samples.
 */
enum cmp_verdict cmp_judge(enum runit unit, enum rbetter better, double base,
			   double v, double threshold, struct cmp_noise *nz);

/*
 * "3.36×", "1.08× ±0.12" with a spread, "0.27× (-73 %)" for latency, "+2"
 * for counts; "" if none.
 */
const char *cmp_ratio_text(const struct cmp_row *r, size_t i, char *buf,
			   size_t len);
/* "better", "worse", "same", "within noise", "no spread known" or "" */
const char *cmp_verdict_name(enum cmp_verdict v);
/* "runs" or "seconds": what a spread's samples are. */
const char *cmp_spread_name(enum rspread k);
/* The verdict with, within noise, what it takes to tell:
 * "within noise (12 runs to tell)", "within noise (runs of 40 s to tell)". */
const char *cmp_verdict_text(const struct cmp_row *r, size_t i, char *buf,
			     size_t len);
/* "A", "B", ... */
char cmp_letter(size_t i);
/*
 * How input @d fared against A: counts of each verdict (figures without a
 * direction or a ratio are not counted).
 */
struct cmp_tally {
	size_t better, worse, same, noise, nospread;
};
void cmp_tally(const struct cmp *c, size_t d, struct cmp_tally *t);
/* "3 better, 2 worse, 30 the same, 5 within noise, 0 no spread known" */
const char *cmp_tally_text(const struct cmp *c, size_t d, char *buf,
			   size_t len);

struct cmp_text_opts {
	bool color;
};
void cmp_text_print(const struct cmp *c, const struct cmp_text_opts *o,
		    FILE *f);
bool cmp_json_write(const struct cmp *c, int argc, char *const *argv, FILE *f,
		    struct err *err);
bool cmp_csv_write(const struct cmp *c, FILE *f, struct err *err);

#endif
