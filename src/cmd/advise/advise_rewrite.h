/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The corrected configuration as a whole file (--write-fixed, --diff):
 * the input with only the items the fixes change replaced in place, new
 * lines or elements inserted next to what they belong to, and everything
 * else (comments, other VMs, unrelated options) kept byte for byte. Each
 * source finds its items in the text its own way; the edits, their
 * application and the unified diff are shared.
 */
#ifndef IOLAB_CMD_ADVISE_ADVISE_REWRITE_H
#define IOLAB_CMD_ADVISE_ADVISE_REWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "advise_model.h"

struct err;

/* Replace text[start, end) by @text (start == end: insert). */
struct rw_edit {
	size_t start, end;
	char *text;
};

struct rw_edits {
	struct rw_edit *v;
	size_t n;
};

void rw_add(struct rw_edits *e, size_t start, size_t end, const char *text);
void rw_free(struct rw_edits *e);

/*
 * Every replacement the fixes of @vm make, once per item (the VM-wide
 * <iothreads> and boot: lines as merged in vm->corrected), in the order
 * the disks wrote them. Callers free with adv_repls_free.
 */
struct adv_repl *rw_vm_repls(const struct adv_vm *vm, size_t *n,
			     size_t **disk_of);
void rw_repls_free(struct adv_repl *v, size_t n, size_t *disk_of);

/* The edits for each source; false with @err set if an item that a fix
   changes cannot be found in @text. */
bool rw_qemu(const struct adv_vm *vm, const char *text, struct rw_edits *out,
	     struct err *err);
bool rw_libvirt(const struct adv_vm *vm, const char *text, struct rw_edits *out,
		struct err *err);
bool rw_pve(const struct adv_vm *vm, const char *text, struct rw_edits *out,
	    struct err *err);

/* @text with the edits applied (sorts them; they must not overlap). */
char *rw_apply(const char *text, struct rw_edits *e, struct err *err);

/* A unified diff (3 lines of context) from @a to @b, named @name_a and
   @name_b in its header; nothing when they are equal. */
void rw_diff(FILE *f, const char *a, const char *b, const char *name_a,
	     const char *name_b);

/* The 1-based line number at the end of an item's "file:LINE". */
unsigned rw_where_line(const char *where);

/* Byte offsets of each line's start; n lines (a last line without '\n'
   counts), [n] is the text's length. */
size_t *rw_line_starts(const char *text, size_t *n);

#endif
