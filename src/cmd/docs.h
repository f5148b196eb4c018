/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What compare and report share: loading the result documents named on
 * the command line, their labels, and the rule that the report never
 * overwrites one of them.
 */
#ifndef IOLAB_CMD_DOCS_H
#define IOLAB_CMD_DOCS_H

#include <stdbool.h>

struct err;
struct rdoc;

/*
 * Load @n documents; @labels (comma-separated, may be NULL) replaces
 * their labels in order. On failure frees what it loaded and returns
 * false. "-" (standard input) may be given once.
 */
bool cli_load_docs(char *const *paths, int n, const char *labels,
		   struct rdoc **docs, struct err *err);
void cli_free_docs(struct rdoc **docs, int n);
/* Refuse an output path that is one of the inputs (same file). */
bool cli_output_not_input(const char *out, char *const *paths, int n,
			  struct err *err);
/* --color auto|always|never for @fd: auto honours NO_COLOR and TERM. */
bool cli_color_wanted(int mode, int fd);

extern const char *const cli_color_names[]; /* auto, always, never */

#endif
