// SPDX-License-Identifier: GPL-2.0-or-later
/* QEMU option strings; see advise_qopts.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise_qopts.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

/* A value runs to the first ',' that is not doubled; ",," is one ','. */
static const char *read_value(const char *p, char **out)
{
	size_t n = 0;
	char *buf = xmalloc(strlen(p) + 1);

	while (*p) {
		if (*p == ',') {
			if (p[1] != ',')
				break;
			p++;
		}
		buf[n++] = *p++;
	}
	buf[n] = '\0';
	*out = buf;
	return p;
}

bool qopts_parse(const char *s, const char *implied, const char *what,
		 struct kvl *out, struct err *err)
{
	const char *p = s;
	bool first = true;

	while (*p) {
		size_t len = strcspn(p, "=,");
		char *key, *val;

		if (p[len] != '=') {
			if (first && implied) {
				p = read_value(p, &val);
				kvl_add(out, implied, val, KV_STR);
				out->v[out->n - 1].implied = true;
				free(val);
			} else if (len == 0) {
				return err_set(
					err, EXIT_USAGE, 0,
					"%s %s: empty parameter between commas; remove the extra comma (a comma inside a value is written ',,')",
					what, s);
			} else {
				bool off = len > 2 && !strncmp(p, "no", 2);

				key = xasprintf("%.*s",
						(int)(off ? len - 2 : len),
						off ? p + 2 : p);
				kvl_add(out, key, off ? "off" : "on", KV_BOOL);
				out->v[out->n - 1].bare = true;
				free(key);
				p += len;
			}
		} else {
			if (len == 0)
				return err_set(
					err, EXIT_USAGE, 0,
					"%s %s: a parameter has no name before '='; write key=value",
					what, s);
			key = xasprintf("%.*s", (int)len, p);
			p = read_value(p + len + 1, &val);
			kvl_add(out, key, val, KV_STR);
			free(key);
			free(val);
		}
		first = false;
		if (*p == ',')
			p++;
	}
	return true;
}

struct sbuf {
	char *s;
	size_t len, cap;
};

static void put_char(struct sbuf *b, char c)
{
	if (b->len + 2 >= b->cap) {
		b->cap = b->cap * 2 + 16;
		b->s = xrealloc(b->s, b->cap);
	}
	b->s[b->len++] = c;
	b->s[b->len] = '\0';
}

/* Keys and values: a comma is doubled so that QEMU reads it back. */
static void put_escaped(struct sbuf *b, const char *s)
{
	for (; *s; s++) {
		put_char(b, *s);
		if (*s == ',')
			put_char(b, ',');
	}
}

char *qopts_format(const struct kvl *l)
{
	struct sbuf b = { xmalloc(16), 0, 16 };

	b.s[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		const struct kv *e = &l->v[i];

		if (i)
			put_char(&b, ',');
		if (e->implied) {
			put_escaped(&b, e->val);
		} else if (e->bare) {
			if (!strcmp(e->val, "off"))
				put_escaped(&b, "no");
			put_escaped(&b, e->key);
		} else {
			put_escaped(&b, e->key);
			put_char(&b, '=');
			put_escaped(&b, e->val);
		}
	}
	return b.s;
}

bool qopts_is_json(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return *s == '{';
}
