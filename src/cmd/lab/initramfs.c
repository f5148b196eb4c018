// SPDX-License-Identifier: GPL-2.0-or-later
/* The guest initramfs; see initramfs.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpio.h"
#include "initramfs.h"
#include "kmod.h"
#include "proc.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

struct dirset {
	char **v;
	size_t n;
};

static bool dir_known(const struct dirset *d, const char *path)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->v[i], path))
			return true;
	return false;
}

/* Add every missing parent directory of @path, outermost first. */
static bool add_parents(struct cpio *c, struct dirset *d, const char *path,
			struct err *err)
{
	char *p = xstrdup(path);
	bool ok = true;

	for (char *s = strchr(p + 1, '/'); s && ok; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (!dir_known(d, p)) {
			ok = cpio_add_dir(c, p, 0755, err);
			d->v = xrealloc(d->v, (d->n + 1) * sizeof(char *));
			d->v[d->n++] = xstrdup(p);
		}
		*s = '/';
	}
	free(p);
	return ok;
}

static const char *decompressor(const char *kind)
{
	if (!strcmp(kind, "xz"))
		return "xz";
	if (!strcmp(kind, "zst"))
		return "zstd";
	return "gzip";
}

/*
 * Add one module, stored at its own absolute path. Compressed ones are
 * unpacked with the distribution's tool when it is there (and lose the
 * suffix); otherwise kept compressed, the suffix telling the guest. The
 * path it was stored at goes to @dest.
 */
static bool add_module(struct cpio *c, struct dirset *d, const char *src,
		       char *dest, size_t dest_len, struct err *err)
{
	const char *kind = kmod_compression(src);

	snprintf(dest, dest_len, "%s", src);
	if (kind) {
		char *argv[] = { (char *)decompressor(kind), (char *)"-dc",
				 (char *)src, NULL };
		char *out = NULL;
		size_t out_len = 0;
		struct err ignored = { 0 };
		bool ok;

		if (proc_run(argv, &out, &out_len, NULL, 60000000000ull,
			     &ignored) == 0) {
			dest[strlen(dest) - strlen(kind) - 1] = '\0';
			ok = add_parents(c, d, dest, err) &&
			     cpio_add_file(c, dest, 0644, out, out_len, err);
			free(out);
			return ok;
		}
		free(out);
	}
	return add_parents(c, d, dest, err) &&
	       cpio_add_file_from(c, dest, 0644, src, err);
}

static void conf_append(char **conf, size_t *len, const char *s)
{
	size_t n = strlen(s);

	*conf = xrealloc(*conf, *len + n + 1);
	memcpy(*conf + *len, s, n + 1);
	*len += n;
}

bool initramfs_write(int fd, const struct initramfs_spec *s, struct err *err)
{
	static const char *const dirs[] = { "/dev", "/proc", "/sys", "/tmp",
					    "/lab" };
	struct dirset d = { 0 };
	struct {
		char *src, *dest;
	} *stored = NULL;
	size_t nstored = 0;
	struct cpio c;
	char *conf = NULL;
	size_t conf_len = 0;
	bool ok = true;

	cpio_init(&c, fd);
	for (size_t i = 0; ok && i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		ok = cpio_add_dir(&c, dirs[i], dirs[i][1] == 't' ? 01777 : 0755,
				  err);
		d.v = xrealloc(d.v, (d.n + 1) * sizeof(char *));
		d.v[d.n++] = xstrdup(dirs[i]);
	}
	/* The kernel opens /dev/console for init before devtmpfs exists. */
	if (ok)
		ok = cpio_add_chardev(&c, "/dev/console", 0600, 5, 1, err);
	if (ok)
		ok = cpio_add_file_from(&c, "/init", 0755, s->init_path, err);
	conf_append(&conf, &conf_len, s->conf);
	for (int b = 0; ok && b < BUS_COUNT; b++) {
		const struct kmod_list *l = s->mods[b];

		if (!l)
			continue;
		conf_append(&conf, &conf_len, "modules.");
		conf_append(&conf, &conf_len, lab_bus_names[b]);
		conf_append(&conf, &conf_len, "=");
		for (size_t i = 0; ok && i < l->n; i++) {
			char *src = xasprintf("%s/%s", s->ix->dir, l->paths[i]);
			char dest[4096];
			size_t k;

			/* A module two buses share is stored once. */
			for (k = 0; k < nstored; k++)
				if (!strcmp(stored[k].src, src))
					break;
			if (k == nstored) {
				ok = add_module(&c, &d, src, dest, sizeof(dest),
						err);
				stored = xrealloc(stored,
						  (nstored + 1) *
							  sizeof(*stored));
				stored[nstored].src = src;
				stored[nstored++].dest = xstrdup(dest);
			} else {
				free(src);
			}
			if (i)
				conf_append(&conf, &conf_len, " ");
			conf_append(&conf, &conf_len, stored[k].dest);
		}
		conf_append(&conf, &conf_len, "\n");
	}
	if (ok)
		ok = add_parents(&c, &d, GUEST_CONF, err) &&
		     cpio_add_file(&c, GUEST_CONF, 0644, conf, conf_len, err);
	if (ok)
		ok = cpio_finish(&c, err);
	cpio_free(&c);
	for (size_t i = 0; i < d.n; i++)
		free(d.v[i]);
	free(d.v);
	for (size_t i = 0; i < nstored; i++) {
		free(stored[i].src);
		free(stored[i].dest);
	}
	free(stored);
	free(conf);
	return ok;
}
