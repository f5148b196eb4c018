/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A CSV writer for --csv output (RFC 4180 quoting; lines end in LF, which
 * every spreadsheet reads). Numbers are written plain, in the unit the
 * header names, so a spreadsheet sees numbers, not text.
 */
#ifndef IOLAB_REPORT_CSV_H
#define IOLAB_REPORT_CSV_H

#include <stdbool.h>
#include <stdio.h>

struct err;

struct csv {
	FILE *f;
	bool mid; /* a field was written on this line */
};

void csv_init(struct csv *c, FILE *f);
/* A text field; NULL is an empty field. Quoted when it must be. */
void csv_str(struct csv *c, const char *s);
/* A number: whole ones in full, others to 10 significant digits; NAN is
 * an empty field. */
void csv_num(struct csv *c, double v);
void csv_end_line(struct csv *c);
/* Flush and report a write error. */
bool csv_finish(struct csv *c, struct err *err);

#endif
