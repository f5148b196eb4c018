// SPDX-License-Identifier: GPL-2.0-or-later
/* Setup-path error reporting; see err.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "term.h"

bool err_set(struct err *err, int exit_code, int errnum, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return false;
	err->exit_code = exit_code;
	err->errnum = errnum;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return false;
}

void err_prefix(struct err *err, const char *fmt, ...)
{
	char head[256], old[sizeof(err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(head, sizeof(head), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	snprintf(err->msg, sizeof(err->msg), "%s: %s", head, old);
}

int err_report(const struct err *err)
{
	/* Messages quote names and values from files and processes. */
	fprintf(stderr, "iolab: %s\n",
		err->msg[0] ? term_safe(err->msg) : "unknown error");
	return err->exit_code ? err->exit_code : EXIT_ENV;
}
