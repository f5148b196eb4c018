/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `iolab doctor`: what a Linux guest's disks sit on and why they may be
 * slow. doctor_collect() reads everything through a struct fsview (the live
 * system or a captured tree), optionally probes each disk's read latency,
 * and applies the rules; the renderers (doctor_text.c,
 * doctor_json.c) print the model. Nothing here prints.
 *
 * Numbers that could not be read are DR_UNKNOWN (-1); strings are "".
 */
#ifndef IOLAB_CMD_DOCTOR_DOCTOR_DIAG_H
#define IOLAB_CMD_DOCTOR_DOCTOR_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../core/blkinfo.h"
#include "../../util/strv.h"

struct err;
struct fsview;

#define DR_UNKNOWN (-1)

enum dr_sev { DR_INFO, DR_WARNING, DR_CRITICAL };

/* The host-side tools a fix names a setting in, in this order. */
enum dr_host {
	DR_HOST_QNAP,
	DR_HOST_PROXMOX,
	DR_HOST_VIRT_MANAGER,
	DR_HOST_LIBVIRT,
	DR_HOST_COUNT,
};

/*
 * One setting a fix's commands change. Settings the kernel keeps as one
 * (vm.dirty_bytes and vm.dirty_ratio: writing one zeroes the other) share
 * a key, so two fixes that set them differently are seen to clash.
 */
struct dr_knob {
	char key[80]; /* "vm.dirty limit", "/sys/block/vda/queue/scheduler" */
	char shown[96]; /* "vm.dirty_bytes=1073741824" */
	char via[40]; /* "" named by the fix; else the tuned profile it rides */
	size_t cmd_first, cmd_count; /* the commands that set it */
	bool lost; /* another finding's value won (doctor_merge.c) */
	char winner[96], winner_id[40]; /* its shown value, its finding */
};

struct dr_fix {
	char *summary; /* one sentence: what to change */
	struct strv commands; /* guest shell commands, for this distribution */
	char *host[DR_HOST_COUNT]; /* the host-side setting, or NULL */
	char *host_other; /* VMware, Hyper-V, ... when that is the hypervisor */
	struct dr_knob *knobs; /* what the commands set (doctor_merge.c) */
	size_t nknobs;
	struct strv notes; /* "not applied: ..., because ..." */
	bool overridden; /* another finding's setting won over one of ours */
};

struct dr_finding {
	enum dr_sev sev;
	char id[40]; /* stable: "emulated-ide", "probe-slow", ... */
	char disk[64]; /* "" for the whole system */
	char *message; /* what was seen */
	char *why; /* why it matters, one sentence */
	struct dr_fix fix;
};

enum dr_family {
	DR_FAM_UNKNOWN,
	DR_FAM_DEBIAN,
	DR_FAM_RHEL,
	DR_FAM_SUSE,
	DR_FAM_ARCH,
	DR_FAM_ALPINE,
};

struct dr_distro {
	char id[32], id_like[96], version_id[32], name[128];
	enum dr_family family;
	char pm[8]; /* "apt", "dnf", "yum", "zypper", "pacman", "apk", "" */
};

struct dr_system {
	char kernel[96]; /* release, "" if unknown */
	int64_t cpus; /* online CPUs */
	int64_t mem_total_kb;
	struct dr_distro distro;
};

struct dr_virt {
	int hypervisor_bit; /* CPUID.1:ECX[31]: 0, 1, or DR_UNKNOWN */
	char cpuid_vendor[16]; /* leaf 0x40000000, "KVMKVMKVM" */
	bool cpuid_known;
	/* "kvm", "qemu" (TCG), "xen", "vmware", "microsoft", "bhyve", "oracle",
	   "parallels", "amazon", "google", "vm-other", "none", "" unknown */
	char hypervisor[16];
	char hypervisor_name[64]; /* for people */
	char sys_vendor[64], product_name[96], product_version[64];
	char board_vendor[64], bios_vendor[64], bios_version[96];
	char machine[16]; /* "i440fx", "q35", "" */
	char platform[24]; /* "proxmox", "qnap", "openstack", ... or "" */
	char xen_type[16]; /* /sys/hypervisor/type */
	bool kvm_clock; /* the kvm-clock clocksource is offered */
	bool dmi_present; /* SMBIOS tables (/sys/class/dmi/id) exist */
	bool container_known;
	char container[24]; /* "" none, else "docker", "podman", "lxc", ... */
	char container_note[192]; /* evidence, or why a hint was discounted */
	bool virtualized; /* a hypervisor was found */
	bool qemu_kvm; /* QEMU (a PC machine): the four host tools apply */
	/* The machine whose settings a fix names: "qemu-pc", "qemu-microvm",
	   "firecracker", "cloud-hypervisor", "minimal-kvm" (no SMBIOS:
	   Firecracker or QEMU microvm), "hyper-v", "vmware", "xen",
	   "bare-metal", or "" when none of these is known. */
	char vmm[24];
	char acpi_oem[8], acpi_table[12]; /* the DSDT's OEM and table ids */
	char evidence[160]; /* devices that show a VM CPUID hides, "" none */
};

enum dr_mod_state {
	DR_MOD_UNKNOWN,
	DR_MOD_MISSING,
	DR_MOD_AVAILABLE,
	DR_MOD_LOADED,
	DR_MOD_BUILTIN
};

#define DR_NMODS 5

struct dr_module {
	const char *name; /* "virtio_blk" */
	enum dr_mod_state state;
};

struct dr_guest {
	bool agent_port; /* the org.qemu.guest_agent.0 virtio port exists */
	char agent_port_path[128]; /* where it was seen */
	int agent_running; /* a qemu-ga process: 0, 1, DR_UNKNOWN */
	int agent_installed; /* qemu-ga binary present: 0, 1 */
	struct dr_module mods[DR_NMODS];
	int64_t io_uring_disabled; /* DR_UNKNOWN: no such sysctl (< 6.6) */
	int64_t aio_max_nr, aio_nr;
	int64_t dirty_ratio, dirty_background_ratio;
	int64_t dirty_bytes, dirty_background_bytes;
	int64_t dirty_expire_cs, swappiness;
	char tuned_profile[64]; /* "" if none or not installed */
	bool tuned_installed;
	bool procs_known;
	struct strv procs; /* distinct process names (comm) */
};

struct dr_part {
	char name[64];
	int64_t start_sectors; /* 512-byte sectors */
	int64_t size_bytes;
};

struct dr_holder {
	char name[64]; /* "dm-0", "md127" */
	char of[64]; /* the disk or partition it holds */
	char kind[16]; /* "lvm", "crypt", "multipath", "dm", "md" */
	char label[128]; /* dm name "vg-root" or md level */
};

struct dr_mount {
	char dev[64]; /* "vda1" or "dm-0" */
	char *target, *fstype, *options;
};

struct dr_swap {
	char dev[64];
	char *path;
};

enum dr_class { DR_CLASS_VIRTUAL, DR_CLASS_NVME, DR_CLASS_SSD, DR_CLASS_HDD };

struct dr_probe {
	bool done; /* measured (or replayed from a capture) */
	char error[256]; /* why it could not run, "" if it ran */
	char engine[16];
	uint64_t bs, ios, errors;
	double runtime_s, iops, mean_ns;
	uint64_t min_ns, p50_ns, p99_ns, max_ns;
	bool cached; /* faster than any disk: a cache answered */
	enum dr_class cls; /* what kind of disk it was judged as */
};

enum dr_kind {
	DR_KIND_PARAVIRTUAL, /* virtio, Xen vbd, pvscsi, storvsc */
	DR_KIND_EMULATED, /* IDE, AHCI, LSI ... under a hypervisor */
	DR_KIND_EMULATED_NVME, /* QEMU's NVMe: emulated, but queued */
	DR_KIND_NATIVE, /* real hardware or passthrough */
	DR_KIND_STACKED, /* device-mapper, md */
	DR_KIND_MEMORY, /* zram, brd, loop */
	DR_KIND_OTHER,
};

struct dr_disk {
	char name[64], devno[16];
	struct blkinfo bi; /* driver, model, rotational, block sizes */
	char bus[24]; /* "virtio-blk", "ide", "sata-ahci", "nvme", ... */
	char controller[64]; /* for people: "emulated IDE (PIIX)" */
	enum dr_kind kind;
	char pci_id[16]; /* "1af4:1042", "" */
	int64_t size_bytes, removable, read_only;
	char scheduler[24], schedulers[96];
	int64_t nr_requests, hw_queues, queue_depth;
	int64_t add_random, nomerges, rq_affinity, fua;
	int64_t discard_max_bytes, discard_granularity;
	int64_t max_sectors_kb, max_hw_sectors_kb, read_ahead_kb;
	int64_t min_io, opt_io;
	char write_cache[16];
	struct strv slaves; /* stacked devices: what they are built on */
	struct dr_part *parts;
	size_t nparts;
	struct dr_holder *holders;
	size_t nholders;
	struct dr_mount *mounts;
	size_t nmounts;
	struct dr_swap *swaps;
	size_t nswaps;
	struct dr_probe probe;
};

struct doctor_opts {
	bool all; /* loop, ram, zram, CD-ROM and floppy too */
	bool probe; /* measure read latency of each disk */
	uint64_t probe_ns; /* per disk */
	uint64_t observe_ns; /* watch the disks' counters this long; 0 no */
	bool progress; /* probe progress on stderr */
};

struct doctor_report {
	bool live; /* the running system, not a tree */
	char captured_by[128]; /* a tree's /.iolab/capture, "" if none */
	struct dr_system sys;
	struct dr_virt virt;
	struct dr_guest guest;
	struct dr_disk *disks;
	size_t ndisks;
	struct dr_finding *findings; /* most severe first */
	size_t nfindings;
	struct strv unreadable; /* "path: reason" of files doctor needed */
	struct strv fix_plan; /* every finding's commands merged, in order */
};

/*
 * Diagnose the system the view shows. Missing or unreadable files are
 * listed in r->unreadable, never fatal. Fails (with @err) only if a
 * requested probe cannot run at all.
 */
bool doctor_collect(const struct fsview *v, const struct doctor_opts *o,
		    struct doctor_report *r, struct err *err);
void doctor_free(struct doctor_report *r);
/* Count of findings of this severity. */
size_t doctor_count(const struct doctor_report *r, enum dr_sev sev);
const char *dr_sev_name(enum dr_sev s);
const char *dr_kind_name(enum dr_kind k);
const char *dr_class_name(enum dr_class c);
const char *dr_mod_state_name(enum dr_mod_state s);
extern const char *const dr_host_names[DR_HOST_COUNT];
extern const char *const dr_host_keys[DR_HOST_COUNT];

#endif
