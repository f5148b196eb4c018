/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading small system files (sysfs, procfs, /etc) through a view: the live
 * system (root "") or a captured tree (root "/path/to/tree", for doctor
 * --sysroot and for tests). All paths given are absolute ("/sys/block").
 *
 * Symlinks are resolved inside the view, component by component, so an
 * absolute link in a tree stays in the tree. With a capture set, every
 * file, symlink, directory listing and existence check made through the
 * view is copied into the capture directory at the same path (symlinks as
 * symlinks), so that a view rooted at the capture later reads the same
 * things. A read that fails with anything but ENOENT is recorded in the
 * capture's /.iolab/unreadable and fails the same way when replayed.
 */
#ifndef IOLAB_UTIL_FSREAD_H
#define IOLAB_UTIL_FSREAD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Where a capture goes, and the first failure to write it. Opened with
 * fsv_capture_open(); everything is written through its descriptor.
 */
struct fsv_capture {
	const char *dir; /* for messages */
	int dirfd; /* the directory, checked once */
	bool open; /* dirfd is valid */
	int err; /* first errno writing it, 0 if none */
	char err_path[PATH_MAX];
};

/*
 * Open @dir (an existing directory, not a link) as the capture: it must be
 * empty, ours (owner = effective uid) and writable by no one else, so that
 * nobody can plant links or hard links in it while we fill it. Returns 0,
 * or -ELOOP (a link), -ENOTDIR, -ENOTEMPTY, -EPERM (someone else's or
 * writable by others) or another -errno.
 */
int fsv_capture_open(struct fsv_capture *c, const char *dir);
void fsv_capture_close(struct fsv_capture *c);

struct fsview {
	const char *root; /* "" = the live system */
	struct fsv_capture *cap; /* NULL = no capture */
};

/* The live system. */
extern const struct fsview fsview_host;

/*
 * An empty file a capture puts in every directory it lists, so that empty
 * directories survive git and tar; listings never show it.
 */
#define FSV_DIR_MARK ".iolab-dir"

/* The directory of a capture's non-file facts (CPUID, processes, ...). */
#define FSV_FACTS "/.iolab"

/* True when the view is the running system (not a tree). */
bool fsv_live(const struct fsview *v);

/*
 * Read a small file into @buf (NUL-terminated, trailing newlines stripped).
 * Returns the length, or -errno.
 */
ssize_t fsv_read(const struct fsview *v, const char *path, char *buf,
		 size_t len);
/*
 * Read a whole file (up to 16 MiB) into a new NUL-terminated buffer; the
 * length in *@len if not NULL. Returns NULL with *@errnum set on failure.
 */
char *fsv_slurp(const struct fsview *v, const char *path, size_t *len,
		int *errnum);
/* Read a file holding one unsigned number; -errno on failure. */
int fsv_read_u64(const struct fsview *v, const char *path, uint64_t *out);
/* readlink(2) through the view; NUL-terminated; -errno on failure. */
ssize_t fsv_readlink(const struct fsview *v, const char *path, char *buf,
		     size_t len);
/* Basename of a symlink's target ("../../virtio_blk" -> "virtio_blk"). */
int fsv_link_name(const struct fsview *v, const char *path, char *buf,
		  size_t len);
/*
 * The canonical path of @path inside the view, every symlink resolved (as
 * realpath(3), but relative to the view's root). -errno if a component is
 * missing.
 */
int fsv_realpath(const struct fsview *v, const char *path, char *out,
		 size_t len);
/* True if the path exists in the view (symlinks followed). */
bool fsv_exists(const struct fsview *v, const char *path);
/* True if the path is a directory in the view (symlinks followed). */
bool fsv_is_dir(const struct fsview *v, const char *path);
/*
 * Names in directory @path that start with @prefix ("" = all), without "."
 * and "..", sorted, in a NULL-terminated array freed with fsv_list_free.
 * Returns the count, or -errno.
 */
int fsv_list(const struct fsview *v, const char *path, const char *prefix,
	     char ***names);
void fsv_list_free(char **names);
/*
 * Store @len bytes at @path in the capture only (a fact that is not a
 * file, e.g. FSV_FACTS "/cpuid"). Does nothing without a capture.
 */
void fsv_save(const struct fsview *v, const char *path, const char *data,
	      size_t len);

#endif
