// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rules about one disk: its controller (emulated or paravirtual), queue
 * settings, partitions, mount options and, with --probe, its measured read
 * latency. Facts behind each "why": reference/qemu.md sections 2.3, 5, 6.
 */
#include <stdio.h>
#include <string.h>

#include "doctor_impl.h"
#include "../../util/parse.h"

static bool virtual_disk(const struct dr_disk *d)
{
	return d->kind == DR_KIND_PARAVIRTUAL || d->kind == DR_KIND_EMULATED ||
	       d->kind == DR_KIND_EMULATED_NVME;
}

/* Host steps when QEMU (or nothing known) runs the VM. */
static bool host_is_qemu(const struct doctor_report *r)
{
	return r->virt.qemu_kvm || !r->virt.hypervisor[0];
}

static bool vmm_is(const struct doctor_report *r, const char *vmm)
{
	return !strcmp(r->virt.vmm, vmm);
}

static void other_hypervisor_bus(struct dr_finding *f,
				 const struct doctor_report *r)
{
	const char *hv = r->virt.hypervisor;

	if (!strcmp(hv, "vmware"))
		dr_fix_other(
			f,
			"VMware: power the VM off; Edit Settings > Add New Device > SCSI Controller, type VMware Paravirtual; move the disk to it (Virtual Device Node SCSI(1:0)); vmw_pvscsi is in every current Linux kernel");
	else if (!strcmp(hv, "microsoft"))
		dr_fix_other(
			f,
			"Hyper-V: attach the disk to a SCSI controller (Settings > SCSI Controller > Hard Drive), or use a Generation 2 VM, whose disks are all on SCSI (storvsc)");
	else if (!strcmp(hv, "xen"))
		dr_fix_other(
			f,
			"Xen: boot the guest with its PV drivers (xen-blkfront); an HVM guest then unplugs the emulated disks and uses xvdX");
	else if (!strcmp(hv, "oracle"))
		dr_fix_other(
			f,
			"VirtualBox: Settings > Storage: add a virtio-scsi controller and move the disk to it");
}

static void emulated(struct doctor_report *r, struct dr_disk *d)
{
	const struct dr_distro *ds = &r->sys.distro;
	bool qemu = host_is_qemu(r);
	enum dr_sev sev = DR_CRITICAL;
	struct dr_finding *f;
	char qd[48] = "";

	if (d->queue_depth >= 0)
		snprintf(qd, sizeof(qd), ", queue depth %lld",
			 (long long)d->queue_depth);
	if (!strcmp(d->bus, "ide")) {
		f = dr_add(r, sev, "emulated-ide", d->name, "%s is on an %s%s",
			   d->name, d->controller, qd);
		dr_why(f,
		       "an emulated IDE controller takes one command at a time and the hypervisor traps several register accesses for every command, so the guest gets a small fraction of what the host storage can do; virtio needs neither");
	} else if (!strcmp(d->bus, "sata-ahci")) {
		f = dr_add(r, sev, "emulated-sata", d->name, "%s is on an %s%s",
			   d->name, d->controller, qd);
		dr_why(f,
		       "AHCI queues up to 32 commands, but the hypervisor still emulates the controller register by register, trapping several times per command; virtio-blk passes requests through shared memory rings instead");
	} else if (!strcmp(d->bus, "usb")) {
		f = dr_add(r, sev, "emulated-usb", d->name, "%s is %s%s",
			   d->name, d->controller, qd);
		dr_why(f,
		       "every request goes through an emulated USB host controller and the USB mass-storage protocol, one command at a time: the slowest way QEMU offers to attach a disk");
	} else {
		if (!strcmp(r->virt.hypervisor, "vmware"))
			sev = DR_WARNING;
		f = dr_add(r, sev, "emulated-scsi", d->name, "%s is on an %s%s",
			   d->name, d->controller, qd);
		dr_why(f,
		       "the hypervisor emulates this SCSI HBA register by register (QEMU's and Proxmox's backend default, LSI 53C895A, included); a paravirtual controller (virtio-scsi, VMware PVSCSI) passes requests through shared memory instead");
	}
	if (qemu) {
		bool scsi = !strncmp(d->bus, "lsi", 3) ||
			    !strcmp(d->bus, "megaraid");

		dr_fix_summary(
			f,
			"put the virtio drivers into the guest's initramfs, then move %s to %s on the host",
			d->name,
			scsi ? "a virtio-scsi controller (the disk stays sdX)" :
			       "virtio-blk (it becomes vdX) or virtio-scsi");
		dr_cmd_initramfs_virtio(f, ds);
		if (scsi) {
			dr_fix_host(
				f, DR_HOST_QNAP,
				"shut the VM down; Virtualization Station > the VM > Settings > Storage: set the disk's interface (controller) to VirtIO");
			dr_fix_host(
				f, DR_HOST_PROXMOX,
				"Hardware > SCSI Controller > Edit: VirtIO SCSI single (qm set VMID --scsihw virtio-scsi-single); then stop and start the VM");
			dr_fix_host(
				f, DR_HOST_VIRT_MANAGER,
				"shut the VM down; Show virtual hardware details > Controller SCSI > Model: VirtIO SCSI; Apply");
			dr_fix_host(
				f, DR_HOST_LIBVIRT,
				"virsh edit VM: <controller type='scsi' index='0' model='virtio-scsi'/>; then virsh shutdown VM && virsh start VM");
		} else {
			dr_host_virtio_bus(f, r, d);
		}
	} else {
		dr_fix_summary(
			f, "move %s to the hypervisor's paravirtual controller",
			d->name);
		other_hypervisor_bus(f, r);
	}
	(void)ds;
}

static void emulated_nvme(struct doctor_report *r, struct dr_disk *d)
{
	struct dr_finding *f;

	if (!host_is_qemu(r))
		return;
	f = dr_add(r, DR_INFO, "emulated-nvme", d->name, "%s is an %s", d->name,
		   d->controller);
	dr_why(f,
	       "QEMU's NVMe controller queues well, but each doorbell write still traps into QEMU; the QEMU developers recommend virtio-blk where performance matters (thinner software stack)");
	dr_fix_summary(f, "move %s to virtio-blk on the host (it becomes vdX)",
		       d->name);
	dr_cmd_initramfs_virtio(f, &r->sys.distro);
	dr_host_virtio_bus(f, r, d);
}

static void single_queue(struct doctor_report *r, struct dr_disk *d)
{
	struct dr_finding *f;

	if ((strcmp(d->bus, "virtio-blk") && strcmp(d->bus, "virtio-scsi")) ||
	    d->hw_queues != 1 || r->sys.cpus < 2)
		return;
	f = dr_add(r, DR_INFO, "single-queue", d->name,
		   "%s has 1 request queue for %lld vCPUs", d->name,
		   (long long)r->sys.cpus);
	dr_why(f,
	       "every CPU submits through one virtqueue and takes completions from one interrupt; %s",
	       vmm_is(r, "firecracker") ?
		       "Firecracker's virtio-blk always has one" :
	       vmm_is(r, "cloud-hypervisor") ?
		       "Cloud Hypervisor gives a disk one queue unless its num_queues says more" :
	       vmm_is(r, "qemu-microvm") || vmm_is(r, "minimal-kvm") ?
		       "QEMU's virtio-blk-device has one unless num-queues says more (Firecracker's always has one)" :
		       "QEMU gives a virtio disk one queue per vCPU on machine types 5.2 and later, so under QEMU this means an older machine type or num-queues=1");
	if (vmm_is(r, "firecracker")) {
		/* Its virtio-blk device has one queue and no setting. */
		dr_fix_summary(
			f,
			"nothing to set: Firecracker gives every virtio-blk disk one queue and has no setting for more; spread the load over several drives if one queue limits it");
		return;
	}
	if (vmm_is(r, "cloud-hypervisor")) {
		dr_fix_summary(
			f,
			"give the disk one queue per vCPU: num_queues=%lld in its --disk option",
			(long long)r->sys.cpus);
		dr_fix_other(
			f,
			"Cloud Hypervisor: --disk path=IMAGE,num_queues=%lld (with the disk's other options as they are); then start the VM again",
			(long long)r->sys.cpus);
		return;
	}
	if (vmm_is(r, "qemu-microvm") || vmm_is(r, "minimal-kvm")) {
		dr_fix_summary(
			f,
			"%sgive the disk one queue per vCPU (num-queues=%lld) on its -device virtio-blk-device",
			vmm_is(r, "minimal-kvm") ? "under QEMU microvm, " : "",
			(long long)r->sys.cpus);
		dr_fix_other(
			f,
			"QEMU microvm: -device virtio-blk-device,drive=ID,num-queues=%lld%s",
			(long long)r->sys.cpus,
			vmm_is(r, "minimal-kvm") ?
				"; Firecracker has no such setting (one queue per disk)" :
				"");
		return;
	}
	dr_fix_summary(
		f,
		"give the disk one queue per vCPU (num-queues=%lld) on the host",
		(long long)r->sys.cpus);
	if (!host_is_qemu(r))
		return;
	dr_fix_host(
		f, DR_HOST_QNAP,
		"not a Virtualization Station setting; a VM created on a current version gets a newer machine type");
	dr_fix_host(
		f, DR_HOST_PROXMOX,
		"Hardware > Machine: the latest version (machine type 5.2 or later sets one queue per vCPU); for SCSI disks also SCSI Controller: VirtIO SCSI single with IO Thread on the disk");
	dr_fix_host(
		f, DR_HOST_VIRT_MANAGER,
		"the disk > XML tab: add queues='%lld' to its <driver> element; Apply, then shut down and start the VM",
		(long long)r->sys.cpus);
	dr_fix_host(
		f, DR_HOST_LIBVIRT,
		"virsh edit VM: on the disk's <driver> element add queues='%lld', keeping its other attributes (for virtio-scsi, on the <controller>'s <driver>)",
		(long long)r->sys.cpus);
}

static void scheduler(struct doctor_report *r, struct dr_disk *d)
{
	const char *want = d->hw_queues > 1 ? "none" : "mq-deadline";
	struct dr_finding *f;

	if (strcmp(d->scheduler, "bfq") && strcmp(d->scheduler, "cfq"))
		return;
	if (!virtual_disk(d) && dr_disk_class(d) == DR_CLASS_HDD)
		return;
	if (!strstr(d->schedulers, want))
		want = "none";
	f = dr_add(r, DR_WARNING, "io-scheduler", d->name,
		   "%s uses the %s I/O scheduler", d->name, d->scheduler);
	dr_why(f,
	       "%s spends CPU time on every request to share a spinning disk fairly, which an SSD, an NVMe device or a virtual disk (whose host schedules again) does not need; it lowers throughput at depth",
	       d->scheduler);
	dr_fix_summary(f, "use the %s scheduler for %s", want, d->name);
	dr_cmd_queue_attr(f, d, "scheduler", want);
}

static void write_through(struct doctor_report *r, struct dr_disk *d)
{
	struct dr_finding *f;

	if (!virtual_disk(d) || strcmp(d->write_cache, "write through"))
		return;
	if (vmm_is(r, "firecracker")) {
		f = dr_add(
			r, DR_WARNING, "write-through", d->name,
			"%s takes no flushes (write_cache: write through): Firecracker's cache_type Unsafe",
			d->name);
		dr_why(f,
		       "Firecracker offers a flush command only with cache_type Writeback; with Unsafe (its default) the guest's fsync never reaches the host, so writes the guest believes durable sit in the host page cache and are lost if the host crashes");
		dr_fix_summary(
			f,
			"if this disk's data must survive a host crash, set the drive's cache_type to Writeback on the host; do not write to /sys/block/%s/queue/write_cache in the guest",
			d->name);
		dr_fix_other(
			f,
			"Firecracker: the drive's configuration (PUT /drives/ID, or \"drives\" in the config file) with \"cache_type\": \"Writeback\"; then start the microVM again");
		return;
	}
	f = dr_add(
		r, DR_WARNING, "write-through", d->name,
		"%s has no volatile write cache (write_cache: write through)",
		d->name);
	dr_why(f,
	       "QEMU shows this for cache=writethrough and cache=directsync (write-cache=off): every write completes only after the host has flushed it to stable storage, which makes small writes many times slower than with cache=none");
	dr_fix_summary(
		f,
		"%s; do not write to /sys/block/%s/queue/write_cache in the guest, which only changes what the kernel believes and drops its flushes",
		host_is_qemu(r) || vmm_is(r, "qemu-microvm") ?
			"set the disk's cache mode to none on the host" :
			"find out on the host why the disk is offered without a write cache",
		d->name);
	if (vmm_is(r, "qemu-microvm"))
		dr_fix_other(
			f,
			"QEMU microvm: -drive ...,cache=none (cache.direct=on) for the disk, or -blockdev with cache.direct=on and -device virtio-blk-device,write-cache=on");
	if (!host_is_qemu(r))
		return;
	dr_fix_host(
		f, DR_HOST_QNAP,
		"shut the VM down; the VM's Settings > Storage > the disk > Cache mode: None");
	dr_fix_host(
		f, DR_HOST_PROXMOX,
		"Hardware > the disk > Edit > Cache: Default (No cache); then stop and start the VM");
	dr_fix_host(
		f, DR_HOST_VIRT_MANAGER,
		"the disk > Advanced options > Performance options > Cache mode: none; Apply, then shut down and start the VM");
	dr_fix_host(
		f, DR_HOST_LIBVIRT,
		"virsh edit VM: on the disk's <driver> element set cache='none' io='native', keeping its other attributes (name, type, discard, queues)");
}

static void discard(struct doctor_report *r, struct dr_disk *d)
{
	struct dr_finding *f;

	if (!virtual_disk(d) || d->discard_max_bytes != 0)
		return;
	f = dr_add(r, DR_INFO, "no-discard", d->name,
		   "%s does not accept discard (TRIM): discard_max_bytes is 0",
		   d->name);
	dr_why(f,
	       "blocks the guest frees are never returned to the host, so a thin image (qcow2, thin LVM, ZFS) only grows and SSD-backed host storage never learns they are free");
	if (vmm_is(r, "firecracker")) {
		dr_fix_summary(
			f,
			"nothing to set: no Firecracker drive setting enables discard, only Firecracker versions that implement it offer it (this one does not); reclaim space on the host instead");
		return;
	}
	dr_fix_summary(
		f,
		"enable discard (unmap) for the disk on the host, then trim weekly in the guest");
	dr_fix_cmd(f, "systemctl enable --now fstrim.timer");
	if (vmm_is(r, "qemu-microvm"))
		dr_fix_other(
			f,
			"QEMU microvm: -drive ...,discard=unmap for the disk (virtio-blk-device offers discard then)");
	if (!host_is_qemu(r))
		return;
	dr_fix_host(
		f, DR_HOST_PROXMOX,
		"Hardware > the disk > Edit > Discard (on VirtIO Block it needs a guest kernel 5.0 or later); then stop and start the VM");
	dr_fix_host(
		f, DR_HOST_VIRT_MANAGER,
		"the disk > Advanced options > Performance options > Discard mode: unmap; Apply");
	dr_fix_host(
		f, DR_HOST_LIBVIRT,
		"virsh edit VM: on the disk's <driver> element add discard='unmap', keeping its other attributes");
}

static void rotational(struct doctor_report *r, struct dr_disk *d)
{
	struct dr_finding *f;

	if (!virtual_disk(d) || d->bi.rotational != 1)
		return;
	if (!strcmp(d->bus, "virtio-blk")) {
		f = dr_add(r, DR_INFO, "rotational-virtio", d->name,
			   "%s reports rotational=1 (a spinning disk)",
			   d->name);
		dr_why(f,
		       "Linux's virtio-blk driver always sets rotational=1, whatever the host storage is, so anything that checks it (bfq, btrfs's ssd mode, tools that size I/O for seeking disks) treats an SSD-backed disk as a spinning one");
		dr_fix_summary(
			f,
			"if the host storage is SSD or NVMe, tell the guest's kernel so");
		dr_cmd_queue_attr(f, d, "rotational", "0");
		return;
	}
	f = dr_add(r, DR_INFO, "rotational-default", d->name,
		   "%s reports rotational=1 (a spinning disk)", d->name);
	dr_why(f,
	       "QEMU's SCSI and IDE disks report a spinning disk unless rotation_rate=1 is set, so anything that checks it (bfq, btrfs's ssd mode) treats an SSD-backed disk as a spinning one");
	dr_fix_summary(
		f,
		"if the host storage is SSD or NVMe, let the host say so (rotation_rate=1), or tell the guest's kernel");
	dr_cmd_queue_attr(f, d, "rotational", "0");
	if (!host_is_qemu(r))
		return;
	dr_fix_host(f, DR_HOST_PROXMOX,
		    "Hardware > the disk > Edit > Advanced: SSD emulation");
	dr_fix_host(
		f, DR_HOST_VIRT_MANAGER,
		"the disk > XML tab: add rotation_rate='1' to its <target> element");
	dr_fix_host(
		f, DR_HOST_LIBVIRT,
		"virsh edit VM: on the disk's <target> element add rotation_rate='1', keeping its dev and bus");
}

static void queue_misc(struct doctor_report *r, struct dr_disk *d)
{
	struct dr_finding *f;

	if (virtual_disk(d) && d->add_random == 1) {
		f = dr_add(
			r, DR_INFO, "add-random", d->name,
			"%s feeds I/O timings into the entropy pool (add_random=1)",
			d->name);
		dr_why(f,
		       "a virtual disk's completion times are no source of entropy, and collecting them costs a little on every I/O");
		dr_fix_summary(f, "turn it off for %s", d->name);
		dr_cmd_queue_attr(f, d, "add_random", "0");
	}
	if (d->nomerges == 2) {
		f = dr_add(r, DR_INFO, "nomerges", d->name,
			   "%s never merges adjacent requests (nomerges=2)",
			   d->name);
		dr_why(f,
		       "sequential small writes then reach the device, or the host, as many small requests instead of a few large ones");
		dr_fix_summary(f, "let the kernel merge again");
		dr_cmd_queue_attr(f, d, "nomerges", "0");
	}
}

static void alignment(struct doctor_report *r, struct dr_disk *d)
{
	for (size_t i = 0; i < d->nparts; i++) {
		const struct dr_part *p = &d->parts[i];
		struct dr_finding *f;

		if (p->start_sectors < 0 ||
		    (p->start_sectors * 512) % 4096 == 0)
			continue;
		f = dr_add(
			r, DR_WARNING, "partition-misaligned", d->name,
			"partition %s starts at sector %lld, which is not on a 4 KiB boundary",
			p->name, (long long)p->start_sectors);
		dr_why(f,
		       "every 4 KiB filesystem block then straddles two 4 KiB blocks of the storage below (4K-sector disks, SSD pages, image clusters), so writes turn into read-modify-write");
		dr_fix_summary(
			f,
			"recreate the partition at a 1 MiB boundary (what parted and fdisk do by default) and restore the data onto it");
	}
}

static bool has_opt(const char *opts, const char *opt)
{
	size_t l = strlen(opt);

	for (const char *p = opts; p && *p;) {
		size_t n = strcspn(p, ",");

		if (n == l && !strncmp(p, opt, l))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

static void mount_options(struct doctor_report *r, struct dr_disk *d)
{
	for (size_t i = 0; i < d->nmounts; i++) {
		const struct dr_mount *m = &d->mounts[i];
		struct dr_finding *f;

		if (has_opt(m->options, "nobarrier") ||
		    has_opt(m->options, "barrier=0")) {
			f = dr_add(
				r, DR_WARNING, "mount-nobarrier", d->name,
				"%s (%s on %s) is mounted without write barriers",
				m->target, m->fstype, m->dev);
			dr_why(f,
			       "without barriers the filesystem does not flush the disk's write cache at commit, so a power loss or host crash can corrupt it; tuned removed its nobarrier setting for this reason");
			dr_fix_summary(
				f,
				"remove nobarrier/barrier=0 from %s's options in /etc/fstab and remount",
				m->target);
			dr_fix_cmd(f, "mount -o remount,barrier %s", m->target);
		}
		if (has_opt(m->options, "sync")) {
			f = dr_add(r, DR_WARNING, "mount-sync", d->name,
				   "%s (%s) is mounted with the sync option",
				   m->target, m->fstype);
			dr_why(f,
			       "every write waits for the disk, as if each were followed by fsync: small writes become many times slower");
			dr_fix_summary(
				f,
				"remove sync from %s's options in /etc/fstab unless an application needs it, and remount",
				m->target);
			dr_fix_cmd(f, "mount -o remount,async %s", m->target);
		}
		if (virtual_disk(d) && has_opt(m->options, "discard")) {
			f = dr_add(r, DR_INFO, "mount-discard", d->name,
				   "%s (%s) is mounted with online discard",
				   m->target, m->fstype);
			dr_why(f,
			       "every delete then sends discards that wait for the host; a weekly fstrim does the same work in one batch");
			dr_fix_summary(
				f,
				"remove discard from %s's options in /etc/fstab and trim weekly",
				m->target);
			dr_fix_cmd(f, "mount -o remount,nodiscard %s",
				   m->target);
			dr_fix_cmd(f, "systemctl enable --now fstrim.timer");
		}
	}
}

static const char *class_noun(enum dr_class c)
{
	static const char *const n[] = { "virtual disk", "NVMe device",
					 "SATA/SAS SSD", "spinning disk" };

	return n[c];
}

static void probe(struct doctor_report *r, struct dr_disk *d)
{
	const struct dr_probe *p = &d->probe;
	uint64_t good, warn, crit;
	char a[16], b[16], c[16];
	struct dr_finding *f;

	if (!p->done)
		return;
	if (p->error[0]) {
		if (strncmp(p->error, "not probed", 10)) {
			f = dr_add(r, DR_INFO, "probe-failed", d->name,
				   "the read probe of %s did not complete: %s",
				   d->name, p->error);
			dr_why(f,
			       "without it doctor cannot say how fast the disk answers");
			dr_fix_summary(
				f,
				"make the device readable to iolab and probe again");
		}
		if (!p->ios)
			return;
	}
	if (!p->ios)
		return;
	dr_class_bounds(p->cls, &good, &warn, &crit);
	if (p->cached) {
		f = dr_add(
			r, DR_INFO, "probe-cached", d->name,
			"%s answered 4 KiB reads in %s (median): faster than any disk",
			d->name, fmt_ns((double)p->p50_ns, a, sizeof(a)));
		dr_why(f,
		       "a cache answered: the host's page cache (QEMU cache=writeback or unsafe) or the array's; benchmarks of this disk measure that cache, and writes cached the same way are lost on a host crash unless flushed");
		dr_fix_summary(
			f,
			"for honest figures and safe writes use cache=none on the host");
		return;
	}
	if (p->p50_ns > warn) {
		f = dr_add(
			r, p->p50_ns > crit ? DR_CRITICAL : DR_WARNING,
			"probe-slow", d->name,
			"%s takes %s per 4 KiB random read at queue depth 1 (median; p99 %s, %.0f IOPS)",
			d->name, fmt_ns((double)p->p50_ns, a, sizeof(a)),
			fmt_ns((double)p->p99_ns, b, sizeof(b)), p->iops);
		dr_why(f,
		       "a healthy %s answers a 4 KiB read at queue depth 1 in under %s%s; at %s every single-block read (a database's, a boot's) waits %.0fx that long",
		       class_noun(p->cls), fmt_ns((double)good, c, sizeof(c)),
		       p->cls == DR_CLASS_VIRTUAL ?
			       " on SSD-backed storage (spinning disks take 5-15 ms)" :
			       "",
		       fmt_ns((double)p->p50_ns, a, sizeof(a)),
		       (double)p->p50_ns / (double)good);
		dr_fix_summary(
			f,
			"fix the critical findings on %s first (controller, cache mode); if none remain, the host storage itself is slow or saturated: measure it on the host with iolab run",
			d->name);
	}
	if (p->p99_ns > warn && p->p50_ns && p->p99_ns > 10 * p->p50_ns) {
		f = dr_add(
			r, DR_WARNING, "probe-stalls", d->name,
			"%s: 1 read in 100 takes %s or more, %.0fx the median %s (max %s)",
			d->name, fmt_ns((double)p->p99_ns, a, sizeof(a)),
			(double)p->p99_ns / (double)p->p50_ns,
			fmt_ns((double)p->p50_ns, b, sizeof(b)),
			fmt_ns((double)p->max_ns, c, sizeof(c)));
		dr_why(f,
		       "stalls this long come from contention on the host (other VMs, a host page cache flushing, thin-provisioning allocation) rather than from the disk itself");
		dr_fix_summary(
			f,
			"look at the host: iolab run on the host storage, other VMs' load, and the disk's cache mode");
	}
}

void dr_rules_disk(struct doctor_report *r, struct dr_disk *d)
{
	if (d->kind == DR_KIND_EMULATED)
		emulated(r, d);
	else if (d->kind == DR_KIND_EMULATED_NVME)
		emulated_nvme(r, d);
	single_queue(r, d);
	scheduler(r, d);
	write_through(r, d);
	discard(r, d);
	rotational(r, d);
	queue_misc(r, d);
	alignment(r, d);
	mount_options(r, d);
	probe(r, d);
}
