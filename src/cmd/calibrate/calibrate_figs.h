/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The figures of a point of calibrate's curves (a load measured), described
 * once. The curve tables of the text (calibrate_text.c), the CSV columns
 * (calibrate_csv.c) and the report's "The curve" table (calibrate_adapt.c)
 * are generated from cal_point_figs[]: to add a figure, add a row there
 * (and, if its value is new data, write it in calibrate_json.c's points).
 */
#ifndef IOLAB_CMD_CALIBRATE_CALIBRATE_FIGS_H
#define IOLAB_CMD_CALIBRATE_CALIBRATE_FIGS_H

#include "calibrate_search.h"
#include "../../report/rdoc.h"

struct jr_node;

/* A rate: none for a point whose windows completed no read (never 0). */
#define CAL_FIG_RATE 1u

struct cal_fig {
	const char *head; /* column of the text and report tables */
	const char *csv; /* CSV column */
	enum runit unit; /* RU_NS is printed scaled */
	unsigned int scope; /* CAL_FIG_* */
	int width, prec; /* text table: printf width and decimals */
	int digits; /* decimals the CSV keeps */
	double csv_div; /* the CSV's unit: latency in us, from ns */
	/* In the document: a point's field, or with @lat a latency
	 * statistic ("mean") of its "lat_ms" object. */
	const char *json;
	bool lat;
	double (*get)(const struct cal_point *p); /* in memory */
};

/* Ends with a row without head. */
extern const struct cal_fig cal_point_figs[];

/* Value of @f at point @p; NAN when there is none. */
double cal_fig_value(const struct cal_fig *f, const struct cal_point *p);
/* Value of @f in a point of the JSON's "curve" or "large_curve". */
double cal_fig_json(const struct cal_fig *f, const struct jr_node *p);
/* A point's latency statistic in ns: "lat_ms" (calibrate's) or "lat_ns"
 * (run's unit, the spelling). */
double cal_json_lat(const struct jr_node *p, const char *stat);

#endif
