/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `iolab top --vms` where libvirtd owns a VM's monitor: the per-disk
 * counters through libvirt's block statistics API, over a read-only
 * connection (virConnectOpenReadOnly), so nothing can be changed through
 * it. Only top_libvirt.c includes libvirt; a build without it (the static
 * one, or no libvirt-dev) says so.
 */
#ifndef IOLAB_CMD_TOP_TOP_LIBVIRT_H
#define IOLAB_CMD_TOP_TOP_LIBVIRT_H

#include <stdbool.h>
#include <stddef.h>

#include "top_vm.h"

struct top_lv;

/* False in a build without libvirt. */
bool top_lv_available(void);
/*
 * A read-only connection to @uri ("qemu:///system", "test:///default"),
 * or NULL with the reason in @why.
 */
struct top_lv *top_lv_open(const char *uri, char *why, size_t wlen);
const char *top_lv_uri(const struct top_lv *lv);
/*
 * Merge the connection's running domains into *@vms: a QEMU process
 * without a QMP socket whose -name is a domain's takes its figures from
 * libvirt; a domain with no process seen here is added with pid 0 (and
 * dropped when it stops). Disks are named by their <target dev>, as
 * advise names them, with advise's view of the domain's XML beside them.
 */
void top_lv_scan(struct top_lv *lv, struct top_vm **vms, size_t *n);
/* Read the counters of each libvirt VM of @vms. */
void top_lv_sample(struct top_lv *lv, struct top_vm *vms, size_t n);
void top_lv_close(struct top_lv *lv);

#endif
