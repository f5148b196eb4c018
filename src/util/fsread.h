/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading small system files (sysfs, procfs, /etc) through a view: the live
 * system (root "") or a captured tree (root "/path/to/tree", for doctor
 * --sysroot and for tests). All paths given are absolute ("/sys/block").
 */
#ifndef IOLAB_UTIL_FSREAD_H
#define IOLAB_UTIL_FSREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct fsview {
	const char *root; /* "" = the live system */
};

/* The live system. */
extern const struct fsview fsview_host;

/*
 * Read a small file into @buf (NUL-terminated, trailing newlines stripped).
 * Returns the length, or -errno.
 */
ssize_t fsv_read(const struct fsview *v, const char *path, char *buf,
		 size_t len);
/* Read a file holding one unsigned number; -errno on failure. */
int fsv_read_u64(const struct fsview *v, const char *path, uint64_t *out);
/* readlink(2) through the view; NUL-terminated; -errno on failure. */
ssize_t fsv_readlink(const struct fsview *v, const char *path, char *buf,
		     size_t len);
/* Basename of a symlink's target ("../../virtio_blk" -> "virtio_blk"). */
int fsv_link_name(const struct fsview *v, const char *path, char *buf,
		  size_t len);
/*
 * Canonical path (symlinks resolved) inside the view, without the view's
 * root prefix: "/sys/block/sda/device" -> "/sys/devices/.../0:0:0:0".
 * Returns 0 or -errno.
 */
int fsv_realpath(const struct fsview *v, const char *path, char *buf,
		 size_t len);
/* True if the path exists in the view. */
bool fsv_exists(const struct fsview *v, const char *path);

#endif
