// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * matrix --check: which engine x cache cells pass a database profile of
 * iolab check, and which of those keep data on host power loss. A cell
 * whose flushes QEMU drops (cache=unsafe) is inconclusive by check's own
 * rule, never a pass.
 */
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "../check/check_report.h"
#include "../mark/mark_report.h"
#include "matrix_report.h"
#include "../../core/target.h"

/* The cell's verdict on the profile, or -1 when it has none. */
static int verdict_of(const struct matrix_cell *c)
{
	if (c->status != MATRIX_OK || !c->check || !c->check->judged)
		return -1;
	return (int)c->check->verdict;
}

/* Which cells a closing line names: a verdict, and whether they keep data
 * on host power loss (-1: either). */
struct pick {
	int verdict, keeps;
};

static bool picked(const struct matrix_cell *c, const void *arg)
{
	const struct pick *p = arg;

	return verdict_of(c) == p->verdict &&
	       (p->keeps < 0 || matrix_cache_keeps_data(c->cache) == p->keeps);
}

static int list(const struct matrix_result *r, int v, int keeps, char *buf,
		size_t len)
{
	struct pick p = { v, keeps };

	return matrix_list_cells(r, picked, &p, buf, len);
}

/* list() for check_cells_recommend(). */
static int list_cells(const void *r, int v, int keeps, char *buf, size_t len)
{
	return list(r, v, keeps, buf, len);
}

int matrix_check_recommend(const struct matrix_result *r, char lines[][512],
			   int max)
{
	return check_cells_recommend(r->spec.check->name,
				     "iolab doctor in the guest", list_cells, r,
				     lines, max);
}

static void print_row(const struct matrix_cell *c, int *notes, int *nnotes,
		      FILE *f)
{
	const struct check_profile *p;

	fprintf(f, "%-9s %-12s", engine_name(c->engine), cache_name(c->cache));
	if (c->status == MATRIX_REFUSED || c->status == MATRIX_FAILED ||
	    !c->check || !c->check->judged) {
		char tag[32];

		if (c->status == MATRIX_REFUSED || c->status == MATRIX_FAILED) {
			notes[(*nnotes)++] = 1;
			snprintf(tag, sizeof(tag), "%s[%d]",
				 c->status == MATRIX_REFUSED ? "refused" :
							       "failed",
				 *nnotes);
		} else {
			snprintf(tag, sizeof(tag), "-");
		}
		fprintf(f, "  %-13s\n", tag);
		return;
	}
	p = c->check->profile;
	fprintf(f, "  %-13s", check_verdict_names[c->check->verdict]);
	for (int i = 0; i < p->ncrit; i++) {
		char v[48], cell[64];

		check_value_text(&p->crit[i], c->check->fig[i].value, v,
				 sizeof(v));
		snprintf(cell, sizeof(cell), "%s %s", v,
			 check_verdict_names[c->check->fig[i].verdict]);
		fprintf(f, "  %24s", cell);
	}
	fprintf(f, "  %s\n", cache_risk(c->cache));
}

void matrix_check_text(const struct matrix_report *rep, FILE *f)
{
	const struct matrix_result *r = rep->res;
	const struct check_profile *p = r->spec.check;
	char took[32], lines[MATRIX_REC_LINES][512], tgt[PATH_MAX + 256];
	unsigned int checked = 0, refused = 0, failed = 0;
	int notes[64], nnotes = 0, nl, k;
	struct warnings all = { 0 };

	for (unsigned int i = 0; i < r->ncells; i++) {
		checked += verdict_of(&r->cells[i]) >= 0;
		refused += r->cells[i].status == MATRIX_REFUSED;
		failed += r->cells[i].status == MATRIX_FAILED;
	}
	fprintf(f,
		"iolab matrix --check %s: %s, %u engine%s x %u cache mode%s\n",
		p->name, p->title, r->spec.nengines,
		r->spec.nengines == 1 ? "" : "s", r->spec.ncaches,
		r->spec.ncaches == 1 ? "" : "s");
	fprintf(f, "target %s\n",
		target_describe(rep->target, tgt, sizeof(tgt)));
	fprintf(f,
		"each step %.0f s, as a QEMU disk with the cell's aio= and cache=; %u cell%s checked, %u refused, %u failed; took %s",
		(double)r->spec.check_runtime_ns / 1e9, checked,
		checked == 1 ? "" : "s", refused, failed,
		mark_fmt_took(r->elapsed_s, took, sizeof(took)));
	if (r->partial)
		fprintf(f, "  ** PARTIAL: %s **",
			result_stop_words(r->stop_signal));
	fprintf(f, "\n\n%-9s %-12s  %-13s", "engine", "cache", "verdict");
	for (int i = 0; i < p->ncrit; i++)
		fprintf(f, "  %24.24s", p->crit[i].id);
	fprintf(f, "  %s\n", "on host power loss");
	for (unsigned int i = 0; i < r->ncells; i++)
		print_row(&r->cells[i], notes, &nnotes, f);
	fprintf(f, "\n");
	for (int i = 0; i < p->ncrit; i++) {
		char lim[48];

		fprintf(f, "%s: %s, %s (%s)\n", p->crit[i].id, p->crit[i].what,
			check_limit_text(&p->crit[i], lim, sizeof(lim)),
			p->crit[i].source);
	}
	k = 0;
	for (unsigned int i = 0; i < r->ncells; i++) {
		const struct matrix_cell *c = &r->cells[i];

		if (c->status == MATRIX_REFUSED || c->status == MATRIX_FAILED)
			fprintf(f, "[%d]  %s/%s %s: %s\n", ++k,
				engine_name(c->engine), cache_name(c->cache),
				c->status == MATRIX_REFUSED ? "refused" :
							      "failed",
				c->reason);
	}
	if (rep->warnings)
		warn_merge(&all, rep->warnings);
	warn_merge(&all, &r->warnings);
	if (all.n) {
		fprintf(f, "\nWarnings:\n");
		for (size_t i = 0; i < all.n; i++)
			fprintf(f, "  ! %s\n", all.v[i].msg);
	}
	warnings_free(&all);
	nl = matrix_check_recommend(r, lines, MATRIX_REC_LINES);
	fprintf(f, "\n");
	for (int i = 0; i < nl; i++)
		fprintf(f, "%s\n", lines[i]);
}

json_t *matrix_check_jcell(const struct matrix_cell *c)
{
	const struct check_profile *p;
	json_t *o, *crit;

	if (!c->check || !c->check->judged)
		return json_null();
	p = c->check->profile;
	o = json_object();
	crit = json_array();
	json_object_set_new(o, "profile", json_string(p->name));
	json_object_set_new(
		o, "verdict",
		json_string(check_verdict_names[c->check->verdict]));
	for (int i = 0; i < p->ncrit; i++) {
		const struct check_figure *g = &c->check->fig[i];
		json_t *x = json_object();

		json_object_set_new(x, "id", json_string(p->crit[i].id));
		json_object_set_new(
			x, "verdict",
			json_string(check_verdict_names[g->verdict]));
		json_object_set_new(x, "value",
				    isnan(g->value) ? json_null() :
						      json_real(g->value));
		json_object_set_new(x, "limit", json_real(p->crit[i].limit));
		json_object_set_new(x, "reason", json_string(g->reason));
		json_array_append_new(crit, x);
	}
	json_object_set_new(o, "criteria", crit);
	return o;
}
