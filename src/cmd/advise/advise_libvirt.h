/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libvirt domain XML (virsh dumpxml, /etc/libvirt/qemu/NAME.xml, QNAP
 * Virtualization Station's VM definitions) to the advise model. Only
 * advise_libvirt.c includes libxml2; a build without it (the static one)
 * reports --libvirt as unavailable.
 */
#ifndef IOLAB_CMD_ADVISE_ADVISE_LIBVIRT_H
#define IOLAB_CMD_ADVISE_ADVISE_LIBVIRT_H

#include <stdbool.h>
#include <stddef.h>

#include "advise_model.h"

struct err;

/* False in a build without libxml2. */
bool adv_libvirt_available(void);

/* Read one domain XML file; the VM is appended to @r. */
bool adv_libvirt_read(struct adv_report *r, const char *path,
		      const struct adv_ctx *ctx, struct err *err);
/*
 * The same from memory (@len bytes, the fuzz target); @path names it in
 * messages. A <!DOCTYPE> or an entity reference is refused (EXIT_USAGE):
 * entities are never expanded.
 */
bool adv_libvirt_read_mem(struct adv_report *r, const char *path,
			  const char *buf, size_t len,
			  const struct adv_ctx *ctx, struct err *err);

#endif
