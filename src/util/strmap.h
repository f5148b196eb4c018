/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A string -> index hash map, so that lookups by key over documents of
 * thousands of figures (compare, report) stay linear in their size. Keys
 * are borrowed: they must outlive the map and not change.
 */
#ifndef IOLAB_UTIL_STRMAP_H
#define IOLAB_UTIL_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

struct strmap {
	const char **keys;
	size_t *vals;
	size_t cap, n; /* cap is 0 or a power of two */
};

/* The value stored for @key, if any. */
bool strmap_get(const struct strmap *m, const char *key, size_t *val);
/* Store @val for @key unless the key is there; false if it was. */
bool strmap_put(struct strmap *m, const char *key, size_t val);
void strmap_free(struct strmap *m);

#endif
