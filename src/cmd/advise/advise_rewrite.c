// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the three sources' rewriters share (see advise_rewrite.h): the
 * VM's replacements once per item, edits applied to the text, and a
 * unified diff of the result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise_rewrite.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

void rw_add(struct rw_edits *e, size_t start, size_t end, const char *text)
{
	e->v = xrealloc(e->v, (e->n + 1) * sizeof(*e->v));
	e->v[e->n].start = start;
	e->v[e->n].end = end;
	e->v[e->n++].text = xstrdup(text);
}

void rw_free(struct rw_edits *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->v[i].text);
	free(e->v);
	memset(e, 0, sizeof(*e));
}

unsigned rw_where_line(const char *where)
{
	const char *c = where ? strrchr(where, ':') : NULL;

	return c ? (unsigned)strtoul(c + 1, NULL, 10) : 0;
}

size_t *rw_line_starts(const char *text, size_t *n)
{
	size_t len = strlen(text), cap = 64, k = 0;
	size_t *v = xmalloc(cap * sizeof(*v));

	for (size_t i = 0; i < len;) {
		const char *nl = strchr(text + i, '\n');

		if (k + 2 > cap) {
			cap *= 2;
			v = xrealloc(v, cap * sizeof(*v));
		}
		v[k++] = i;
		i = nl ? (size_t)(nl - text) + 1 : len;
	}
	v[k] = len;
	*n = k;
	return v;
}

/* The line of @vm->corrected that starts with @prefix, or NULL. */
static char *vm_line(const struct adv_vm *vm, const char *prefix)
{
	const char *p = vm->corrected;

	while (p && *p) {
		size_t n = strcspn(p, "\n");

		if (!strncmp(p, prefix, strlen(prefix)))
			return xasprintf("%.*s", (int)n, p);
		p += n + (p[n] == '\n');
	}
	return NULL;
}

struct adv_repl *rw_vm_repls(const struct adv_vm *vm, size_t *n,
			     size_t **disk_of)
{
	struct adv_repl *v = NULL;
	size_t k = 0;

	*disk_of = NULL;
	for (size_t di = 0; di < vm->ndisks; di++) {
		const struct adv_disk *d = &vm->disks[di];

		for (size_t i = 0; i < d->nrepl; i++) {
			const struct adv_repl *r = &d->repl[i];
			char *text = NULL;
			bool dup = false;

			/* the VM-wide values every disk's fix adds up to */
			if (!strncmp(r->text, "<iothreads>", 11))
				text = vm_line(vm, "<iothreads>");
			else if (!strncmp(r->text, "boot:", 5))
				text = vm_line(vm, "boot:");
			if (!text)
				text = xstrdup(r->text);
			for (size_t j = 0; j < k && !dup; j++)
				dup = r->item >= 0 ?
					      v[j].item == r->item :
					      v[j].item < 0 &&
						      !strcmp(v[j].text, text);
			if (dup) {
				free(text);
				continue;
			}
			v = xrealloc(v, (k + 1) * sizeof(*v));
			*disk_of =
				xrealloc(*disk_of, (k + 1) * sizeof(**disk_of));
			v[k].item = r->item;
			v[k].text = text;
			(*disk_of)[k++] = di;
		}
	}
	*n = k;
	return v;
}

void rw_repls_free(struct adv_repl *v, size_t n, size_t *disk_of)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].text);
	free(v);
	free(disk_of);
}

static int by_start(const void *a, const void *b)
{
	const struct rw_edit *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* insertions before a replacement at the same place */
	return (x->end > x->start) - (y->end > y->start);
}

char *rw_apply(const char *text, struct rw_edits *e, struct err *err)
{
	size_t len = strlen(text), cap = len + 1, n = 0, at = 0;
	char *out;

	/* a stable sort keeps insertions at one place in the fixes' order */
	for (size_t i = 1; i < e->n; i++)
		for (size_t j = i;
		     j > 0 && by_start(&e->v[j - 1], &e->v[j]) > 0; j--) {
			struct rw_edit t = e->v[j];

			e->v[j] = e->v[j - 1];
			e->v[j - 1] = t;
		}
	for (size_t i = 0; i < e->n; i++) {
		if (e->v[i].start < at || e->v[i].end > len) {
			err_set(err, EXIT_USAGE, 0,
				"two fixes change the same part of the input; the corrected lines are in the report");
			return NULL;
		}
		at = e->v[i].end;
		cap += strlen(e->v[i].text);
	}
	out = xmalloc(cap);
	at = 0;
	for (size_t i = 0; i < e->n; i++) {
		memcpy(out + n, text + at, e->v[i].start - at);
		n += e->v[i].start - at;
		memcpy(out + n, e->v[i].text, strlen(e->v[i].text));
		n += strlen(e->v[i].text);
		at = e->v[i].end;
	}
	memcpy(out + n, text + at, len - at);
	n += len - at;
	out[n] = '\0';
	return out;
}
