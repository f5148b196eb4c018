// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every disk in /sys/block: its controller and driver (reference/qemu.md
 * 5.2), queue settings (5.4), partitions and what holds them (dm, md).
 * Driver, model and block sizes come from core/blkinfo.c.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_impl.h"
#include "../../util/fsread.h"
#include "../../util/xmem.h"

/* Not disks a user means, unless --all: memory, loop, optical, floppy. */
static bool hidden_by_default(const char *name)
{
	static const char *const prefixes[] = { "loop", "ram", "zram", "sr",
						"fd" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])) &&
		    (name[strlen(prefixes[i])] == '\0' ||
		     isdigit((unsigned char)name[strlen(prefixes[i])])))
			return true;
	return false;
}

static bool is_pci_addr(const char *s)
{
	unsigned int a, b, c, d;
	char tail;

	return sscanf(s, "%4x:%2x:%2x.%1x%c", &a, &b, &c, &d, &tail) == 4 &&
	       strlen(s) == 12;
}

/* "1af4:1042" of the PCI function nearest the disk's device. */
static void pci_id(struct dr_ctx *c, const char *name, char *out, size_t len)
{
	char dev[PATH_MAX], path[PATH_MAX + 16], ven[16], did[16];
	char *slash;

	snprintf(path, sizeof(path), "/sys/block/%s/device", name);
	if (fsv_realpath(c->v, path, dev, sizeof(dev)))
		return;
	while ((slash = strrchr(dev, '/')) && slash != dev) {
		if (is_pci_addr(slash + 1)) {
			snprintf(path, sizeof(path), "%s/vendor", dev);
			if (fsv_read(c->v, path, ven, sizeof(ven)) <= 0)
				return;
			snprintf(path, sizeof(path), "%s/device", dev);
			if (fsv_read(c->v, path, did, sizeof(did)) <= 0)
				return;
			snprintf(out, len, "%.4s:%.4s",
				 ven + (!strncmp(ven, "0x", 2) ? 2 : 0),
				 did + (!strncmp(did, "0x", 2) ? 2 : 0));
			return;
		}
		*slash = '\0';
	}
}

static bool model_is_virtual(const struct dr_disk *d)
{
	return strstr(d->bi.model, "QEMU") || strstr(d->bi.vendor, "QEMU") ||
	       strstr(d->bi.model, "VMware") ||
	       strstr(d->bi.vendor, "VMware") ||
	       strstr(d->bi.model, "Virtual") || strstr(d->bi.model, "VBOX");
}

void dr_classify_disk(struct dr_disk *d, const struct dr_virt *virt)
{
	const char *drv = d->bi.driver, *name = d->name;
	bool in_vm = virt->virtualized || model_is_virtual(d);
	const char *emu_or_real = in_vm ? "emulated" : "";

	d->kind = DR_KIND_NATIVE;
#define SET(bus_, kind_, ...)                                                \
	do {                                                                 \
		snprintf(d->bus, sizeof(d->bus), "%s", bus_);                \
		d->kind = kind_;                                             \
		snprintf(d->controller, sizeof(d->controller), __VA_ARGS__); \
	} while (0)
	if (!strcmp(drv, "virtio_blk"))
		SET("virtio-blk", DR_KIND_PARAVIRTUAL,
		    "virtio-blk (paravirtual)");
	else if (!strcmp(drv, "virtio_scsi"))
		SET("virtio-scsi", DR_KIND_PARAVIRTUAL,
		    "virtio-scsi (paravirtual SCSI HBA)");
	else if (!strcmp(drv, "ata_piix"))
		SET("ide", in_vm ? DR_KIND_EMULATED : DR_KIND_NATIVE,
		    "%s%sIDE controller (Intel PIIX, ata_piix)", emu_or_real,
		    in_vm ? " " : "");
	else if (!strncmp(drv, "pata_", 5) || !strcmp(drv, "ata_generic"))
		SET("ide", in_vm ? DR_KIND_EMULATED : DR_KIND_NATIVE,
		    "%s%sIDE controller (%s)", emu_or_real, in_vm ? " " : "",
		    drv);
	else if (!strcmp(drv, "ahci"))
		SET("sata-ahci", in_vm ? DR_KIND_EMULATED : DR_KIND_NATIVE,
		    "%s%sSATA controller (AHCI)", emu_or_real,
		    in_vm ? " " : "");
	else if (!strcmp(drv, "nvme") && (strstr(d->bi.model, "QEMU NVMe") ||
					  !strncmp(d->pci_id, "1b36:0010", 9) ||
					  !strncmp(d->pci_id, "8086:5845", 9)))
		SET("nvme", DR_KIND_EMULATED_NVME, "emulated NVMe (QEMU)");
	else if (!strcmp(drv, "nvme") && strstr(d->bi.model, "VMware"))
		SET("nvme", DR_KIND_EMULATED_NVME, "VMware virtual NVMe");
	else if (!strcmp(drv, "nvme"))
		SET("nvme", DR_KIND_NATIVE, "NVMe%s",
		    in_vm ? " (passed through to the VM)" : "");
	else if (!strcmp(drv, "vbd"))
		SET("xen-vbd", DR_KIND_PARAVIRTUAL,
		    "Xen PV block (xen-blkfront)");
	else if (!strcmp(drv, "vmw_pvscsi"))
		SET("vmware-pvscsi", DR_KIND_PARAVIRTUAL,
		    "VMware PVSCSI (paravirtual)");
	else if (!strncmp(drv, "storvsc", 7) || !strcmp(drv, "hv_storvsc"))
		SET("hyperv-storvsc", DR_KIND_PARAVIRTUAL,
		    "Hyper-V storvsc (paravirtual)");
	else if (!strcmp(drv, "sym53c8xx"))
		SET("lsi-scsi", in_vm ? DR_KIND_EMULATED : DR_KIND_NATIVE,
		    "%s%sLSI 53C8xx SCSI controller (sym53c8xx)", emu_or_real,
		    in_vm ? " " : "");
	else if (!strcmp(drv, "mptspi") || !strcmp(drv, "mptsas"))
		SET("lsi-mpt", in_vm ? DR_KIND_EMULATED : DR_KIND_NATIVE,
		    "%s%sLSI Logic Fusion-MPT controller (%s)", emu_or_real,
		    in_vm ? " " : "", drv);
	else if (!strcmp(drv, "megaraid_sas"))
		SET("megaraid", in_vm ? DR_KIND_EMULATED : DR_KIND_NATIVE,
		    "%s%sMegaRAID SAS controller", emu_or_real,
		    in_vm ? " " : "");
	else if ((!strcmp(drv, "usb-storage") || !strcmp(drv, "uas")) &&
		 model_is_virtual(d))
		SET("usb", DR_KIND_EMULATED, "emulated USB storage (%s)", drv);
	else if (!strcmp(drv, "usb-storage") || !strcmp(drv, "uas"))
		SET("usb", DR_KIND_NATIVE, "USB storage (%s)", drv);
	else if (!strcmp(drv, "device-mapper"))
		SET("dm", DR_KIND_STACKED, "device-mapper");
	else if (!strcmp(drv, "md"))
		SET("md", DR_KIND_STACKED, "md RAID");
	else if (!strncmp(name, "zram", 4))
		SET("zram", DR_KIND_MEMORY, "compressed RAM (zram)");
	else if (!strncmp(name, "ram", 3))
		SET("ram", DR_KIND_MEMORY, "RAM disk (brd)");
	else if (!strcmp(drv, "loop"))
		SET("loop", DR_KIND_OTHER, "loop device (a file)");
	else if (!strncmp(name, "nbd", 3) || !strncmp(name, "rbd", 3) ||
		 !strncmp(name, "drbd", 4))
		SET("network", DR_KIND_OTHER, "network block device");
	else if (!strncmp(name, "mmcblk", 6))
		SET("mmc", DR_KIND_NATIVE, "MMC/SD");
	else
		SET(drv[0] ? drv : "unknown", DR_KIND_NATIVE, "%s",
		    drv[0] ? drv : "unknown controller");
#undef SET
}

static void queue_attrs(struct dr_ctx *c, struct dr_disk *d)
{
	char path[PATH_MAX], buf[128], **names;
	const char *n = d->name;
	bool mq;
	int cnt;

	/* Request-based (blk-mq) disks have mq/, a scheduler, nr_requests;
	   bio-based ones (zram, brd, some dm) have none of them. */
	snprintf(path, sizeof(path), "/sys/block/%s/mq", n);
	d->hw_queues = DR_UNKNOWN;
	cnt = fsv_list(c->v, path, "", &names);
	if (cnt >= 0)
		d->hw_queues = cnt;
	fsv_list_free(names);
	mq = cnt > 0;

#define Q(attr) \
	(snprintf(path, sizeof(path), "/sys/block/%s/queue/" attr, n), path)
	dr_read(c, Q("scheduler"), buf, sizeof(buf), mq);
	for (char *e = buf + strlen(buf); e > buf && e[-1] == ' ';)
		*--e = '\0';
	snprintf(d->schedulers, sizeof(d->schedulers), "%s", buf);
	if (strchr(buf, '[')) {
		char *a = strchr(buf, '[') + 1;

		*strchrnul(a, ']') = '\0';
		snprintf(d->scheduler, sizeof(d->scheduler), "%s", a);
	} else if (buf[0] && !strchr(buf, ' ')) {
		snprintf(d->scheduler, sizeof(d->scheduler), "%s", buf);
	}
	d->nr_requests = dr_num(c, Q("nr_requests"), mq);
	d->add_random = dr_num(c, Q("add_random"), false);
	d->nomerges = dr_num(c, Q("nomerges"), true);
	d->rq_affinity = dr_num(c, Q("rq_affinity"), false);
	d->fua = dr_num(c, Q("fua"), false);
	d->discard_max_bytes = dr_num(c, Q("discard_max_bytes"), true);
	d->discard_granularity = dr_num(c, Q("discard_granularity"), false);
	d->max_sectors_kb = dr_num(c, Q("max_sectors_kb"), true);
	d->max_hw_sectors_kb = dr_num(c, Q("max_hw_sectors_kb"), false);
	d->read_ahead_kb = dr_num(c, Q("read_ahead_kb"), true);
	d->min_io = dr_num(c, Q("minimum_io_size"), false);
	d->opt_io = dr_num(c, Q("optimal_io_size"), false);
	dr_read(c, Q("write_cache"), d->write_cache, sizeof(d->write_cache),
		false);
	/* rotational and block sizes: blkinfo read them; note if it could not */
	dr_read(c, Q("rotational"), buf, sizeof(buf), true);
	dr_read(c, Q("logical_block_size"), buf, sizeof(buf), true);
#undef Q
	snprintf(path, sizeof(path), "/sys/block/%s/device/queue_depth", n);
	d->queue_depth = dr_num(c, path, false);
}

static void add_holder(struct dr_disk *d, const char *name, const char *of,
		       const char *kind, const char *label)
{
	struct dr_holder *h;

	for (size_t i = 0; i < d->nholders; i++)
		if (!strcmp(d->holders[i].name, name))
			return;
	d->holders =
		xrealloc(d->holders, (d->nholders + 1) * sizeof(*d->holders));
	h = &d->holders[d->nholders++];
	memset(h, 0, sizeof(*h));
	snprintf(h->name, sizeof(h->name), "%s", name);
	snprintf(h->of, sizeof(h->of), "%s", of);
	snprintf(h->kind, sizeof(h->kind), "%s", kind);
	snprintf(h->label, sizeof(h->label), "%s", label);
}

/* Holders of @dev (a disk or partition), and theirs, a few levels deep. */
static void holders_of(struct dr_ctx *c, struct dr_disk *d, const char *dev,
		       int depth)
{
	char path[PATH_MAX], uuid[128], label[128], kind[16], **names;
	int n;

	if (depth > 4)
		return;
	snprintf(path, sizeof(path), "/sys/class/block/%s/holders", dev);
	n = fsv_list(c->v, path, "", &names);
	for (int i = 0; i < n; i++) {
		const char *h = names[i];

		label[0] = uuid[0] = '\0';
		if (!strncmp(h, "md", 2)) {
			strcpy(kind, "md");
			snprintf(path, sizeof(path), "/sys/block/%s/md/level",
				 h);
			dr_read(c, path, label, sizeof(label), false);
		} else {
			snprintf(path, sizeof(path), "/sys/block/%s/dm/name",
				 h);
			dr_read(c, path, label, sizeof(label), false);
			snprintf(path, sizeof(path), "/sys/block/%s/dm/uuid",
				 h);
			dr_read(c, path, uuid, sizeof(uuid), false);
			if (!strncmp(uuid, "LVM-", 4))
				strcpy(kind, "lvm");
			else if (!strncmp(uuid, "CRYPT-", 6))
				strcpy(kind, "crypt");
			else if (!strncmp(uuid, "mpath-", 6))
				strcpy(kind, "multipath");
			else
				strcpy(kind, "dm");
		}
		add_holder(d, h, dev, kind, label);
		holders_of(c, d, h, depth + 1);
	}
	fsv_list_free(names);
}

static void partitions(struct dr_ctx *c, struct dr_disk *d)
{
	char path[PATH_MAX], **names;
	int n;

	snprintf(path, sizeof(path), "/sys/block/%s", d->name);
	n = fsv_list(c->v, path, d->name, &names);
	for (int i = 0; i < n; i++) {
		struct dr_part *p;
		int64_t sectors;

		snprintf(path, sizeof(path), "/sys/block/%s/%s/partition",
			 d->name, names[i]);
		if (!fsv_exists(c->v, path))
			continue;
		d->parts =
			xrealloc(d->parts, (d->nparts + 1) * sizeof(*d->parts));
		p = &d->parts[d->nparts++];
		memset(p, 0, sizeof(*p));
		snprintf(p->name, sizeof(p->name), "%s", names[i]);
		snprintf(path, sizeof(path), "/sys/block/%s/%s/start", d->name,
			 names[i]);
		p->start_sectors = dr_num(c, path, true);
		snprintf(path, sizeof(path), "/sys/block/%s/%s/size", d->name,
			 names[i]);
		sectors = dr_num(c, path, true);
		p->size_bytes = sectors < 0 ? DR_UNKNOWN : sectors * 512;
		holders_of(c, d, names[i], 0);
	}
	fsv_list_free(names);
	holders_of(c, d, d->name, 0);
}

/* dm and md devices: their name, kind and what they are built on. */
static void stacked(struct dr_ctx *c, struct dr_disk *d)
{
	char path[PATH_MAX], name[128] = "", uuid[128] = "", on[192] = "";
	char **names;
	const char *what = "device-mapper device";
	int n;

	snprintf(path, sizeof(path), "/sys/block/%s/slaves", d->name);
	n = fsv_list(c->v, path, "", &names);
	for (int i = 0; i < n; i++) {
		strv_add_unique(&d->slaves, names[i]);
		snprintf(on + strlen(on), sizeof(on) - strlen(on), "%s%s",
			 i ? ", " : " on ", names[i]);
	}
	fsv_list_free(names);
	if (!strcmp(d->bus, "md")) {
		snprintf(path, sizeof(path), "/sys/block/%s/md/level", d->name);
		dr_read(c, path, name, sizeof(name), false);
		snprintf(d->controller, sizeof(d->controller), "md RAID%s%s%s",
			 name[0] ? " " : "", name, on);
		return;
	}
	snprintf(path, sizeof(path), "/sys/block/%s/dm/name", d->name);
	dr_read(c, path, name, sizeof(name), false);
	snprintf(path, sizeof(path), "/sys/block/%s/dm/uuid", d->name);
	dr_read(c, path, uuid, sizeof(uuid), false);
	if (!strncmp(uuid, "LVM-", 4))
		what = "LVM logical volume";
	else if (!strncmp(uuid, "CRYPT-", 6))
		what = "dm-crypt (LUKS) volume";
	else if (!strncmp(uuid, "mpath-", 6))
		what = "multipath device";
	snprintf(d->controller, sizeof(d->controller), "%s%s%s%s", what,
		 name[0] ? " " : "", name, on);
}

static void collect_disk(struct dr_ctx *c, struct dr_disk *d)
{
	char path[PATH_MAX];
	int64_t sectors;

	blkinfo_disk(c->v, d->name, &d->bi);
	snprintf(path, sizeof(path), "/sys/block/%s/dev", d->name);
	dr_read(c, path, d->devno, sizeof(d->devno), true);
	snprintf(path, sizeof(path), "/sys/block/%s/size", d->name);
	sectors = dr_num(c, path, true);
	d->size_bytes = sectors < 0 ? DR_UNKNOWN : sectors * 512;
	snprintf(path, sizeof(path), "/sys/block/%s/removable", d->name);
	d->removable = dr_num(c, path, false);
	snprintf(path, sizeof(path), "/sys/block/%s/ro", d->name);
	d->read_only = dr_num(c, path, false);
	pci_id(c, d->name, d->pci_id, sizeof(d->pci_id));
	dr_classify_disk(d, &c->r->virt);
	if (d->kind == DR_KIND_STACKED)
		stacked(c, d);
	queue_attrs(c, d);
	partitions(c, d);
}

void dr_collect_disks(struct dr_ctx *c, const struct doctor_opts *o)
{
	struct doctor_report *r = c->r;
	char **names, path[PATH_MAX];
	int n = fsv_list(c->v, "/sys/block", "", &names);

	if (n < 0) {
		dr_note_unreadable(c, "/sys/block", -n);
		return;
	}
	r->disks = xcalloc((size_t)n + 1, sizeof(*r->disks));
	for (int i = 0; i < n; i++) {
		struct dr_disk *d;

		if (!o->all && hidden_by_default(names[i]))
			continue;
		/* NVMe multipath's per-path nodes: the head is the disk. */
		snprintf(path, sizeof(path), "/sys/block/%s/hidden", names[i]);
		if (dr_num(c, path, false) == 1)
			continue;
		d = &r->disks[r->ndisks++];
		snprintf(d->name, sizeof(d->name), "%s", names[i]);
		collect_disk(c, d);
	}
	fsv_list_free(names);
}
