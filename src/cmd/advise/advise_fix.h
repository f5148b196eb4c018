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

/* Where a writer records each line it writes (see struct adv_repl). */
struct adv_repls {
	struct adv_repl *v;
	size_t n;
};

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
	bool media_cdrom; /* Proxmox: mark the drive media=cdrom */
	const char *target; /* with virtio: the new target (libvirt dev,
			       Proxmox key) chosen for the whole VM; NULL:
			       the writer picks one */
	struct adv_repls *repls; /* record each line's place here, or NULL */
	unsigned *new_pci; /* QEMU: PCI slots the VM's earlier fixes took
			      for new devices (the writer adds its own) */
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

/*
 * Add @line to @b and, if @e asks, record that it replaces item @item
 * (-1: new).
 */
struct fixbuf;
void fix_emit(struct fixbuf *b, const struct adv_edit *e, int item,
	      const char *line);
/* Record only: the fix deletes item @item (the text says so in words). */
void fix_delete(const struct adv_edit *e, int item);

/*
 * A free PCI slot on the root bus of a QEMU PC machine for a new device:
 * one that no device or drive of the command line asks for with addr= and
 * that the machine's own devices do not take (i440fx: host bridge, PIIX,
 * VGA; q35: host bridge, VGA, ICH9 LPC), counted down from the top so
 * that devices QEMU places itself (lowest free slot first) do not meet
 * it. @seq: how many new devices already took one. Writes "pci.0" or
 * "pcie.0" to @bus; false for a machine that is not a PC or with no slot
 * left (then QEMU places the device).
 */
bool adv_qemu_free_slot(const struct adv_vm *vm, unsigned seq, const char **bus,
			unsigned *slot);

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
