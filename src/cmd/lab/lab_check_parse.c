// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab lab --check`: a guest's iolab check document read back on the
 * host (see lab_check.h). It comes from another machine's process, so
 * every field is checked for type and its text stripped of controls.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lab_check.h"
#include "lab_report.h"
#include "../../util/err.h"
#include "../../util/term.h"

static int verdict_named(const char *s)
{
	for (int v = 0; s && v < CHECK_VERDICTS; v++)
		if (!strcmp(s, check_verdict_names[v]))
			return v;
	return -1;
}

bool lab_check_parse(struct lab_cell *c, json_t *doc, struct err *err)
{
	struct lab_check_cell *k = &c->check;
	const char *prof = json_string_value(json_object_get(doc, "profile"));
	const struct check_profile *p = prof ? check_profile_find(prof) : NULL;
	json_t *crit = json_object_get(doc, "criteria"), *x;
	int v = verdict_named(
		json_string_value(json_object_get(doc, "verdict")));
	size_t i;

	memset(k, 0, sizeof(*k));
	if (!p || !json_is_array(crit))
		return err_set(
			err, EXIT_ENV, 0,
			"the guest's result is not a document of iolab check for a known profile");
	k->profile = p;
	for (int n = 0; n < p->ncrit; n++) {
		k->fig[n].verdict = CHECK_INCONCLUSIVE;
		k->fig[n].value = NAN;
	}
	/* Matched by id: the order and count are the guest's, not ours. */
	json_array_foreach(crit, i, x)
	{
		const char *id = json_string_value(json_object_get(x, "id"));
		const char *why =
			json_string_value(json_object_get(x, "reason"));
		json_t *val = json_object_get(x, "value");

		for (int n = 0; id && n < p->ncrit; n++) {
			struct lab_check_fig *g = &k->fig[n];
			int fv;

			if (strcmp(id, p->crit[n].id))
				continue;
			fv = verdict_named(json_string_value(
				json_object_get(x, "verdict")));
			if (fv >= 0)
				g->verdict = (enum check_verdict)fv;
			g->value = json_is_number(val) ?
					   json_number_value(val) :
					   NAN;
			if (why)
				term_sanitize(g->reason, sizeof(g->reason), why,
					      0);
		}
	}
	k->judged = v >= 0;
	k->guest_verdict = v >= 0 ? (enum check_verdict)v : CHECK_INCONCLUSIVE;
	return true;
}
