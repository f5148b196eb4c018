// SPDX-License-Identifier: GPL-2.0-or-later
/* Warning lists; see warn.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warn.h"
#include "xmem.h"

int warn_has(const struct warnings *w, const char *id)
{
	for (size_t i = 0; i < w->n; i++)
		if (!strcmp(w->v[i].id, id))
			return 1;
	return 0;
}

static void warn_push(struct warnings *w, const char *id, char *msg)
{
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 8;
		w->v = xrealloc(w->v, w->cap * sizeof(*w->v));
	}
	snprintf(w->v[w->n].id, sizeof(w->v[w->n].id), "%s", id);
	w->v[w->n].msg = msg;
	w->n++;
}

void warn_add(struct warnings *w, const char *id, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (warn_has(w, id))
		return;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		xoom();
	va_end(ap);
	warn_push(w, id, msg);
}

void warn_merge(struct warnings *dst, const struct warnings *src)
{
	for (size_t i = 0; i < src->n; i++)
		if (!warn_has(dst, src->v[i].id))
			warn_push(dst, src->v[i].id, xstrdup(src->v[i].msg));
}

void warnings_free(struct warnings *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->v[i].msg);
	free(w->v);
	w->v = NULL;
	w->n = w->cap = 0;
}
