/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Allocation for setup code: out of memory is not a condition a CLI can
 * recover from, so these print one line and exit(2) instead of returning
 * NULL. Never used on the I/O hot path (which does not allocate).
 */
#ifndef IOLAB_UTIL_XMEM_H
#define IOLAB_UTIL_XMEM_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Memory aligned to @align (a power of two), freed with free(). */
void *xaligned(size_t align, size_t n);
__attribute__((noreturn)) void xoom(void);

#endif
