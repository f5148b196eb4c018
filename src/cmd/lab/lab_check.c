// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab lab --check PROFILE` on the host: each guest's check document
 * read back, each cell's verdict with its safety, and the table, JSON and
 * closing lines (as `matrix --check` has them); see lab_check.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab_check.h"
#include "lab_host.h"
#include "lab_report.h"
#include "../check/check_report.h"
#include "../../util/parse.h"
#include "../../util/term.h"

int lab_check_verdict(const struct lab_report *r, const struct lab_cell *c,
		      const char **why)
{
	const char *demoted = "";
	int v;

	if (why)
		*why = "";
	/* A result for another profile than asked is none. */
	if (c->status != LAB_OK || !c->check.judged ||
	    c->check.profile != r->opts->suite.check)
		return -1;
	v = (int)c->check.guest_verdict;
	/* The guest timed flushes that reached no storage: its figures say
	 * what QEMU or host RAM answered, not what the disk would. */
	if (cache_no_flush(c->cache))
		demoted =
			"QEMU drops the guest's flushes (cache=unsafe): the figures are host RAM's";
	else if (warn_has(&r->warnings, "image-in-ram"))
		demoted =
			"the disk image is in host RAM (tmpfs): no flush reached storage";
	if (demoted[0] && v == CHECK_PASS) {
		v = CHECK_INCONCLUSIVE;
		if (why)
			*why = demoted;
	}
	return v;
}

void lab_check_settle_warnings(struct lab_report *r)
{
	const struct check_profile *p = r->opts->suite.check;
	struct warnings *w = &r->warnings;
	size_t k = 0;

	for (int i = 0; i < p->nsteps; i++) {
		struct job_spec j = { .rw = p->steps[i].rw };

		if (rw_reads(&j))
			return;
	}
	for (size_t i = 0; i < w->n; i++) {
		if (!strcmp(w->v[i].id, "lab-page-cache-reads"))
			free(w->v[i].msg);
		else
			w->v[k++] = w->v[i];
	}
	w->n = k;
}

static bool keeps_data(const struct lab_report *r, const struct lab_cell *c)
{
	return !cache_no_flush(c->cache) &&
	       !warn_has(&r->warnings, "image-in-ram");
}

/* "virtio-blk raw aio=threads cache=none, ..." of the cells with verdict
 * @v (and that keep data, when @keeps >= 0); how many. */
static int list(const struct lab_report *r, int v, int keeps, char *buf,
		size_t len)
{
	size_t n = 0;
	int k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->ncells; i++) {
		const struct lab_cell *c = &r->cells[i];
		char w[128];

		if (lab_check_verdict(r, c, NULL) != v ||
		    (keeps >= 0 && keeps_data(r, c) != (bool)keeps))
			continue;
		lab_cell_words(c, true, w, sizeof(w));
		if (n + strlen(w) + 8 >= len) {
			if (n + 5 < len)
				strcat(buf, ", ...");
			return k + 1;
		}
		n += (size_t)snprintf(buf + n, len - n, "%s%s", k ? ", " : "",
				      w);
		k++;
	}
	return k;
}

/* list() for check_cells_recommend(). */
static int list_cells(const void *r, int v, int keeps, char *buf, size_t len)
{
	return list(r, v, keeps, buf, len);
}

int lab_check_recommend(const struct lab_report *r, char lines[][512], int max)
{
	return check_cells_recommend(
		r->opts->suite.check->name,
		"iolab lab --doctor for what each guest sees", list_cells, r,
		lines, max);
}

static void print_row(const struct lab_report *r, const struct lab_cell *c,
		      int *nnotes, FILE *f)
{
	const struct check_profile *p = r->opts->suite.check;
	int v = lab_check_verdict(r, c, NULL);

	fprintf(f, "%-11s %-6s %-9s %-12s", lab_bus_names[c->bus],
		lab_format_names[c->format], engine_name(c->aio),
		cache_name(c->cache));
	if (v < 0) {
		char tag[32] = "-";

		if (c->status != LAB_OK)
			snprintf(tag, sizeof(tag), "%s[%d]",
				 lab_status_names[c->status], ++*nnotes);
		fprintf(f, "  %-13s\n", tag);
		return;
	}
	fprintf(f, "  %-13s", check_verdict_names[v]);
	for (int i = 0; i < p->ncrit; i++) {
		char val[48], cell[64];

		check_value_text(&p->crit[i], c->check.fig[i].value, val,
				 sizeof(val));
		snprintf(cell, sizeof(cell), "%s %s", val,
			 check_verdict_names[c->check.fig[i].verdict]);
		fprintf(f, "  %24s", cell);
	}
	fprintf(f, "  %s\n", cache_risk(c->cache));
}

void lab_check_text(const struct lab_report *r, FILE *f)
{
	const struct check_profile *p = r->opts->suite.check;
	char took[32], lines[8][512], a[32];
	unsigned int checked = 0, refused = 0, failed = 0;
	int nnotes = 0, nl, k = 0;

	for (size_t i = 0; i < r->ncells; i++) {
		checked += lab_check_verdict(r, &r->cells[i], NULL) >= 0;
		refused += r->cells[i].status == LAB_REFUSED;
		failed += r->cells[i].status == LAB_FAILED;
	}
	fprintf(f, "iolab lab --check %s: %s, %zu cell%s\n", p->name, p->title,
		r->ncells, r->ncells == 1 ? "" : "s");
	fprintf(f, "QEMU %s (%s), %s, kernel %s\n", term_safe(r->qemu_version),
		term_safe(r->qemu), lab_accel_names[r->accel],
		term_safe(r->kernel_release));
	if (r->accel_note[0])
		fprintf(f, "%s\n", term_safe(r->accel_note));
	fprintf(f, "each guest: %s; a %s disk image in %s (%s)\n",
		r->suite_title, fmt_size(r->disk_bytes, a, sizeof(a)),
		term_safe(r->image_dir),
		r->image_fs[0] ? term_safe(r->image_fs) : "?");
	fprintf(f, "%u cell%s checked, %u refused, %u failed; took %s", checked,
		checked == 1 ? "" : "s", refused, failed,
		lab_fmt_secs(r->elapsed_s, took, sizeof(took)));
	if (r->partial)
		fprintf(f, "  ** PARTIAL: %s **",
			result_stop_words(r->stop_signal));
	fprintf(f, "\n\n%-11s %-6s %-9s %-12s  %-13s", "bus", "format", "aio",
		"cache", "verdict");
	for (int i = 0; i < p->ncrit; i++)
		fprintf(f, "  %24.24s", p->crit[i].id);
	fprintf(f, "  %s\n", "on host power loss");
	for (size_t i = 0; i < r->ncells; i++)
		print_row(r, &r->cells[i], &nnotes, f);
	fprintf(f, "\n");
	for (int i = 0; i < p->ncrit; i++) {
		char lim[48];

		fprintf(f, "%s: %s, %s (%s)\n", p->crit[i].id, p->crit[i].what,
			check_limit_text(&p->crit[i], lim, sizeof(lim)),
			p->crit[i].source);
	}
	for (size_t i = 0; i < r->ncells; i++) {
		const struct lab_cell *c = &r->cells[i];
		const char *why;
		char w[128];

		lab_cell_words(c, true, w, sizeof(w));
		if (c->status != LAB_OK && lab_check_verdict(r, c, NULL) < 0)
			fprintf(f, "[%d]  %s %s: %s\n", ++k, w,
				lab_status_names[c->status],
				term_safe(c->reason ? c->reason : ""));
		else if (lab_check_verdict(r, c, &why) >= 0 && why[0])
			fprintf(f, "%s: passed in the guest, not a pass: %s\n",
				w, why);
	}
	if (r->warnings.n) {
		fprintf(f, "\nWarnings:\n");
		for (size_t i = 0; i < r->warnings.n; i++)
			fprintf(f, "  ! %s\n", term_safe(r->warnings.v[i].msg));
	}
	nl = lab_check_recommend(r, lines, 8);
	fprintf(f, "\n");
	for (int i = 0; i < nl; i++)
		fprintf(f, "%s\n", lines[i]);
}

json_t *lab_check_jcell(const struct lab_report *r, const struct lab_cell *c)
{
	const struct check_profile *p = r->opts->suite.check;
	const char *why;
	int v = lab_check_verdict(r, c, &why);
	json_t *o, *crit;

	if (v < 0)
		return json_null();
	o = json_object();
	crit = json_array();
	json_object_set_new(o, "profile", json_string(p->name));
	json_object_set_new(o, "verdict", json_string(check_verdict_names[v]));
	json_object_set_new(
		o, "guest_verdict",
		json_string(check_verdict_names[c->check.guest_verdict]));
	json_object_set_new(o, "not_a_pass_because",
			    why[0] ? json_string(why) : json_null());
	json_object_set_new(o, "keeps_data_on_power_loss",
			    json_boolean(keeps_data(r, c)));
	for (int i = 0; i < p->ncrit; i++) {
		const struct lab_check_fig *g = &c->check.fig[i];
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

void lab_check_jdoc(const struct lab_report *r, json_t *opts, json_t *doc)
{
	const struct lab_suite *s = &r->opts->suite;
	char lines[8][512];
	json_t *rec, *text;
	int nl;

	if (opts) {
		json_object_set_new(opts, "check", json_string(s->check->name));
		json_object_set_new(
			opts, "check_time_s",
			json_real((double)s->check_runtime_ns / 1e9));
	}
	if (!doc)
		return;
	nl = lab_check_recommend(r, lines, 8);
	rec = json_object();
	text = json_array();
	for (int i = 0; i < nl; i++)
		json_array_append_new(text, json_string(lines[i]));
	json_object_set_new(rec, "text", text);
	json_object_set_new(doc, "recommendation", rec);
}
