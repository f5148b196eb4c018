// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading for doctor, with every needed-but-unreadable file noted. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_impl.h"
#include "../../util/fsread.h"

void dr_note_unreadable(struct dr_ctx *c, const char *path, int errnum)
{
	char line[PATH_MAX + 128];

	snprintf(line, sizeof(line), "%s: %s", path,
		 errnum == ENOENT ? "missing" : strerror(errnum));
	strv_add_unique(&c->r->unreadable, line);
}

ssize_t dr_read(struct dr_ctx *c, const char *path, char *buf, size_t len,
		bool needed)
{
	ssize_t n = fsv_read(c->v, path, buf, len);

	if (n < 0) {
		buf[0] = '\0';
		if (needed)
			dr_note_unreadable(c, path, (int)-n);
	}
	return n;
}

int64_t dr_num(struct dr_ctx *c, const char *path, bool needed)
{
	char buf[64], *end;
	long long val;

	if (dr_read(c, path, buf, sizeof(buf), needed) <= 0)
		return DR_UNKNOWN;
	errno = 0;
	val = strtoll(buf, &end, 10);
	if (errno || end == buf || val < 0) {
		if (needed)
			dr_note_unreadable(c, path, EINVAL);
		return DR_UNKNOWN;
	}
	return val;
}

char *dr_slurp(struct dr_ctx *c, const char *path, bool needed)
{
	int e = 0;
	char *s = fsv_slurp(c->v, path, NULL, &e);

	if (!s && needed)
		dr_note_unreadable(c, path, e);
	return s;
}

char *dr_fact(struct dr_ctx *c, const char *name)
{
	char path[256];
	int e;

	if (fsv_live(c->v))
		return NULL;
	snprintf(path, sizeof(path), FSV_FACTS "/%s", name);
	return fsv_slurp(c->v, path, NULL, &e);
}

void dr_fact_save(struct dr_ctx *c, const char *name, const char *text)
{
	char path[256];

	snprintf(path, sizeof(path), FSV_FACTS "/%s", name);
	fsv_save(c->v, path, text, strlen(text));
}

const char *dr_kv(const char *text, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);

	for (const char *p = text; p && *p;) {
		const char *eol = strchrnul(p, '\n');

		if (!strncmp(p, key, klen) && p[klen] == ' ') {
			const char *val = p + klen + 1;

			snprintf(buf, len, "%.*s", (int)(eol - val), val);
			return buf;
		}
		p = *eol ? eol + 1 : eol;
	}
	return NULL;
}
