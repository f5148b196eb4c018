/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The running VMs of this host: every process whose argv[0] is
 * qemu-system-*, qemu-kvm or kvm (Proxmox), read from /proc/PID/cmdline
 * with the same parser as --qemu-args, leniently: an option this version
 * does not know becomes a warning, since QEMU accepted it.
 */
#ifndef IOLAB_CMD_ADVISE_ADVISE_SCAN_H
#define IOLAB_CMD_ADVISE_ADVISE_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "advise_model.h"

struct err;

/* Append one VM per QEMU process to @r; *found counts them. */
bool adv_scan_processes(struct adv_report *r, const struct adv_ctx *ctx,
			size_t *found, struct err *err);
/*
 * /proc/PID/cmdline under @root ("" live), at most 4 MiB, NUL-terminated,
 * its length in *len; NULL if it cannot be opened. Free it.
 */
char *adv_read_cmdline(const char *root, const char *pid, size_t *len);

#endif
