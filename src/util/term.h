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

#include <stddef.h>
#include <stdio.h>

/* Keep '\n' (multi-line text: commands, one per line). */
#define TERM_KEEP_NL 1u

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

#endif
