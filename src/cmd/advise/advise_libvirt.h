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

#include "advise_model.h"

struct err;

/* False in a build without libxml2. */
bool adv_libvirt_available(void);

/* Read one domain XML file; the VM is appended to @r. */
bool adv_libvirt_read(struct adv_report *r, const char *path,
		      const struct adv_ctx *ctx, struct err *err);

#endif
