// SPDX-License-Identifier: GPL-2.0-or-later
/* Control characters out of text bound for a terminal; see term.h. */
#include <stdlib.h>
#include <string.h>

#include "term.h"
#include "xmem.h"

/*
 * Length of the valid UTF-8 sequence at @s that is safe to print (not a
 * C1 control), or 0 if the byte at @s must be escaped.
 */
static size_t utf8_ok(const unsigned char *s)
{
	unsigned c = s[0], cp;
	size_t n;

	if (c < 0x80)
		return c >= 0x20 && c != 0x7f;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond U+10FFFF, and C1 controls. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff ||
	    (cp >= 0x80 && cp <= 0x9f))
		return 0;
	return n;
}

static int keep(unsigned char c, unsigned flags)
{
	return (c == '\n' && (flags & TERM_KEEP_NL)) ||
	       (c == '\t' && (flags & TERM_KEEP_TAB));
}

int term_unsafe(const char *s, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_ok(p);

		if (!n) {
			if (!keep(*p, flags))
				return 1;
			n = 1;
		}
		p += n;
	}
	return 0;
}

size_t term_sanitize(char *dst, size_t len, const char *src, unsigned flags)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)src;
	size_t out = 0;

#define PUT(ch)                                \
	do {                                   \
		if (out + 1 < len)             \
			dst[out] = (char)(ch); \
		out++;                         \
	} while (0)
	while (*p) {
		size_t n = utf8_ok(p);

		if (n) {
			for (size_t i = 0; i < n; i++)
				PUT(p[i]);
			p += n;
		} else if (keep(*p, flags)) {
			PUT(*p);
			p++;
		} else {
			PUT('\\');
			PUT('x');
			PUT(hex[*p >> 4]);
			PUT(hex[*p & 15]);
			p++;
		}
	}
#undef PUT
	if (len)
		dst[out < len ? out : len - 1] = '\0';
	return out;
}

static const char *ring(const char *s, unsigned flags)
{
	static char *slot[16];
	static unsigned next;
	size_t n;
	char *buf;

	if (!s || !term_unsafe(s, flags))
		return s;
	n = term_sanitize(NULL, 0, s, flags) + 1;
	buf = xmalloc(n);
	term_sanitize(buf, n, s, flags);
	free(slot[next]);
	slot[next] = buf;
	next = (next + 1) % 16;
	return buf;
}

const char *term_safe(const char *s)
{
	return ring(s, 0);
}

const char *term_safe_ml(const char *s)
{
	return ring(s, TERM_KEEP_NL);
}

FILE *term_buf_open(struct term_buf *tb, FILE *out)
{
	tb->buf = NULL;
	tb->len = 0;
	tb->f = open_memstream(&tb->buf, &tb->len);
	/* Without memory for the stream, print unbuffered but sanitized
	   fields are still escaped where the renderer does it. */
	return tb->f ? tb->f : out;
}

void term_buf_close(struct term_buf *tb, FILE *out)
{
	const unsigned flags = TERM_KEEP_NL | TERM_KEEP_TAB;
	const char *p;

	if (!tb->f)
		return;
	fclose(tb->f);
	tb->f = NULL;
	/* A NUL inside ends a C string: print the pieces around it. */
	for (p = tb->buf; p < tb->buf + tb->len; p += strlen(p) + 1) {
		if (!term_unsafe(p, flags)) {
			fputs(p, out);
		} else {
			size_t n = term_sanitize(NULL, 0, p, flags) + 1;
			char *s = xmalloc(n);

			term_sanitize(s, n, p, flags);
			fputs(s, out);
			free(s);
		}
		if (p + strlen(p) < tb->buf + tb->len)
			fputs("\\x00", out);
	}
	free(tb->buf);
	tb->buf = NULL;
}

/*
 * The charset of the locale as the environment names it (LC_ALL, then
 * LC_CTYPE, then LANG, as setlocale() reads them): no setlocale() call,
 * which would change how the rest of the program formats numbers.
 */
bool term_utf8(void)
{
	static int cached = -1;
	const char *names[] = { "LC_ALL", "LC_CTYPE", "LANG" };
	const char *v = NULL;

	if (cached >= 0)
		return cached;
	for (size_t i = 0; i < 3 && !(v && *v); i++)
		v = getenv(names[i]);
	cached = v && (strcasestr(v, "UTF-8") || strcasestr(v, "utf8"));
	return cached;
}

/* The glyphs iolab's own text uses, and what a C locale shows instead. */
static const struct {
	const char *utf8, *ascii;
} glyphs[] = {
	{ "\u00d7", "x" },  { "\u00b1", "+/-" }, { "\u2014", "--" },
	{ "\u2013", "-" },  { "\u00b5", "u" },	 { "\u2026", "..." },
	{ "\u2265", ">=" }, { "\u2264", "<=" },	 { "\u2192", "->" },
	{ "\u2248", "~" },
};

const char *term_glyph(const char *utf8)
{
	if (term_utf8())
		return utf8;
	for (size_t i = 0; i < sizeof(glyphs) / sizeof(glyphs[0]); i++)
		if (!strcmp(utf8, glyphs[i].utf8))
			return glyphs[i].ascii;
	return "?";
}

char *term_ascii(char *s, size_t len)
{
	char tmp[512];
	size_t o = 0;

	if (term_utf8() || len > sizeof(tmp))
		return s;
	for (const char *p = s; *p && o + 1 < len;) {
		size_t i, n = 1;
		const char *rep = NULL;

		for (i = 0; i < sizeof(glyphs) / sizeof(glyphs[0]); i++) {
			n = strlen(glyphs[i].utf8);
			if (!strncmp(p, glyphs[i].utf8, n)) {
				rep = glyphs[i].ascii;
				break;
			}
		}
		if (!rep) {
			tmp[o++] = *p++;
			continue;
		}
		for (; *rep && o + 1 < len; rep++)
			tmp[o++] = *rep;
		p += n;
	}
	tmp[o] = '\0';
	memcpy(s, tmp, o + 1);
	return s;
}
