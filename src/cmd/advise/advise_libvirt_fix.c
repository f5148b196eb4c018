// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fixes for libvirt domain XML: the corrected <driver>, <target>,
 * <controller> and <iothreads> elements, written as virsh dumpxml writes
 * them (single-quoted attributes). No libxml2 here: the elements were
 * captured as attribute lists by the reader.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise_fix.h"
#include "../../util/xmem.h"

static void put_escaped(const char *s, char *tmp, size_t *n)
{
	for (; *s; s++) {
		const char *rep = *s == '&'  ? "&amp;" :
				  *s == '<'  ? "&lt;" :
				  *s == '\'' ? "&apos;" :
					       NULL;

		if (rep) {
			strcpy(tmp + *n, rep);
			*n += strlen(rep);
		} else {
			tmp[(*n)++] = *s;
		}
	}
	tmp[*n] = '\0';
}

/* <name a='v' .../> or <name a='v'>text</name>; @indent spaces first. */
static char *xml_elem(const char *name, const struct kvl *kv, const char *text,
		      int indent, bool open_only)
{
	size_t cap = strlen(name) * 2 + 16 + (size_t)indent, n = 0;
	char *s;

	for (size_t i = 0; i < kv->n; i++)
		cap += strlen(kv->v[i].key) + 6 * strlen(kv->v[i].val) + 4;
	if (text)
		cap += 6 * strlen(text);
	s = xmalloc(cap);
	n = (size_t)snprintf(s, cap, "%*s<%s", indent, "", name);
	for (size_t i = 0; i < kv->n; i++) {
		n += (size_t)snprintf(s + n, cap - n, " %s='", kv->v[i].key);
		put_escaped(kv->v[i].val, s, &n);
		s[n++] = '\'';
		s[n] = '\0';
	}
	if (open_only) {
		snprintf(s + n, cap - n, ">");
	} else if (text) {
		s[n++] = '>';
		put_escaped(text, s, &n);
		snprintf(s + n, cap - n, "</%s>", name);
	} else {
		snprintf(s + n, cap - n, "/>");
	}
	return s;
}

static void add_elem(struct fixbuf *out, const char *name, const struct kvl *kv,
		     const char *text, const struct adv_edit *e, int item)
{
	char *line = xml_elem(name, kv, text, 0, false);

	fix_emit(out, e, item, line);
	free(line);
}

/*
 * An element with its child elements as the input had them (a <driver>
 * with an <iothreads> queue mapping): self-closing would drop them.
 */
static void add_elem_inner(struct fixbuf *out, const char *name,
			   const struct kvl *kv, const char *inner, int indent)
{
	char *line;
	const char *p = inner;

	if (!inner || !inner[0]) {
		line = xml_elem(name, kv, NULL, indent, false);
		fixbuf_add(out, line);
		free(line);
		return;
	}
	line = xml_elem(name, kv, NULL, indent, true);
	fixbuf_add(out, line);
	free(line);
	while (*p) {
		int n = (int)strcspn(p, "\n");

		fixbuf_addf(out, "%*s%.*s", indent + 2, "", n, p);
		p += n + (p[n] == '\n');
	}
	fixbuf_addf(out, "%*s</%s>", indent, "", name);
}

/* Each child in @inner (one per line, indented relative to the parent)
   but those starting with @skip, indented by @indent. */
static void add_children_but(struct fixbuf *out, const char *inner,
			     const char *skip, int indent)
{
	bool skipping = false;

	for (const char *p = inner; p && *p;) {
		int n = (int)strcspn(p, "\n");

		if (*p != ' ' && *p != '\t' && strncmp(p, "</", 2))
			skipping = !strncmp(p, skip, strlen(skip));
		if (!skipping)
			fixbuf_addf(out, "%*s%.*s", indent, "", n, p);
		p += n + (p[n] == '\n');
	}
}

static const char *inner_of(const struct adv_vm *vm, const struct adv_disk *d,
			    int slot)
{
	return d->slot[slot] >= 0 ? vm->items[d->slot[slot]].inner : NULL;
}

/* The smallest vdX name no disk of the VM uses. */
static char *free_vd(const struct adv_vm *vm)
{
	for (char c = 'a'; c <= 'z'; c++) {
		char name[8];
		bool used = false;

		snprintf(name, sizeof(name), "vd%c", c);
		for (size_t i = 0; i < vm->ndisks; i++)
			used |= vm->disks[i].id &&
				!strcmp(vm->disks[i].id, name);
		if (!used)
			return xstrdup(name);
	}
	return xstrdup("vdz");
}

static unsigned iothreads_count(const struct adv_vm *vm)
{
	int it = vm->vslot[ADV_VSLOT_IOTHREADS];

	return it >= 0 && vm->items[it].text ?
		       (unsigned)strtoul(vm->items[it].text, NULL, 10) :
		       0;
}

struct lfix {
	struct kvl drv, tgt, ctrl, cdrv;
	bool drv_ch, tgt_ch, ctrl_ch, cdrv_ch, addr_note;
	unsigned iothreads; /* new <iothreads> value, 0 unchanged */
};

static void copy_slot(const struct adv_vm *vm, const struct adv_disk *d,
		      int slot, struct kvl *dst)
{
	if (d->slot[slot] >= 0)
		kvl_copy(dst, &vm->items[d->slot[slot]].kv);
}

char *adv_libvirt_fix(const struct adv_vm *vm, const struct adv_disk *d,
		      const struct adv_edit *e)
{
	struct lfix f = { 0 };
	struct fixbuf out = { 0 };
	char num[16];
	bool scsi_ctrl = d->bus == ADV_BUS_VIRTIO_SCSI ||
			 d->bus == ADV_BUS_SCSI_EMULATED;

	copy_slot(vm, d, ADV_SLOT_DRIVE, &f.drv);
	copy_slot(vm, d, ADV_SLOT_DEVICE, &f.tgt);
	copy_slot(vm, d, ADV_SLOT_CTRL, &f.ctrl);
	copy_slot(vm, d, ADV_SLOT_CTRL_DRIVER, &f.cdrv);
	if (d->slot[ADV_SLOT_DRIVE] < 0) {
		kvl_add(&f.drv, "name", "qemu", KV_STR);
		kvl_add(&f.drv, "type", d->format ? d->format : "raw", KV_STR);
	}
	if (e->cache) {
		kvl_set(&f.drv, "cache", e->cache, KV_STR);
		f.drv_ch = true;
	}
	if (e->aio) {
		kvl_set(&f.drv, "io", e->aio, KV_STR);
		f.drv_ch = true;
	}
	if (e->format) {
		kvl_set(&f.drv, "type", e->format, KV_STR);
		f.drv_ch = true;
	}
	if (e->discard) {
		kvl_set(&f.drv, "discard", "unmap", KV_STR);
		f.drv_ch = true;
	}
	if (e->queue_size) {
		snprintf(num, sizeof(num), "%u", e->queue_size);
		kvl_set(&f.drv, "queue_size", num, KV_STR);
		f.drv_ch = true;
	}
	for (int k = 0; k < d->nbadprop; k++) {
		if (!(e->fix_props & (1u << k)))
			continue;
		kvl_del(&f.drv, d->badprop[k].bad);
		f.drv_ch = true;
	}
	if (e->iothread || e->define_iothread) {
		unsigned have = iothreads_count(vm);

		/* new ones after those the VM has and other fixes define */
		if (e->iothreads_defined > have)
			have = e->iothreads_defined;
		f.iothreads = have + 1 + e->iothread_seq;
		if (e->define_iothread) {
			unsigned want =
				(unsigned)strtoul(e->define_iothread, NULL, 10);

			if (want > f.iothreads)
				f.iothreads = want;
		}
	}
	if (e->iothread) {
		snprintf(num, sizeof(num), "%u", f.iothreads);
		if (d->bus == ADV_BUS_VIRTIO_SCSI) {
			kvl_set(&f.cdrv, "iothread", num, KV_STR);
			f.cdrv_ch = f.ctrl_ch = true;
		} else {
			kvl_set(&f.drv, "iothread", num, KV_STR);
			f.drv_ch = true;
		}
	}
	if (e->queues) {
		snprintf(num, sizeof(num), "%u", e->queues);
		if (d->bus == ADV_BUS_VIRTIO_SCSI) {
			kvl_set(&f.cdrv, "queues", num, KV_STR);
			f.cdrv_ch = f.ctrl_ch = true;
		} else {
			kvl_set(&f.drv, "queues", num, KV_STR);
			f.drv_ch = true;
		}
	}
	if (e->virtio && d->bus == ADV_BUS_SCSI_EMULATED) {
		if (d->slot[ADV_SLOT_CTRL] < 0) {
			kvl_add(&f.ctrl, "type", "scsi", KV_STR);
			kvl_add(&f.ctrl, "index", "0", KV_STR);
		}
		kvl_set(&f.ctrl, "model", "virtio-scsi", KV_STR);
		f.ctrl_ch = true;
	} else if (e->virtio) {
		char *vd = e->target ? xstrdup(e->target) : free_vd(vm);

		kvl_set(&f.tgt, "dev", vd, KV_STR);
		kvl_set(&f.tgt, "bus", "virtio", KV_STR);
		f.tgt_ch = true;
		f.addr_note = d->slot[ADV_SLOT_ADDR] >= 0;
		free(vd);
	}

	if (f.iothreads) {
		snprintf(num, sizeof(num), "%u", f.iothreads);
		add_elem(&out, "iothreads", &(struct kvl){ 0 }, num, e,
			 vm->vslot[ADV_VSLOT_IOTHREADS]);
	}
	if (f.drv_ch) {
		struct fixbuf one = { 0 };
		char *text;

		add_elem_inner(&one, "driver", &f.drv,
			       inner_of(vm, d, ADV_SLOT_DRIVE), 0);
		text = fixbuf_take(&one);
		fix_emit(&out, e, d->slot[ADV_SLOT_DRIVE], text);
		free(text);
	}
	if (f.tgt_ch)
		add_elem(&out, "target", &f.tgt, NULL, e,
			 d->slot[ADV_SLOT_DEVICE]);
	if (f.addr_note) {
		/* drive (IDE/SATA/SCSI) or usb: the old bus's address */
		const char *at =
			kvl_get(&vm->items[d->slot[ADV_SLOT_ADDR]].kv, "type");

		fixbuf_addf(
			&out,
			"<!-- and delete this disk's <address type='%s' .../> -->",
			at ? at : "drive");
		fix_delete(e, d->slot[ADV_SLOT_ADDR]);
	}
	if (f.ctrl_ch && scsi_ctrl) {
		const char *kids = inner_of(vm, d, ADV_SLOT_CTRL);
		bool drv = f.cdrv.n || f.cdrv_ch;
		struct fixbuf in = { 0 };
		char *text;

		if (drv)
			add_elem_inner(&in, "driver", &f.cdrv,
				       inner_of(vm, d, ADV_SLOT_CTRL_DRIVER),
				       0);
		/* the controller's other children (its PCI <address>) stay */
		add_children_but(&in, kids, "<driver", 0);
		text = fixbuf_take(&in);
		add_elem_inner(&in, "controller", &f.ctrl, text, 0);
		free(text);
		text = fixbuf_take(&in);
		fix_emit(&out, e, d->slot[ADV_SLOT_CTRL], text);
		free(text);
	}
	kvl_free(&f.drv);
	kvl_free(&f.tgt);
	kvl_free(&f.ctrl);
	kvl_free(&f.cdrv);
	return fixbuf_take(&out);
}
