// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fixes for QEMU command lines: the corrected -drive, -blockdev, -device
 * and -object options, in the form (key=value or JSON) the user wrote.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise_fix.h"
#include "advise_qjson.h"
#include "advise_qopts.h"
#include "advise_shell.h"
#include "../../util/xmem.h"

struct qfix {
	const struct adv_vm *vm;
	const struct adv_disk *d;
	struct kvl kv[ADV_SLOT_N];
	bool have[ADV_SLOT_N], changed[ADV_SLOT_N];
	struct kvl newdev; /* a -device to add (or to replace DEVICE) */
	bool add_dev;
	char *object; /* "-object iothread,id=X" to add */
	const struct adv_edit *e;
};

/*
 * A device this fix creates (or turns into a virtio PCI device) names a
 * free PCI slot, so that it cannot take one a later device asks for.
 */
static void place(struct qfix *f, struct kvl *l)
{
	const char *bus;
	unsigned slot;
	char addr[16];

	if (kvl_get(l, "addr"))
		return;
	if (!adv_qemu_free_slot(f->vm, f->e->new_pci ? *f->e->new_pci : 0, &bus,
				&slot))
		return;
	if (f->e->new_pci)
		++*f->e->new_pci;
	snprintf(addr, sizeof(addr), "0x%x", slot);
	kvl_set(l, "bus", bus, KV_STR);
	kvl_set(l, "addr", addr, KV_STR);
}

static void setb(struct kvl *l, const char *key, bool on)
{
	kvl_set(l, key, on ? "on" : "off", KV_BOOL);
}

static char *format_item(const struct adv_item *it, const struct kvl *kv)
{
	char *opts = it->syn == ADV_SYN_QEMU_JSON ? qjson_format(kv) :
						    qopts_format(kv);
	char *q = sh_quote(opts), *line = xasprintf("%s %s", it->head, q);

	free(opts);
	free(q);
	return line;
}

/* The slot whose copy holds the protocol node's keys. */
static int proto_slot(const struct qfix *f)
{
	if (!f->have[ADV_SLOT_PROTO])
		return -1;
	if (f->d->slot[ADV_SLOT_PROTO] == f->d->slot[ADV_SLOT_FORMAT])
		return ADV_SLOT_FORMAT;
	return ADV_SLOT_PROTO;
}

static void set_proto(struct qfix *f, const char *key, const char *val,
		      enum kv_type t, bool only_if_present)
{
	int s = proto_slot(f);
	char k[200];

	if (s < 0)
		return;
	snprintf(k, sizeof(k), "%s%s",
		 f->d->proto_prefix ? f->d->proto_prefix : "", key);
	if (only_if_present && kvl_find(&f->kv[s], k) < 0)
		return;
	kvl_set(&f->kv[s], k, val, t);
	f->changed[s] = true;
}

static bool device_is_json(const struct qfix *f)
{
	int it = f->d->slot[ADV_SLOT_DEVICE];

	return it >= 0 && f->vm->items[it].syn == ADV_SYN_QEMU_JSON;
}

static void add_driver(struct kvl *l, const char *drv, bool json)
{
	kvl_add(l, "driver", drv, KV_STR);
	l->v[l->n - 1].implied = !json;
}

/*
 * A disk made by -drive if=virtio has no -device to carry iothread= or
 * num-queues=: make it if=none with an id, and add the -device.
 */
static struct kvl *ensure_device(struct qfix *f)
{
	struct kvl *D = &f->kv[ADV_SLOT_DRIVE];
	const char *id;

	if (f->have[ADV_SLOT_DEVICE]) {
		f->changed[ADV_SLOT_DEVICE] = true;
		return &f->kv[ADV_SLOT_DEVICE];
	}
	if (f->add_dev)
		return &f->newdev;
	if (!kvl_get(D, "id"))
		kvl_set(D, "id", f->d->id, KV_STR);
	id = kvl_get(D, "id");
	kvl_set(D, "if", "none", KV_STR);
	kvl_del(D, "index");
	f->changed[ADV_SLOT_DRIVE] = true;
	add_driver(&f->newdev, "virtio-blk-pci", false);
	kvl_add(&f->newdev, "drive", id, KV_STR);
	place(f, &f->newdev);
	f->add_dev = true;
	return &f->newdev;
}

static void edit_cache(struct qfix *f, const char *mode)
{
	bool direct, no_flush, wce;
	struct kvl *V = &f->kv[ADV_SLOT_DEVICE];
	const char *w;

	if (!adv_cache_knobs(mode, &direct, &no_flush, &wce))
		return;
	if (f->have[ADV_SLOT_DRIVE]) {
		struct kvl *D = &f->kv[ADV_SLOT_DRIVE];

		kvl_set(D, "cache", mode, KV_STR);
		kvl_del(D, "cache.direct");
		kvl_del(D, "cache.no-flush");
		kvl_del(D, "cache.writeback");
		kvl_del(D, "file.cache.direct");
		kvl_del(D, "file.cache.no-flush");
		f->changed[ADV_SLOT_DRIVE] = true;
		/* write-cache=auto follows cache=; an explicit one must too */
		w = f->have[ADV_SLOT_DEVICE] ? kvl_get(V, "write-cache") : NULL;
		if (w && strcmp(w, "auto")) {
			kvl_set(V, "write-cache", wce ? "on" : "off", KV_STR);
			f->changed[ADV_SLOT_DEVICE] = true;
		}
		return;
	}
	if (f->have[ADV_SLOT_FORMAT]) {
		setb(&f->kv[ADV_SLOT_FORMAT], "cache.direct", direct);
		setb(&f->kv[ADV_SLOT_FORMAT], "cache.no-flush", no_flush);
		f->changed[ADV_SLOT_FORMAT] = true;
	}
	if (proto_slot(f) == ADV_SLOT_PROTO) {
		set_proto(f, "cache.direct", direct ? "on" : "off", KV_BOOL,
			  false);
		set_proto(f, "cache.no-flush", no_flush ? "on" : "off", KV_BOOL,
			  false);
	} else {
		set_proto(f, "cache.direct", direct ? "on" : "off", KV_BOOL,
			  true);
		set_proto(f, "cache.no-flush", no_flush ? "on" : "off", KV_BOOL,
			  true);
	}
	/* With -blockdev the device alone decides write-cache. */
	if (f->have[ADV_SLOT_DEVICE]) {
		w = kvl_get(V, "write-cache");
		if (!wce || (w && strcmp(w, "auto"))) {
			kvl_set(V, "write-cache", wce ? "on" : "off", KV_STR);
			f->changed[ADV_SLOT_DEVICE] = true;
		}
	}
}

static void edit_aio(struct qfix *f, const char *aio)
{
	if (f->have[ADV_SLOT_DRIVE]) {
		struct kvl *D = &f->kv[ADV_SLOT_DRIVE];

		kvl_set(D, kvl_get(D, "file.aio") ? "file.aio" : "aio", aio,
			KV_STR);
		f->changed[ADV_SLOT_DRIVE] = true;
		return;
	}
	set_proto(f, "aio", aio, KV_STR, false);
}

static void edit_discard(struct qfix *f)
{
	if (f->have[ADV_SLOT_DRIVE]) {
		kvl_set(&f->kv[ADV_SLOT_DRIVE], "discard", "unmap", KV_STR);
		f->changed[ADV_SLOT_DRIVE] = true;
		return;
	}
	if (f->have[ADV_SLOT_FORMAT]) {
		kvl_set(&f->kv[ADV_SLOT_FORMAT], "discard", "unmap", KV_STR);
		f->changed[ADV_SLOT_FORMAT] = true;
	}
	set_proto(f, "discard", "unmap", KV_STR,
		  proto_slot(f) == ADV_SLOT_FORMAT);
}

static void copy_key(struct kvl *dst, const struct kvl *src, const char *key)
{
	long i = kvl_find(src, key);

	if (i >= 0)
		kvl_add(dst, key, src->v[i].val, src->v[i].type);
}

static void edit_virtio(struct qfix *f)
{
	const struct adv_disk *d = f->d;

	if (d->bus == ADV_BUS_SCSI_EMULATED && f->have[ADV_SLOT_CTRL]) {
		struct kvl c = { 0 }, *C = &f->kv[ADV_SLOT_CTRL];
		int it = d->slot[ADV_SLOT_CTRL];

		add_driver(&c, "virtio-scsi-pci",
			   f->vm->items[it].syn == ADV_SYN_QEMU_JSON);
		copy_key(&c, C, "id");
		copy_key(&c, C, "bus");
		copy_key(&c, C, "addr");
		kvl_free(C);
		*C = c;
		f->changed[ADV_SLOT_CTRL] = true;
		return;
	}
	if (f->have[ADV_SLOT_DEVICE]) {
		struct kvl v = { 0 }, *V = &f->kv[ADV_SLOT_DEVICE];

		add_driver(&v, "virtio-blk-pci", device_is_json(f));
		copy_key(&v, V, "drive");
		copy_key(&v, V, "id");
		copy_key(&v, V, "bootindex");
		copy_key(&v, V, "serial");
		copy_key(&v, V, "write-cache");
		kvl_free(V);
		*V = v;
		place(f, V);
		f->changed[ADV_SLOT_DEVICE] = true;
		return;
	}
	if (f->have[ADV_SLOT_DRIVE]) {
		struct kvl *D = &f->kv[ADV_SLOT_DRIVE];

		/* if=none and a -device of its own: -drive has no bus= or
		   addr= that QEMU still takes, so if=virtio would take the
		   lowest free PCI slot */
		kvl_del(D, "bus");
		kvl_del(D, "unit");
		ensure_device(f);
	}
}

static void edit_iothread(struct qfix *f, const char *name)
{
	const struct adv_disk *d = f->d;

	if (d->bus == ADV_BUS_VIRTIO_SCSI && f->have[ADV_SLOT_CTRL]) {
		kvl_set(&f->kv[ADV_SLOT_CTRL], "iothread", name, KV_STR);
		f->changed[ADV_SLOT_CTRL] = true;
	} else {
		kvl_set(ensure_device(f), "iothread", name, KV_STR);
	}
}

static void edit_queues(struct qfix *f, unsigned n)
{
	char num[16];

	snprintf(num, sizeof(num), "%u", n);
	if (f->d->bus == ADV_BUS_VIRTIO_SCSI && f->have[ADV_SLOT_CTRL]) {
		kvl_del(&f->kv[ADV_SLOT_CTRL], "num-queues");
		kvl_set(&f->kv[ADV_SLOT_CTRL], "num_queues", num, KV_NUM);
		f->changed[ADV_SLOT_CTRL] = true;
	} else {
		struct kvl *V = ensure_device(f);

		kvl_del(V, "num_queues");
		kvl_set(V, "num-queues", num, KV_NUM);
	}
}

static void edit_prop(struct qfix *f, const struct adv_badprop *b)
{
	const struct adv_disk *d = f->d;
	int s = b->slot;
	struct kvl *l;
	long i;

	if (s < 0 || !f->have[s])
		return;
	l = &f->kv[s];
	i = kvl_find(l, b->bad);
	if (i < 0)
		return;
	f->changed[s] = true;
	if (b->good) {
		free(l->v[i].key);
		l->v[i].key = xstrdup(b->good);
		return;
	}
	if (!strcmp(b->bad, "iothread") && d->bus == ADV_BUS_VIRTIO_SCSI &&
	    f->have[ADV_SLOT_CTRL] && s != ADV_SLOT_CTRL) {
		kvl_set(&f->kv[ADV_SLOT_CTRL], "iothread", l->v[i].val, KV_STR);
		f->changed[ADV_SLOT_CTRL] = true;
	}
	kvl_del(l, b->bad);
}

char *adv_qemu_fix(const struct adv_vm *vm, const struct adv_disk *d,
		   const struct adv_edit *e)
{
	static const int order[] = { ADV_SLOT_DRIVE, ADV_SLOT_PROTO,
				     ADV_SLOT_FORMAT, ADV_SLOT_CTRL,
				     ADV_SLOT_DEVICE };
	struct qfix f = { .vm = vm, .d = d, .e = e };
	struct fixbuf out = { 0 };
	char *name = NULL;

	for (int s = 0; s < ADV_SLOT_N; s++) {
		if (d->slot[s] < 0)
			continue;
		if (s == ADV_SLOT_PROTO &&
		    d->slot[s] == d->slot[ADV_SLOT_FORMAT])
			continue;
		kvl_copy(&f.kv[s], &vm->items[d->slot[s]].kv);
		f.have[s] = true;
	}
	/* A separate protocol node shares nothing; PROTO == FORMAT shares. */
	if (d->slot[ADV_SLOT_PROTO] >= 0)
		f.have[ADV_SLOT_PROTO] = true;
	if (e->cache)
		edit_cache(&f, e->cache);
	if (e->aio)
		edit_aio(&f, e->aio);
	if (e->format && f.have[ADV_SLOT_DRIVE]) {
		kvl_set(&f.kv[ADV_SLOT_DRIVE], "format", e->format, KV_STR);
		f.changed[ADV_SLOT_DRIVE] = true;
	}
	if (e->discard)
		edit_discard(&f);
	if (e->virtio)
		edit_virtio(&f);
	if (e->iothread) {
		name = adv_new_iothread_name(vm, "iothread", e->iothread_seq);
		f.object = xasprintf("-object iothread,id=%s", name);
		edit_iothread(&f, name);
	}
	if (e->define_iothread && !e->iothread) {
		char *q = sh_quote(e->define_iothread);

		f.object = xasprintf("-object iothread,id=%s", q);
		free(q);
	}
	if (e->queues)
		edit_queues(&f, e->queues);
	if (e->queue_size && f.have[ADV_SLOT_DEVICE]) {
		char num[16];

		snprintf(num, sizeof(num), "%u", e->queue_size);
		kvl_set(&f.kv[ADV_SLOT_DEVICE], "queue-size", num, KV_NUM);
		f.changed[ADV_SLOT_DEVICE] = true;
	}
	for (int k = 0; k < d->nbadprop; k++)
		if (e->fix_props & (1u << k))
			edit_prop(&f, &d->badprop[k]);
	if (e->drop_scsi && f.have[ADV_SLOT_DEVICE]) {
		kvl_del(&f.kv[ADV_SLOT_DEVICE], "scsi");
		f.changed[ADV_SLOT_DEVICE] = true;
	}

	if (f.object)
		fix_emit(&out, e, -1, f.object);
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		int s = order[i];
		char *line;

		if (!f.changed[s] || d->slot[s] < 0)
			continue;
		line = format_item(&vm->items[d->slot[s]], &f.kv[s]);
		fix_emit(&out, e, d->slot[s], line);
		free(line);
	}
	if (f.add_dev) {
		char *opts = qopts_format(&f.newdev), *q = sh_quote(opts);
		char *line = xasprintf("-device %s", q);

		fix_emit(&out, e, -1, line);
		free(line);
		free(opts);
		free(q);
	}
	for (int s = 0; s < ADV_SLOT_N; s++)
		kvl_free(&f.kv[s]);
	kvl_free(&f.newdev);
	free(f.object);
	free(name);
	return fixbuf_take(&out);
}
