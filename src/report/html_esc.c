// SPDX-License-Identifier: GPL-2.0-or-later
/* Escaping text for the HTML report; see html_impl.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "html_impl.h"
#include "../util/xmem.h"

void hx_text(FILE *f, const char *s)
{
	if (!s)
		return;
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			/* Control characters are not allowed in XML 1.0. */
			if ((unsigned char)*s < 0x20 && *s != '\n' &&
			    *s != '\t')
				fputc(' ', f);
			else
				fputc(*s, f);
		}
	}
}

void hx_textf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		xoom();
	va_end(ap);
	hx_text(f, s);
	free(s);
}
