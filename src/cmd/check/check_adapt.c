// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab check --json` to the compare/report model; the schema is in
 * iolab-check(1): "profile", "title", "criteria":[{"id","what","statistic",
 * "comparison","unit","limit","source","verdict","value","low","high",
 * "margin","samples","reason","fix"}], "verdict", "doctor_findings".
 * Each criterion is a figure (compared across documents by its id); a
 * failed one is an error finding, an inconclusive one a warning.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../adapters.h"
#include "../../report/adapt.h"
#include "../../report/json_read.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

static const char *s_or(const struct jr_node *n, const char *path,
			const char *dflt)
{
	const char *s = jr_str(n, path);

	return s ? s : dflt;
}

/* "14.7 ms", "452/s", "-". */
static const char *fig_text(bool rate, double v, char *buf, size_t len)
{
	if (!isfinite(v))
		return "-";
	return rate ? (snprintf(buf, len, "%.0f/s", v), buf) :
		      rfmt_unit(RU_NS, v, buf, len);
}

static void criterion(struct rdoc *d, struct rtable *t, const char *profile,
		      const struct jr_node *c)
{
	const char *id = s_or(c, "id", "?"), *cmp = s_or(c, "comparison", "");
	const char *verdict = s_or(c, "verdict", "not judged");
	bool rate = !strcmp(s_or(c, "unit", ""), "per_s");
	double v = jr_numd(c, "value", NAN), lim = jr_numd(c, "limit", NAN);
	double margin = jr_numd(c, "margin", NAN);
	enum rbetter better = !strcmp(cmp, "at_most")  ? RB_LOWER :
			      !strcmp(cmp, "at_least") ? RB_HIGHER :
			      rate		       ? RB_HIGHER :
							 RB_LOWER;
	char key[96], a[32], b[48], m[16], msg[512];
	const char *row[5];

	snprintf(key, sizeof(key), "criterion/%s", id);
	if (isfinite(v))
		rdoc_fig(d, key, "criteria", s_or(c, "what", id),
			 rate ? RU_IOPS : RU_NS, better, v,
			 RF_CHART | RF_HEADLINE);
	else
		rdoc_fig_status(d, key, "criteria", s_or(c, "what", id),
				rate ? RU_IOPS : RU_NS, better, "not measured");
	if (isfinite(lim))
		snprintf(b, sizeof(b), "%s %s",
			 better == RB_LOWER ? "<=" : ">=",
			 fig_text(rate, lim, a, sizeof(a)));
	else
		snprintf(b, sizeof(b), "no threshold");
	if (isfinite(margin))
		snprintf(m, sizeof(m), "%+.0f%%", 100 * margin);
	else
		snprintf(m, sizeof(m), "-");
	row[0] = verdict;
	row[1] = id;
	row[2] = fig_text(rate, v, a, sizeof(a));
	row[3] = b;
	row[4] = m;
	rtable_row(t, row);
	if (!strcmp(verdict, "fail") || !strcmp(verdict, "inconclusive")) {
		char val[32];

		snprintf(msg, sizeof(msg), "%s: %s, limit %s%s%s",
			 s_or(c, "what", id),
			 fig_text(rate, v, val, sizeof(val)), b,
			 jr_str(c, "reason") ? "; " : "",
			 s_or(c, "reason", ""));
		rdoc_finding(d, !strcmp(verdict, "fail") ? "error" : "warning",
			     id, profile, msg, s_or(c, "source", NULL),
			     jr_str(c, "fix"));
	}
}

bool adapt_check(struct rdoc *d, const struct jr_node *root, struct err *err)
{
	static const char *const sev[] = { "error", "warning", "info", NULL };
	static const char *const head[] = { "verdict", "criterion", "measured",
					    "limit", "margin" };
	const struct jr_node *crit = jr_get(root, "criteria");
	const struct jr_node *hints = jr_get(root, "doctor_findings");
	const char *profile = jr_str(root, "profile");
	const char *verdict = jr_str(root, "verdict");
	struct rtable *t;
	char buf[256];
	bool partial;

	if (!profile || !jr_is_array(crit))
		return err_set(
			err, EXIT_USAGE, 0,
			"a check document without \"profile\" or \"criteria\"; give the output of 'iolab check --json'");
	rdoc_set(d, RS_WORKLOAD, "profile", "profile", profile);
	adapt_environment(d, jr_get(root, "environment"));
	adapt_warnings(d, jr_get(root, "warnings"));
	if (jr_bool(root, "partial", &partial) && partial)
		d->partial = true;
	t = rdoc_table(d, "criteria", "Criteria", 5, head);
	for (size_t i = 0; i < jr_len(crit); i++)
		criterion(d, t, profile, jr_at(crit, i));
	for (size_t i = 0; i < jr_len(hints); i++) {
		const struct jr_node *h = jr_at(hints, i);

		rdoc_finding(d, s_or(h, "severity", "info"),
			     s_or(h, "id", "doctor"), jr_str(h, "disk"),
			     s_or(h, "message", ""), "iolab doctor's finding",
			     jr_str(h, "fix"));
	}
	adapt_finding_counts(d, sev);
	snprintf(buf, sizeof(buf), "check %s: %s", profile,
		 verdict ? verdict : "not judged");
	d->title = xstrdup(buf);
	if (jr_str(root, "title"))
		d->summary = xstrdup(jr_str(root, "title"));
	return true;
}
