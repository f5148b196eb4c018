// SPDX-License-Identifier: GPL-2.0-or-later
/* Ordered key/value lists; see advise_kv.h. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "advise_kv.h"
#include "../../util/xmem.h"

void kvl_add(struct kvl *l, const char *key, const char *val, enum kv_type type)
{
	struct kv *e;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	e = &l->v[l->n++];
	memset(e, 0, sizeof(*e));
	e->key = xstrdup(key);
	e->val = xstrdup(val ? val : "");
	e->type = type;
}

long kvl_find(const struct kvl *l, const char *key)
{
	/* The last one wins, as in QEMU when a key is repeated. */
	for (size_t i = l->n; i-- > 0;)
		if (!strcmp(l->v[i].key, key))
			return (long)i;
	return -1;
}

const char *kvl_get(const struct kvl *l, const char *key)
{
	long i = kvl_find(l, key);

	return i < 0 ? NULL : l->v[i].val;
}

void kvl_set(struct kvl *l, const char *key, const char *val, enum kv_type type)
{
	long i = kvl_find(l, key);

	if (i < 0) {
		kvl_add(l, key, val, type);
		return;
	}
	free(l->v[i].val);
	l->v[i].val = xstrdup(val);
	l->v[i].type = type;
	l->v[i].bare = false;
}

static void kvl_remove_at(struct kvl *l, size_t i)
{
	free(l->v[i].key);
	free(l->v[i].val);
	memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof(*l->v));
	l->n--;
}

bool kvl_del(struct kvl *l, const char *key)
{
	bool found = false;

	for (size_t i = l->n; i-- > 0;)
		if (!strcmp(l->v[i].key, key)) {
			kvl_remove_at(l, i);
			found = true;
		}
	return found;
}

void kvl_del_prefix(struct kvl *l, const char *prefix)
{
	size_t len = strlen(prefix);

	for (size_t i = l->n; i-- > 0;)
		if (!strncmp(l->v[i].key, prefix, len))
			kvl_remove_at(l, i);
}

void kvl_copy(struct kvl *dst, const struct kvl *src)
{
	memset(dst, 0, sizeof(*dst));
	for (size_t i = 0; i < src->n; i++) {
		kvl_add(dst, src->v[i].key, src->v[i].val, src->v[i].type);
		dst->v[i].implied = src->v[i].implied;
		dst->v[i].bare = src->v[i].bare;
	}
}

void kvl_free(struct kvl *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].val);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

bool kv_parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "on", "yes", "true", "y", "1" };
	static const char *const no[] = { "off", "no", "false", "n", "0" };

	if (!s)
		return false;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return true;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return true;
		}
	}
	return false;
}
