// SPDX-License-Identifier: GPL-2.0-or-later
/* CSV fields and lines; see csv.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "../util/err.h"
#include "../util/term.h"
#include "../util/xmem.h"

void csv_init(struct csv *c, FILE *f)
{
	c->f = f;
	c->mid = false;
}

static void csv_sep(struct csv *c)
{
	if (c->mid)
		fputc(',', c->f);
	c->mid = true;
}

void csv_str(struct csv *c, const char *s)
{
	char *safe = NULL;

	csv_sep(c);
	if (!s)
		return;
	/* CSV has no escape for control characters, and it is often read on
	   a terminal: names from files lose them (\xNN), like the text. */
	if (term_unsafe(s, TERM_KEEP_NL | TERM_KEEP_TAB)) {
		size_t n = term_sanitize(NULL, 0, s,
					 TERM_KEEP_NL | TERM_KEEP_TAB) +
			   1;

		safe = xmalloc(n);
		term_sanitize(safe, n, s, TERM_KEEP_NL | TERM_KEEP_TAB);
		s = safe;
	}
	if (!strpbrk(s, ",\"\r\n") && s[0] != ' ' &&
	    (!*s || s[strlen(s) - 1] != ' ')) {
		fputs(s, c->f);
		free(safe);
		return;
	}
	fputc('"', c->f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', c->f);
		fputc(*s, c->f);
	}
	fputc('"', c->f);
	free(safe);
}

void csv_num(struct csv *c, double v)
{
	csv_sep(c);
	if (!isfinite(v))
		return;
	/* Whole numbers whole (byte counts), others to 10 digits. */
	if (v == floor(v) && fabs(v) < 1e17)
		fprintf(c->f, "%.0f", v);
	else
		fprintf(c->f, "%.10g", v);
}

void csv_end_line(struct csv *c)
{
	fputc('\n', c->f);
	c->mid = false;
}

bool csv_finish(struct csv *c, struct err *err)
{
	if (fflush(c->f) || ferror(c->f))
		return err_set(err, EXIT_ENV, errno,
			       "cannot write the CSV report: %s",
			       strerror(errno));
	return true;
}
