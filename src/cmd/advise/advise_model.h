/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `iolab advise` knows about VMs: every reader (QEMU command line,
 * libvirt XML, Proxmox config, running process) resolves each disk to one
 * struct adv_disk with the same fields (backing file, format, bus, the
 * three cache knobs, aio, iothread, queues), so that the rules are written
 * once. Each disk also remembers which source items (option strings, XML
 * elements, config lines) configure it, so that a fix can be printed as
 * the corrected item in the source's own syntax.
 */
#ifndef IOLAB_CMD_ADVISE_ADVISE_MODEL_H
#define IOLAB_CMD_ADVISE_ADVISE_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "advise_kv.h"
#include "../../util/warn.h"

enum adv_source {
	ADV_SRC_QEMU, /* --qemu-args / --qemu-args-file */
	ADV_SRC_PROCESS, /* a running qemu-system-* */
	ADV_SRC_LIBVIRT,
	ADV_SRC_PROXMOX,
};

enum adv_syntax {
	ADV_SYN_QEMU_KV, /* -drive file=x,cache=none */
	ADV_SYN_QEMU_JSON, /* -blockdev '{"driver":"file",...}' */
	ADV_SYN_XML, /* <driver name='qemu' cache='none'/> */
	ADV_SYN_PVE, /* scsi0: local-lvm:vm-100-disk-0,cache=none */
};

/* One line or element of the source. */
struct adv_item {
	enum adv_syntax syn;
	char *head; /* "-drive", "driver" (XML element), "scsi0" (Proxmox) */
	struct kvl kv;
	char *text; /* XML element text (<iothreads>2</iothreads>) or NULL */
	char *inner; /* XML child elements as written (a <driver>'s
			<iothreads> queue mapping), one per line, or NULL */
	char *where; /* "vm.xml:12", "argv[7]", "100.conf:5" */
};

enum adv_bus {
	ADV_BUS_UNKNOWN,
	ADV_BUS_VIRTIO_BLK,
	ADV_BUS_VIRTIO_SCSI,
	ADV_BUS_SCSI_EMULATED, /* LSI, MegaRAID, pvscsi, ... */
	ADV_BUS_IDE,
	ADV_BUS_SATA, /* AHCI */
	ADV_BUS_NVME,
	ADV_BUS_USB,
	ADV_BUS_FLOPPY, /* the PC's floppy controller */
	ADV_BUS_OTHER,
};

enum adv_os { ADV_OS_UNKNOWN, ADV_OS_LINUX, ADV_OS_WINDOWS, ADV_OS_OTHER };

enum adv_storage_kind {
	ADV_ST_UNKNOWN,
	ADV_ST_FILE, /* a file on a local filesystem */
	ADV_ST_BLOCK, /* a block device, nothing more known */
	ADV_ST_LVM, /* thick LVM logical volume */
	ADV_ST_LVM_THIN,
	ADV_ST_ZVOL,
	ADV_ST_KRBD, /* Ceph RBD mapped by the kernel (/dev/rbdN) */
	ADV_ST_RBD, /* Ceph RBD through librbd (QEMU's rbd driver) */
	ADV_ST_CIFS,
	ADV_ST_NFS,
	ADV_ST_ISCSI,
	ADV_ST_NETWORK, /* nbd, gluster, ssh, http... */
};

struct adv_storage {
	enum adv_storage_kind kind;
	bool thin; /* space is allocated on write: discard gives it back */
	bool no_direct; /* O_DIRECT is wrong here (Proxmox btrfs without
			   nocow: qemu-server leaves it off on purpose) */
	char what[128]; /* "LVM thin volume", "sparse file, 3% allocated" */
};

#define ADV_MAX_BADPROPS 4

/*
 * One corrected line of a disk's fix and what it takes the place of in
 * the input, so that --write-fixed and --diff can put it there.
 */
struct adv_repl {
	int item; /* the item it replaces, -1: a new line or element */
	char *text; /* the corrected line(s); "" with item >= 0: delete */
};

/* Items that configure a disk, by role; -1 when absent. */
enum adv_slot {
	ADV_SLOT_DRIVE, /* -drive, libvirt <driver>, Proxmox drive line */
	ADV_SLOT_FORMAT, /* -blockdev format node */
	ADV_SLOT_PROTO, /* -blockdev protocol node (may equal FORMAT) */
	ADV_SLOT_DEVICE, /* -device, libvirt <target> */
	ADV_SLOT_CTRL, /* SCSI/AHCI controller (-device, <controller>) */
	ADV_SLOT_ADDR, /* libvirt <address> */
	ADV_SLOT_CTRL_DRIVER, /* libvirt <controller><driver> */
	ADV_SLOT_N,
};

struct adv_disk {
	char *id; /* vda, scsi0, virtio-disk0, drive0 */
	char *file; /* backing file, device or URL */
	char *volume; /* Proxmox volume id as written, else NULL */
	char *format; /* raw, qcow2...; NULL: QEMU probes it */
	char *protocol; /* file, host_device, rbd, nbd...; NULL unknown */
	enum adv_bus bus;
	char *model; /* "virtio-blk-pci", "scsi-hd on lsi53c895a" */
	bool cdrom, readonly, temporary; /* temporary: snapshot=on */
	bool passthrough; /* scsi-block/scsi-generic/lun */
	/* The three knobs behind cache= (reference/qemu.md 1.1). */
	bool direct, no_flush, write_cache;
	bool cache_set; /* the source sets the cache mode */
	char *cache_default; /* who chose it when not set ("QEMU default") */
	char *aio; /* threads|native|io_uring; NULL: not a file/host_device node */
	bool aio_set;
	char *iothread; /* NULL: the main loop */
	bool iothread_asked; /* the source asks for one (even if ignored) */
	bool iothread_ignored; /* ...but this bus/controller ignores it */
	bool ctrl_shared; /* one virtio-scsi controller for several disks */
	unsigned queues; /* 0: not applicable */
	bool queues_auto; /* QEMU's default (one per vCPU) */
	unsigned queue_size; /* 0: default */
	bool discard; /* discard/unmap passed through to the storage */
	bool scsi_prop; /* virtio-blk scsi= given (removed in QEMU 9.1) */
	bool direct_above; /* cache.direct=on above the protocol node only */
	bool no_drop_cache; /* drop-cache=off: stale pages after migration */
	struct adv_badprop {
		char *bad, *good; /* misspelt/unsupported, and the right name */
		int slot; /* the item that has it */
	} badprop[ADV_MAX_BADPROPS];
	int nbadprop;
	struct adv_storage st;
	char *where;
	int slot[ADV_SLOT_N];
	char *proto_prefix; /* "file." for an inline -blockdev child */
	char *refused; /* why the managing tool (Proxmox) refuses this
			  disk as configured, or NULL */
	char *refused_fix; /* a fix that tool takes */
	char *refused_media; /* Proxmox: why an ISO volume without media=
				is refused (its fix is an edit), or NULL */
	char *corrected; /* its own lines with every fix applied (the VM's
			    lines they need are in vm->corrected), or NULL */
	struct adv_repl *repl; /* every line its fix writes (its own and
				  the VM's), with what each replaces */
	size_t nrepl;
};

/* VM-level items, by role; -1 when absent. */
enum adv_vslot {
	ADV_VSLOT_SCSIHW, /* Proxmox scsihw: */
	ADV_VSLOT_BOOT, /* Proxmox boot: */
	ADV_VSLOT_IOTHREADS, /* libvirt <iothreads> */
	ADV_VSLOT_N,
};

struct adv_vm {
	enum adv_source source;
	char *name;
	char *origin; /* "libvirt:/etc/libvirt/qemu/x.xml", "process:1234" */
	unsigned vcpus;
	char *machine; /* as written, NULL: the default */
	int machine_version; /* major*100+minor; 0 unversioned or unknown */
	bool machine_old_queues; /* machine type < 5.2: one queue per disk */
	bool q35; /* AHCI, not PIIX IDE, behind ide.N buses */
	enum adv_os os;
	char *os_hint; /* why we think so: "ostype: l26" */
	bool libvirt_managed;
	char **iothreads; /* defined iothread ids */
	size_t niothreads;
	struct adv_disk *disks;
	size_t ndisks;
	struct adv_item *items;
	size_t nitems;
	int vslot[ADV_VSLOT_N];
	char *corrected; /* the VM-wide lines the disks' fixes need, each
			    once (scsihw:, boot:, <iothreads>, -object,
			    a shared controller); NULL: none */
};

struct adv_edit;

enum adv_severity { ADV_INFO, ADV_WARNING, ADV_ERROR };

struct adv_finding {
	enum adv_severity sev;
	const char *rule;
	size_t vm;
	long disk; /* -1: the VM as a whole */
	char *message, *why, *fix;
	bool fix_is_advice; /* fix is a sentence, not lines to paste */
	struct adv_edit *edit; /* what it changes, or NULL (advice only) */
	bool overridden; /* a change of an earlier rule wins over one of its own */
};

struct adv_report {
	struct adv_vm **vms;
	size_t nvms;
	struct adv_finding *f;
	size_t nf;
	struct warnings warnings;
};

/* What readers may look at beyond the configuration itself. */
struct adv_ctx {
	bool probe; /* stat the files and devices the configuration names */
	const char *proc_root; /* "/proc" or a captured tree */
	const char *cwd; /* relative paths are relative to this (a process's
			    /proc/PID/cwd), NULL: not probed */
};

struct adv_vm *adv_vm_new(enum adv_source source, const char *origin);
void adv_vm_free(struct adv_vm *vm);
/* Append an item; returns its index. */
int adv_vm_add_item(struct adv_vm *vm, enum adv_syntax syn, const char *head,
		    const char *where);
/* Append a disk with every slot -1; the pointer lives until the next add. */
struct adv_disk *adv_vm_add_disk(struct adv_vm *vm);
void adv_vm_add_iothread(struct adv_vm *vm, const char *id);
/* Record a property the device or source does not have (@good: the
   right spelling, or NULL). */
void adv_disk_bad_prop(struct adv_disk *d, const char *bad, const char *good,
		       int slot);
bool adv_vm_has_iothread(const struct adv_vm *vm, const char *id);

/* Name of the cache mode the three knobs make ("none", "unsafe", ...). */
const char *adv_cache_name(bool direct, bool no_flush, bool write_cache);
/* The knobs of a cache= value; false if @name is not one. */
bool adv_cache_knobs(const char *name, bool *direct, bool *no_flush,
		     bool *write_cache);
const char *adv_bus_name(enum adv_bus bus);
const char *adv_severity_name(enum adv_severity s);
const char *adv_os_name(enum adv_os os);

/*
 * Parse "pc-q35-7.2", "pc-i440fx-2.11", "pc-q35-rhel9.2.0", "pc+pve0" and
 * set vm->machine, vm->q35 and vm->machine_old_queues.
 */
void adv_vm_set_machine(struct adv_vm *vm, const char *machine);

void adv_report_add_vm(struct adv_report *r, struct adv_vm *vm);
void adv_report_add_finding(struct adv_report *r, enum adv_severity sev,
			    const char *rule, size_t vm, long disk,
			    char *message, char *why, char *fix);
/* Counts by severity. */
size_t adv_report_count(const struct adv_report *r, enum adv_severity s);
void adv_report_free(struct adv_report *r);

#endif
