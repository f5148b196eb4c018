// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The corrected QEMU argument file: each changed option's value (and the
 * option word before it) replaced by the corrected option where it
 * stands, quoted for the shell; new options (-object iothread, a new
 * -device) right after the disk's own option, on its line. The words are
 * found as the reader found them: the logical line (backslash-newline
 * continues it, an open quote extends it) split as a shell would.
 */
#include <stdlib.h>
#include <string.h>

#include "advise_rewrite.h"
#include "advise_shell.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

/* A command line's words, with offsets into the whole text. */
struct chunk {
	struct sh_words w;
	unsigned first_line;
};

/* The words of the logical line that holds physical line @want. */
static bool chunk_at(const char *text, unsigned want, struct chunk *c)
{
	const char *p = text;
	unsigned line = 1;

	while (*p) {
		const char *end = sh_line_end(p);
		unsigned last;
		bool ok;

		for (;;) {
			char *s = xasprintf("%.*s", (int)(end - p), p);
			struct err e2 = { 0 };

			memset(&c->w, 0, sizeof(c->w));
			ok = sh_split(s, "", &c->w, &e2);
			free(s);
			if (ok || !*end)
				break;
			sh_words_free(&c->w);
			end = sh_line_end(end + 1);
		}
		last = line;
		for (const char *q = p; q < end; q++)
			last += *q == '\n';
		if (ok && want >= line && want <= last) {
			size_t off = (size_t)(p - text);

			for (size_t i = 0; i < c->w.n; i++) {
				c->w.v[i].start += off;
				c->w.v[i].end += off;
			}
			c->first_line = line;
			return true;
		}
		if (ok)
			sh_words_free(&c->w);
		line = last + (*end == '\n');
		p = *end ? end + 1 : end;
	}
	return false;
}

/* "-drive" for "--drive" and "-drive". */
static const char *opt_name(const char *w)
{
	return w[0] == '-' && w[1] == '-' ? w + 1 : w;
}

/*
 * The span of item @idx: its option word and value. A shortcut (-hda,
 * -cdrom) is written "where (-hda)" and is replaced by the -drive.
 */
static bool locate(const struct adv_vm *vm, int idx, const char *text,
		   size_t *start, size_t *end)
{
	const struct adv_item *it = &vm->items[idx];
	const char *paren = strstr(it->where, " (");
	char opt[64], *where = xstrdup(it->where);
	unsigned line, rank = 0, seen = 0;
	struct chunk c = { 0 };
	bool found = false;

	if (paren) {
		snprintf(opt, sizeof(opt), "%.*s", (int)strcspn(paren + 2, ")"),
			 paren + 2);
		where[paren - it->where] = '\0';
	} else {
		snprintf(opt, sizeof(opt), "%s", it->head);
	}
	line = rw_where_line(where);
	/* items of one line with the same option, in the order read */
	for (int i = 0; i < idx; i++)
		rank += !strcmp(vm->items[i].where, it->where) &&
			!strcmp(vm->items[i].head, it->head);
	if (line && chunk_at(text, line, &c)) {
		for (size_t i = 1; !found && i < c.w.n; i++) {
			const struct sh_word *o = &c.w.v[i - 1], *v = &c.w.v[i];

			if (v->op || o->op ||
			    c.first_line + v->line - 1 != line ||
			    strcmp(opt_name(o->text), opt))
				continue;
			if (seen++ < rank)
				continue;
			*start = o->start;
			*end = v->end;
			found = true;
		}
		sh_words_free(&c.w);
	}
	free(where);
	return found;
}

bool rw_qemu(const struct adv_vm *vm, const char *text, struct rw_edits *out,
	     struct err *err)
{
	size_t nrepl, *disk_of, s, e;
	struct adv_repl *r = rw_vm_repls(vm, &nrepl, &disk_of);
	/* per disk: where its new options go (after its last option) */
	size_t *anchor = xcalloc(vm->ndisks + 1, sizeof(*anchor));
	bool ok = true;

	for (size_t di = 0; di < vm->ndisks; di++) {
		const struct adv_disk *d = &vm->disks[di];

		for (int sl = 0; sl < ADV_SLOT_N; sl++)
			if (d->slot[sl] >= 0 &&
			    (sl == ADV_SLOT_DRIVE || sl == ADV_SLOT_FORMAT ||
			     sl == ADV_SLOT_PROTO || sl == ADV_SLOT_DEVICE) &&
			    locate(vm, d->slot[sl], text, &s, &e) &&
			    e > anchor[di])
				anchor[di] = e;
	}
	for (size_t i = 0; ok && i < nrepl; i++) {
		if (r[i].item >= 0) {
			if (!locate(vm, r[i].item, text, &s, &e)) {
				ok = err_set(
					err, EXIT_USAGE, 0,
					"%s: %s not found again in the file for its corrected copy",
					vm->items[r[i].item].where,
					vm->items[r[i].item].head);
				break;
			}
			rw_add(out, s, e, r[i].text);
		} else if (anchor[disk_of[i]]) {
			char *t = xasprintf(" %s", r[i].text);

			rw_add(out, anchor[disk_of[i]], anchor[disk_of[i]], t);
			free(t);
		} else {
			ok = err_set(
				err, EXIT_USAGE, 0,
				"%s: no place found for the new option %s; the corrected lines are in the report",
				vm->origin, r[i].text);
		}
	}
	free(anchor);
	rw_repls_free(r, nrepl, disk_of);
	return ok;
}
