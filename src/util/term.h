/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text from files, processes and devices on its way to a terminal. A VM
 * name, a sysfs model string or a label in a JSON file may carry escape
 * sequences (an OSC 52 clipboard write, a title change, a cursor move);
 * printed raw they act on root's terminal. Every text renderer and
 * err_report passes such strings through here: C0 controls, DEL, the C1
 * controls (U+0080..U+009F) and bytes that are not UTF-8 become "\xNN"
 * escapes; everything else, UTF-8 included, is kept. JSON and HTML
 * writers escape on their own and do not use this.
 */
#ifndef IOLAB_UTIL_TERM_H
#define IOLAB_UTIL_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Keep '\n' (multi-line text: commands, one per line). */
#define TERM_KEEP_NL 1u
/* Keep '\t' too (a whole report). */
#define TERM_KEEP_TAB 2u

/*
 * Write the sanitized form of @src into @dst (cut to @len, always
 * NUL-terminated when @len > 0). Returns the full length it needs, without
 * the NUL, as snprintf does.
 */
size_t term_sanitize(char *dst, size_t len, const char *src, unsigned flags);
/* True if @s would be changed by term_sanitize (without @flags). */
int term_unsafe(const char *s, unsigned flags);
/*
 * @s itself when it is clean, else a sanitized copy that stays valid for
 * the next 15 calls (a ring of buffers): for printf arguments. NULL stays
 * NULL.
 */
const char *term_safe(const char *s);
/* The same, keeping newlines. */
const char *term_safe_ml(const char *s);

/*
 * A whole text report through a memory stream: term_buf_open() gives the
 * stream to print into, term_buf_close() writes it to @out with every
 * control character but newline and tab escaped. For renderers that
 * print no escape sequence of their own (doctor, advise): nothing from a
 * file or device reaches the terminal raw, whichever field it is in.
 */
struct term_buf {
	FILE *f;
	char *buf;
	size_t len;
};

FILE *term_buf_open(struct term_buf *tb, FILE *out);
void term_buf_close(struct term_buf *tb, FILE *out);

/*
 * Our own glyphs (x for times, +/- ...) under a locale that is not UTF-8
 * (LC_ALL=C, a cron job, a serial console): a terminal there shows "Ã—"
 * for "\u00d7". term_utf8() says whether the locale's charset is UTF-8;
 * term_glyph() gives @utf8 itself or its ASCII stand-in; term_ascii()
 * rewrites every such glyph in @s (a buffer of @len bytes, at most 512)
 * in place. Text of files and devices is not ours to rewrite.
 */
bool term_utf8(void);
const char *term_glyph(const char *utf8);
char *term_ascii(char *s, size_t len);

#endif
