/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A growable list of owned strings. */
#ifndef IOLAB_UTIL_STRV_H
#define IOLAB_UTIL_STRV_H

#include <stdbool.h>
#include <stddef.h>

struct strv {
	char **v;
	size_t n, cap;
};

/* Append a formatted copy. */
void strv_addf(struct strv *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Append a copy unless an equal string is already there. */
void strv_add_unique(struct strv *s, const char *str);
bool strv_has(const struct strv *s, const char *str);
void strv_free(struct strv *s);

#endif
