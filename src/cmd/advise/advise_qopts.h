/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QEMU's option-string syntax, "key=value,key=value", as QemuOpts and
 * keyval read it: a comma inside a value is written ",,"; the first
 * element may be a bare value for an implied key (-device virtio-blk-pci,
 * -object iothread, -smp 4); a bare key elsewhere is a flag meaning "on"
 * ("readonly"), and "noKEY" means KEY=off. JSON objects ("-blockdev
 * '{...}'") go through advise_qjson.h instead.
 */
#ifndef IOLAB_CMD_ADVISE_ADVISE_QOPTS_H
#define IOLAB_CMD_ADVISE_ADVISE_QOPTS_H

#include <stdbool.h>

#include "advise_kv.h"

struct err;

/*
 * Parse @s into @out (appended). @implied names the key of a bare first
 * element, or is NULL. @what names the option for messages ("-drive").
 */
bool qopts_parse(const char *s, const char *implied, const char *what,
		 struct kvl *out, struct err *err);

/* Back to QEMU's syntax; the caller frees the string. */
char *qopts_format(const struct kvl *l);

/* True if @s looks like a JSON object (first non-blank is '{'). */
bool qopts_is_json(const char *s);

#endif
