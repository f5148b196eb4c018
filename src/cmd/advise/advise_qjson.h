/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QEMU's JSON option form (-blockdev '{"driver":"file",...}', -device,
 * -object, and the json: pseudo-protocol) to and from the dotted key list
 * that the rest of advise reads: {"cache":{"direct":true}} is
 * cache.direct=on, arrays become key.0, key.1 (QEMU's own "crumple").
 */
#ifndef IOLAB_CMD_ADVISE_ADVISE_QJSON_H
#define IOLAB_CMD_ADVISE_ADVISE_QJSON_H

#include <stdbool.h>

#include "advise_kv.h"

struct err;

/* Parse a JSON object into @out (appended). @what names the option. */
bool qjson_flatten(const char *text, const char *what, struct kvl *out,
		   struct err *err);

/* Compact JSON from a dotted key list; the caller frees it. */
char *qjson_format(const struct kvl *l);

#endif
