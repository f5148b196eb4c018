/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The static iolab that becomes each guest's /init. Looked up in this
 * order: --iolab-static PATH; the running iolab itself if it is static;
 * iolab-static beside the running binary (the build tree, or an install's
 * bin directory); ../libexec/iolab/iolab-static from it (an install).
 */
#ifndef IOLAB_CMD_LAB_STATIC_BIN_H
#define IOLAB_CMD_LAB_STATIC_BIN_H

#include <stdbool.h>
#include <stddef.h>

struct err;

/* True if @path is an x86-64 ELF executable without an interpreter. */
bool static_bin_check(const char *path, struct err *err);
/* Find it as above into @out. */
bool static_bin_find(const char *given, char *out, size_t len, struct err *err);

#endif
