/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `iolab lab`: the QEMU aio x cache x bus experiment of design.md's
 * second story, with real guests. Cells of one bus and image format share
 * a QEMU, each with a disk (an image) of its own, carrying its aio= and
 * cache=; the guest boots the kernel with an initramfs holding the static
 * iolab as /init, and for each disk in turn fills it, runs the suite and
 * sends the result back. --guest-per-cell gives each cell a QEMU.
 */
#ifndef IOLAB_CMD_LAB_LAB_HOST_H
#define IOLAB_CMD_LAB_LAB_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "qemu_argv.h"
#include "lab_suite.h"

struct err;
struct lab_report;

struct lab_opts {
	enum lab_bus buses[BUS_COUNT];
	unsigned int nbus;
	enum lab_format formats[FMT_COUNT];
	unsigned int nformat;
	enum engine_kind aios[ENGINE_COUNT]; /* of engine_qemu_kinds() */
	unsigned int naio;
	enum cache_mode caches[CACHE_COUNT];
	unsigned int ncache;
	const char *disk; /* image path or directory; NULL = "." */
	uint64_t disk_bytes;
	struct lab_suite suite;
	const char *kernel; /* NULL = newest /boot/vmlinuz-* */
	const char *qemu; /* "qemu-system-x86_64" or a path */
	const char *iolab_static; /* NULL = look for it */
	enum lab_accel accel;
	uint64_t memory_bytes;
	unsigned int smp;
	bool doctor;
	/* One QEMU per cell, as before guests were shared: cells that differ
	 * only in aio= and cache= otherwise share one, a disk each. */
	bool guest_per_cell;
	bool progress; /* live line on stderr */
	bool quiet; /* no per-cell lines on stderr */
	uint64_t boot_timeout_ns;
	uint64_t cell_timeout_ns; /* 0 = from the estimate */
	uint64_t kvm_probe_ns; /* --accel auto: how long KVM may take */
};

void lab_opts_defaults(struct lab_opts *o);

/*
 * Run every cell into @r. False with @err set if the lab could not start
 * (no QEMU, no kernel ...); a lab that started returns true, cells that
 * failed being part of the result, r->partial if it was interrupted.
 * Everything it created is removed before it returns.
 */
bool lab_run(const struct lab_opts *o, struct lab_report *r, struct err *err);

#endif
