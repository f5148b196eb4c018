// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exact commands a fix takes on this distribution (apt, dnf, yum,
 * zypper, pacman, apk), and the host-side steps in QNAP Virtualization
 * Station, Proxmox VE, virt-manager and libvirt XML.
 */
#include <stdio.h>
#include <string.h>

#include "doctor_impl.h"

void dr_cmd_install(struct dr_finding *f, const struct dr_distro *d,
		    const char *pkg)
{
	if (!strcmp(d->pm, "apt"))
		dr_fix_cmd(f, "apt-get install -y %s", pkg);
	else if (!strcmp(d->pm, "dnf"))
		dr_fix_cmd(f, "dnf install -y %s", pkg);
	else if (!strcmp(d->pm, "yum"))
		dr_fix_cmd(f, "yum install -y %s", pkg);
	else if (!strcmp(d->pm, "zypper"))
		dr_fix_cmd(f, "zypper --non-interactive install %s", pkg);
	else if (!strcmp(d->pm, "pacman"))
		dr_fix_cmd(f, "pacman -S --noconfirm %s", pkg);
	else if (!strcmp(d->pm, "apk"))
		dr_fix_cmd(f, "apk add %s", pkg);
	else
		dr_fix_cmd(
			f,
			"# install the package %s with your distribution's package manager",
			pkg);
}

void dr_cmd_enable(struct dr_finding *f, const struct dr_distro *d,
		   const char *service)
{
	if (d->family == DR_FAM_ALPINE) {
		dr_fix_cmd(f, "rc-update add %s default", service);
		dr_fix_cmd(f, "rc-service %s start", service);
	} else {
		dr_fix_cmd(f, "systemctl enable --now %s", service);
	}
}

void dr_cmd_initramfs_virtio(struct dr_finding *f, const struct dr_distro *d)
{
	switch (d->family) {
	case DR_FAM_RHEL:
	case DR_FAM_SUSE:
		/* dracut's host-only mode leaves out drivers the boot disk
		   does not use today: virtio ones on an IDE/SATA guest. */
		dr_fix_cmd(
			f,
			"echo 'add_drivers+=\" virtio_pci virtio_blk virtio_scsi \"' > /etc/dracut.conf.d/90-virtio.conf");
		dr_fix_cmd(f, "dracut -f --regenerate-all");
		break;
	case DR_FAM_DEBIAN:
		dr_fix_cmd(
			f,
			"printf 'virtio_pci\\nvirtio_blk\\nvirtio_scsi\\n' >> /etc/initramfs-tools/modules");
		dr_fix_cmd(f, "update-initramfs -u -k all");
		break;
	case DR_FAM_ARCH:
		dr_fix_cmd(
			f,
			"sed -i 's/^MODULES=(/MODULES=(virtio_pci virtio_blk virtio_scsi /' /etc/mkinitcpio.conf");
		dr_fix_cmd(f, "mkinitcpio -P");
		break;
	case DR_FAM_ALPINE:
		dr_fix_cmd(
			f,
			"sed -i 's/^features=\"/features=\"virtio /' /etc/mkinitfs/mkinitfs.conf");
		dr_fix_cmd(f, "mkinitfs");
		break;
	default:
		dr_fix_cmd(
			f,
			"# add virtio_pci, virtio_blk and virtio_scsi to the initramfs and rebuild it");
	}
}

void dr_cmd_queue_attr(struct dr_finding *f, const struct dr_disk *d,
		       const char *attr, const char *value)
{
	size_t first = f->fix.commands.n;
	char key[80], shown[96];

	dr_fix_cmd(f, "echo %s > /sys/block/%s/queue/%s", value, d->name, attr);
	dr_fix_cmd(
		f,
		"echo 'ACTION==\"add|change\", KERNEL==\"%s\", ATTR{queue/%s}=\"%s\"' > /etc/udev/rules.d/60-iolab-%s-%s.rules",
		d->name, attr, value, d->name, attr);
	snprintf(key, sizeof(key), "/sys/block/%s/queue/%s", d->name, attr);
	snprintf(shown, sizeof(shown), "%s=%s", key, value);
	dr_fix_knob(f, key, shown, NULL, first);
}

const char *dr_sysctl_key(const char *sysctl, char *buf, size_t len)
{
	/* The kernel keeps each pair as one limit: writing either zeroes
	   the other (mm/page-writeback.c). */
	if (!strcmp(sysctl, "vm.dirty_bytes") ||
	    !strcmp(sysctl, "vm.dirty_ratio"))
		snprintf(buf, len, "vm.dirty limit");
	else if (!strcmp(sysctl, "vm.dirty_background_bytes") ||
		 !strcmp(sysctl, "vm.dirty_background_ratio"))
		snprintf(buf, len, "vm.dirty_background limit");
	else
		snprintf(buf, len, "%s", sysctl);
	return buf;
}

void dr_cmd_sysctl(struct dr_finding *f, const char *key, const char *value)
{
	size_t first = f->fix.commands.n;
	char k[80], shown[96];

	dr_fix_cmd(f, "sysctl -w %s=%s", key, value);
	dr_fix_cmd(f, "echo '%s = %s' > /etc/sysctl.d/60-iolab-%s.conf", key,
		   value, key);
	snprintf(shown, sizeof(shown), "%s=%s", key, value);
	dr_fix_knob(f, dr_sysctl_key(key, k, sizeof(k)), shown, NULL, first);
}

/* Moves to virtio-blk: IDE, SATA, USB and QEMU's NVMe disks (emulated
   SCSI disks keep their bus and get a virtio-scsi controller instead). */
static bool moves_to_virtio_blk(const struct dr_disk *d)
{
	return d->kind == DR_KIND_EMULATED_NVME ||
	       (d->kind == DR_KIND_EMULATED &&
		(!strcmp(d->bus, "ide") || !strcmp(d->bus, "sata-ahci") ||
		 !strcmp(d->bus, "usb")));
}

static bool vd_taken(const struct doctor_report *r, const char *name)
{
	for (size_t i = 0; i < r->ndisks; i++)
		if (!strcmp(r->disks[i].name, name))
			return true;
	return false;
}

/*
 * The virtio-blk target of @d: each disk that moves gets its own, one
 * no virtio disk of the guest has (libvirt refuses a domain with two disks
 * on one target), in the order of the disks.
 */
static void virtio_target(const struct doctor_report *r,
			  const struct dr_disk *d, char *out, size_t len)
{
	char name[8] = "vd?";
	char letter = 'a';

	for (size_t i = 0; i < r->ndisks; i++) {
		if (!moves_to_virtio_blk(&r->disks[i]))
			continue;
		for (; letter <= 'z'; letter++) {
			name[2] = letter;
			if (!vd_taken(r, name))
				break;
		}
		if (&r->disks[i] == d)
			break;
		letter++;
	}
	snprintf(out, len, "%s", letter <= 'z' ? name : "vdX");
}

void dr_host_virtio_bus(struct dr_finding *f, const struct doctor_report *r,
			const struct dr_disk *d)
{
	char target[8];

	virtio_target(r, d, target, sizeof(target));
	dr_fix_host(
		f, DR_HOST_QNAP,
		"shut the VM down; Virtualization Station > the VM > Settings > Storage: select the disk and set its interface (controller) to VirtIO; apply and start the VM");
	dr_fix_host(
		f, DR_HOST_PROXMOX,
		"shut the VM down; Hardware: select the disk, Detach; double-click the Unused Disk, Bus/Device: VirtIO Block (or SCSI with SCSI Controller 'VirtIO SCSI single'), Add; Options > Boot Order: enable the disk again");
	dr_fix_host(
		f, DR_HOST_VIRT_MANAGER,
		"shut the VM down; Show virtual hardware details > %s > Advanced options > Disk bus: VirtIO; Apply, then start the VM",
		!strcmp(d->bus, "ide")	     ? "IDE Disk 1 (the disk)" :
		!strcmp(d->bus, "sata-ahci") ? "SATA Disk 1 (the disk)" :
		!strncmp(d->bus, "lsi", 3)   ? "SCSI Disk 1 (the disk)" :
					       "the disk");
	dr_fix_host(
		f, DR_HOST_LIBVIRT,
		"virsh edit VM: in the disk's <disk> element set <target dev='%s' bus='virtio'/> and delete its <address type='drive' .../> line; then virsh shutdown VM && virsh start VM",
		target);
}
