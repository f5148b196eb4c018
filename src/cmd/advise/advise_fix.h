/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fixes as corrected lines in the source's own syntax. A rule says what
 * to change in words the three sources share (a cache mode, an aio mode,
 * a virtio bus, an iothread); a writer per source turns that into the
 * corrected -drive/-blockdev/-device options, libvirt XML elements or
 * Proxmox config lines.
 */
#ifndef IOLAB_CMD_ADVISE_ADVISE_FIX_H
#define IOLAB_CMD_ADVISE_ADVISE_FIX_H

#include <stdbool.h>

#include "advise_model.h"

struct adv_edit {
	const char *cache; /* set this cache mode */
	const char *aio; /* set this aio mode */
	bool aio_fallback; /* aio: native if the merged cache mode is
			      cache.direct=on, threads otherwise */
	const char *format; /* name the image format */
	bool discard; /* pass discard through */
	bool virtio; /* move the disk (or its SCSI controller) to virtio */
	bool iothread; /* give the disk (or its controller) an iothread */
	unsigned iothread_seq; /* ...the VM's iothread_seq-th new one (from
				  0), so that disks do not share it */
	unsigned iothreads_defined; /* libvirt: the largest iothread id
				       another fix of the VM defines */
	const char *define_iothread; /* define this missing iothread */
	unsigned queues; /* set this many queues */
	unsigned queue_size; /* set this queue size */
	unsigned fix_props; /* bit k: rename or drop d->badprop[k] */
	bool drop_scsi; /* drop virtio-blk scsi= */
	const char *target; /* with virtio: the new target (libvirt dev,
			       Proxmox key) chosen for the whole VM; NULL:
			       the writer picks one */
};

/* Corrected lines, '\n'-separated; the caller frees them. */
char *adv_fix(const struct adv_vm *vm, const struct adv_disk *d,
	      const struct adv_edit *e);

char *adv_qemu_fix(const struct adv_vm *vm, const struct adv_disk *d,
		   const struct adv_edit *e);
char *adv_libvirt_fix(const struct adv_vm *vm, const struct adv_disk *d,
		      const struct adv_edit *e);
char *adv_pve_fix(const struct adv_vm *vm, const struct adv_disk *d,
		  const struct adv_edit *e);

/*
 * Apply every finding's edit of each disk together (see advise_merge.c):
 * set each disk's and VM's corrected configuration and each finding's
 * description of its change.
 */
void adv_merge_run(struct adv_report *r);

/*
 * Move the VM-wide lines out of each disk's corrected lines into
 * vm->corrected, once each; a Proxmox boot: order gets every rename
 * (@from[i] to @to[i]) at once.
 */
void adv_split_vm_lines(struct adv_vm *vm, const char *const *from,
			const char *const *to, size_t nto);

/* A Proxmox "boot:" line with each of @from renamed to @to, or NULL. */
char *adv_pve_boot_fix(const struct adv_vm *vm, const char *const *from,
		       const char *const *to, size_t n);

/* The @seq-th (from 0) name for a new iothread that the VM does not use
   yet. */
char *adv_new_iothread_name(const struct adv_vm *vm, const char *prefix,
			    unsigned seq);

/* Growing text buffer for the writers. */
struct fixbuf {
	char *s;
	size_t len, cap;
};
void fixbuf_add(struct fixbuf *b, const char *line);
void fixbuf_addf(struct fixbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The text, or an empty string; ownership passes to the caller. */
char *fixbuf_take(struct fixbuf *b);

#endif
