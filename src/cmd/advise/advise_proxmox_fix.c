// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fixes for Proxmox VM configs: the corrected drive line (and scsihw:,
 * boot: when they must change too), as `qm config` prints them. Following
 * Proxmox's own recommendation, emulated disks move to SCSI on a "VirtIO
 * SCSI single" controller with an IO thread, which keeps Linux guests'
 * sdX names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise_fix.h"
#include "../../util/xmem.h"

static char *pve_line(const char *key, const struct kvl *kv)
{
	size_t len = strlen(key) + 3;
	char *s;

	for (size_t i = 0; i < kv->n; i++)
		len += strlen(kv->v[i].key) + strlen(kv->v[i].val) + 2;
	s = xmalloc(len + 1);
	snprintf(s, len + 1, "%s: ", key);
	for (size_t i = 0; i < kv->n; i++) {
		if (i)
			strcat(s, ",");
		if (!kv->v[i].implied) {
			strcat(s, kv->v[i].key);
			strcat(s, "=");
		}
		strcat(s, kv->v[i].val);
	}
	return s;
}

static const char *vm_value(const struct adv_vm *vm, int vslot)
{
	int it = vm->vslot[vslot];

	return it < 0 ? NULL : kvl_get(&vm->items[it].kv, "value");
}

/* The item of the main section's @key: line, or -1. */
static int item_of(const struct adv_vm *vm, const char *key)
{
	for (size_t i = 0; i < vm->nitems; i++)
		if (vm->items[i].syn == ADV_SYN_PVE &&
		    !strcmp(vm->items[i].head, key))
			return (int)i;
	return -1;
}

static bool key_used(const struct adv_vm *vm, const char *key)
{
	for (size_t i = 0; i < vm->nitems; i++)
		if (vm->items[i].syn == ADV_SYN_PVE &&
		    !strcmp(vm->items[i].head, key))
			return true;
	return false;
}

/* The scsiN key a disk moves to: the merge's choice, else the first free
   one of scsi0 to scsi30 (qemu-server has no more); false: none left. */
static bool move_key(const struct adv_vm *vm, const struct adv_edit *e,
		     char *key, size_t len)
{
	if (e->target) {
		snprintf(key, len, "%s", e->target);
		return true;
	}
	for (unsigned i = 0; i < 31; i++) {
		char k[32];

		snprintf(k, sizeof(k), "scsi%u", i);
		if (!key_used(vm, k)) {
			snprintf(key, len, "%s", k);
			return true;
		}
	}
	return false;
}

/* "order=sata0;ide2;net0" with each disk's key replaced. */
char *adv_pve_boot_fix(const struct adv_vm *vm, const char *const *from,
		       const char *const *to, size_t n)
{
	const char *b = vm_value(vm, ADV_VSLOT_BOOT);
	char *cur, *line;
	bool changed = false;

	if (!b)
		return NULL;
	cur = xstrdup(b);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(from[i]);
		char *p = cur, *next;

		/* a whole key: after '=', ';' or ',' and before ';', ',' or
		   the end ("ide2" must not match "ide20") */
		while ((p = strstr(p, from[i])) &&
		       ((p > cur && p[-1] != '=' && p[-1] != ';' &&
			 p[-1] != ',') ||
			(p[len] && p[len] != ';' && p[len] != ',')))
			p += len;
		if (!p)
			continue;
		next = xasprintf("%.*s%s%s", (int)(p - cur), cur, to[i],
				 p + len);
		free(cur);
		cur = next;
		changed = true;
	}
	line = changed ? xasprintf("boot: %s", cur) : NULL;
	free(cur);
	return line;
}

char *adv_pve_fix(const struct adv_vm *vm, const struct adv_disk *d,
		  const struct adv_edit *e)
{
	struct fixbuf out = { 0 };
	struct kvl kv = { 0 };
	const char *hw = vm_value(vm, ADV_VSLOT_SCSIHW);
	char key[32], num[16], *line;
	bool need_single = false, changed = false;
	int it = d->slot[ADV_SLOT_DRIVE];

	if (it < 0)
		return xstrdup("");
	kvl_copy(&kv, &vm->items[it].kv);
	snprintf(key, sizeof(key), "%s", vm->items[it].head);
	if (e->cache) {
		kvl_set(&kv, "cache", e->cache, KV_STR);
		changed = true;
	}
	if (e->aio) {
		kvl_set(&kv, "aio", e->aio, KV_STR);
		changed = true;
	}
	if (e->discard) {
		kvl_set(&kv, "discard", "on", KV_STR);
		changed = true;
	}
	if (e->media_cdrom) {
		kvl_set(&kv, "media", "cdrom", KV_STR);
		changed = true;
	}
	if (e->iothread) {
		kvl_set(&kv, "iothread", "1", KV_STR);
		changed = true;
		need_single = d->bus != ADV_BUS_VIRTIO_BLK;
	}
	if (e->queues && d->bus == ADV_BUS_VIRTIO_SCSI) {
		snprintf(num, sizeof(num), "%u", e->queues);
		kvl_set(&kv, "queues", num, KV_STR);
		changed = need_single = true;
	} else if (e->queues) {
		/* Proxmox has no num-queues for virtio-blk: QEMU's default
		   is one per vCPU from machine type 5.2 on. */
		int mi = item_of(vm, "machine");
		const char *old = mi < 0 ? NULL :
					   kvl_get(&vm->items[mi].kv, "value");
		const char *opts = old ? strchr(old, ',') : NULL;

		/* only the type changes: viommu=, enable-s3= ... stay */
		line = xasprintf("machine: %s%s", vm->q35 ? "q35" : "pc",
				 opts ? opts : "");
		fix_emit(&out, e, mi, line);
		free(line);
	}
	for (int k = 0; k < d->nbadprop; k++) {
		if (!(e->fix_props & (1u << k)))
			continue;
		kvl_del(&kv, d->badprop[k].bad);
		changed = true;
	}
	if (e->virtio && d->bus == ADV_BUS_SCSI_EMULATED) {
		need_single = true;
	} else if (e->virtio && move_key(vm, e, key, sizeof(key))) {
		kvl_del(&kv, "model");
		kvl_set(&kv, "iothread", "1", KV_STR);
		changed = need_single = true;
	}
	if (need_single && (!hw || strcmp(hw, "virtio-scsi-single")))
		fix_emit(&out, e, vm->vslot[ADV_VSLOT_SCSIHW],
			 "scsihw: virtio-scsi-single");
	if (changed) {
		line = pve_line(key, &kv);
		fix_emit(&out, e, it, line);
		free(line);
	}
	if (strcmp(key, vm->items[it].head)) {
		const char *from = vm->items[it].head, *to = key;

		line = adv_pve_boot_fix(vm, &from, &to, 1);
		if (line)
			fix_emit(&out, e, vm->vslot[ADV_VSLOT_BOOT], line);
		free(line);
	}
	kvl_free(&kv);
	return fixbuf_take(&out);
}
