/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The figures of `iolab run`, described once. The text table, the CSV
 * columns and the compare/report view (figures and the "Result" table) are
 * all generated from run_dir_figs[] and run_job_figs[]: to add a figure,
 * add a row there (and, if its value is new data, write it in
 * jrun_result(), report/json_util.c, at the row's JSON path).
 */
#ifndef IOLAB_CMD_RUN_RUN_FIGS_H
#define IOLAB_CMD_RUN_RUN_FIGS_H

#include <stdbool.h>
#include <stddef.h>

#include "../../core/result.h"
#include "../../report/rdoc.h"

struct jr_node;

/* Where a direction's figure applies (struct run_fig.scope). */
#define RUN_FIG_DATA 1u /* reads and writes: a flush moves no data */
#define RUN_FIG_FLUSH 2u /* a compare figure of the flush row only */
#define RUN_FIG_POSITIVE 4u /* a compare figure only when above 0 */
#define RUN_FIG_COUNT_COL 8u /* the flush row shows its count here */

struct run_fig {
	const char *key; /* compare key (after "read/"), unique */
	const char *name; /* compare figure's name; NULL: not compared */
	const char *group; /* job figures: their compare group */
	const char *head; /* column of the text and report tables, or NULL */
	const char *csv; /* CSV column, or NULL */
	enum runit unit; /* RU_NS is printed scaled ("48.9 us") */
	enum rbetter better;
	unsigned int rflags; /* RF_CHART, RF_HEADLINE (not on flushes) */
	unsigned int scope; /* RUN_FIG_* */
	int width, prec; /* text table: printf width and decimals */
	int digits; /* decimals the CSV keeps, -1 all */
	double pct; /* a latency percentile, 0 if not */
	/* In the document: the path in the direction's (or job's) JSON
	 * object; a percentile is looked up in "lat_ns.percentiles". */
	const char *json;
	/* In memory: the value, NAN when nothing was measured. */
	double (*get)(const struct run_result *r, int dir);
};

/* Per direction (read, write, flush), in the order every view uses. */
extern const struct run_fig run_dir_figs[];
/* Per job (the whole run), likewise. */
extern const struct run_fig run_job_figs[];
/* Number of rows of run_dir_figs with a table column (the text table). */
size_t run_fig_columns(void);

/* Whether @f applies to direction @dir in the CSV and the tables. */
bool run_fig_in_dir(const struct run_fig *f, int dir);
/* Value from memory; a percentile from @r's histogram. NAN: none. */
double run_fig_value(const struct run_fig *f, const struct run_result *r,
		     int dir);
/* Value from the document's direction (or job) object @o; false when the
 * document does not have it (an older or partial document). */
bool run_fig_json(const struct run_fig *f, const struct jr_node *o, double *v);

#endif
