// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rules about the whole guest: the hypervisor (TCG, container), the QEMU
 * guest agent, virtio drivers, io_uring, AIO and dirty-page limits, tuned,
 * device names a bus change would break. Per-disk rules: doctor_rules_disk.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_impl.h"
#include "../../util/parse.h"

#define ORACLE_AIO_MAX_NR 1048576 /* Oracle preinstall, tuned "oracle" */
#define DIRTY_LARGE_BYTES (4ull << 30)

static void tcg(struct doctor_report *r)
{
	struct dr_finding *f;

	if (strcmp(r->virt.cpuid_vendor, "TCGTCGTCGTCG"))
		return;
	f = dr_add(r, DR_CRITICAL, "hypervisor-tcg", NULL,
		   "QEMU runs this VM without KVM, in TCG software emulation");
	dr_why(f,
	       "every guest instruction and every device access is translated by QEMU in software instead of running on the CPU's virtualization extensions, so the whole VM, its disk I/O included, runs many times slower than under KVM");
	dr_fix_summary(
		f,
		"run the VM under KVM: the host CPU needs VT-x or AMD-V enabled in its firmware and /dev/kvm present");
	dr_fix_host(
		f, DR_HOST_QNAP,
		"Virtualization Station uses KVM when the NAS CPU offers VT-x/AMD-V; enable it in the NAS firmware if it has such a setting, or move the VM to a NAS whose CPU has it");
	dr_fix_host(
		f, DR_HOST_PROXMOX,
		"Options > KVM hardware virtualization: Yes (qm set VMID --kvm 1); then stop and start the VM");
	dr_fix_host(
		f, DR_HOST_VIRT_MANAGER,
		"Overview > Hypervisor: KVM (create the VM anew if only QEMU TCG is offered: the host lacks /dev/kvm)");
	dr_fix_host(f, DR_HOST_LIBVIRT,
		    "<domain type='kvm'> instead of <domain type='qemu'>");
}

/* QEMU by DMI, but neither KVM's CPUID signature nor kvm-clock. */
static void no_kvm(struct doctor_report *r)
{
	const struct dr_virt *v = &r->virt;
	struct dr_finding *f;

	if (strcmp(v->hypervisor, "qemu") || !v->cpuid_known ||
	    !strcmp(v->cpuid_vendor, "TCGTCGTCGTCG") || v->kvm_clock)
		return;
	f = dr_add(
		r, DR_WARNING, "hypervisor-no-kvm", NULL,
		"QEMU runs this VM with no sign of KVM (no KVM CPUID signature, no kvm-clock)");
	dr_why(f,
	       "either QEMU emulates the CPU in software (TCG), which makes the whole VM many times slower, or KVM is hidden from the guest (kvm=off), which also hides its paravirtual clock");
	dr_fix_summary(
		f,
		"make sure the VM runs under KVM (the host needs /dev/kvm and VT-x/AMD-V) and that kvm=off is set only where a driver requires it");
	dr_fix_host(
		f, DR_HOST_PROXMOX,
		"Options > KVM hardware virtualization: Yes (qm set VMID --kvm 1)");
	dr_fix_host(f, DR_HOST_VIRT_MANAGER, "Overview > Hypervisor: KVM");
	dr_fix_host(
		f, DR_HOST_LIBVIRT,
		"<domain type='kvm'>, and no <kvm><hidden state='on'/></kvm> in <features>");
}

/* The other hypervisors' guest agents, the analogue of qemu-ga. */
static void other_agents(struct doctor_report *r)
{
	const struct dr_guest *g = &r->guest;
	struct dr_finding *f;

	if (!g->procs_known || r->virt.container[0])
		return;
	if (!strcmp(r->virt.hypervisor, "vmware") &&
	    !strv_has(&g->procs, "vmtoolsd")) {
		f = dr_add(
			r, DR_WARNING, "vmware-tools-not-running", NULL,
			"VMware Tools (vmtoolsd from open-vm-tools) is not running");
		dr_why(f,
		       "without it vSphere cannot quiesce the filesystems for snapshots and backups nor shut the guest down cleanly");
		dr_fix_summary(f, "install and start open-vm-tools");
		dr_cmd_install(f, &r->sys.distro, "open-vm-tools");
		dr_cmd_enable(f, &r->sys.distro,
			      r->sys.distro.family == DR_FAM_DEBIAN ?
				      "open-vm-tools" :
				      "vmtoolsd");
	}
	if (!strcmp(r->virt.hypervisor, "microsoft") &&
	    !strv_has(&g->procs, "hv_vss_daemon") &&
	    !strv_has(&g->procs, "hypervvssd")) {
		f = dr_add(
			r, DR_INFO, "hyperv-daemons-not-running", NULL,
			"the Hyper-V VSS daemon (hv_vss_daemon) is not running");
		dr_why(f,
		       "Hyper-V then takes backups and checkpoints of this VM without freezing its filesystems");
		dr_fix_summary(
			f,
			"install the Hyper-V daemons package and make sure its VSS service runs");
		dr_cmd_install(f, &r->sys.distro,
			       r->sys.distro.family == DR_FAM_SUSE ?
				       "hyper-v" :
				       "hyperv-daemons");
	}
}

static void container(struct doctor_report *r)
{
	struct dr_finding *f;

	if (!r->virt.container[0])
		return;
	f = dr_add(r, DR_INFO, "container", NULL,
		   "running in a %s container (%s)", r->virt.container,
		   r->virt.container_note);
	dr_why(f,
	       "a container shares the host's kernel: the disks, controllers and queue settings shown are the host's, and so are the fixes");
	dr_fix_summary(
		f,
		"run iolab doctor on the host (or in the VM) that owns these disks");
}

static void agent(struct doctor_report *r)
{
	const struct dr_guest *g = &r->guest;
	const struct dr_distro *d = &r->sys.distro;
	struct dr_finding *f;

	if (!r->virt.qemu_kvm)
		return;
	if (!g->agent_port) {
		f = dr_add(
			r, DR_WARNING, "guest-agent-channel", NULL,
			"the VM has no QEMU guest agent channel (virtio-serial port org.qemu.guest_agent.0)");
		dr_why(f,
		       "without it the host cannot ask the guest to freeze its filesystems for consistent snapshots and backups, nor to shut down cleanly; Proxmox and QNAP use the agent for both");
		dr_fix_summary(
			f,
			"add the channel on the host and run qemu-ga in the guest");
		if (g->agent_installed != 1)
			dr_cmd_install(f, d, "qemu-guest-agent");
		dr_cmd_enable(f, d, "qemu-guest-agent");
		dr_fix_host(
			f, DR_HOST_QNAP,
			"shut the VM down; the VM's Settings: enable the QEMU guest agent option");
		dr_fix_host(
			f, DR_HOST_PROXMOX,
			"Options > QEMU Guest Agent > Use QEMU Guest Agent (qm set VMID --agent enabled=1); then stop and start the VM");
		dr_fix_host(
			f, DR_HOST_VIRT_MANAGER,
			"Add Hardware > Channel: Name org.qemu.guest_agent.0, Device type UNIX socket (unix); Finish, then shut down and start the VM");
		dr_fix_host(
			f, DR_HOST_LIBVIRT,
			"<channel type='unix'><target type='virtio' name='org.qemu.guest_agent.0'/></channel> inside <devices>");
		return;
	}
	if (g->agent_running != 0)
		return;
	f = dr_add(r, DR_WARNING, "guest-agent-not-running", NULL,
		   "the guest agent channel exists (%s) but %s",
		   g->agent_port_path,
		   g->agent_installed == 1 ? "qemu-ga is not running" :
					     "qemu-ga is not installed");
	dr_why(f,
	       "the host expects an agent on that channel for filesystem freeze during snapshots and backups and for clean shutdown; its requests time out instead");
	dr_fix_summary(f, "%s and start the QEMU guest agent",
		       g->agent_installed == 1 ? "enable" : "install");
	if (g->agent_installed != 1)
		dr_cmd_install(f, d, "qemu-guest-agent");
	dr_cmd_enable(f, d, "qemu-guest-agent");
}

static enum dr_mod_state mod(const struct doctor_report *r, const char *name)
{
	for (int i = 0; i < DR_NMODS; i++)
		if (r->guest.mods[i].name &&
		    !strcmp(r->guest.mods[i].name, name))
			return r->guest.mods[i].state;
	return DR_MOD_UNKNOWN;
}

static void virtio_drivers(struct doctor_report *r, bool emulated_disks)
{
	const struct dr_distro *d = &r->sys.distro;
	struct dr_finding *f;

	if (!r->virt.qemu_kvm || mod(r, "virtio_blk") != DR_MOD_MISSING ||
	    mod(r, "virtio_scsi") != DR_MOD_MISSING)
		return;
	f = dr_add(
		r, emulated_disks ? DR_CRITICAL : DR_WARNING,
		"virtio-drivers-missing", NULL,
		"the running kernel %s has neither virtio_blk nor virtio_scsi",
		r->sys.kernel);
	dr_why(f,
	       "without them the guest can only use emulated disk controllers, and moving its disks to virtio on the host would leave it unable to boot");
	dr_fix_summary(
		f,
		"install the distribution's standard kernel, which has both, and boot it");
	switch (d->family) {
	case DR_FAM_DEBIAN:
		dr_cmd_install(f, d, "linux-image-amd64");
		break;
	case DR_FAM_RHEL:
		dr_cmd_install(f, d, "kernel");
		break;
	case DR_FAM_SUSE:
		dr_cmd_install(f, d, "kernel-default");
		break;
	case DR_FAM_ARCH:
		dr_cmd_install(f, d, "linux");
		break;
	case DR_FAM_ALPINE:
		dr_cmd_install(f, d, "linux-virt");
		break;
	default:
		break;
	}
}

static void io_uring(struct doctor_report *r)
{
	struct dr_finding *f;
	long long v = r->guest.io_uring_disabled;

	if (v < 1)
		return;
	f = dr_add(r, v >= 2 ? DR_WARNING : DR_INFO, "io-uring-disabled", NULL,
		   "io_uring is %s (kernel.io_uring_disabled=%lld)",
		   v >= 2 ? "disabled for every process" :
			    "limited to privileged processes",
		   v);
	dr_why(f,
	       "applications that use io_uring for their disk I/O (databases, QEMU itself inside a nested setup, iolab's default engine) fall back to slower interfaces or fail");
	dr_fix_summary(
		f, "allow io_uring again, unless a security policy forbids it");
	dr_cmd_sysctl(f, "kernel.io_uring_disabled", "0");
}

static void aio(struct doctor_report *r)
{
	const struct dr_guest *g = &r->guest;
	struct dr_finding *f;
	char val[32];

	if (g->aio_max_nr < 0)
		return;
	if (g->aio_nr >= 0 && g->aio_nr * 10 >= g->aio_max_nr * 9) {
		f = dr_add(
			r, DR_WARNING, "aio-exhausted", NULL,
			"%lld of fs.aio-max-nr=%lld AIO requests are allocated",
			(long long)g->aio_nr, (long long)g->aio_max_nr);
		dr_why(f,
		       "when the limit is reached io_setup() fails with EAGAIN and programs using Linux AIO (Oracle, MySQL/InnoDB, QEMU aio=native) fail or fall back to synchronous I/O");
	} else if (g->aio_max_nr < ORACLE_AIO_MAX_NR) {
		f = dr_add(r, DR_INFO, "aio-max-nr-low", NULL,
			   "fs.aio-max-nr is %lld", (long long)g->aio_max_nr);
		dr_why(f,
		       "Oracle Database asks for at least %d (its preinstall package and tuned's oracle profile set it); several instances or a busy database hit a lower limit and io_setup() fails with EAGAIN",
		       ORACLE_AIO_MAX_NR);
	} else {
		return;
	}
	dr_fix_summary(f, "raise the limit");
	snprintf(val, sizeof(val), "%lld",
		 (long long)(g->aio_max_nr * 2 > ORACLE_AIO_MAX_NR ?
				     g->aio_max_nr * 2 :
				     ORACLE_AIO_MAX_NR));
	dr_cmd_sysctl(f, "fs.aio-max-nr", val);
}

static void dirty(struct doctor_report *r)
{
	const struct dr_guest *g = &r->guest;
	uint64_t limit = 0;
	char a[32], b[32];
	struct dr_finding *f;

	if (g->dirty_bytes > 0)
		limit = (uint64_t)g->dirty_bytes;
	else if (g->dirty_ratio > 0 && r->sys.mem_total_kb > 0)
		limit = (uint64_t)r->sys.mem_total_kb * 1024 / 100 *
			(uint64_t)g->dirty_ratio;
	if (limit <= DIRTY_LARGE_BYTES)
		return;
	f = dr_add(r, DR_INFO, "dirty-limit-large", NULL,
		   "up to %s of written data may wait in the page cache (%s)",
		   fmt_size(limit, a, sizeof(a)),
		   g->dirty_bytes > 0 ?
			   "vm.dirty_bytes" :
			   (snprintf(b, sizeof(b), "vm.dirty_ratio=%lld%%",
				     (long long)g->dirty_ratio),
			    b));
	dr_why(f,
	       "when it is written back (an fsync, a checkpoint, a shutdown) writers stall until the disk has absorbed all of it, which on a slow virtual disk takes minutes");
	dr_fix_summary(
		f,
		"cap dirty data in bytes: writeback starts at 256 MiB and writers are throttled at 1 GiB");
	dr_cmd_sysctl(f, "vm.dirty_background_bytes", "268435456");
	dr_cmd_sysctl(f, "vm.dirty_bytes", "1073741824");
}

static void tuned(struct doctor_report *r)
{
	static const struct {
		const char *key, *val;
	} vg[] = { { "vm.dirty_ratio", "30" },
		   { "vm.dirty_background_ratio", "10" },
		   { "vm.swappiness", "30" } };
	const struct dr_guest *g = &r->guest;
	const char *p = g->tuned_profile;
	struct dr_finding *f;
	size_t first;

	if (!r->virt.virtualized || r->virt.container[0])
		return;
	if (strstr(p, "virtual-guest") || strstr(p, "oracle") ||
	    strstr(p, "throughput-performance") || strstr(p, "latency"))
		return;
	f = dr_add(r, DR_INFO, "tuned-profile", NULL,
		   p[0] ? "the tuned profile is %s, not virtual-guest" :
			  "no tuned profile is active%s",
		   p[0] ? p : "");
	dr_why(f,
	       "tuned's virtual-guest profile is the distributions' tuning for VMs: dirty-page limits, swappiness 30 and a read-ahead of at least 4 MiB on disks");
	dr_fix_summary(f, "activate tuned's virtual-guest profile");
	if (!g->tuned_installed)
		dr_cmd_install(f, &r->sys.distro, "tuned");
	dr_cmd_enable(f, &r->sys.distro, "tuned");
	first = f->fix.commands.n;
	dr_fix_cmd(f, "tuned-adm profile virtual-guest");
	dr_fix_knob(f, "tuned profile", "tuned profile virtual-guest", NULL,
		    first);
	/* What the profile sets with it (tuned's virtual-guest on top of
	   throughput-performance), for doctor_merge.c to weigh. */
	for (size_t i = 0; i < sizeof(vg) / sizeof(vg[0]); i++) {
		char key[80], shown[96];

		snprintf(shown, sizeof(shown), "%s=%s", vg[i].key, vg[i].val);
		dr_fix_knob(f, dr_sysctl_key(vg[i].key, key, sizeof(key)),
			    shown, "virtual-guest", first);
	}
}

static void add_sd_name(struct strv *seen, const char *dev)
{
	if (!strncmp(dev, "/dev/sd", 7) || !strncmp(dev, "/dev/hd", 7))
		strv_add_unique(seen, dev + 5);
}

/* /dev/sdX or /dev/hdX names in fstab or root=: a bus change breaks them. */
static void device_names(struct doctor_report *r, const char *fstab,
			 const char *cmdline)
{
	struct strv seen = { 0 };
	struct dr_finding *f;
	char list[256] = "";

	for (const char *p = fstab; p && *p;) {
		const char *eol = strchrnul(p, '\n');
		char first[128];

		p += strspn(p, " \t");
		if (*p != '#' && sscanf(p, "%127s", first) == 1)
			add_sd_name(&seen, first);
		p = *eol ? eol + 1 : eol;
	}
	for (const char *p = cmdline; p && *p;) {
		char tok[256];
		int n = 0;

		if (sscanf(p, "%255s%n", tok, &n) != 1)
			break;
		if (!strncmp(tok, "root=", 5))
			add_sd_name(&seen, tok + 5);
		else if (!strncmp(tok, "resume=", 7))
			add_sd_name(&seen, tok + 7);
		p += n;
	}
	for (size_t i = 0; i < seen.n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s/dev/%s", i ? ", " : "", seen.v[i]);
	if (seen.n) {
		f = dr_add(
			r, DR_WARNING, "device-names", NULL,
			"/etc/fstab or the kernel command line name disks as %s",
			list);
		dr_why(f,
		       "moving a disk to virtio-blk renames it to /dev/vdX, and the next boot stops at a missing root or /etc/fstab entry");
		dr_fix_summary(
			f,
			"before changing the bus, name filesystems by UUID= in /etc/fstab and in the boot loader (blkid lists them)");
		dr_fix_cmd(f, "blkid");
		dr_fix_cmd(
			f,
			"# edit /etc/fstab: replace /dev/sdXN with UUID=... as blkid shows");
		if (r->sys.distro.family == DR_FAM_DEBIAN)
			dr_fix_cmd(f, "update-grub");
		else if (r->sys.distro.family != DR_FAM_UNKNOWN)
			dr_fix_cmd(f, "grub2-mkconfig -o /boot/grub2/grub.cfg");
	}
	strv_free(&seen);
}

static void completeness(struct doctor_report *r)
{
	struct dr_finding *f;

	if (!r->ndisks) {
		f = dr_add(r, DR_WARNING, "no-disks", NULL,
			   "no disks were found in /sys/block");
		dr_why(f,
		       "nothing could be diagnosed: sysfs is missing, unreadable, or (in a captured tree) was not captured");
		dr_fix_summary(
			f,
			"run iolab doctor on the guest itself, with sysfs mounted");
	}
	if (r->unreadable.n) {
		f = dr_add(r, DR_INFO, "unreadable-files", NULL,
			   "%zu file%s doctor looks at could not be read",
			   r->unreadable.n, r->unreadable.n == 1 ? "" : "s");
		dr_why(f,
		       "the facts they hold are shown as unknown and the rules that need them were skipped");
		dr_fix_summary(
			f,
			"run iolab doctor as root on the guest itself; the files are listed under Unreadable");
	}
}

void dr_rules(struct doctor_report *r, const char *fstab, const char *cmdline)
{
	bool emulated = false;

	for (size_t i = 0; i < r->ndisks; i++)
		emulated |= r->disks[i].kind == DR_KIND_EMULATED ||
			    r->disks[i].kind == DR_KIND_EMULATED_NVME;
	tcg(r);
	no_kvm(r);
	container(r);
	virtio_drivers(r, emulated);
	if (emulated)
		device_names(r, fstab, cmdline);
	for (size_t i = 0; i < r->ndisks; i++)
		dr_rules_disk(r, &r->disks[i]);
	agent(r);
	other_agents(r);
	io_uring(r);
	aio(r);
	dirty(r);
	tuned(r);
	completeness(r);
}
