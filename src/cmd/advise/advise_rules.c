// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rules. Facts quoted in "why" come from reference/qemu.md (QEMU,
 * libvirt and Proxmox sources, sections 1 to 4 and 6).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise_fix.h"
#include "advise_rules.h"
#include "../../util/xmem.h"

const struct adv_rule adv_rules[] = {
	{ "native-without-direct", ADV_ERROR,
	  "aio=native without cache.direct=on: QEMU (or libvirt) refuses to start" },
	{ "config-refused", ADV_ERROR,
	  "a disk the managing tool (Proxmox) refuses to start as configured" },
	{ "cache-unsafe", ADV_ERROR,
	  "cache=unsafe / cache.no-flush=on: guest flushes are dropped" },
	{ "bad-property", ADV_ERROR,
	  "a property the device (or libvirt, or Proxmox) does not have" },
	{ "iothread-missing", ADV_ERROR,
	  "a disk names an iothread that is not defined" },
	{ "queue-size-invalid", ADV_ERROR,
	  "virtio-blk queue-size not a power of 2 in 4..1024" },
	{ "cache-writeback", ADV_WARNING,
	  "cache=writeback: safe only with a guest that flushes" },
	{ "cache-writethrough", ADV_WARNING,
	  "writethrough/directsync/write-cache=off: a flush after every write" },
	{ "direct-on-btrfs", ADV_WARNING,
	  "cache=none/directsync on Proxmox btrfs storage without nocow" },
	{ "emulated-controller", ADV_WARNING,
	  "IDE, SATA (AHCI) or an emulated SCSI HBA instead of virtio" },
	{ "no-iothread", ADV_WARNING,
	  "virtio disk without an iothread on a multi-vCPU guest" },
	{ "iothread-ignored", ADV_WARNING,
	  "an iothread is asked for where it has no effect" },
	{ "io-uring-hang", ADV_WARNING,
	  "aio=io_uring on storage where Proxmox saw it hang" },
	{ "discard-missing", ADV_WARNING,
	  "discard not passed through to thin or sparse storage" },
	{ "virtio-blk-scsi", ADV_WARNING,
	  "virtio-blk scsi= property, removed in QEMU 9.1" },
	{ "queues-below-vcpus", ADV_INFO, "fewer virtio queues than vCPUs" },
	{ "aio-threads", ADV_INFO,
	  "aio=threads where native or io_uring with cache=none would do better" },
	{ "migration-cache", ADV_INFO,
	  "a cache mode other than none/directsync blocks live migration" },
	{ "qemu10-writethrough", ADV_INFO,
	  "writethrough/directsync numbers differ between QEMU 9 and 10" },
	{ "format-probed", ADV_INFO, "no image format given: QEMU probes it" },
	{ NULL, ADV_INFO, NULL },
};

static enum adv_severity sev_of(const char *id)
{
	for (const struct adv_rule *r = adv_rules; r->id; r++)
		if (!strcmp(r->id, id))
			return r->sev;
	return ADV_INFO;
}

struct rctx {
	struct adv_report *r;
	size_t vmi;
	const struct adv_vm *vm;
	long di;
	const struct adv_disk *d;
};

static void find(struct rctx *c, const char *rule, const struct adv_edit *e,
		 char *fix_text, char *message, char *why)
{
	struct adv_finding *f;

	/* The change is written out by adv_merge_run, together with every
	   other change of the disk. */
	adv_report_add_finding(c->r, sev_of(rule), rule, c->vmi, c->di, message,
			       why, fix_text ? fix_text : xstrdup(""));
	f = &c->r->f[c->r->nf - 1];
	f->fix_is_advice = fix_text != NULL;
	if (e) {
		f->edit = xmalloc(sizeof(*e));
		*f->edit = *e;
	}
}

static bool libvirt(const struct rctx *c)
{
	return c->vm->source == ADV_SRC_LIBVIRT;
}

static bool pve(const struct rctx *c)
{
	return c->vm->source == ADV_SRC_PROXMOX;
}

static const char *cache_of(const struct adv_disk *d)
{
	return adv_cache_name(d->direct, d->no_flush, d->write_cache);
}

/* Data disks the guest writes to, whose cache mode matters. */
static bool writable(const struct adv_disk *d)
{
	return !d->cdrom && !d->readonly && !d->temporary && d->file;
}

static const char *bus_words(enum adv_bus b)
{
	switch (b) {
	case ADV_BUS_IDE:
		return "IDE";
	case ADV_BUS_SATA:
		return "SATA (AHCI)";
	case ADV_BUS_SCSI_EMULATED:
		return "emulated SCSI HBA";
	case ADV_BUS_USB:
		return "USB mass storage";
	case ADV_BUS_FLOPPY:
		return "floppy";
	case ADV_BUS_VIRTIO_BLK:
		return "virtio-blk";
	case ADV_BUS_VIRTIO_SCSI:
		return "virtio-scsi";
	default:
		return adv_bus_name(b);
	}
}

/* The cache mode a fix sets instead of an unsafe or slow one. */
static const char *safe_cache(const struct adv_disk *d)
{
	return d->st.no_direct ? "writeback" : "none";
}

static const char refused_why[] =
	"qemu-server checks the configuration before QEMU runs: every volume's content type must be in its storage's content list (check_volume_storage_type at start), and an ISO image must be marked media=cdrom (config_to_command); until then the VM does not start";

static void rule_refused(struct rctx *c)
{
	struct adv_edit e = { .media_cdrom = true };

	if (c->d->refused)
		find(c, "config-refused", NULL,
		     xstrdup(c->d->refused_fix ? c->d->refused_fix : ""),
		     xstrdup(c->d->refused), xstrdup(refused_why));
	/* an edit, not advice: the corrected line and copy carry it */
	if (c->d->refused_media)
		find(c, "config-refused", &e, NULL,
		     xstrdup(c->d->refused_media), xstrdup(refused_why));
}

static void rule_native(struct rctx *c)
{
	const struct adv_disk *d = c->d;
	struct adv_edit e = { .cache = d->write_cache ? "none" : "directsync" };
	const char *cache = cache_of(d);

	if (!d->aio || strcmp(d->aio, "native") || d->direct)
		return;
	if (d->st.no_direct)
		e = (struct adv_edit){ .aio = "io_uring" };
	if (libvirt(c) && d->cache_set)
		find(c, "native-without-direct", &e, NULL,
		     xasprintf(
			     "io='native' with cache='%s': libvirt refuses to start the domain",
			     cache),
		     xstrdup("Linux AIO needs O_DIRECT, which only cache='none' and cache='directsync' give; libvirt says \"native I/O needs either no disk cache or directsync cache mode, QEMU will fallback to aio=threads\""));
	else
		find(c, "native-without-direct", &e, NULL,
		     xasprintf(
			     "aio=native with cache=%s%s: QEMU refuses to start with this disk",
			     cache,
			     d->direct_above ?
				     " (cache.direct=on is set above the protocol node only)" :
			     d->cache_set ?
				     "" :
				     " (no cache mode given: QEMU's default)"),
		     xstrdup("Linux AIO needs O_DIRECT on the node that opens the image; QEMU exits with \"aio=native was specified, but it requires cache.direct=on, which was not specified.\" (with -blockdev, cache.direct=on must be on the protocol node itself)"));
}

static void rule_unsafe(struct rctx *c)
{
	struct adv_edit e = { .cache = safe_cache(c->d) };

	if (!c->d->no_flush || !writable(c->d))
		return;
	find(c, "cache-unsafe", &e, NULL,
	     xasprintf(
		     "cache=%s: every flush from the guest is dropped; a host crash or power loss can leave this image unusable",
		     cache_of(c->d)),
	     xstrdup("with cache.no-flush=on QEMU never calls fdatasync (0 calls measured; from QEMU 10.0 FUA writes are ignored too), so nothing the guest wrote is durable; QEMU's documentation: \"If anything goes wrong, like your host losing power ... your image will most probably be rendered unusable\". Use writeback instead if the storage cannot do O_DIRECT"));
}

/*
 * Only file-posix (file, host_device, host_cdrom) goes through the host
 * page cache. With librbd cache= drives librbd's own cache (and libvirt
 * treats RBD as shared storage); nbd, libiscsi, gluster, ssh... have none.
 */
static bool page_cached(const struct adv_disk *d)
{
	return !d->protocol || !strcmp(d->protocol, "file") ||
	       !strcmp(d->protocol, "host_device") ||
	       !strcmp(d->protocol, "host_cdrom");
}

static void rule_writeback(struct rctx *c)
{
	const struct adv_disk *d = c->d;
	struct adv_edit e = { .cache = "none" };

	/* on btrfs without nocow writeback is Proxmox's deliberate choice */
	if (d->direct || d->no_flush || !d->write_cache || !writable(d) ||
	    !page_cached(d) || d->st.no_direct)
		return;
	find(c, "cache-writeback", &e, NULL,
	     xasprintf(
		     "cache=writeback%s%s%s: writes are acknowledged from the host page cache, durable only when the guest flushes",
		     d->cache_set ? "" : " (",
		     d->cache_set ?
			     "" :
			     (d->cache_default ? d->cache_default : "default"),
		     d->cache_set ? "" : ")"),
	     xstrdup("QEMU: writeback is \"safe as long as your guest OS makes sure to correctly flush disk caches where needed\": a guest filesystem with barriers on (the ext4/XFS default; never nobarrier), the guest disk's write cache left at \"write back\" in /sys/block/*/queue/write_cache, and applications that fsync (databases with fsync/O_DSYNC on); anything else is lost when the host crashes. It also keeps a second copy of the data in host RAM. cache=none bypasses the host cache and still honours guest flushes (Red Hat: \"generally the best choice\")"));
}

static void rule_writethrough(struct rctx *c)
{
	const struct adv_disk *d = c->d;
	struct adv_edit e = { .cache = safe_cache(d) };

	if (d->write_cache || d->no_flush || !writable(d))
		return;
	find(c, "cache-writethrough", &e, NULL,
	     xasprintf(
		     "cache=%s: the write cache is off, so QEMU flushes after every write",
		     cache_of(d)),
	     xstrdup("with write-cache off QEMU emulates FUA with one fdatasync after every write (QEMU 10.0+ uses RWF_DSYNC on the write itself with aio=native/io_uring); Red Hat calls writethrough \"slow and prone to scaling problems\", OpenStack \"horribly slow\". A guest that flushes is already safe with cache=none"));
}

static void rule_qemu10(struct rctx *c)
{
	const struct adv_disk *d = c->d;
	char *fix;

	if (d->write_cache || d->no_flush || !writable(d))
		return;
	fix = xstrdup(
		"record the QEMU version (qemu-system-x86_64 --version) with every benchmark of this disk; compare only runs made on the same side of QEMU 10.0");
	find(c, "qemu10-writethrough", NULL, fix,
	     xasprintf(
		     "cache=%s: benchmark numbers for this disk are not comparable between QEMU 9.x and 10.x",
		     cache_of(d)),
	     xstrdup("QEMU 10.0 (commit 984a32f17e, \"file-posix: Support FUA writes\") sends FUA to Linux AIO and io_uring as RWF_DSYNC on the write instead of a separate fdatasync: 4k QD1 45.6k to 56.1k IOPS in the commit's test; aio=threads still flushes separately"));
}

/* A floppy cannot just change bus: the device type changes too. */
static const char *floppy_fix(const struct rctx *c)
{
	if (libvirt(c))
		return "attach the image as a disk instead: <disk type='file' device='disk'> with <target dev='vdX' bus='virtio'/> (a free vdX), or remove the floppy once the guest no longer reads it (a driver disk is needed only during installation)";
	return "attach the image as a virtio disk instead (-drive file=IMAGE,format=raw,if=virtio), or remove the floppy once the guest no longer reads it (a driver disk is needed only during installation)";
}

static void rule_btrfs(struct rctx *c)
{
	const struct adv_disk *d = c->d;
	bool native = d->aio && !strcmp(d->aio, "native");
	struct adv_edit e = { .cache = d->write_cache ? "writeback" :
							"writethrough",
			      .aio = native ? "io_uring" : NULL };

	if (!d->direct || !d->st.no_direct || !writable(d))
		return;
	find(c, "direct-on-btrfs", &e, NULL,
	     xasprintf(
		     "cache=%s on %s without nocow: O_DIRECT writes to a checksummed btrfs file",
		     cache_of(d), d->st.what),
	     xstrdup("btrfs checksums file data; with O_DIRECT the guest's buffer can change while it is written, so the stored checksum no longer matches and later reads fail with checksum errors (EIO). Proxmox's qemu-server therefore leaves O_DIRECT off on btrfs storage unless it has nocow set (drive_uses_cache_direct); cache=none here undoes that. Set nocow on the storage to use cache=none"));
}

static void rule_emulated(struct rctx *c)
{
	const struct adv_disk *d = c->d;
	struct adv_edit e = { .virtio = true };
	const char *why, *guest;

	if ((d->bus != ADV_BUS_IDE && d->bus != ADV_BUS_SATA &&
	     d->bus != ADV_BUS_SCSI_EMULATED && d->bus != ADV_BUS_USB &&
	     d->bus != ADV_BUS_FLOPPY) ||
	    d->cdrom || d->passthrough || !d->file)
		return;
	why = d->bus == ADV_BUS_USB ?
		      "usb-storage is a USB 2/3 mass-storage device behind an emulated host controller: one command at a time (bulk-only transport), every transfer goes through the emulated xHCI/EHCI/UHCI" :
	      d->bus == ADV_BUS_FLOPPY ?
		      "the floppy controller is an emulated ISA device moving one sector at a time by port I/O and ISA DMA, for images of at most 2.88 MB" :
	      d->bus == ADV_BUS_IDE ?
		      "IDE is emulated register by register (several VM exits per command) and has no command queueing: the guest sees queue_depth 1" :
	      d->bus == ADV_BUS_SATA ?
		      "AHCI is emulated register by register (several VM exits per command), with at most 32 queued commands (NCQ); QEMU keeps it as the fallback for guests without virtio drivers" :
		      "emulated SCSI HBAs (LSI, MegaRAID, PVSCSI) are emulated register by register; virtio-scsi gives the same SCSI disks a paravirtual path";
	guest = c->vm->os == ADV_OS_WINDOWS ?
			"Windows needs the virtio-win drivers (viostor, vioscsi) installed before the switch" :
			"Linux has virtio drivers built in; before switching make sure the guest's initramfs carries them (dracut -f --add-drivers 'virtio_blk virtio_scsi virtio_pci' on RHEL/Oracle Linux) and /etc/fstab mounts by UUID=, since sdX/hdX names change";
	find(c, "emulated-controller", d->bus == ADV_BUS_FLOPPY ? NULL : &e,
	     d->bus == ADV_BUS_FLOPPY ? xstrdup(floppy_fix(c)) : NULL,
	     xasprintf("%s disk (%s): an emulated, slow controller%s%s%s%s",
		       bus_words(d->bus), d->model ? d->model : "?",
		       c->vm->os == ADV_OS_LINUX ? " for a Linux guest" : "",
		       c->vm->os_hint ? " (" : "",
		       c->vm->os_hint ? c->vm->os_hint : "",
		       c->vm->os_hint ? ")" : ""),
	     xasprintf(
		     "%s; QEMU's guidance: \"Prefer virtio storage devices over other emulated storage controllers\" (virtio-blk for performance). %s",
		     why, guest));
}

static bool virtio(const struct adv_disk *d)
{
	return d->bus == ADV_BUS_VIRTIO_BLK || d->bus == ADV_BUS_VIRTIO_SCSI;
}

static void rule_no_iothread(struct rctx *c)
{
	const struct adv_disk *d = c->d;
	struct adv_edit e = { .iothread = true };

	if (!virtio(d) || d->iothread || d->iothread_ignored ||
	    c->vm->vcpus < 2 || d->cdrom || !d->file)
		return;
	find(c, "no-iothread", &e, NULL,
	     xasprintf(
		     "%s without an iothread on a %u-vCPU guest: its requests are handled in QEMU's main loop",
		     bus_words(d->bus), c->vm->vcpus),
	     xstrdup("without an iothread the virtqueue is served by the main loop thread, shared with device emulation and the monitor; an iothread adds 10-20 % IOPS in QEMU's own measurements (8 vCPUs, NVMe, 4k QD64), and Proxmox recommends \"VirtIO SCSI single\" with IO Thread for performance"));
}

static void rule_iothread_ignored(struct rctx *c)
{
	struct adv_edit e = { .iothread = true };
	const char *hw;
	int it = c->vm->vslot[ADV_VSLOT_SCSIHW];

	if (!c->d->iothread_ignored)
		return;
	hw = it >= 0 ? kvl_get(&c->vm->items[it].kv, "value") : "lsi";
	find(c, "iothread-ignored", &e, NULL,
	     xasprintf("iothread=1 on %s has no effect with scsihw: %s",
		       c->d->id, hw ? hw : "lsi"),
	     xasprintf(
		     "Proxmox gives a SCSI disk its own iothread only with the \"VirtIO SCSI single\" controller (one controller per disk); with %s the setting is ignored and the disk's I/O stays in the main loop",
		     hw ? hw : "lsi"));
}

static void rule_iothread_missing(struct rctx *c)
{
	const struct adv_disk *d = c->d;
	struct adv_edit e = { .define_iothread = d->iothread };

	if (!d->iothread || pve(c) || adv_vm_has_iothread(c->vm, d->iothread) ||
	    !strcmp(d->iothread, "(iothread-vq-mapping)"))
		return;
	if (libvirt(c))
		find(c, "iothread-missing", &e, NULL,
		     xasprintf(
			     "iothread='%s' is not defined (<iothreads> is %zu)",
			     d->iothread, c->vm->niothreads),
		     xasprintf(
			     "libvirt refuses to start the domain: \"Disk iothread '%s' not defined in iothreadid\"",
			     d->iothread));
	else
		find(c, "iothread-missing", &e, NULL,
		     xasprintf("iothread=%s, but no -object iothread,id=%s",
			       d->iothread, d->iothread),
		     xstrdup("QEMU refuses to start: the iothread link property cannot find the object it names"));
}

static void bad_property(struct rctx *c, int k)
{
	const struct adv_disk *d = c->d;
	const struct adv_badprop *b = &d->badprop[k];
	struct adv_edit e = { .fix_props = 1u << k };

	if (pve(c)) {
		find(c, "bad-property", &e, NULL,
		     xasprintf("'%s' is not an option of %s drives", b->bad,
			       bus_words(d->bus)),
		     xstrdup("Proxmox cannot parse the drive line (\"format error\") and leaves the whole disk out when it starts the VM; virtio drives take no ssd/model/wwn, IDE and SATA drives no iothread/ro/queues"));
	} else if (libvirt(c)) {
		find(c, "bad-property", &e, NULL,
		     xasprintf("iothread on a %s disk's <driver>",
			       bus_words(d->bus)),
		     xstrdup(d->bus == ADV_BUS_VIRTIO_SCSI ?
				     "libvirt refuses to start the domain: for virtio-scsi the iothread belongs to the <controller>'s <driver iothread=.../>" :
				     "libvirt refuses to start the domain: \"IOThreads only available for virtio pci and virtio ccw disk\""));
	} else if (b->good) {
		find(c, "bad-property", &e, NULL,
		     xasprintf(
			     "'%s' is not a property of %s; it is spelled '%s'",
			     b->bad,
			     b->slot == ADV_SLOT_CTRL ? "virtio-scsi-pci" :
							"virtio-blk",
			     b->good),
		     xstrdup("QEMU refuses to start (\"Property ... not found\"): virtio-blk spells num-queues and queue-size, virtio-scsi num_queues and virtqueue_size"));
	} else {
		find(c, "bad-property", &e, NULL,
		     xasprintf("'%s' is not a property of %s", b->bad,
			       d->model ? d->model : "this device"),
		     xstrdup(d->bus == ADV_BUS_VIRTIO_SCSI ?
				     "QEMU refuses to start (\"Property ... not found\"); with virtio-scsi the iothread is set on the virtio-scsi-pci controller" :
				     "QEMU refuses to start (\"Property ... not found\"); only virtio-blk and virtio-scsi devices run in an iothread"));
	}
}

static void rule_bad_property(struct rctx *c)
{
	for (int k = 0; k < c->d->nbadprop; k++)
		bad_property(c, k);
}

static void rule_queue_size(struct rctx *c)
{
	unsigned q = c->d->queue_size;
	struct adv_edit e = { .queue_size = 256 };

	if (c->d->bus != ADV_BUS_VIRTIO_BLK || !q ||
	    (q > 2 && q <= 1024 && !(q & (q - 1))))
		return;
	find(c, "queue-size-invalid", &e, NULL,
	     xasprintf("queue-size %u is not a power of 2 between 4 and 1024",
		       q),
	     xasprintf(
		     "QEMU refuses to start: \"invalid queue-size property (%u), must be a power of 2 (max 1024)\"; the default is 256 on machine types 5.0 and later",
		     q));
}

static void rule_queues(struct rctx *c)
{
	const struct adv_disk *d = c->d;
	struct adv_edit e = { .queues = c->vm->vcpus };

	if (!virtio(d) || !d->queues || d->queues >= c->vm->vcpus ||
	    c->vm->vcpus < 2 || d->cdrom || !d->file)
		return;
	find(c, "queues-below-vcpus", &e, NULL,
	     xasprintf("%u request queue%s for %u vCPUs%s%s%s", d->queues,
		       d->queues == 1 ? "" : "s", c->vm->vcpus,
		       c->vm->machine_old_queues ? " (machine type " : "",
		       c->vm->machine_old_queues ? c->vm->machine : "",
		       c->vm->machine_old_queues ?
			       " predates QEMU 5.2's one queue per vCPU)" :
			       ""),
	     xstrdup("virtio-blk and virtio-scsi default to one request queue per vCPU on machine types 5.2 and later; with fewer, vCPUs share queues, and with one queue the guest kernel also picks mq-deadline instead of none"));
}

static bool storage_hangs_uring(const struct adv_disk *d, const char **quote)
{
	switch (d->st.kind) {
	case ADV_ST_LVM:
		*quote =
			"io_uring with cache mode writeback or writethrough on LVM will hang, without cache only sometimes, just plain disable";
		return true;
	case ADV_ST_CIFS:
		*quote =
			"io_uring causes problems when used with CIFS since kernel 5.15";
		return true;
	case ADV_ST_KRBD:
		*quote =
			"io_uring with cache mode writeback or writethrough on krbd will hang";
		return !d->direct;
	default:
		return false;
	}
}

static void rule_uring_hang(struct rctx *c)
{
	const struct adv_disk *d = c->d;
	struct adv_edit e = { .aio = d->direct ? "native" : "threads",
			      .aio_fallback = true };
	const char *quote;

	if (!d->aio || strcmp(d->aio, "io_uring") ||
	    !storage_hangs_uring(d, &quote))
		return;
	find(c, "io-uring-hang", &e, NULL,
	     xasprintf("aio=io_uring%s on %s",
		       d->aio_set ? "" : " (the default)", d->st.what),
	     xasprintf(
		     "Proxmox VE does not use io_uring on this storage (qemu-server, storage_allows_io_uring_default): \"%s\"; it falls back to native with cache.direct=on, threads otherwise",
		     quote));
}

static void rule_threads(struct rctx *c)
{
	const struct adv_disk *d = c->d;
	/* libvirt refuses io='native' unless the XML itself says none or
	   directsync, even where it would choose none (<shareable/>). */
	struct adv_edit e = {
		.aio = "native",
		.cache = !d->direct || (libvirt(c) && !d->cache_set) ? "none" :
								       NULL
	};

	if (!d->aio || strcmp(d->aio, "threads") || d->cdrom || !d->file ||
	    d->st.no_direct)
		return;
	/* on storage where io_uring hangs, threads is Proxmox's choice */
	if (!d->direct &&
	    (d->st.kind == ADV_ST_LVM || d->st.kind == ADV_ST_CIFS ||
	     d->st.kind == ADV_ST_KRBD) &&
	    pve(c))
		return;
	find(c, "aio-threads", &e, NULL,
	     xasprintf(
		     "aio=threads%s with cache=%s: every request is a blocking call in QEMU's thread pool",
		     d->aio_set ? "" : " (the default)", cache_of(d)),
	     xstrdup("aio=threads runs preadv/pwritev in a pool of up to 64 threads per AioContext; aio=native (Linux AIO, needs cache=none or directsync) and aio=io_uring (QEMU 5.0+, kernel 5.1+) submit asynchronously and batch; QEMU's own numbers put native and io_uring within a few percent of each other, so native with cache=none is the portable choice"));
}

static void rule_discard(struct rctx *c)
{
	const struct adv_disk *d = c->d;
	struct adv_edit e = { .discard = true };

	if (d->discard || !d->st.thin || !writable(d) || d->passthrough)
		return;
	find(c, "discard-missing", &e, NULL,
	     xasprintf("discard is not passed through to %s", d->st.what),
	     xasprintf(
		     "the guest's TRIM (fstrim, discard mount option) stops at QEMU, so blocks freed in the guest stay allocated on the host until the thin pool, image or file system is full; QEMU passes them on with discard=unmap (libvirt discard='unmap', Proxmox discard=on)%s",
		     d->bus == ADV_BUS_VIRTIO_BLK ?
			     "; virtio-blk discard needs QEMU 4.0+ and a Linux 5.0+ guest" :
			     ""));
}

/*
 * QEMU 4.0+ drops the destination's page cache on live migration
 * (file-posix drop-cache, default on), and libvirt then allows buffered
 * cache modes; before it, libvirt refuses. A machine type names the oldest
 * QEMU that can run it, so only a type older than 4.0 leaves the doubt.
 */
static void rule_migration(struct rctx *c)
{
	const struct adv_disk *d = c->d;
	struct adv_edit e = { .cache = d->write_cache ? "none" : "directsync" };
	bool old = c->vm->machine_version && c->vm->machine_version < 400;

	if (d->direct || !writable(d) || !page_cached(d) || pve(c) ||
	    (!old && !d->no_drop_cache))
		return;
	if (d->no_drop_cache)
		find(c, "migration-cache", &e, NULL,
		     xasprintf(
			     "cache=%s with drop-cache=off: after a live migration the destination can read stale cached data",
			     cache_of(d)),
		     xstrdup("QEMU's drop-cache (default on since 4.0) \"prevents stale data on the migration destination with cache.direct=off\"; with it off, only cache=none or directsync is safe to migrate"));
	else
		find(c, "migration-cache", &e, NULL,
		     xasprintf(
			     libvirt(c) || c->vm->libvirt_managed ?
				     "cache=%s on machine type %s: libvirt refuses to live-migrate this domain if its QEMU is older than 4.0" :
				     "cache=%s on machine type %s: live migration is unsafe if this QEMU is older than 4.0",
			     cache_of(d), c->vm->machine),
		     xstrdup("libvirt refuses with \"Migration may lead to data corruption if disks use cache other than none or directsync\" unless QEMU can drop the destination's page cache (file-posix drop-cache, QEMU 4.0+); a machine type only proves the QEMU is at least that version. Red Hat: cache=none \"is the only option to support migration\""));
}

static void rule_virtio_scsi_prop(struct rctx *c)
{
	struct adv_edit e = { .drop_scsi = true };

	if (!c->d->scsi_prop)
		return;
	if (libvirt(c)) {
		/* Nothing to drop from the XML: the LUN itself asks for it. */
		find(c, "virtio-blk-scsi", NULL,
		     xstrdup("move the LUN to a virtio-scsi controller, where device='lun' is scsi-block (SCSI passthrough that QEMU keeps): <target dev='sdX' bus='scsi'/> (a free sdX) with <controller type='scsi' model='virtio-scsi'/>; or make it device='disk' if the guest needs no SCSI commands"),
		     xstrdup("device='lun' on bus='virtio': libvirt starts it as virtio-blk with scsi=on, which QEMU 9.1 and later refuse"),
		     xstrdup("virtio-blk SCSI passthrough (scsi=on) was deprecated in QEMU 5.0 and removed in 9.1: the property no longer exists, so the domain does not start on a current QEMU"));
		return;
	}
	find(c, "virtio-blk-scsi", &e, NULL,
	     xstrdup("virtio-blk scsi= property: QEMU 9.1 and later refuse to start with it"),
	     xstrdup("deprecated since QEMU 5.0 and removed in 9.1: the property no longer exists (libvirt used to emit scsi=off)"));
}

static void rule_format(struct rctx *c)
{
	const struct adv_disk *d = c->d;
	const char *dot = d->file ? strrchr(d->file, '.') : NULL;
	struct adv_edit e = { .format = dot && !strcmp(dot, ".qcow2") ?
						"qcow2" :
						"raw" };

	if (d->format || d->cdrom || !d->file ||
	    (c->vm->source != ADV_SRC_QEMU && c->vm->source != ADV_SRC_PROCESS))
		return;
	find(c, "format-probed", &e, NULL,
	     xstrdup("no format= given: QEMU guesses the image format"),
	     xstrdup("QEMU probes the format and warns \"Image format was not specified ... probing guessed raw\"; a probed raw image has writes to its first sector restricted, and a guest that writes a qcow2 header there would change how the image opens next time"));
}

static bool before(const struct adv_finding *x, const struct adv_finding *y)
{
	if (x->vm != y->vm)
		return x->vm < y->vm;
	if (x->sev != y->sev)
		return x->sev > y->sev;
	return x->disk < y->disk;
}

void adv_rules_run(struct adv_report *r)
{
	static void (*const rules[])(struct rctx *) = {
		rule_refused,	   rule_native,		  rule_unsafe,
		rule_bad_property, rule_iothread_missing, rule_queue_size,
		rule_writeback,	   rule_writethrough,	  rule_btrfs,
		rule_emulated,	   rule_no_iothread,	  rule_iothread_ignored,
		rule_uring_hang,   rule_discard,	  rule_virtio_scsi_prop,
		rule_queues,	   rule_threads,	  rule_migration,
		rule_qemu10,	   rule_format,
	};
	size_t first = r->nf;

	for (size_t v = 0; v < r->nvms; v++) {
		const struct adv_vm *vm = r->vms[v];

		for (size_t i = 0; i < vm->ndisks; i++) {
			struct rctx c = { r, v, vm, (long)i, &vm->disks[i] };

			for (size_t k = 0; k < sizeof(rules) / sizeof(rules[0]);
			     k++)
				rules[k](&c);
		}
	}
	/* Stable insertion sort: ties keep the rule order above. */
	for (size_t i = first + 1; i < r->nf; i++) {
		struct adv_finding f = r->f[i];
		size_t j = i;

		for (; j > first && before(&f, &r->f[j - 1]); j--)
			r->f[j] = r->f[j - 1];
		r->f[j] = f;
	}
}
