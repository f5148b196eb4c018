// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pieces of the text exposition format every family uses. Label values
 * come from paths and sysfs, so they are escaped, stripped of control and
 * non-ASCII bytes (which may not be UTF-8) and bounded.
 */
#include <stdio.h>

#include "probe_impl.h"

#define LABEL_MAX 256

void prom_label_value(FILE *f, const char *s)
{
	fputc('"', f);
	for (size_t i = 0; s[i] && i < LABEL_MAX; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\\' || c == '"')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20 || c >= 0x7f) /* may not be UTF-8 */
			fputc('?', f);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void prom_family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}
