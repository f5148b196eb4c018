/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Each command's adapter: it maps that command's JSON document to the
 * neutral model (report/rdoc.h), using the shared pieces of
 * report/adapt.h, and fills @d or returns false with @err set. Defined in
 * the command's folder (cmd/run/run_adapt.c, ...); load.c dispatches.
 */
#ifndef IOLAB_CMD_ADAPTERS_H
#define IOLAB_CMD_ADAPTERS_H

#include <stdbool.h>

struct err;
struct jr_node;
struct rdoc;

bool adapt_run(struct rdoc *d, const struct jr_node *root, struct err *err);
bool adapt_mark(struct rdoc *d, const struct jr_node *root, struct err *err);
bool adapt_matrix(struct rdoc *d, const struct jr_node *root, struct err *err);
bool adapt_lab(struct rdoc *d, const struct jr_node *root, struct err *err);
bool adapt_calibrate(struct rdoc *d, const struct jr_node *root,
		     struct err *err);
bool adapt_check(struct rdoc *d, const struct jr_node *root, struct err *err);
bool adapt_doctor(struct rdoc *d, const struct jr_node *root, struct err *err);
bool adapt_advise(struct rdoc *d, const struct jr_node *root, struct err *err);

/* The commands an adapter exists for, NULL-terminated. */

/* Read @path, check its envelope and map it with its command's adapter. */
struct rdoc *rdoc_load(const char *path, struct err *err);
/* The same from memory (tests, the fuzz target); @name as the path. */
struct rdoc *rdoc_parse(const char *text, const char *name, struct err *err);

#endif
