// SPDX-License-Identifier: GPL-2.0-or-later
/* Allocation that cannot fail; see xmem.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sig.h"
#include "xmem.h"

void xoom(void)
{
	static const char msg[] = "iolab: out of memory\n";

	cleanup_all();
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(2);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		xoom();
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		xoom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		xoom();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		xoom();
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		xoom();
	va_end(ap);
	return s;
}

void *xaligned(size_t align, size_t n)
{
	void *p;

	if (posix_memalign(&p, align, n ? n : align))
		xoom();
	return p;
}
