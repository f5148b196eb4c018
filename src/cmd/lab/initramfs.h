/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest's initramfs, written by us as a cpio "newc" archive: the
 * static iolab as /init, the kernel modules each bus needs (at their
 * /lib/modules path), and /lab/guest.conf, which tells the guest init
 * what to do. A compressed module is decompressed on the host when the
 * tool for it (xz, zstd, gzip) is installed, else stored as it is for
 * the guest kernel to decompress (finit_module's
 * MODULE_INIT_COMPRESSED_FILE, Linux >= 6.? with CONFIG_MODULE_DECOMPRESS).
 */
#ifndef IOLAB_CMD_LAB_INITRAMFS_H
#define IOLAB_CMD_LAB_INITRAMFS_H

#include <stdbool.h>
#include <stddef.h>

#include "qemu_argv.h"

struct err;
struct kmod_index;
struct kmod_list;

#define GUEST_CONF "/lab/guest.conf"

struct initramfs_spec {
	const char *init_path; /* the static iolab binary */
	const struct kmod_index *ix; /* the guest kernel's modules */
	/* Per bus, the modules to load in order (NULL: bus not used). */
	const struct kmod_list *mods[BUS_COUNT];
	const char *conf; /* key=value lines for GUEST_CONF */
};

/*
 * Write the archive to @fd. The module lines ("modules.<bus>=path ...")
 * are appended to the configuration.
 */
bool initramfs_write(int fd, const struct initramfs_spec *s, struct err *err);

#endif
