/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Other spellings of iolab's options that mean the same thing: fio's
 * (--iodepth for --qd, --ioengine=libaio for --engine native, ...) and
 * the other commands' (--time where a command says --runtime). The parser
 * falls back to them when a name is not in the command's own table.
 */
#ifndef IOLAB_CMD_OPTS_ALIAS_H
#define IOLAB_CMD_OPTS_ALIAS_H

#include <stddef.h>

struct opt_alias {
	const char *alias; /* "iodepth" */
	const char *name; /* the option it stands for: "qd" */
	/* Values translated, pairs of alias value and iolab value ending
	 * with NULL; NULL when the value is taken as it is. */
	const char *const *map;
};

/* Every alias, ending with a row whose alias is NULL. */
extern const struct opt_alias opt_aliases[];

/* The alias named @name (@len bytes, not NUL-terminated), or NULL. */
const struct opt_alias *opt_alias_find(const char *name, size_t len);
/* @val translated by @a's map; NULL when the map has no such value. */
const char *opt_alias_value(const struct opt_alias *a, const char *val);

#endif
