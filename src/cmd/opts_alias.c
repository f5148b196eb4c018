// SPDX-License-Identifier: GPL-2.0-or-later
/* Other spellings of the options; see opts_alias.h. */
#include <string.h>

#include "opts_alias.h"

/* fio's engines as QEMU's: libaio is aio=native, psync and sync are the
 * one-request-at-a-time engine. posixaio and mmap have no counterpart. */
static const char *const ioengines[] = { "io_uring", "io_uring", "libaio",
					 "native",   "psync",	 "sync",
					 "sync",     "sync",	 "pvsync",
					 "sync",     "pvsync2",	 "sync",
					 "null",     "null",	 NULL };
/* fio's direct=1 is O_DIRECT (cache=none), direct=0 the page cache
 * (cache=writeback, whose flushes fio sends only when told to). */
static const char *const direct[] = { "1", "none", "0", "writeback", NULL };
/* "--json-format fio": fio's JSON layout, which --output-format names as
 * fio does (json, json+). */
static const char *const json_format[] = { "fio", "json", "fio+", "json+",
					   NULL };

const struct opt_alias opt_aliases[] = {
	{ "iodepth", "qd", NULL },
	{ "numjobs", "threads", NULL },
	{ "ramp_time", "ramp", NULL },
	{ "rate_iops", "rate-iops", NULL },
	{ "blocksize", "bs", NULL },
	{ "ioengine", "engine", ioengines },
	{ "direct", "cache", direct },
	{ "json-format", "output-format", json_format },
	/* One command's name for what another calls otherwise. */
	{ "runtime", "time", NULL },
	{ "time", "runtime", NULL },
	{ "aio", "engines", NULL },
	{ "engines", "aio", NULL },
	{ "cache", "caches", NULL },
	{ "caches", "cache", NULL },
	{ NULL, NULL, NULL },
};

const struct opt_alias *opt_alias_find(const char *name, size_t len)
{
	for (const struct opt_alias *a = opt_aliases; a->alias; a++)
		if (strlen(a->alias) == len && !strncmp(a->alias, name, len))
			return a;
	return NULL;
}

const char *opt_alias_value(const struct opt_alias *a, const char *val)
{
	if (!a->map)
		return val;
	for (const char *const *m = a->map; m[0]; m += 2)
		if (!strcmp(m[0], val))
			return m[1];
	return NULL;
}
