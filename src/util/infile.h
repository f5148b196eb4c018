/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading a configuration or result file named on the command line (a VM
 * config, a domain XML, a JSON result). Such a file is input from anyone:
 * it must be a regular file (or "-", standard input), not empty, not
 * larger than a limit the caller names, and text (no NUL byte). Anything
 * else is one error line with EXIT_ENV, never an empty configuration.
 */
#ifndef IOLAB_UTIL_INFILE_H
#define IOLAB_UTIL_INFILE_H

#include <stdbool.h>
#include <stddef.h>

struct err;

/*
 * Read @path ("-" is standard input) whole into a new NUL-terminated
 * buffer, its length in *@len. @what names the input in messages
 * ("--proxmox", "compare input"). Returns NULL and fills @err (EXIT_ENV)
 * if it cannot be read, is a directory or not a regular file, is empty,
 * holds a NUL byte or is larger than @max bytes.
 */
char *infile_read(const char *path, const char *what, size_t max, size_t *len,
		  struct err *err);
/* "4 MiB": a limit for messages. */
const char *infile_limit_text(size_t max, char *buf, size_t len);

#endif
