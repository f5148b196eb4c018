// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The helpers every fixer shares (fix buffers, new iothread names); see
 * advise_fix.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise_fix.h"
#include "../../util/xmem.h"

char *adv_new_iothread_name(const struct adv_vm *vm, const char *prefix,
			    unsigned seq)
{
	for (unsigned i = vm->niothreads;; i++) {
		char *name = xasprintf("%s%u", prefix, i);

		if (!adv_vm_has_iothread(vm, name) && !seq--)
			return name;
		free(name);
	}
}

static void record(const struct adv_edit *e, int item, const char *text)
{
	struct adv_repls *r = e ? e->repls : NULL;

	if (!r)
		return;
	r->v = xrealloc(r->v, (r->n + 1) * sizeof(*r->v));
	r->v[r->n].item = item;
	r->v[r->n++].text = xstrdup(text);
}

void fix_emit(struct fixbuf *b, const struct adv_edit *e, int item,
	      const char *line)
{
	fixbuf_add(b, line);
	record(e, item, line);
}

void fix_delete(const struct adv_edit *e, int item)
{
	if (item >= 0)
		record(e, item, "");
}

void fixbuf_add(struct fixbuf *b, const char *line)
{
	size_t n = strlen(line);

	if (b->len + n + 2 > b->cap) {
		b->cap = (b->len + n + 2) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	if (b->len)
		b->s[b->len++] = '\n';
	memcpy(b->s + b->len, line, n + 1);
	b->len += n;
}

void fixbuf_addf(struct fixbuf *b, const char *fmt, ...)
{
	char *line;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) < 0)
		xoom();
	va_end(ap);
	fixbuf_add(b, line);
	free(line);
}

char *fixbuf_take(struct fixbuf *b)
{
	char *s = b->s ? b->s : xstrdup("");

	memset(b, 0, sizeof(*b));
	return s;
}
