/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Splitting a command line written for a POSIX shell into words, as the
 * shell would, so that --qemu-args and --qemu-args-file accept what people
 * paste: quotes, backslash escapes, backslash-newline continuations,
 * comments, and the operators that end a command (; && || | & newline).
 * Nothing is expanded: $VAR stays as written. One liberty: an unquoted
 * word that starts with '{' keeps its JSON as is (pasted from ps).
 */
#ifndef IOLAB_CMD_ADVISE_ADVISE_SHELL_H
#define IOLAB_CMD_ADVISE_ADVISE_SHELL_H

#include <stdbool.h>
#include <stddef.h>

struct err;

struct sh_word {
	char *text;
	unsigned line; /* 1-based line where the word starts */
	bool op; /* an operator or an unescaped newline ("\n") */
	size_t start, end; /* its bytes in the text split, quotes and all
			      (for --write-fixed to replace it) */
};

struct sh_words {
	struct sh_word *v;
	size_t n, cap;
};

/* @origin ("file.sh" or "--qemu-args") prefixes error messages. */
bool sh_split(const char *s, const char *origin, struct sh_words *out,
	      struct err *err);
void sh_words_free(struct sh_words *w);
/* End of the logical line at @p: a backslash-newline continues it. */
const char *sh_line_end(const char *p);

/* @s quoted for a POSIX shell if it needs to be; the caller frees it. */
char *sh_quote(const char *s);

#endif
