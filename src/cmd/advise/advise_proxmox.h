/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Proxmox VE VM configs (/etc/pve/qemu-server/VMID.conf) to the advise
 * model, with Proxmox's own defaults (qemu-server Drive.pm): no cache= is
 * cache.direct=on, aio defaults to io_uring except on LVM, CIFS and krbd
 * without direct I/O. Storage types come from storage.cfg.
 */
#ifndef IOLAB_CMD_ADVISE_ADVISE_PROXMOX_H
#define IOLAB_CMD_ADVISE_ADVISE_PROXMOX_H

#include <stdbool.h>

#include "advise_model.h"

struct err;

/*
 * Read one VM config. @storage_cfg: storage.cfg to use, or NULL to look
 * beside the config (../storage.cfg up to /etc/pve) and in /etc/pve.
 */
bool adv_proxmox_read(struct adv_report *r, const char *path,
		      const char *storage_cfg, const struct adv_ctx *ctx,
		      struct err *err);
/*
 * The same from memory (the fuzz target): @text is the config named
 * @path, @storage the text of storage.cfg or NULL for none.
 */
bool adv_proxmox_read_text(struct adv_report *r, const char *path,
			   const char *text, const char *storage,
			   const struct adv_ctx *ctx, struct err *err);

#endif
