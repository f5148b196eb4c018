// SPDX-License-Identifier: GPL-2.0-or-later
/* Escaping text for the HTML report; see html_impl.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "html_impl.h"
#include "../../util/xmem.h"

/*
 * Length of the valid UTF-8 sequence at @s, or 0. Text cut to a buffer's
 * size can end in half a character; the page must stay valid UTF-8.
 */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

void hx_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!p)
		return;
	while (*p) {
		size_t n = utf8_len(p);

		if (!n) {
			fputs("\xef\xbf\xbd", f); /* U+FFFD */
			p++;
			continue;
		}
		if (n > 1) {
			fwrite(p, 1, n, f);
			p += n;
			continue;
		}
		switch (*p) {
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
			if (*p < 0x20 && *p != '\n' && *p != '\t')
				fputc(' ', f);
			else
				fputc(*p, f);
		}
		p++;
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
