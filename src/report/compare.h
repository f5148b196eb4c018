/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Comparing documents of one command: every figure side by side with its
 * ratio to the first document (the baseline), better/worse judged by the
 * figure's direction and a noise threshold, the settings that differ, and
 * for doctor/advise which findings appeared or went away. No printing:
 * compare_text.c, compare_json.c and compare_csv.c render it.
 */
#ifndef IOLAB_REPORT_COMPARE_H
#define IOLAB_REPORT_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "rdoc.h"

struct err;

#define CMP_MAX_DOCS 16

enum cmp_verdict { CV_NONE, CV_SAME, CV_BETTER, CV_WORSE };

struct cmp_row {
	const char *key, *group, *name;
	enum runit unit;
	enum rbetter better;
	unsigned int flags; /* RF_* of the first document that has it */
	const struct rfig *f[CMP_MAX_DOCS]; /* NULL where absent */
	double ratio[CMP_MAX_DOCS]; /* f[i] / f[0]; NAN if not defined */
	double diff[CMP_MAX_DOCS]; /* f[i] - f[0]; NAN if not defined */
	enum cmp_verdict verdict[CMP_MAX_DOCS]; /* [0] is CV_NONE */
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

/* The verdict for one ratio/diff; exposed for the unit tests. */
enum cmp_verdict cmp_judge(enum runit unit, enum rbetter better, double base,
			   double v, double threshold);
/* "3.36×", "0.27× (-73 %)" for latency, "+2" for counts; "" if none. */
const char *cmp_ratio_text(const struct cmp_row *r, size_t i, char *buf,
			   size_t len);
const char *cmp_verdict_name(enum cmp_verdict v); /* "better" ... or "" */
/* "A", "B", ... */
char cmp_letter(size_t i);
/*
 * How input @d fared against A: counts of better, worse and same figures
 * (figures without a direction or a ratio are not counted).
 */
void cmp_tally(const struct cmp *c, size_t d, size_t *better, size_t *worse,
	       size_t *same);
/* "38 better, 2 worse, 0 the same" */
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
