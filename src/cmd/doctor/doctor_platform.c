// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which machine the fixes are for. CPUID and DMI (doctor_virt.c) say which
 * hypervisor; firmware tables and devices say which VMM runs on it: a QEMU
 * PC, QEMU's microvm, Firecracker, cloud-hypervisor, each with settings of
 * its own. Devices also give a VM away when CPUID's hypervisor bit is
 * hidden (-cpu host,-hypervisor) and DMI does not say: virtio and QEMU's
 * devices exist only in virtual machines.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "doctor_impl.h"
#include "../../util/fsread.h"

/* Bytes of an ACPI id, printable and without the padding spaces. */
static void acpi_id(const unsigned char *p, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = p[i] >= 0x21 && p[i] < 0x7f ? (char)p[i] :
			 p[i] == ' '		     ? ' ' :
						       '?';
	while (i > 0 && (out[i - 1] == ' ' || out[i - 1] == '?'))
		i--;
	out[i] = '\0';
}

/* The DSDT's header (ACPI 5.2.6): OEM id at 10, OEM table id at 16. */
static void acpi_live(char *out, size_t len)
{
	unsigned char h[36];
	char oem[7], tab[9];
	ssize_t n;
	int fd = open("/sys/firmware/acpi/tables/DSDT", O_RDONLY | O_CLOEXEC);

	out[0] = '\0';
	if (fd < 0)
		return; /* no ACPI, or not root */
	n = read(fd, h, sizeof(h));
	close(fd);
	if (n < 24 || memcmp(h, "DSDT", 4))
		return;
	acpi_id(h + 10, 6, oem);
	acpi_id(h + 16, 8, tab);
	snprintf(out, len, "oem_id %s\noem_table_id %s\n", oem, tab);
}

static void collect_acpi(struct dr_ctx *c, struct dr_virt *v)
{
	char live[96], buf[32];
	char *text = NULL;
	const char *t = live;

	if (fsv_live(c->v)) {
		acpi_live(live, sizeof(live));
		if (live[0])
			dr_fact_save(c, "acpi", live);
	} else {
		t = text = dr_fact(c, "acpi");
	}
	if (t && dr_kv(t, "oem_id", buf, sizeof(buf)))
		snprintf(v->acpi_oem, sizeof(v->acpi_oem), "%s", buf);
	if (t && dr_kv(t, "oem_table_id", buf, sizeof(buf)))
		snprintf(v->acpi_table, sizeof(v->acpi_table), "%s", buf);
	free(text);
}

/* A virtio_mmio.device=SIZE@ADDR:IRQ on the kernel command line whose
   address starts with @prefix (the VMMs place them at fixed bases). */
static bool mmio_at(const char *cmdline, const char *prefix)
{
	for (const char *p = cmdline;
	     p && (p = strstr(p, "virtio_mmio.device=")); p++) {
		const char *at = strchr(p, '@'), *end = strpbrk(p, " \n");

		if (at && (!end || at < end) &&
		    !strncasecmp(at + 1, prefix, strlen(prefix)))
			return true;
	}
	return false;
}

/* Devices only a VM has; true if any, with QEMU's own ones in *qemu. */
static bool vm_devices(struct doctor_report *r, bool *qemu)
{
	struct dr_virt *v = &r->virt;
	size_t len = 0;

	*qemu = false;
	for (size_t i = 0; i < r->ndisks; i++) {
		const struct dr_disk *d = &r->disks[i];
		bool q = strstr(d->bi.model, "QEMU") ||
			 strstr(d->bi.vendor, "QEMU") ||
			 !strncmp(d->pci_id, "1b36:", 5);
		bool virtio = !strncmp(d->bus, "virtio", 6) ||
			      !strncmp(d->pci_id, "1af4:", 5);

		if (!q && !virtio)
			continue;
		*qemu |= q;
		if (len < sizeof(v->evidence))
			len += (size_t)snprintf(
				v->evidence + len, sizeof(v->evidence) - len,
				"%s%s on %s%s%s%s%s", len ? "; " : "", d->name,
				d->bus, d->pci_id[0] ? ", PCI " : "", d->pci_id,
				q ? ", model " : "", q ? d->bi.model : "");
	}
	return len > 0;
}

static void hidden_hypervisor(struct dr_ctx *c)
{
	struct doctor_report *r = c->r;
	struct dr_virt *v = &r->virt;
	bool qemu;

	if (v->virtualized || !vm_devices(r, &qemu))
		return;
	/* No CPUID bit, no DMI name: but these devices exist only in VMs
	   (a DPU's virtio functions aside). */
	v->virtualized = true;
	snprintf(v->hypervisor, sizeof(v->hypervisor), "%s",
		 qemu ? "qemu" : "vm-other");
	snprintf(
		v->hypervisor_name, sizeof(v->hypervisor_name), "%s",
		qemu ? "QEMU, hidden from CPUID (its devices show it)" :
		       "a hypervisor hidden from CPUID (virtio devices show it)");
	/* virtio on PCI with SMBIOS and nothing else named: a QEMU PC is by
	   far the likeliest; its tools' settings are offered. */
	v->qemu_kvm = qemu || v->dmi_present;
	for (size_t i = 0; i < r->ndisks; i++)
		if (r->disks[i].kind != DR_KIND_STACKED)
			dr_classify_disk(&r->disks[i], v);
}

static void set_vmm(struct dr_virt *v, const char *vmm, const char *name)
{
	snprintf(v->vmm, sizeof(v->vmm), "%s", vmm);
	if (name)
		snprintf(v->hypervisor_name, sizeof(v->hypervisor_name), "%s",
			 name);
}

void dr_virt_devices(struct dr_ctx *c)
{
	struct dr_virt *v = &c->r->virt;
	const char *hv = v->hypervisor;
	bool kvm = !strcmp(hv, "kvm") || !strcmp(hv, "qemu");
	char *cmdline;

	collect_acpi(c, v);
	hidden_hypervisor(c);
	cmdline = dr_slurp(c, "/proc/cmdline", false);
	if (!v->virtualized && hv[0])
		set_vmm(v, "bare-metal", NULL);
	else if (!strcmp(hv, "microsoft"))
		set_vmm(v, "hyper-v", NULL);
	else if (!strcmp(hv, "vmware") || !strcmp(hv, "xen"))
		set_vmm(v, hv, NULL);
	else if (kvm && !strcmp(v->acpi_oem, "FIRECK"))
		set_vmm(v, "firecracker", "Firecracker (KVM)");
	else if (kvm && (!strcmp(v->acpi_oem, "CLOUDH") ||
			 !strcmp(v->sys_vendor, "Cloud Hypervisor") ||
			 !strcmp(v->product_name, "cloud-hypervisor")))
		set_vmm(v, "cloud-hypervisor", "Cloud Hypervisor (KVM)");
	else if (kvm && strstr(v->product_name, "microvm"))
		set_vmm(v, "qemu-microvm", "QEMU microvm");
	else if (kvm && !v->dmi_present && v->cpuid_known &&
		 mmio_at(cmdline, "0xd0000000"))
		set_vmm(v, "firecracker", "Firecracker (KVM)");
	else if (kvm && !v->dmi_present && v->cpuid_known &&
		 (mmio_at(cmdline, "0xfeb") || !strcmp(v->acpi_oem, "BOCHS")))
		set_vmm(v, "qemu-microvm", "QEMU microvm");
	else if (kvm && !v->dmi_present && v->cpuid_known)
		set_vmm(v, "minimal-kvm", NULL);
	else if (v->qemu_kvm)
		set_vmm(v, "qemu-pc", NULL);
	free(cmdline);
	/* Only a QEMU PC has the settings of QNAP, Proxmox, virt-manager
	   and libvirt. */
	if (v->vmm[0] && strcmp(v->vmm, "qemu-pc"))
		v->qemu_kvm = false;
}
