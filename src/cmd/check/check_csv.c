// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab check --csv`: one line per criterion with its figure, threshold
 * and verdict; the profile's verdict on every line. Latency in us, the
 * unit of every iolab CSV (the JSON keeps ns).
 */
#include <math.h>

#include "../../report/csv.h"
#include "check_report.h"

/* A figure in the CSV's unit: latency from ns to us. */
static void fig(struct csv *c, const struct check_criterion *k, double v)
{
	csv_num(c, k->stat == CHECK_RATE ? v : v / 1e3);
}

bool check_csv_write(const struct check_report *r, FILE *f, struct err *err)
{
	static const char *const head[] = {
		"profile", "criterion",	 "step",   "verdict", "value",
		"unit",	   "comparison", "limit",  "margin",  "low",
		"high",	   "samples",	 "reason", "source",  "profile_verdict",
	};
	const struct check_result *res = r->res;
	const struct check_profile *p = res->profile;
	struct csv c;

	csv_init(&c, f);
	for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		csv_str(&c, head[i]);
	csv_end_line(&c);
	for (int i = 0; i < p->ncrit; i++) {
		const struct check_criterion *k = &p->crit[i];
		const struct check_figure *g = &res->fig[i];
		bool j = res->judged;

		csv_str(&c, p->name);
		csv_str(&c, k->id);
		csv_str(&c, p->steps[k->step].id);
		csv_str(&c, j ? check_verdict_names[g->verdict] : NULL);
		fig(&c, k, j ? g->value : NAN);
		csv_str(&c, k->stat == CHECK_RATE ? "per_s" : "us");
		csv_str(&c, k->cmp == CHECK_AT_MOST  ? "at_most" :
			    k->cmp == CHECK_AT_LEAST ? "at_least" :
						       "none");
		fig(&c, k, k->cmp == CHECK_INFO ? NAN : k->limit);
		csv_num(&c, j ? g->margin : NAN);
		fig(&c, k, j ? g->lo : NAN);
		fig(&c, k, j ? g->hi : NAN);
		csv_num(&c, j ? (double)g->samples : NAN);
		csv_str(&c, j && g->reason[0] ? g->reason : NULL);
		csv_str(&c, k->source);
		csv_str(&c, j ? check_verdict_names[res->verdict] : NULL);
		csv_end_line(&c);
	}
	return csv_finish(&c, err);
}
