// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * From collected QEMU options to disks: each guest block device (-device,
 * or a -drive with if=ide/scsi/virtio) is followed to its backend (a
 * -drive, or a -blockdev node and its "file" children down to the
 * protocol node), and the knobs are read where QEMU applies them:
 * cache.direct and aio on the protocol node (the one that opens the file),
 * write-cache on the device, inline children inheriting cache options
 * (reference/qemu.md 1.1, 3.1, 3.2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "advise_qemu_int.h"
#include "advise_qjson.h"
#include "advise_storage.h"
#include "../../engine/engine.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

/* Chains deeper than this (throttle over qcow2 over file ...) are not real. */
#define MAX_CHAIN 8

static bool in_list(const char *s, const char *const *list)
{
	for (; s && *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

static const char *const protocol_drivers[] = {
	"file",
	"host_device",
	"host_cdrom",
	"nbd",
	"rbd",
	"iscsi",
	"nfs",
	"gluster",
	"ssh",
	"http",
	"https",
	"ftp",
	"ftps",
	"null-co",
	"null-aio",
	"nvme",
	"vvfat",
	"io_uring",
	"nvme-io_uring",
	"virtio-blk-vfio-pci",
	"virtio-blk-vhost-user",
	"virtio-blk-vhost-vdpa",
	NULL,
};
static const char *const format_drivers[] = {
	"raw", "qcow2",	    "qcow", "qed",  "vmdk",  "vdi",   "vhdx",
	"vpc", "parallels", "dmg",  "luks", "bochs", "cloop", NULL,
};
/* The protocol drivers that take aio= (file-posix). */
static const char *const aio_drivers[] = { "file", "host_device", "host_cdrom",
					   NULL };

/* A node: an item's keys under a prefix ("" or "file." for inline). */
struct qnode {
	int item;
	char prefix[64];
};

static const char *nget(const struct adv_vm *vm, const struct qnode *n,
			const char *key)
{
	char k[160];

	snprintf(k, sizeof(k), "%s%s", n->prefix, key);
	return kvl_get(&vm->items[n->item].kv, k);
}

static bool nhas_prefix(const struct adv_vm *vm, const struct qnode *n,
			const char *sub)
{
	const struct kvl *kv = &vm->items[n->item].kv;
	char k[160];
	size_t len;

	len = (size_t)snprintf(k, sizeof(k), "%s%s", n->prefix, sub);
	for (size_t i = 0; i < kv->n; i++)
		if (!strncmp(kv->v[i].key, k, len))
			return true;
	return false;
}

static bool get_bool(struct qcollect *c, const char *v, const char *what,
		     const char *where, bool *out, struct err *err)
{
	if (!v)
		return true;
	if (kv_parse_bool(v, out))
		return true;
	return qemu_problem(c, err, "advise-bad-value",
			    "%s: %s=%s is not on or off", where, what, v);
}

static bool check_aio(struct qcollect *c, const char *aio, const char *where,
		      struct err *err)
{
	if (!aio || engine_qemu_parse(aio) >= 0)
		return true;
	return qemu_problem(
		c, err, "advise-bad-value",
		"%s: aio=%s is not threads, native or io_uring (QEMU: invalid aio option)",
		where, aio);
}

static bool discard_on(const char *v)
{
	return v && (!strcmp(v, "unmap") || !strcmp(v, "on"));
}

/* The protocol QEMU picks for a -drive file= name. */
static const char *guess_protocol(const char *file, bool cdrom,
				  const struct adv_ctx *ctx)
{
	static const struct {
		const char *prefix, *proto;
	} t[] = {
		{ "nbd:", "nbd" },	     { "nbd+", "nbd" },
		{ "rbd:", "rbd" },	     { "iscsi:", "iscsi" },
		{ "gluster", "gluster" },    { "nfs:", "nfs" },
		{ "ssh:", "ssh" },	     { "http:", "http" },
		{ "https:", "https" },	     { "ftp:", "ftp" },
		{ "ftps:", "ftps" },	     { "null-co:", "null-co" },
		{ "null-aio:", "null-aio" },
	};
	char path[4096];
	struct stat st;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strncmp(file, t[i].prefix, strlen(t[i].prefix)))
			return t[i].proto;
	if (adv_probe_path(file, ctx, path, sizeof(path)) && !stat(path, &st))
		return S_ISBLK(st.st_mode) ?
			       (cdrom ? "host_cdrom" : "host_device") :
			       "file";
	if (!strncmp(file, "/dev/", 5))
		return cdrom ? "host_cdrom" : "host_device";
	return "file";
}

/* A readable name for a network node: rbd:pool/image, nbd:host/export. */
static char *node_file(const struct adv_vm *vm, const struct qnode *n,
		       const char *drv)
{
	const char *f = nget(vm, n, "filename");

	if (f)
		return xstrdup(f);
	if (!strcmp(drv, "rbd") && nget(vm, n, "image"))
		return xasprintf("rbd:%s/%s",
				 nget(vm, n, "pool") ? nget(vm, n, "pool") : "",
				 nget(vm, n, "image"));
	if (!strcmp(drv, "nbd"))
		return xasprintf("nbd:%s%s%s",
				 nget(vm, n, "server.host") ?
					 nget(vm, n, "server.host") :
				 nget(vm, n, "server.path") ?
					 nget(vm, n, "server.path") :
					 "?",
				 nget(vm, n, "export") ? "/" : "",
				 nget(vm, n, "export") ? nget(vm, n, "export") :
							 "");
	if (!strcmp(drv, "iscsi") && nget(vm, n, "target"))
		return xasprintf("iscsi://%s/%s/%s",
				 nget(vm, n, "portal") ? nget(vm, n, "portal") :
							 "?",
				 nget(vm, n, "target"),
				 nget(vm, n, "lun") ? nget(vm, n, "lun") : "0");
	return xstrdup(drv);
}

static long find_node(const struct qcollect *c, const char *name)
{
	for (size_t i = c->nblockdevs; i-- > 0;) {
		const char *nn =
			kvl_get(&c->vm->items[c->blockdevs[i]].kv, "node-name");

		if (nn && !strcmp(nn, name))
			return c->blockdevs[i];
	}
	return -1;
}

/* Follow "file" children from @top to the protocol node. */
static bool resolve_blockdev(struct qcollect *c, int top, struct adv_disk *d,
			     struct err *err)
{
	struct adv_vm *vm = c->vm;
	struct qnode n = { .item = top }, fmt = { .item = -1 };
	const char *where = vm->items[top].where;
	bool direct = false, no_flush = false, discard = false, found = false;
	bool ro = false, discard_all = true, direct_seen = false;

	if (!get_bool(c, nget(vm, &n, "read-only"), "read-only", where, &ro,
		      err))
		return false;
	d->readonly = ro;
	for (int depth = 0; depth < MAX_CHAIN; depth++) {
		const char *drv = nget(vm, &n, "driver"), *ref;

		where = vm->items[n.item].where;
		if (!drv)
			return qemu_problem(
				c, err, "advise-bad-blockdev",
				"%s: -blockdev %snode without driver=; every node needs one",
				where, n.prefix);
		if (!get_bool(c, nget(vm, &n, "cache.direct"), "cache.direct",
			      where, &direct, err) ||
		    !get_bool(c, nget(vm, &n, "cache.no-flush"),
			      "cache.no-flush", where, &no_flush, err))
			return false;
		/* Every node must pass discards on, the inline child
		   inheriting its parent's setting. */
		if (nget(vm, &n, "discard"))
			discard = discard_on(nget(vm, &n, "discard"));
		discard_all &= discard;
		if (in_list(drv, format_drivers) && fmt.item < 0) {
			fmt = n;
			free(d->format);
			d->format = xstrdup(drv);
		}
		if (in_list(drv, protocol_drivers) || !strcmp(drv, "blkio")) {
			found = true;
			break;
		}
		direct_seen |= direct;
		ref = nget(vm, &n, "file");
		if (ref && !nhas_prefix(vm, &n, "file.")) {
			long next = find_node(c, ref);

			if (next < 0)
				return qemu_problem(
					c, err, "advise-bad-blockdev",
					"%s: -blockdev file=%s: no -blockdev has node-name=%s",
					where, ref, ref);
			/* A node of its own does not inherit cache options. */
			n.item = (int)next;
			n.prefix[0] = '\0';
			direct = no_flush = discard = false;
		} else if (nhas_prefix(vm, &n, "file.") &&
			   strlen(n.prefix) + 6 < sizeof(n.prefix)) {
			strcat(n.prefix, "file.");
		} else {
			break; /* a filter or format without a child we know */
		}
	}
	d->direct = direct;
	d->no_flush = no_flush;
	d->discard = discard_all;
	d->direct_above = direct_seen && !direct;
	d->cache_set = nget(vm, &n, "cache.direct") ||
		       nget(vm, &n, "cache.no-flush");
	if (!d->cache_set) {
		struct qnode t = { .item = top };

		d->cache_set = nget(vm, &t, "cache.direct") ||
			       nget(vm, &t, "cache.no-flush");
	}
	d->slot[ADV_SLOT_FORMAT] = fmt.item >= 0 ? fmt.item : top;
	if (!found) {
		d->file = xstrdup("?");
		return true;
	}
	d->slot[ADV_SLOT_PROTO] = n.item;
	d->no_drop_cache = nget(vm, &n, "drop-cache") &&
			   kv_parse_bool(nget(vm, &n, "drop-cache"), &ro) &&
			   !ro;
	if (n.prefix[0])
		d->proto_prefix = xstrdup(n.prefix);
	d->protocol = xstrdup(nget(vm, &n, "driver"));
	d->file = node_file(vm, &n, d->protocol);
	if (!d->format)
		d->format = xstrdup("raw"); /* no format layer: raw data */
	if (in_list(d->protocol, aio_drivers)) {
		const char *aio = nget(vm, &n, "aio");

		if (!check_aio(c, aio, where, err))
			return false;
		d->aio = xstrdup(aio ? aio : "threads");
		d->aio_set = aio != NULL;
	}
	return true;
}

static bool resolve_drive(struct qcollect *c, int it, struct adv_disk *d,
			  struct err *err)
{
	struct adv_vm *vm = c->vm;
	const struct kvl *kv = &vm->items[it].kv;
	const char *where = vm->items[it].where, *v, *drv, *file;
	bool pdirect, pnoflush, snap = c->snapshot;

	d->slot[ADV_SLOT_DRIVE] = it;
	d->write_cache = true;
	if ((v = kvl_get(kv, "cache"))) {
		if (!adv_cache_knobs(v, &d->direct, &d->no_flush,
				     &d->write_cache))
			return qemu_problem(
				c, err, "advise-bad-value",
				"%s: cache=%s is not none, directsync, writethrough, writeback or unsafe (QEMU: invalid cache option)",
				where, v);
		d->cache_set = true;
	}
	if (!get_bool(c, kvl_get(kv, "cache.direct"), "cache.direct", where,
		      &d->direct, err) ||
	    !get_bool(c, kvl_get(kv, "cache.no-flush"), "cache.no-flush", where,
		      &d->no_flush, err) ||
	    !get_bool(c, kvl_get(kv, "cache.writeback"), "cache.writeback",
		      where, &d->write_cache, err))
		return false;
	d->cache_set |= kvl_get(kv, "cache.direct") ||
			kvl_get(kv, "cache.no-flush") ||
			kvl_get(kv, "cache.writeback");
	/* The protocol child inherits, unless given its own. */
	pdirect = d->direct;
	pnoflush = d->no_flush;
	if (!get_bool(c, kvl_get(kv, "file.cache.direct"), "file.cache.direct",
		      where, &pdirect, err) ||
	    !get_bool(c, kvl_get(kv, "file.cache.no-flush"),
		      "file.cache.no-flush", where, &pnoflush, err))
		return false;
	d->direct = pdirect;
	d->no_flush = pnoflush;

	if (!get_bool(c, kvl_get(kv, "readonly"), "readonly", where,
		      &d->readonly, err) ||
	    !get_bool(c, kvl_get(kv, "snapshot"), "snapshot", where, &snap,
		      err))
		return false;
	d->temporary = snap;
	d->cdrom = (v = kvl_get(kv, "media")) && !strcmp(v, "cdrom");
	d->discard = discard_on(kvl_get(kv, "discard"));
	v = kvl_get(kv, "file.drop-cache") ? kvl_get(kv, "file.drop-cache") :
					     kvl_get(kv, "drop-cache");
	d->no_drop_cache = v && kv_parse_bool(v, &pdirect) && !pdirect;

	drv = kvl_get(kv, "driver");
	if ((v = kvl_get(kv, "format")))
		d->format = xstrdup(v);
	else if (in_list(drv, format_drivers))
		d->format = xstrdup(drv);
	else if (in_list(drv, protocol_drivers))
		d->format = xstrdup("raw");

	file = kvl_get(kv, "file");
	if (file && !strncmp(file, "json:", 5)) {
		struct kvl j = { 0 };
		char what[300];

		snprintf(what, sizeof(what), "%s: -drive file=json:", where);
		if (!qjson_flatten(file + 5, what, &j, err)) {
			kvl_free(&j);
			return false;
		}
		v = kvl_get(&j, "file.filename") ?
			    kvl_get(&j, "file.filename") :
			    kvl_get(&j, "filename");
		d->file = xstrdup(v ? v : "json:");
		v = kvl_get(&j, "file.driver");
		if (v)
			d->protocol = xstrdup(v);
		else if ((v = kvl_get(&j, "driver")) &&
			 in_list(v, protocol_drivers))
			d->protocol = xstrdup(v);
		if (!d->format && (v = kvl_get(&j, "driver")) &&
		    in_list(v, format_drivers))
			d->format = xstrdup(v);
		kvl_free(&j);
	} else if (file) {
		d->file = xstrdup(file);
	}
	if (!d->protocol) {
		if ((v = kvl_get(kv, "file.driver")))
			d->protocol = xstrdup(v);
		else if (in_list(drv, protocol_drivers))
			d->protocol = xstrdup(drv);
		else if (d->file)
			d->protocol = xstrdup(
				guess_protocol(d->file, d->cdrom, c->ctx));
	}
	if (d->protocol && in_list(d->protocol, aio_drivers)) {
		v = kvl_get(kv, "aio") ? kvl_get(kv, "aio") :
					 kvl_get(kv, "file.aio");
		if (!check_aio(c, v, where, err))
			return false;
		d->aio = xstrdup(v ? v : "threads");
		d->aio_set = v != NULL;
	}
	return true;
}

/* The drive id QEMU gives a -drive without id= (blockdev.c). */
static char *drive_auto_id(const char *iface, int index, bool cdrom)
{
	if (!strcmp(iface, "ide"))
		return xasprintf("ide%d-%s%d", index / 2, cdrom ? "cd" : "hd",
				 index % 2);
	if (!strcmp(iface, "scsi"))
		return xasprintf("scsi0-%s%d", cdrom ? "cd" : "hd", index);
	return xasprintf("%s%d", iface, index);
}

static const char *drive_if(const struct kvl *kv)
{
	const char *v = kvl_get(kv, "if");

	return v ? v : "ide";
}

static char *drive_id(const struct qcollect *c, size_t k)
{
	const struct kvl *kv = &c->vm->items[c->drives[k]].kv;
	const char *id = kvl_get(kv, "id"), *iface = drive_if(kv), *m;
	int index = 0;

	if (id)
		return xstrdup(id);
	if (kvl_get(kv, "index")) {
		index = atoi(kvl_get(kv, "index"));
	} else {
		/* QEMU takes the next free index of that interface. */
		for (size_t j = 0; j < k; j++)
			index += !strcmp(
				drive_if(&c->vm->items[c->drives[j]].kv),
				iface);
	}
	m = kvl_get(kv, "media");
	return drive_auto_id(iface, index, m && !strcmp(m, "cdrom"));
}

static const char *const virtio_blk_drivers[] = {
	"virtio-blk-pci",
	"virtio-blk",
	"virtio-blk-device",
	"virtio-blk-ccw",
	"virtio-blk-pci-transitional",
	"virtio-blk-pci-non-transitional",
	NULL,
};
static const char *const virtio_scsi_drivers[] = {
	"virtio-scsi-pci",
	"virtio-scsi",
	"virtio-scsi-device",
	"virtio-scsi-ccw",
	"virtio-scsi-pci-transitional",
	"virtio-scsi-pci-non-transitional",
	NULL,
};
static const char *const emulated_scsi_drivers[] = {
	"lsi53c895a",	"lsi53c810",  "lsi",	"megasas",
	"megasas-gen2", "mptsas1068", "pvscsi", "am53c974",
	"dc390",	"esp",	      NULL,
};
static const char *const scsi_disk_drivers[] = { "scsi-hd",	 "scsi-disk",
						 "scsi-cd",	 "scsi-block",
						 "scsi-generic", NULL };
static const char *const ide_disk_drivers[] = { "ide-hd", "ide-cd", "ide-drive",
						NULL };

/* The -device with id=@id, or -1. */
static long find_device(const struct qcollect *c, const char *id)
{
	for (size_t i = 0; i < c->ndevices; i++) {
		const char *v = kvl_get(&c->vm->items[c->devices[i]].kv, "id");

		if (v && !strcmp(v, id))
			return c->devices[i];
	}
	return -1;
}

/* The controller a "bus=ctrl.N" names, or the first one of @kinds. */
static long find_controller(const struct qcollect *c, const char *bus,
			    const char *const *kinds1,
			    const char *const *kinds2)
{
	if (bus) {
		char id[256];

		snprintf(id, sizeof(id), "%.*s", (int)strcspn(bus, "."), bus);
		return find_device(c, id);
	}
	for (size_t i = 0; i < c->ndevices; i++) {
		const char *drv =
			kvl_get(&c->vm->items[c->devices[i]].kv, "driver");

		if (in_list(drv, kinds1) || in_list(drv, kinds2))
			return c->devices[i];
	}
	return -1;
}

static unsigned parse_count(const char *v)
{
	unsigned long n = v ? strtoul(v, NULL, 10) : 0;

	return n > 65535 ? 65535 : (unsigned)n;
}

/* num-queues and queue-size of a virtio device, or QEMU's defaults. */
static void virtio_queues(const struct qcollect *c, struct adv_disk *d,
			  const struct kvl *dev, const char *qprop,
			  const char *sprop)
{
	const char *q = qemu_dev_prop(c, dev, qprop);

	if (q && strcmp(q, "65535")) {
		d->queues = parse_count(q);
	} else if (c->vm->machine_old_queues) {
		d->queues = 1;
	} else {
		d->queues = c->vm->vcpus;
		d->queues_auto = true;
	}
	if (!d->queues)
		d->queues = 1;
	d->queue_size = parse_count(qemu_dev_prop(c, dev, sprop));
}

/* Bus, model, iothread and queues from the guest device. */
static bool attach_device(struct qcollect *c, int dev_item, struct adv_disk *d,
			  struct err *err)
{
	struct adv_vm *vm = c->vm;
	const struct kvl *dev = &vm->items[dev_item].kv;
	const char *drv = kvl_get(dev, "driver"), *bus = kvl_get(dev, "bus");
	const char *v;

	d->slot[ADV_SLOT_DEVICE] = dev_item;
	if ((v = qemu_dev_prop(c, dev, "write-cache")) && strcmp(v, "auto")) {
		bool wce;

		if (!get_bool(c, v, "write-cache", vm->items[dev_item].where,
			      &wce, err))
			return false;
		d->write_cache = wce;
		d->cache_set = true;
	}
	if (in_list(drv, virtio_blk_drivers)) {
		d->bus = ADV_BUS_VIRTIO_BLK;
		d->model = xstrdup(drv);
		virtio_queues(c, d, dev, "num-queues", "queue-size");
		if (kvl_get(dev, "num_queues"))
			adv_disk_bad_prop(d, "num_queues", "num-queues",
					  ADV_SLOT_DEVICE);
		if (kvl_get(dev, "virtqueue_size"))
			adv_disk_bad_prop(d, "virtqueue_size", "queue-size",
					  ADV_SLOT_DEVICE);
		if ((v = qemu_dev_prop(c, dev, "iothread")) ||
		    (v = kvl_get(dev, "iothread-vq-mapping.0.iothread")))
			d->iothread = xstrdup(v);
		if ((v = qemu_dev_prop(c, dev, "scsi"))) {
			bool on = false;

			kv_parse_bool(v, &on);
			d->passthrough = on;
			/* libvirt writes scsi=off itself and stops once its
			   QEMU lacks the property; only a LUN (scsi=on) stays */
			d->scsi_prop = on || !vm->libvirt_managed;
		}
		return true;
	}
	if (in_list(drv, scsi_disk_drivers)) {
		long ctrl = find_controller(c, bus, virtio_scsi_drivers,
					    emulated_scsi_drivers);
		const struct kvl *ck = ctrl >= 0 ? &vm->items[ctrl].kv : NULL;
		const char *cdrv = ck ? kvl_get(ck, "driver") : NULL;

		d->cdrom |= !strcmp(drv, "scsi-cd");
		d->passthrough = !strcmp(drv, "scsi-block") ||
				 !strcmp(drv, "scsi-generic");
		d->slot[ADV_SLOT_CTRL] = (int)ctrl;
		if (kvl_get(dev, "iothread"))
			adv_disk_bad_prop(d, "iothread", NULL, ADV_SLOT_DEVICE);
		if (in_list(cdrv, virtio_scsi_drivers)) {
			d->bus = ADV_BUS_VIRTIO_SCSI;
			virtio_queues(c, d, ck, "num_queues", "virtqueue_size");
			if (kvl_get(ck, "num-queues"))
				adv_disk_bad_prop(d, "num-queues", "num_queues",
						  ADV_SLOT_CTRL);
			if (kvl_get(ck, "queue-size"))
				adv_disk_bad_prop(d, "queue-size",
						  "virtqueue_size",
						  ADV_SLOT_CTRL);
			if ((v = qemu_dev_prop(c, ck, "iothread")))
				d->iothread = xstrdup(v);
		} else if (cdrv && (!strncmp(cdrv, "usb-", 4))) {
			d->bus = ADV_BUS_USB;
			d->queues = 1;
		} else {
			d->bus = ADV_BUS_SCSI_EMULATED;
			d->queues = 1;
		}
		d->model = xasprintf("%s on %s", drv, cdrv ? cdrv : "?");
		return true;
	}
	if (in_list(drv, ide_disk_drivers)) {
		long ctrl = -1;
		const char *cdrv = NULL;

		if (bus && strncmp(bus, "ide.", 4)) {
			ctrl = find_controller(c, bus, NULL, NULL);
			cdrv = ctrl >= 0 ?
				       kvl_get(&vm->items[ctrl].kv, "driver") :
				       NULL;
		}
		d->cdrom |= !strcmp(drv, "ide-cd");
		if (cdrv)
			d->bus = strstr(cdrv, "ahci") ? ADV_BUS_SATA :
							ADV_BUS_IDE;
		else
			d->bus = vm->q35 ? ADV_BUS_SATA : ADV_BUS_IDE;
		d->slot[ADV_SLOT_CTRL] = (int)ctrl;
		d->queues = 1;
		if (kvl_get(dev, "iothread"))
			adv_disk_bad_prop(d, "iothread", NULL, ADV_SLOT_DEVICE);
		d->model = xasprintf("%s on %s", drv,
				     cdrv    ? cdrv :
				     vm->q35 ? "ich9-ahci" :
					       "piix3-ide");
		return true;
	}
	if (!strcmp(drv, "nvme") || !strcmp(drv, "nvme-ns")) {
		unsigned maxq =
			parse_count(qemu_dev_prop(c, dev, "max_ioqpairs"));

		d->bus = ADV_BUS_NVME;
		d->model = xstrdup(drv);
		if (!maxq)
			maxq = 64;
		d->queues = vm->vcpus < maxq ? vm->vcpus : maxq;
		d->queues_auto = true;
		return true;
	}
	if (!strcmp(drv, "floppy")) {
		d->bus = ADV_BUS_FLOPPY;
		d->model = xstrdup("floppy on isa-fdc");
		d->queues = 1;
		return true;
	}
	d->bus = !strncmp(drv, "usb-", 4) ? ADV_BUS_USB : ADV_BUS_OTHER;
	d->model = xstrdup(drv);
	d->queues = 1;
	return true;
}

static bool is_disk_device(const char *drv)
{
	return in_list(drv, virtio_blk_drivers) ||
	       in_list(drv, scsi_disk_drivers) ||
	       in_list(drv, ide_disk_drivers) || !strcmp(drv, "nvme") ||
	       !strcmp(drv, "nvme-ns") || !strcmp(drv, "usb-storage") ||
	       !strcmp(drv, "floppy");
}

static char *disk_name(const struct adv_vm *vm, const struct adv_disk *d,
		       const char *backend)
{
	const char *id =
		d->slot[ADV_SLOT_DEVICE] >= 0 ?
			kvl_get(&vm->items[d->slot[ADV_SLOT_DEVICE]].kv, "id") :
			NULL;

	return xstrdup(id ? id : backend);
}

/* A -drive with if=ide/scsi/virtio creates its own guest device. */
static bool implicit_device(struct qcollect *c, size_t k, bool *attached,
			    struct err *err)
{
	struct adv_vm *vm = c->vm;
	int it = c->drives[k];
	const char *iface = drive_if(&vm->items[it].kv);
	struct adv_disk *d;

	if (attached[k] || (strcmp(iface, "ide") && strcmp(iface, "scsi") &&
			    strcmp(iface, "virtio") && strcmp(iface, "floppy")))
		return true; /* none, pflash, sd, mtd: not a disk */
	d = adv_vm_add_disk(vm);
	d->id = drive_id(c, k);
	d->where = xstrdup(vm->items[it].where);
	if (!resolve_drive(c, it, d, err))
		return false;
	if (!strcmp(iface, "virtio")) {
		d->bus = ADV_BUS_VIRTIO_BLK;
		d->model = xstrdup("virtio-blk-pci (if=virtio)");
		virtio_queues(c, d, &(struct kvl){ 0 }, "num-queues",
			      "queue-size");
	} else if (!strcmp(iface, "floppy")) {
		d->bus = ADV_BUS_FLOPPY;
		d->model = xstrdup("floppy (if=floppy)");
		d->queues = 1;
	} else if (!strcmp(iface, "scsi")) {
		d->bus = ADV_BUS_SCSI_EMULATED;
		d->model = xstrdup(d->cdrom ?
					   "scsi-cd on lsi53c895a (if=scsi)" :
					   "scsi-hd on lsi53c895a (if=scsi)");
		d->queues = 1;
	} else {
		d->bus = vm->q35 ? ADV_BUS_SATA : ADV_BUS_IDE;
		d->model = xasprintf("%s (if=ide)",
				     d->cdrom ? "ide-cd" : "ide-hd");
		d->queues = 1;
	}
	return true;
}

/* -global isa-fdc.driveA=ID (libvirt before -device floppy): a floppy. */
static bool fdc_global(struct qcollect *c, const struct qglobal *g,
		       char *const *ids, bool *attached, struct err *err)
{
	struct adv_vm *vm = c->vm;
	struct adv_disk *d;
	size_t k;

	if (strcmp(g->driver, "isa-fdc") ||
	    (strcmp(g->prop, "driveA") && strcmp(g->prop, "driveB")))
		return true;
	for (k = 0; k < c->ndrives; k++)
		if (!attached[k] && !strcmp(ids[k], g->value))
			break;
	if (k == c->ndrives)
		return true;
	attached[k] = true;
	d = adv_vm_add_disk(vm);
	d->id = xstrdup(ids[k]);
	d->where = xstrdup(vm->items[c->drives[k]].where);
	d->write_cache = true;
	if (!resolve_drive(c, c->drives[k], d, err))
		return false;
	d = &vm->disks[vm->ndisks - 1];
	d->bus = ADV_BUS_FLOPPY;
	d->model = xstrdup("floppy on isa-fdc");
	d->queues = 1;
	return true;
}

bool qemu_resolve(struct qcollect *c, struct err *err)
{
	struct adv_vm *vm = c->vm;
	bool *attached = xcalloc(c->ndrives + 1, sizeof(bool));
	char **ids = xcalloc(c->ndrives + 1, sizeof(char *));
	bool ok = true;

	for (size_t k = 0; k < c->ndrives; k++)
		ids[k] = drive_id(c, k);
	for (size_t i = 0; ok && i < c->ndevices; i++) {
		int it = c->devices[i];
		const struct kvl *dev = &vm->items[it].kv;
		const char *drv = kvl_get(dev, "driver");
		const char *backend = kvl_get(dev, "drive");
		struct adv_disk *d;
		long node = -1;
		size_t k;

		if (!drv || !is_disk_device(drv) || !backend || !*backend)
			continue;
		for (k = 0; k < c->ndrives; k++)
			if (!strcmp(ids[k], backend))
				break;
		if (k == c->ndrives) {
			node = find_node(c, backend);
			if (node < 0) {
				ok = qemu_problem(
					c, err, "advise-bad-device",
					"%s: -device %s,drive=%s: no -drive id=%s nor -blockdev node-name=%s",
					vm->items[it].where, drv, backend,
					backend, backend);
				continue;
			}
		}
		d = adv_vm_add_disk(vm);
		d->where = xstrdup(vm->items[it].where);
		d->write_cache = true;
		if (k < c->ndrives) {
			attached[k] = true;
			ok = resolve_drive(c, c->drives[k], d, err);
		} else {
			ok = resolve_blockdev(c, (int)node, d, err);
		}
		/* the device may have been moved by a realloc: re-fetch */
		d = &vm->disks[vm->ndisks - 1];
		if (ok)
			ok = attach_device(c, it, d, err);
		d = &vm->disks[vm->ndisks - 1];
		d->id = disk_name(vm, d, backend);
	}
	for (size_t g = 0; ok && g < c->nglobals; g++)
		ok = fdc_global(c, &c->globals[g], ids, attached, err);
	for (size_t k = 0; ok && k < c->ndrives; k++)
		ok = implicit_device(c, k, attached, err);
	for (size_t k = 0; k < c->ndrives; k++)
		free(ids[k]);
	free(ids);
	free(attached);
	for (size_t i = 0; ok && i < vm->ndisks; i++)
		adv_storage_classify(&vm->disks[i], c->ctx);
	return ok;
}
