// SPDX-License-Identifier: GPL-2.0-or-later
/* Open-addressing string map; see strmap.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"
#include "xmem.h"

/* FNV-1a: short keys, no adversary can do more than lengthen a probe. */
static size_t hash(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (size_t)(h ^ (h >> 32));
}

static size_t slot(const struct strmap *m, const char *key)
{
	size_t i = hash(key) & (m->cap - 1);

	while (m->keys[i] && strcmp(m->keys[i], key))
		i = (i + 1) & (m->cap - 1);
	return i;
}

bool strmap_get(const struct strmap *m, const char *key, size_t *val)
{
	size_t i;

	if (!m->cap)
		return false;
	i = slot(m, key);
	if (!m->keys[i])
		return false;
	if (val)
		*val = m->vals[i];
	return true;
}

static void grow(struct strmap *m)
{
	struct strmap old = *m;

	m->cap = old.cap ? 2 * old.cap : 64;
	m->keys = xcalloc(m->cap, sizeof(*m->keys));
	m->vals = xcalloc(m->cap, sizeof(*m->vals));
	for (size_t i = 0; i < old.cap; i++)
		if (old.keys[i]) {
			size_t j = slot(m, old.keys[i]);

			m->keys[j] = old.keys[i];
			m->vals[j] = old.vals[i];
		}
	free(old.keys);
	free(old.vals);
}

bool strmap_put(struct strmap *m, const char *key, size_t val)
{
	size_t i;

	/* At most half full: probes stay short. */
	if (2 * (m->n + 1) > m->cap)
		grow(m);
	i = slot(m, key);
	if (m->keys[i])
		return false;
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
	return true;
}

void strmap_free(struct strmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
