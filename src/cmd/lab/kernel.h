/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest kernel: the newest /boot/vmlinuz-* by default, or --kernel;
 * its release string read from the bzImage header, and its modules in
 * /lib/modules/<release>.
 */
#ifndef IOLAB_CMD_LAB_KERNEL_H
#define IOLAB_CMD_LAB_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

struct err;

struct lab_kernel {
	char path[4096];
	char release[128]; /* "6.1.0-57-amd64" */
	char moddir[4096]; /* /lib/modules/6.1.0-57-amd64 */
};

/*
 * Find the kernel: @path if given, else the newest vmlinuz-* in @boot_dir
 * (version order). @mod_root is where module trees live ("/lib/modules").
 */
bool kernel_find(struct lab_kernel *k, const char *path, const char *boot_dir,
		 const char *mod_root, struct err *err);

/*
 * The release string of an x86 bzImage ("6.1.0-57-amd64"), from the
 * kernel_version field of its setup header. False with @err set if the
 * file is not a bzImage.
 */
bool kernel_release(const char *path, char *out, size_t len, struct err *err);

#endif
