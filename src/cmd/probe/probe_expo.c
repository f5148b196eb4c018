// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pieces of the text exposition format every family uses. Label values
 * come from paths and sysfs: bounded, control characters and bytes that
 * are not UTF-8 written as \xNN (util/term.c, so no newline is left to
 * escape), then backslash and double quote escaped as the format wants.
 */
#include <stdio.h>

#include "probe_impl.h"
#include "../../util/term.h"

#define LABEL_MAX 256

void prom_label_value(FILE *f, const char *s)
{
	char src[LABEL_MAX + 1], clean[4 * LABEL_MAX + 1];

	/* Cut first: a character cut in two becomes \xNN escapes below. */
	snprintf(src, sizeof(src), "%s", s);
	term_sanitize(clean, sizeof(clean), src, 0);
	fputc('"', f);
	for (const char *c = clean; *c; c++) {
		if (*c == '\\' || *c == '"')
			fputc('\\', f);
		fputc(*c, f);
	}
	fputc('"', f);
}

void prom_family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}
