// SPDX-License-Identifier: GPL-2.0-or-later
/* String lists; see strv.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strv.h"
#include "xmem.h"

static void strv_push(struct strv *s, char *str)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 8;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n++] = str;
}

void strv_addf(struct strv *s, const char *fmt, ...)
{
	va_list ap;
	char *str;

	va_start(ap, fmt);
	if (vasprintf(&str, fmt, ap) < 0)
		xoom();
	va_end(ap);
	strv_push(s, str);
}

bool strv_has(const struct strv *s, const char *str)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], str))
			return true;
	return false;
}

void strv_add_unique(struct strv *s, const char *str)
{
	if (!strv_has(s, str))
		strv_push(s, xstrdup(str));
}

void strv_free(struct strv *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	*s = (struct strv){ 0 };
}
