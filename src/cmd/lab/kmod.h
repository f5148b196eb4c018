/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel modules for the guest: which .ko files a set of drivers needs,
 * read from the kernel's modules.dep (and modules.builtin, for drivers
 * compiled in), dependencies first, each once.
 */
#ifndef IOLAB_CMD_LAB_KMOD_H
#define IOLAB_CMD_LAB_KMOD_H

#include <stdbool.h>
#include <stddef.h>

struct err;

struct kmod_entry {
	char *name; /* normalised: "virtio_blk" */
	char *path; /* relative to the modules directory */
	char **deps; /* relative paths, as modules.dep lists them */
	size_t ndeps;
};

struct kmod_index {
	char *dir; /* /lib/modules/6.1.0-57-amd64 */
	struct kmod_entry *v;
	size_t n;
	char **builtin; /* normalised names of compiled-in modules */
	size_t nbuiltin;
};

/* An ordered list of module paths (relative to the index's dir). */
struct kmod_list {
	char **paths;
	size_t n;
};

/* Read @dir/modules.dep and, if present, @dir/modules.builtin. */
bool kmod_index_load(struct kmod_index *ix, const char *dir, struct err *err);
void kmod_index_free(struct kmod_index *ix);

/*
 * Append to @out what loading the modules @names needs, dependencies before
 * their users, nothing twice (also across calls). A name compiled into the
 * kernel adds nothing. Names may use '-' or '_'. False with @err naming
 * the missing module if one is in neither list.
 */
bool kmod_resolve(const struct kmod_index *ix, const char *const *names,
		  size_t n, struct kmod_list *out, struct err *err);
void kmod_list_free(struct kmod_list *l);

/* "kernel/drivers/block/virtio_blk.ko.xz" -> "virtio_blk". */
void kmod_name(const char *path, char *out, size_t len);
/* The compression suffix of a module file ("xz", "zst", "gz") or NULL. */
const char *kmod_compression(const char *path);

#endif
