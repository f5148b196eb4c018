// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab matrix --csv`: one line per cell, test and direction, the cell's
 * setting and status first, then mark's test columns (mark_csv.h). Every
 * cell has all its lines, so the sheet keeps its shape; a cell QEMU
 * refuses, one that failed before measuring, or one a Ctrl-C never
 * reached has its status and reason and empty figures, never a 0.
 */
#include <stdio.h>

#include "../../report/csv.h"
#include "../mark/mark_csv.h"
#include "../mark/mark_report.h"
#include "matrix_report.h"

static const char *const cell_cols[] = {
	"engine",
	"cache",
	"status",
	"reason",
	"forced",
	"risk",
	"keeps_data_on_power_loss",
};

static void cell_line(struct csv *w, const struct matrix_result *r,
		      const struct matrix_cell *c, unsigned int i,
		      enum mark_dir d)
{
	const struct mark_cell *m = c->measured ? &c->mark.cell[i][d] : NULL;
	enum matrix_status st = c->status;
	struct mark_row row;

	/* A stopped cell's tests that never began did not run, whatever
	 * the cell's own status says about the tests that did. */
	if (c->measured && !m->started && st == MATRIX_OK)
		st = MATRIX_NOT_RUN;
	csv_str(w, engine_name(c->engine));
	csv_str(w, cache_name(c->cache));
	csv_str(w, matrix_status_names[st]);
	csv_str(w, c->reason[0] ? c->reason : NULL);
	csv_str(w, c->qemu_refuses && c->measured ? "true" : "false");
	csv_str(w, cache_risk(c->cache));
	csv_str(w, matrix_cache_keeps_data(c->cache) ? "true" : "false");
	mark_row_from_cell(&row, &r->spec.mark, i, d, m);
	mark_csv_fields(w, &row, r->spec.mark.dir[MARK_MIX]);
	csv_end_line(w);
}

bool matrix_csv_write(const struct matrix_report *rep, FILE *f, struct err *err)
{
	const struct matrix_result *r = rep->res;
	const struct mark_spec *s = &r->spec.mark;
	struct csv w;

	csv_init(&w, f);
	for (size_t i = 0; i < sizeof(cell_cols) / sizeof(cell_cols[0]); i++)
		csv_str(&w, cell_cols[i]);
	mark_csv_head(&w, s->dir[MARK_MIX]);
	csv_end_line(&w);
	/* The JSON's order: cell by cell (engine-major), then test by
	 * test, read, write, mix. */
	for (unsigned int k = 0; k < r->ncells; k++)
		for (unsigned int i = 0; i < s->ntests; i++)
			for (int d = 0; d < MARK_DIRS; d++)
				if (s->dir[d])
					cell_line(&w, r, &r->cells[k], i,
						  (enum mark_dir)d);
	return csv_finish(&w, err);
}
