// SPDX-License-Identifier: GPL-2.0-or-later
/* Shell word splitting without expansion; see advise_shell.h. */
#include <stdlib.h>
#include <string.h>

#include "advise_shell.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

struct wbuf {
	char *s;
	size_t len, cap;
	bool active; /* a word has started (even an empty one: '') */
};

static void wput(struct wbuf *b, char c)
{
	if (b->len + 2 >= b->cap) {
		b->cap = b->cap * 2 + 32;
		b->s = xrealloc(b->s, b->cap);
	}
	b->s[b->len++] = c;
	b->s[b->len] = '\0';
	b->active = true;
}

static void push(struct sh_words *w, const char *text, unsigned line, bool op,
		 size_t start, size_t end)
{
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 32;
		w->v = xrealloc(w->v, w->cap * sizeof(*w->v));
	}
	w->v[w->n].text = xstrdup(text);
	w->v[w->n].line = line;
	w->v[w->n].op = op;
	w->v[w->n].start = start;
	w->v[w->n].end = end;
	w->n++;
}

static void end_word(struct sh_words *w, struct wbuf *b, unsigned line,
		     size_t start, size_t end)
{
	if (!b->active)
		return;
	push(w, b->s ? b->s : "", line, false, start, end);
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
	b->active = false;
}

/*
 * An unquoted word starting with '{' is taken raw up to its matching '}':
 * a QEMU JSON option pasted from ps(1) has lost its shell quotes, and a
 * shell would strip the JSON's own quotes, which no working command line
 * relies on. Returns the length, or 0 if the braces do not close on this
 * line (then the word is read as a shell would).
 */
static size_t raw_json_len(const char *p)
{
	bool in_str = false;
	int depth = 0;

	for (const char *q = p; *q && *q != '\n'; q++) {
		if (in_str) {
			if (*q == '\\' && q[1])
				q++;
			else if (*q == '"')
				in_str = false;
		} else if (*q == '"') {
			in_str = true;
		} else if (*q == '{' || *q == '[') {
			depth++;
		} else if ((*q == '}' || *q == ']') && --depth == 0) {
			return (size_t)(q - p) + 1;
		}
	}
	return 0;
}

bool sh_split(const char *s, const char *origin, struct sh_words *out,
	      struct err *err)
{
	struct wbuf b = { 0 };
	unsigned line = 1, wline = 1;
	bool ok = true;
	const char *p = s;
	size_t ws = 0; /* where the current word starts */

	while (*p) {
		char c = *p;

		if (!b.active) {
			wline = line;
			ws = (size_t)(p - s);
		}
		if (c == '\\') {
			if (p[1] == '\n') { /* continuation */
				p += 2;
				line++;
				continue;
			}
			if (p[1] == '\r' && p[2] == '\n') {
				p += 3;
				line++;
				continue;
			}
			if (!p[1]) {
				p++;
				continue;
			}
			wput(&b, p[1]);
			p += 2;
			continue;
		}
		if (c == '\'') {
			const char *q = strchr(p + 1, '\'');

			if (!q) {
				ok = err_set(
					err, EXIT_USAGE, 0,
					"%s:%u: unterminated ' quote; close it",
					origin, line);
				break;
			}
			b.active = true;
			for (p++; p < q; p++) {
				if (*p == '\n')
					line++;
				wput(&b, *p);
			}
			p = q + 1;
			continue;
		}
		if (c == '"') {
			unsigned start = line;

			b.active = true;
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1] &&
				    strchr("\"\\$`\n", p[1])) {
					if (p[1] == '\n')
						line++;
					else
						wput(&b, p[1]);
					p++;
					continue;
				}
				if (*p == '\n')
					line++;
				wput(&b, *p);
			}
			if (!*p) {
				ok = err_set(
					err, EXIT_USAGE, 0,
					"%s:%u: unterminated \" quote; close it",
					origin, start);
				break;
			}
			p++;
			continue;
		}
		if (c == '{' && !b.active) {
			size_t n = raw_json_len(p);

			for (size_t i = 0; i < n; i++)
				wput(&b, p[i]);
			p += n;
			if (n)
				continue;
		}
		if (c == '#' && !b.active) {
			while (*p && *p != '\n')
				p++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r') {
			end_word(out, &b, wline, ws, (size_t)(p - s));
			p++;
			continue;
		}
		if (c == '\n') {
			end_word(out, &b, wline, ws, (size_t)(p - s));
			push(out, "\n", line, true, (size_t)(p - s),
			     (size_t)(p - s) + 1);
			line++;
			p++;
			continue;
		}
		if (c == '<' || c == '>') {
			/* A redirection ends the part we read; "2>" drops
			   its file-descriptor number. */
			if (b.active && b.len &&
			    strspn(b.s, "0123456789") == b.len) {
				b.len = 0;
				b.s[0] = '\0';
				b.active = false;
			}
		}
		if (c == ';' || c == '&' || c == '|' || c == '<' || c == '>') {
			char op[3] = { c, 0, 0 };

			end_word(out, &b, wline, ws, (size_t)(p - s));
			if ((c == '&' || c == '|') && p[1] == c) {
				op[1] = c;
				p++;
			}
			push(out, op, line, true,
			     (size_t)(p - s) + 1 - strlen(op),
			     (size_t)(p - s) + 1);
			p++;
			continue;
		}
		wput(&b, c);
		p++;
	}
	if (ok)
		end_word(out, &b, wline, ws, (size_t)(p - s));
	free(b.s);
	return ok;
}

void sh_words_free(struct sh_words *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->v[i].text);
	free(w->v);
	memset(w, 0, sizeof(*w));
}

char *sh_quote(const char *s)
{
	size_t n = 0;
	char *out, *o;

	if (*s &&
	    strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789-_=,./:+@%") == strlen(s))
		return xstrdup(s);
	for (const char *p = s; *p; p++)
		n += *p == '\'' ? 4 : 1;
	out = o = xmalloc(n + 3);
	*o++ = '\'';
	for (const char *p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return out;
}

const char *sh_line_end(const char *p)
{
	for (; *p; p++) {
		if (*p == '\\' && p[1] == '\n')
			p++;
		else if (*p == '\n')
			return p;
	}
	return p;
}
