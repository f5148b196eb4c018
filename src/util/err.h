/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Setup-path error reporting. A function that fails fills a struct err and
 * returns failure; only the top level (main or a command driver) prints it.
 * Hot-path code returns -errno instead and never touches a struct err.
 */
#ifndef IOLAB_UTIL_ERR_H
#define IOLAB_UTIL_ERR_H

#include <stdbool.h>

/* Process exit codes, documented in iolab(1). */
enum exit_code {
	EXIT_OK = 0,
	EXIT_USAGE = 1, /* bad flag, bad value, bad combination */
	EXIT_ENV = 2, /* environment or unsupported (no io_uring, refused) */
	EXIT_IO = 3, /* an I/O error or a verify failure */
	EXIT_FINDING = 4, /* doctor: critical finding; advise: error finding */
	EXIT_SIGINT = 130, /* interrupted by SIGINT; partial results printed */
	EXIT_SIGTERM = 143,
};

struct err {
	int exit_code; /* enum exit_code to exit with */
	int errnum; /* errno behind it, 0 if none */
	char msg[512];
};

/*
 * err_set - record a failure. @errnum may be 0. The message should name the
 * problem and the fix, in one line, without a trailing period.
 * Returns false so that callers can write "return err_set(...)".
 */
bool err_set(struct err *err, int exit_code, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Prefix the existing message: "what: " + old message. */
void err_prefix(struct err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Print "iolab: <msg>" to stderr and return the exit code to use. */
int err_report(const struct err *err);

#endif
