// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * modules.dep resolver; see kmod.h. depmod writes one line per module,
 * "path: dep dep ...", where the deps are already the transitive closure;
 * we still walk them depth-first so that the order is right whatever
 * order depmod chose.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmod.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

static const char *const kmod_suffixes[] = { "xz", "zst", "gz" };

const char *kmod_compression(const char *path)
{
	size_t len = strlen(path);

	for (size_t i = 0; i < sizeof(kmod_suffixes) / sizeof(*kmod_suffixes);
	     i++) {
		char tail[16];
		size_t tl;

		tl = (size_t)snprintf(tail, sizeof(tail), ".ko.%s",
				      kmod_suffixes[i]);
		if (len > tl && !strcmp(path + len - tl, tail))
			return kmod_suffixes[i];
	}
	return NULL;
}

void kmod_name(const char *path, char *out, size_t len)
{
	const char *base = strrchr(path, '/');
	char *dot;

	snprintf(out, len, "%s", base ? base + 1 : path);
	dot = strstr(out, ".ko");
	if (dot && (dot[3] == '\0' || dot[3] == '.'))
		*dot = '\0';
	/* The kernel treats '-' and '_' in module names alike. */
	for (char *p = out; *p; p++)
		if (*p == '-')
			*p = '_';
}

static void add_entry(struct kmod_index *ix, size_t *cap, char *line)
{
	struct kmod_entry *e;
	char *colon = strchr(line, ':'), *tok, *save = NULL;
	char name[256];
	size_t dcap = 0;

	if (!colon)
		return;
	*colon = '\0';
	if (ix->n == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		ix->v = xrealloc(ix->v, *cap * sizeof(*ix->v));
	}
	e = &ix->v[ix->n++];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(line);
	kmod_name(line, name, sizeof(name));
	e->name = xstrdup(name);
	for (tok = strtok_r(colon + 1, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (e->ndeps == dcap) {
			dcap = dcap ? dcap * 2 : 8;
			e->deps = xrealloc(e->deps, dcap * sizeof(*e->deps));
		}
		e->deps[e->ndeps++] = xstrdup(tok);
	}
}

static bool load_builtin(struct kmod_index *ix, struct err *err)
{
	char *path = xasprintf("%s/modules.builtin", ix->dir), line[4096];
	size_t cap = 0;
	FILE *f = fopen(path, "re");

	free(path);
	if (!f) /* older depmod, or a hand-made tree: nothing built in */
		return errno == ENOENT ||
		       err_set(err, EXIT_ENV, errno,
			       "cannot read %s/modules.builtin: %s", ix->dir,
			       strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char name[256];

		line[strcspn(line, "\n")] = '\0';
		if (!*line)
			continue;
		kmod_name(line, name, sizeof(name));
		if (ix->nbuiltin == cap) {
			cap = cap ? cap * 2 : 256;
			ix->builtin =
				xrealloc(ix->builtin, cap * sizeof(char *));
		}
		ix->builtin[ix->nbuiltin++] = xstrdup(name);
	}
	fclose(f);
	return true;
}

bool kmod_index_load(struct kmod_index *ix, const char *dir, struct err *err)
{
	char *path, *line = NULL;
	size_t lcap = 0, cap = 0;
	FILE *f;

	memset(ix, 0, sizeof(*ix));
	ix->dir = xstrdup(dir);
	path = xasprintf("%s/modules.dep", dir);
	f = fopen(path, "re");
	if (!f) {
		err_set(err, EXIT_ENV, errno,
			"cannot read %s: %s; the guest kernel needs its modules (install its linux-image package, or run depmod)",
			path, strerror(errno));
		free(path);
		return false;
	}
	free(path);
	while (getline(&line, &lcap, f) > 0)
		add_entry(ix, &cap, line);
	free(line);
	fclose(f);
	if (!ix->n)
		return err_set(err, EXIT_ENV, 0,
			       "%s/modules.dep lists no modules; run depmod",
			       dir);
	return load_builtin(ix, err);
}

void kmod_index_free(struct kmod_index *ix)
{
	for (size_t i = 0; i < ix->n; i++) {
		for (size_t d = 0; d < ix->v[i].ndeps; d++)
			free(ix->v[i].deps[d]);
		free(ix->v[i].deps);
		free(ix->v[i].name);
		free(ix->v[i].path);
	}
	for (size_t i = 0; i < ix->nbuiltin; i++)
		free(ix->builtin[i]);
	free(ix->builtin);
	free(ix->v);
	free(ix->dir);
	memset(ix, 0, sizeof(*ix));
}

static const struct kmod_entry *by_name(const struct kmod_index *ix,
					const char *name)
{
	for (size_t i = 0; i < ix->n; i++)
		if (!strcmp(ix->v[i].name, name))
			return &ix->v[i];
	return NULL;
}

static const struct kmod_entry *by_path(const struct kmod_index *ix,
					const char *path)
{
	for (size_t i = 0; i < ix->n; i++)
		if (!strcmp(ix->v[i].path, path))
			return &ix->v[i];
	return NULL;
}

static bool is_builtin(const struct kmod_index *ix, const char *name)
{
	for (size_t i = 0; i < ix->nbuiltin; i++)
		if (!strcmp(ix->builtin[i], name))
			return true;
	return false;
}

static bool listed(const struct kmod_list *l, const char *path)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->paths[i], path))
			return true;
	return false;
}

/* Depth-first: a module's dependencies, then the module. */
static bool visit(const struct kmod_index *ix, const struct kmod_entry *e,
		  struct kmod_list *out, unsigned int depth, struct err *err)
{
	if (listed(out, e->path))
		return true;
	/* modules.dep cannot hold a cycle that deep; a broken file can. */
	if (depth > 64)
		return err_set(
			err, EXIT_ENV, 0,
			"%s/modules.dep has a dependency loop at %s; run depmod",
			ix->dir, e->name);
	for (size_t d = 0; d < e->ndeps; d++) {
		const struct kmod_entry *dep = by_path(ix, e->deps[d]);

		if (!dep)
			return err_set(
				err, EXIT_ENV, 0,
				"%s/modules.dep: %s needs %s, which it does not list; run depmod",
				ix->dir, e->name, e->deps[d]);
		if (!visit(ix, dep, out, depth + 1, err))
			return false;
	}
	out->paths = xrealloc(out->paths, (out->n + 1) * sizeof(char *));
	out->paths[out->n++] = xstrdup(e->path);
	return true;
}

bool kmod_resolve(const struct kmod_index *ix, const char *const *names,
		  size_t n, struct kmod_list *out, struct err *err)
{
	for (size_t i = 0; i < n; i++) {
		const struct kmod_entry *e;
		char name[256];

		kmod_name(names[i], name, sizeof(name));
		e = by_name(ix, name);
		if (!e) {
			if (is_builtin(ix, name))
				continue;
			return err_set(
				err, EXIT_ENV, ENOENT,
				"the guest kernel has no module %s (not in %s/modules.dep nor built in); choose another --bus or --kernel",
				names[i], ix->dir);
		}
		if (!visit(ix, e, out, 0, err))
			return false;
	}
	return true;
}

void kmod_list_free(struct kmod_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
	l->paths = NULL;
	l->n = 0;
}
