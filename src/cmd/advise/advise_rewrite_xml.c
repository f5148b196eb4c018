// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The corrected libvirt domain XML: each changed element (<driver>,
 * <target>, <controller>, <iothreads>) replaced where it stands with the
 * input's indentation, a disk's <address> the move to virtio makes wrong
 * deleted, new elements put in their parent (a <driver> in its <disk>, a
 * <controller> at the end of <devices>, <iothreads> after <vcpu>).
 * libxml2 gave the reader line numbers, not offsets: a small scanner
 * finds the elements' spans in the text (the reader already refused
 * DOCTYPEs and entities, so tags, comments, CDATA and PIs are all there
 * is).
 */
#include <stdlib.h>
#include <string.h>

#include "advise_fix.h"
#include "advise_rewrite.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

struct elem {
	const char *name;
	size_t nlen;
	size_t start, stag_end, end; /* '<', after the start tag's '>',
					after the end tag */
	unsigned line, stag_line; /* of '<' and of the start tag's '>' */
	long parent;
};

struct scan {
	struct elem *v;
	size_t n;
};

static unsigned lines_to(const char *text, size_t from, size_t to,
			 unsigned line)
{
	for (size_t i = from; i < to; i++)
		line += text[i] == '\n';
	return line;
}

/* Every element's span; false if the text is not well-formed enough. */
static bool scan(const char *text, struct scan *sc)
{
	size_t len = strlen(text), i = 0, at = 0;
	long stack[256];
	int depth = 0;
	unsigned line = 1;

	while (i < len) {
		const char *lt = strchr(text + i, '<');
		const char *close;
		size_t p;

		if (!lt)
			break;
		p = (size_t)(lt - text);
		line = lines_to(text, at, p, line);
		at = p;
		if (!strncmp(lt, "<!--", 4) || !strncmp(lt, "<![CDATA[", 9) ||
		    !strncmp(lt, "<?", 2) || !strncmp(lt, "<!", 2)) {
			const char *endm = !strncmp(lt, "<!--", 4) ? "-->" :
					   !strncmp(lt, "<![CDATA[", 9) ?
								     "]]>" :
					   !strncmp(lt, "<?", 2) ? "?>" :
								   ">";

			close = strstr(lt, endm);
			if (!close)
				return false;
			i = (size_t)(close - text) + strlen(endm);
			continue;
		}
		if (lt[1] == '/') {
			close = strchr(lt, '>');
			if (!close || !depth)
				return false;
			sc->v[stack[--depth]].end = (size_t)(close - text) + 1;
			i = (size_t)(close - text) + 1;
			continue;
		}
		/* a start tag: '>' outside quoted attribute values */
		{
			char q = 0;
			size_t j = p + 1;
			struct elem *e;

			for (; j < len && (q || text[j] != '>'); j++)
				if (q && text[j] == q)
					q = 0;
				else if (!q &&
					 (text[j] == '\'' || text[j] == '"'))
					q = text[j];
			if (j >= len)
				return false;
			sc->v = xrealloc(sc->v, (sc->n + 1) * sizeof(*sc->v));
			e = &sc->v[sc->n];
			e->name = lt + 1;
			e->nlen = strcspn(lt + 1, " \t\r\n/>");
			e->start = p;
			e->stag_end = j + 1;
			e->end = j + 1;
			e->line = line;
			e->stag_line = lines_to(text, p, j, line);
			e->parent = depth ? stack[depth - 1] : -1;
			if (text[j - 1] != '/') {
				if (depth ==
				    (int)(sizeof(stack) / sizeof(stack[0])))
					return false;
				stack[depth++] = (long)sc->n;
			}
			sc->n++;
			i = j + 1;
		}
	}
	return depth == 0;
}

static bool named(const struct elem *e, const char *name)
{
	return e->nlen == strlen(name) && !strncmp(e->name, name, e->nlen);
}

/* The element of item @idx: its name, on its line, the rank-th of the
   items of that line and name. */
static long find_item(const struct adv_vm *vm, int idx, const struct scan *sc)
{
	const struct adv_item *it = &vm->items[idx];
	unsigned line = rw_where_line(it->where), rank = 0;

	for (int i = 0; i < idx; i++)
		rank += !strcmp(vm->items[i].where, it->where) &&
			!strcmp(vm->items[i].head, it->head);
	for (size_t i = 0; i < sc->n; i++) {
		const struct elem *e = &sc->v[i];

		if (named(e, it->head) && line >= e->line &&
		    line <= e->stag_line && !rank--)
			return (long)i;
	}
	return -1;
}

/* The whitespace before @at on its line, if only whitespace is there. */
static char *indent_of(const char *text, size_t at)
{
	size_t s = at;

	while (s > 0 && (text[s - 1] == ' ' || text[s - 1] == '\t'))
		s--;
	if (s > 0 && text[s - 1] != '\n')
		return xstrdup("");
	return xasprintf("%.*s", (int)(at - s), text + s);
}

/* @t with every line after the first indented by @ind more. */
static char *reindent(const char *t, const char *ind)
{
	size_t n = 1;
	char *out, *o;

	for (const char *p = t; *p; p++)
		n += *p == '\n' ? strlen(ind) + 1 : 1;
	out = o = xmalloc(n);
	for (const char *p = t; *p; p++) {
		*o++ = *p;
		if (*p == '\n') {
			strcpy(o, ind);
			o += strlen(ind);
		}
	}
	*o = '\0';
	return out;
}

/* Put @t in @parent before its end tag, as its last child. */
static void append_child(const char *text, const struct scan *sc, long parent,
			 const char *t, struct rw_edits *out)
{
	const struct elem *pe = &sc->v[parent];
	size_t etag = pe->end, ls;
	char *pind = indent_of(text, pe->start), *cind = NULL, *body, *ins,
	     *eind;

	while (etag > 0 && text[etag - 1] != '<')
		etag--;
	etag--; /* at "</name>" */
	for (size_t i = 0; i < sc->n && !cind; i++)
		if (sc->v[i].parent == parent)
			cind = indent_of(text, sc->v[i].start);
	if (!cind)
		cind = xasprintf("%s  ", pind);
	body = reindent(t, cind);
	eind = indent_of(text, etag);
	ls = etag - strlen(eind);
	if (ls == 0 || text[ls - 1] == '\n') {
		/* a line of its own before the end tag's line */
		ins = xasprintf("%s%s\n", cind, body);
		rw_add(out, ls, ls, ins);
	} else {
		ins = xstrdup(body);
		rw_add(out, etag, etag, ins);
	}
	free(eind);
	free(ins);
	free(body);
	free(cind);
	free(pind);
}

/* Put @t right after element @after, on a line of its own. */
static void insert_after(const char *text, const struct scan *sc, long after,
			 const char *t, struct rw_edits *out)
{
	const struct elem *e = &sc->v[after];
	char *ind = indent_of(text, e->start), *body = reindent(t, ind);
	char *ins = xasprintf("\n%s%s", ind, body);

	rw_add(out, e->end, e->end, ins);
	free(ins);
	free(body);
	free(ind);
}

/* Put @t right before element @before, with its indentation. */
static void insert_before(const char *text, const struct scan *sc, long before,
			  const char *t, struct rw_edits *out)
{
	const struct elem *e = &sc->v[before];
	char *ind = indent_of(text, e->start), *body = reindent(t, ind);
	char *ins = xasprintf("%s\n%s", body, ind);

	rw_add(out, e->start, e->start, ins);
	free(ins);
	free(body);
	free(ind);
}

static long child_named(const struct scan *sc, long parent, const char *name)
{
	for (size_t i = 0; i < sc->n; i++)
		if (sc->v[i].parent == parent && named(&sc->v[i], name))
			return (long)i;
	return -1;
}

/* Split @s into top-level units: a line, with the indented or closing
   lines after it. */
static size_t units(const char *s, char ***out)
{
	size_t n = 0;

	*out = NULL;
	for (const char *p = s; p && *p;) {
		size_t len = strcspn(p, "\n");

		if (n && (*p == ' ' || *p == '\t' || !strncmp(p, "</", 2))) {
			char *j = xasprintf("%s\n%.*s", (*out)[n - 1], (int)len,
					    p);

			free((*out)[n - 1]);
			(*out)[n - 1] = j;
		} else {
			*out = xrealloc(*out, (n + 1) * sizeof(**out));
			(*out)[n++] = xasprintf("%.*s", (int)len, p);
		}
		p += len + (p[len] == '\n');
	}
	return n;
}

static void units_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/*
 * A corrected element with children (<driver> with <metadata_cache>, a
 * <controller> with its <address>): the children it keeps are copied from
 * the file as written, not as libxml2 serialized them for the report.
 * @old: the children the reader captured. False if the file's children
 * do not line up with them (then the whole element is replaced).
 */
static bool keep_children(const char *text, const struct scan *sc, long el,
			  const char *old, const char *t, struct rw_edits *out)
{
	const struct elem *e = &sc->v[el];
	const char *nl = strchr(t, '\n'), *last = strrchr(t, '\n');
	char **ou = NULL, **nu = NULL, *inner, *ind, *cind = NULL;
	size_t no, nn, nkids = 0, *kid = NULL;
	bool *used, ok = false;
	struct fixbuf b = { 0 };

	if (!old || !nl || e->end == e->stag_end || last[1] != '<' ||
	    last[2] != '/')
		return false;
	/* the new children, as add_elem_inner indented them (2 spaces) */
	{
		struct fixbuf in = { 0 };

		for (const char *p = nl + 1; p < last;) {
			size_t len = strcspn(p, "\n");

			fixbuf_addf(&in, "%.*s", (int)(len >= 2 ? len - 2 : 0),
				    p + (len >= 2 ? 2 : len));
			p += len + 1;
		}
		inner = fixbuf_take(&in);
	}
	no = units(old, &ou);
	nn = units(inner, &nu);
	for (size_t i = 0; i < sc->n; i++)
		if (sc->v[i].parent == el) {
			kid = xrealloc(kid, (nkids + 1) * sizeof(*kid));
			kid[nkids++] = i;
		}
	ind = indent_of(text, e->start);
	if (nkids == no && !strcmp(inner, old)) {
		/* children unchanged: only the start tag is new */
		char *tag = xasprintf("%.*s", (int)(nl - t), t);

		rw_add(out, e->start, e->stag_end, tag);
		free(tag);
		ok = true;
	} else if (nkids == no) {
		used = xcalloc(no + 1, sizeof(*used));
		cind = nkids ? indent_of(text, sc->v[kid[0]].start) :
			       xasprintf("%s  ", ind);
		fixbuf_addf(&b, "%.*s", (int)(nl - t), t);
		for (size_t i = 0; i < nn; i++) {
			size_t k = 0;
			char *body;

			while (k < no && (used[k] || strcmp(ou[k], nu[i])))
				k++;
			if (k < no) {
				const struct elem *c = &sc->v[kid[k]];

				used[k] = true;
				fixbuf_addf(&b, "%s%.*s", cind,
					    (int)(c->end - c->start),
					    text + c->start);
			} else {
				body = reindent(nu[i], cind);
				fixbuf_addf(&b, "%s%s", cind, body);
				free(body);
			}
		}
		fixbuf_addf(&b, "%s%s", ind, last + 1);
		{
			char *all = fixbuf_take(&b);

			rw_add(out, e->start, e->end, all);
			free(all);
		}
		free(used);
		ok = true;
	}
	free(cind);
	free(ind);
	free(kid);
	free(inner);
	units_free(ou, no);
	units_free(nu, nn);
	return ok;
}

static void replace(const char *text, const struct scan *sc, long el,
		    const char *t, struct rw_edits *out)
{
	const struct elem *e = &sc->v[el];
	char *ind = indent_of(text, e->start), *body;
	size_t s = e->start, end = e->end;

	if (!t[0]) {
		/* delete: the whole line when the element is alone on it */
		s -= strlen(ind);
		if ((s == 0 || text[s - 1] == '\n') && text[end] == '\n')
			end++;
		else
			s = e->start;
		rw_add(out, s, end, "");
	} else {
		body = reindent(t, ind);
		rw_add(out, s, end, body);
		free(body);
	}
	free(ind);
}

/* The <disk> element of disk @d: the parent of its <target>. */
static long disk_elem(const struct adv_vm *vm, const struct adv_disk *d,
		      const struct scan *sc)
{
	for (int s = 0; s < ADV_SLOT_N; s++) {
		long e;

		if (d->slot[s] < 0 || s == ADV_SLOT_CTRL ||
		    s == ADV_SLOT_CTRL_DRIVER)
			continue;
		e = find_item(vm, d->slot[s], sc);
		if (e >= 0 && sc->v[e].parent >= 0 &&
		    named(&sc->v[sc->v[e].parent], "disk"))
			return sc->v[e].parent;
	}
	return -1;
}

bool rw_libvirt(const struct adv_vm *vm, const char *text, struct rw_edits *out,
		struct err *err)
{
	struct scan sc = { 0 };
	size_t nrepl, *disk_of;
	struct adv_repl *r;
	bool ok = true;
	long root;

	if (!scan(text, &sc)) {
		free(sc.v);
		return err_set(
			err, EXIT_USAGE, 0,
			"%s: the XML could not be followed for its corrected copy",
			vm->origin);
	}
	root = sc.n ? 0 : -1;
	r = rw_vm_repls(vm, &nrepl, &disk_of);
	for (size_t i = 0; ok && i < nrepl; i++) {
		const char *t = r[i].text;
		long el = r[i].item >= 0 ? find_item(vm, r[i].item, &sc) : -1;

		if (r[i].item >= 0 && el < 0) {
			ok = err_set(
				err, EXIT_USAGE, 0,
				"%s: <%s> not found again for its corrected copy",
				vm->items[r[i].item].where,
				vm->items[r[i].item].head);
		} else if (el >= 0) {
			if (!keep_children(text, &sc, el,
					   vm->items[r[i].item].inner, t, out))
				replace(text, &sc, el, t, out);
		} else if (!strncmp(t, "<iothreads>", 11) && root >= 0) {
			long v = child_named(&sc, root, "vcpu");

			if (v >= 0)
				insert_after(text, &sc, v, t, out);
			else
				append_child(text, &sc, root, t, out);
		} else if (!strncmp(t, "<controller", 11) && root >= 0 &&
			   child_named(&sc, root, "devices") >= 0) {
			append_child(text, &sc,
				     child_named(&sc, root, "devices"), t, out);
		} else if (!strncmp(t, "<driver", 7)) {
			long disk = disk_elem(vm, &vm->disks[disk_of[i]], &sc);
			long first = -1;

			for (size_t k = 0; disk >= 0 && k < sc.n && first < 0;
			     k++)
				if (sc.v[k].parent == disk)
					first = (long)k;
			if (first >= 0)
				insert_before(text, &sc, first, t, out);
			else
				ok = err_set(
					err, EXIT_USAGE, 0,
					"%s: no <disk> found for a new <driver>",
					vm->origin);
		} else {
			ok = err_set(err, EXIT_USAGE, 0,
				     "%s: no place found for %s", vm->origin,
				     t);
		}
	}
	rw_repls_free(r, nrepl, disk_of);
	free(sc.v);
	return ok;
}
