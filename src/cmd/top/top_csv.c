// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab top --csv`: a header once, then one line per device per sample,
 * so that a long watch is one table a spreadsheet opens. Figures in the
 * units the header names; a figure the kernel does not report is empty.
 */
#include <math.h>
#include <time.h>

#include "top_report.h"
#include "../../report/csv.h"

static const char *const cols[] = {
	"sample",     "time",	    "interval_s", "device",	"kind",
	"state",      "r_s",	    "w_s",	  "d_s",	"f_s",
	"rrqm_s",     "wrqm_s",	    "r_mb_s",	  "w_mb_s",	"d_mb_s",
	"r_await_ms", "w_await_ms", "d_await_ms", "f_await_ms", "aqu_sz",
	"util_pct",   "in_flight",
};

static const char *const states[] = { "ok", "new", "reset" };

void top_csv_header(FILE *f)
{
	struct csv c;

	csv_init(&c, f);
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		csv_str(&c, cols[i]);
	csv_end_line(&c);
}

bool top_csv_rows(const struct top_sample *s, FILE *f, struct err *err)
{
	struct csv c;
	char when[32] = "";
	time_t now = time(NULL);
	struct tm tm;

	if (gmtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	csv_init(&c, f);
	for (size_t i = 0; i < s->nrows; i++) {
		const struct top_rate *r = &s->rows[i].rate;
		bool ok = r->state == TOP_OK;
		bool dc = ok && r->nfields > TF_DC_TICKS;
		bool fl = ok && r->nfields > TF_FL_TICKS;
		const double nan = NAN;

		csv_num(&c, s->index);
		csv_str(&c, when);
		csv_num(&c, s->interval_s);
		csv_str(&c, r->name);
		csv_str(&c, s->rows[i].cls.kind);
		csv_str(&c, states[r->state]);
		csv_num(&c, ok ? r->r_s : nan);
		csv_num(&c, ok ? r->w_s : nan);
		csv_num(&c, dc ? r->d_s : nan);
		csv_num(&c, fl ? r->f_s : nan);
		csv_num(&c, ok ? r->rrqm_s : nan);
		csv_num(&c, ok ? r->wrqm_s : nan);
		csv_num(&c, ok ? r->rmb_s : nan);
		csv_num(&c, ok ? r->wmb_s : nan);
		csv_num(&c, dc ? r->dmb_s : nan);
		csv_num(&c, ok ? r->r_await_ms : nan);
		csv_num(&c, ok ? r->w_await_ms : nan);
		csv_num(&c, dc ? r->d_await_ms : nan);
		csv_num(&c, fl ? r->f_await_ms : nan);
		csv_num(&c, ok ? r->aqu_sz : nan);
		csv_num(&c, ok ? r->util_pct : nan);
		csv_num(&c, r->in_flight);
		csv_end_line(&c);
	}
	return csv_finish(&c, err);
}
