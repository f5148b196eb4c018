/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A list of warnings attached to a result: each has a stable id (for JSON
 * consumers and tests) and a sentence for people. Renderers print them in
 * the table and in JSON "warnings"; nothing here prints.
 */
#ifndef IOLAB_UTIL_WARN_H
#define IOLAB_UTIL_WARN_H

#include <stddef.h>

struct warning {
	char id[40];
	char *msg;
};

struct warnings {
	struct warning *v;
	size_t n, cap;
};

/* Append a warning; an id already present is not added twice. */
void warn_add(struct warnings *w, const char *id, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* True if a warning with this id is present. */
int warn_has(const struct warnings *w, const char *id);
/* Append copies of every warning of @src not already in @dst. */
void warn_merge(struct warnings *dst, const struct warnings *src);
void warnings_free(struct warnings *w);

#endif
