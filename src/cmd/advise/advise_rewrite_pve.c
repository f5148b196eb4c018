// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The corrected Proxmox VM config: each changed "key: value" line of the
 * main section replaced where it stands (a disk moved to another bus
 * takes its old line's place), new lines (scsihw:, machine:) after the
 * main section's last line, snapshots and comments untouched.
 */
#include <stdlib.h>
#include <string.h>

#include "advise_rewrite.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

/* Where lines that are new go: after the main section's last line. */
static size_t main_end(const char *text, const size_t *ls, size_t n)
{
	size_t end = 0;

	for (size_t i = 0; i < n; i++) {
		const char *t = text + ls[i];

		t += strspn(t, " \t");
		if (*t == '[')
			break;
		if (*t != '\n' && *t != '\r' && *t)
			end = ls[i + 1];
	}
	return end;
}

bool rw_pve(const struct adv_vm *vm, const char *text, struct rw_edits *out,
	    struct err *err)
{
	size_t n, nrepl, *disk_of, *ls = rw_line_starts(text, &n), at;
	struct adv_repl *r = rw_vm_repls(vm, &nrepl, &disk_of);
	bool ok = true;

	at = main_end(text, ls, n);
	for (size_t i = 0; ok && i < nrepl; i++) {
		char *line;

		if (r[i].item < 0) {
			/* a last line without '\n' gets one first */
			line = xasprintf("%s%s\n",
					 at && text[at - 1] != '\n' ? "\n" : "",
					 r[i].text);
			rw_add(out, at, at, line);
			free(line);
			continue;
		}
		unsigned l = rw_where_line(vm->items[r[i].item].where);

		if (!l || l > n) {
			ok = err_set(
				err, EXIT_USAGE, 0,
				"%s: line not found for its corrected copy",
				vm->items[r[i].item].where);
			break;
		}
		/* the line without its end of line */
		size_t s = ls[l - 1], e = ls[l];

		while (e > s && (text[e - 1] == '\n' || text[e - 1] == '\r'))
			e--;
		if (!r[i].text[0])
			rw_add(out, s, ls[l], "");
		else
			rw_add(out, s, e, r[i].text);
	}
	rw_repls_free(r, nrepl, disk_of);
	free(ls);
	return ok;
}
