/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What kind of storage backs a disk (LVM, thin LVM, ZFS volume, kernel
 * RBD, CIFS, NFS, a sparse file...), from the protocol and path and, when
 * allowed and the path exists on this host, from stat, statfs and sysfs.
 * Rules use it: io_uring is known to hang on some of these, discard
 * matters on the thin ones.
 */
#ifndef IOLAB_CMD_ADVISE_ADVISE_STORAGE_H
#define IOLAB_CMD_ADVISE_ADVISE_STORAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "advise_model.h"

/* Fill d->st; a kind already set by the reader (Proxmox) is kept. */
void adv_storage_classify(struct adv_disk *d, const struct adv_ctx *ctx);

const char *adv_storage_name(enum adv_storage_kind k);

/* The path to look at for @file (absolute, or under ctx->cwd); false if
   probing is off or the path cannot be placed. */
bool adv_probe_path(const char *file, const struct adv_ctx *ctx, char *buf,
		    size_t len);

#endif
