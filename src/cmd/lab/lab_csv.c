// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab lab --csv`: one line per cell, test and direction, the cell's
 * bus, format, aio, cache, status and reason first, then mark's test
 * columns (mark_csv.h) read from the suite's JSON each guest sent. Every
 * cell has all its lines: a cell QEMU refused or that failed has its
 * status and reason and empty figures, never a 0. The reason is QEMU's or
 * the guest's words on one line (the JSON keeps them verbatim).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/csv.h"
#include "../../report/json_read.h"
#include "lab_report.h"
#include "../mark/mark_csv.h"
#include "lab_host.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

static const char *const cell_cols[] = {
	"bus", "format", "aio", "cache", "accel", "status", "reason", "risk",
};

/* @s with every run of white space (newlines too) as one space. */
static char *one_line(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	for (; *s; s++) {
		if (isspace((unsigned char)*s)) {
			if (o > out && o[-1] != ' ')
				*o++ = ' ';
			continue;
		}
		*o++ = *s;
	}
	while (o > out && o[-1] == ' ')
		o--;
	*o = '\0';
	return out;
}

/* The guest's object for test @t ("SEQ1M Q8T1"), by position or name. */
static const struct jr_node *find_test(const struct jr_node *tests,
				       unsigned int i, const char *name)
{
	const struct jr_node *t = jr_at(tests, i);
	const char *n = jr_str(t, "name");

	if (n && !strcmp(n, name))
		return t;
	for (size_t k = 0; k < jr_len(tests); k++) {
		n = jr_str(jr_at(tests, k), "name");
		if (n && !strcmp(n, name))
			return jr_at(tests, k);
	}
	return NULL;
}

static void cell_lines(struct csv *w, const struct mark_spec *s,
		       const struct lab_cell *c)
{
	struct jr_doc *doc = NULL;
	const struct jr_node *tests = NULL;
	char *reason = c->reason ? one_line(c->reason) : NULL;
	bool mix = s->dir[MARK_MIX];

	if (c->result) {
		struct err ignore = { 0 };

		/* A result the report cannot read leaves the figures empty;
		 * the table and JSON say what the guest sent. */
		doc = jr_parse(c->result, "the guest's result", &ignore);
		tests = doc ? jr_get(jr_root(doc), "tests") : NULL;
	}
	for (unsigned int i = 0; i < s->ntests; i++)
		for (int d = 0; d < MARK_DIRS; d++) {
			struct mark_row row;

			if (!s->dir[d])
				continue;
			mark_row_init(&row, &s->tests[i], (enum mark_dir)d);
			if (d == MARK_MIX)
				row.mix_read_pct = s->mix_read_pct;
			if (tests)
				mark_row_from_json(
					&row,
					jr_get(find_test(tests, i, row.test),
					       suite_dir_names[d]));
			csv_str(w, lab_bus_names[c->bus]);
			csv_str(w, lab_format_names[c->format]);
			csv_str(w, engine_name(c->aio));
			csv_str(w, cache_name(c->cache));
			csv_str(w, lab_accel_names[c->accel]);
			csv_str(w, lab_status_names[c->status]);
			csv_str(w, reason && *reason ? reason : NULL);
			csv_str(w, cache_risk(c->cache));
			mark_csv_fields(w, &row, mix);
			csv_end_line(w);
		}
	free(reason);
	jr_free(doc);
}

bool lab_csv_write(const struct lab_report *r, FILE *f, struct err *err)
{
	const struct mark_spec *s;
	struct csv w;

	if (!r->opts)
		return err_set(err, EXIT_ENV, 0,
			       "lab --csv needs the suite the guests ran");
	s = &r->opts->suite.spec;
	csv_init(&w, f);
	for (size_t i = 0; i < sizeof(cell_cols) / sizeof(cell_cols[0]); i++)
		csv_str(&w, cell_cols[i]);
	mark_csv_head(&w, s->dir[MARK_MIX]);
	csv_end_line(&w);
	/* The JSON's order: cell by cell, then test by test, read, write. */
	for (size_t k = 0; k < r->ncells; k++)
		cell_lines(&w, s, &r->cells[k]);
	return csv_finish(&w, err);
}
