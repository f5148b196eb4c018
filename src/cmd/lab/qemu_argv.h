/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QEMU command lines for lab cells, as argv arrays (never shell strings).
 * The disk is attached the way current libvirt and Proxmox do it
 * (reference/qemu.md 3.2): a file node carrying aio= and the cache
 * knobs, a format node on top, and a device with write-cache=, which is
 * exactly what -drive cache=X expands to (qemu.md 1.1):
 *
 *	cache=        cache.direct  cache.no-flush  write-cache
 *	none          on            off             on
 *	directsync    on            off             off
 *	writethrough  off           off             off
 *	writeback     off           off             on
 *	unsafe        off           on              on
 */
#ifndef IOLAB_CMD_LAB_QEMU_ARGV_H
#define IOLAB_CMD_LAB_QEMU_ARGV_H

#include <stdbool.h>
#include <stdint.h>

#include "../../core/job.h"

enum lab_bus {
	BUS_VIRTIO_BLK,
	BUS_VIRTIO_SCSI,
	BUS_IDE,
	BUS_AHCI,
	BUS_NVME,
	BUS_COUNT,
};
extern const char *const lab_bus_names[]; /* "virtio-blk", ... */

enum lab_format { FMT_RAW, FMT_QCOW2, FMT_COUNT };
extern const char *const lab_format_names[]; /* "raw", "qcow2" */

enum lab_accel { ACCEL_AUTO, ACCEL_KVM, ACCEL_TCG };
extern const char *const lab_accel_names[]; /* "auto", "kvm", "tcg" */

/* Kernel modules a guest needs to see a disk on @bus (NULL-terminated). */
const char *const *lab_bus_modules(enum lab_bus bus);

/*
 * The serial number the guest recognises its test disk by; in a guest
 * with several disks (cells sharing one guest), disk K is
 * LAB_DISK_SERIAL "-K": the guest measures each cell's disk by its
 * serial, never by the order the kernel found them in.
 */
#define LAB_DISK_SERIAL "iolab-lab-disk"
/* Disks one guest may carry (the cells of a shared guest). */
#define LAB_MAX_DISKS 16

/* How many disks one guest can carry on @bus (1: a guest per cell). */
unsigned int lab_bus_max_disks(enum lab_bus bus);

/* One test disk: its own image, with its own aio= and cache=. */
struct qemu_disk {
	const char *image; /* a path QEMU opens: "/proc/self/fd/N" */
	int image_fd; /* N, kept by QEMU; 0 = none (a plain path) */
	enum engine_kind aio;
	enum cache_mode cache;
};

struct qemu_cell {
	const char *qemu; /* qemu-system-x86_64 or a path */
	const char *kernel, *initrd, *append;
	int initrd_fd; /* kept by QEMU when initrd is /proc/self/fd/N; 0 none */
	enum lab_accel accel; /* ACCEL_KVM or ACCEL_TCG */
	uint64_t memory_bytes;
	unsigned int smp;
	enum lab_format format; /* of every disk */
	enum lab_bus bus; /* of every disk */
	struct qemu_disk disks[LAB_MAX_DISKS];
	unsigned int ndisks; /* >= 1 */
	int console_fd; /* socket for ttyS0 (kernel console) */
	int channel_fd; /* socket for ttyS1 (results) */
};

/* The argv (NULL-terminated, every string allocated); free with
 * qemu_argv_free(). */
char **qemu_argv_build(const struct qemu_cell *c);
void qemu_argv_free(char **argv);

/* An option value with QEMU's escaping: each ',' doubled. */
char *qemu_escape(const char *s);

#endif
