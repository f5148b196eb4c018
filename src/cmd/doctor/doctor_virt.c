// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where the system runs: the hypervisor (CPUID leaf 0x40000000, DMI,
 * /sys/hypervisor, in systemd's order; reference/qemu.md 5.1), the QEMU
 * machine type and host platform, and whether we are in a container.
 */
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "doctor_impl.h"
#include "../../util/fsread.h"

static const struct {
	const char *vendor;
	const char *id;
} cpuid_vendors[] = {
	{ "KVMKVMKVM", "kvm" },		 { "Linux KVM Hv", "kvm" },
	{ "TCGTCGTCGTCG", "qemu" },	 { "XenVMMXenVMM", "xen" },
	{ "VMwareVMware", "vmware" },	 { "Microsoft Hv", "microsoft" },
	{ "bhyve bhyve ", "bhyve" },	 { "QNXQVMBSQG", "qnx" },
	{ "ACRNACRNACRN", "acrn" },	 { "SRESRESRESRE", "sre" },
	{ "Apple VZ", "apple" },	 { "VBoxVBoxVBox", "oracle" },
	{ "prl hyperv  ", "parallels" },
};

/* DMI prefixes (systemd src/basic/virt.c). */
static const struct {
	const char *prefix;
	const char *id;
} dmi_vendors[] = {
	{ "KVM", "kvm" },
	{ "OpenStack", "kvm" },
	{ "KubeVirt", "kvm" },
	{ "Amazon EC2", "amazon" },
	{ "QEMU", "qemu" },
	{ "VMware", "vmware" },
	{ "VMW", "vmware" },
	{ "innotek GmbH", "oracle" },
	{ "VirtualBox", "oracle" },
	{ "Oracle Corporation", "oracle" },
	{ "Xen", "xen" },
	{ "Bochs", "bochs" },
	{ "Parallels", "parallels" },
	{ "BHYVE", "bhyve" },
	{ "Hyper-V", "microsoft" },
	{ "Apple Virtualization", "apple" },
	{ "Google Compute Engine", "google" },
};

static const struct {
	const char *id;
	const char *name;
} hv_names[] = {
	{ "kvm", "KVM" },
	{ "qemu", "QEMU" },
	{ "xen", "Xen" },
	{ "vmware", "VMware" },
	{ "microsoft", "Microsoft Hyper-V" },
	{ "bhyve", "bhyve" },
	{ "oracle", "Oracle VirtualBox" },
	{ "parallels", "Parallels" },
	{ "amazon", "Amazon EC2 (Nitro, KVM-based)" },
	{ "google", "Google Compute Engine (KVM-based)" },
	{ "apple", "Apple Virtualization" },
	{ "bochs", "Bochs" },
	{ "qnx", "QNX hypervisor" },
	{ "acrn", "ACRN" },
	{ "sre", "SRE" },
	{ "vm-other", "an unidentified hypervisor" },
	{ "none", "no hypervisor (bare metal)" },
};

/* CPUID on the live system; "hypervisor_bit N\nvendor S\n". */
static void cpuid_live(char *out, size_t len)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;
	char vendor[13] = "";
	int bit;

	if (!__get_cpuid(1, &a, &b, &c, &d)) {
		snprintf(out, len, "hypervisor_bit unknown\nvendor \n");
		return;
	}
	bit = (c >> 31) & 1;
	/* Leaf 0x40000000 means something only with the hypervisor bit. */
	if (bit) {
		__cpuid(0x40000000, a, b, c, d);
		memcpy(vendor, &b, 4);
		memcpy(vendor + 4, &c, 4);
		memcpy(vendor + 8, &d, 4);
		vendor[12] = '\0';
		for (int i = 0; i < 12; i++)
			if (vendor[i] && !isprint((unsigned char)vendor[i]))
				vendor[i] = '?';
	}
	snprintf(out, len, "hypervisor_bit %d\nvendor %s\n", bit, vendor);
#else
	snprintf(out, len, "hypervisor_bit unknown\nvendor \n");
#endif
}

static void collect_cpuid(struct dr_ctx *c, struct dr_virt *v)
{
	char live[128], buf[32];
	char *text = NULL;
	const char *t;

	if (fsv_live(c->v)) {
		cpuid_live(live, sizeof(live));
		dr_fact_save(c, "cpuid", live);
		t = live;
	} else {
		text = dr_fact(c, "cpuid");
		t = text;
	}
	v->hypervisor_bit = DR_UNKNOWN;
	if (t && dr_kv(t, "hypervisor_bit", buf, sizeof(buf))) {
		v->cpuid_known = true;
		if (!strcmp(buf, "0") || !strcmp(buf, "1"))
			v->hypervisor_bit = buf[0] - '0';
		if (dr_kv(t, "vendor", buf, sizeof(buf)))
			snprintf(v->cpuid_vendor, sizeof(v->cpuid_vendor), "%s",
				 buf);
	}
	free(text);
}

static void dmi(struct dr_ctx *c, const char *attr, char *out, size_t len)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/class/dmi/id/%s", attr);
	dr_read(c, path, out, len, false);
	for (char *e = out + strlen(out); e > out && e[-1] == ' ';)
		*--e = '\0';
}

static const char *dmi_match(const char *s)
{
	for (size_t i = 0; i < sizeof(dmi_vendors) / sizeof(dmi_vendors[0]);
	     i++)
		if (*s && !strncmp(s, dmi_vendors[i].prefix,
				   strlen(dmi_vendors[i].prefix)))
			return dmi_vendors[i].id;
	return NULL;
}

static bool contains_ci(const char *hay, const char *needle)
{
	return *hay && strcasestr(hay, needle);
}

static void decide(struct dr_virt *v, const char *dmi_id)
{
	const char *cv = NULL;

	for (size_t i = 0; v->cpuid_vendor[0] &&
			   i < sizeof(cpuid_vendors) / sizeof(cpuid_vendors[0]);
	     i++)
		if (!strcmp(v->cpuid_vendor, cpuid_vendors[i].vendor))
			cv = cpuid_vendors[i].id;
	/* systemd: these DMI answers win at once. */
	if (dmi_id &&
	    (!strcmp(dmi_id, "oracle") || !strcmp(dmi_id, "xen") ||
	     !strcmp(dmi_id, "amazon") || !strcmp(dmi_id, "parallels") ||
	     !strcmp(dmi_id, "google")))
		snprintf(v->hypervisor, sizeof(v->hypervisor), "%s", dmi_id);
	/* QEMU/KVM with hv-* enlightenments says "Microsoft Hv". */
	else if (cv && (strcmp(cv, "microsoft") || !dmi_id))
		snprintf(v->hypervisor, sizeof(v->hypervisor), "%s", cv);
	else if (dmi_id)
		snprintf(v->hypervisor, sizeof(v->hypervisor), "%s", dmi_id);
	else if (!strcmp(v->xen_type, "xen"))
		strcpy(v->hypervisor, "xen");
	else if (v->xen_type[0])
		strcpy(v->hypervisor, "vm-other");
	else if (v->hypervisor_bit == 1)
		strcpy(v->hypervisor, v->cpuid_vendor[0] ? "vm-other" : "");
	else if (v->hypervisor_bit == 0)
		strcpy(v->hypervisor, "none");
	v->virtualized = v->hypervisor[0] && strcmp(v->hypervisor, "none");
	if (!v->virtualized && v->hypervisor_bit == 1) {
		/* The bit says "virtual", nothing says which. */
		strcpy(v->hypervisor, "vm-other");
		v->virtualized = true;
	}
	/*
	 * QEMU's PC machines always carry SMBIOS tables; a KVM guest without
	 * them runs under a minimal VMM (Firecracker, QEMU's microvm), where
	 * the guest agent and the host tools' settings do not apply.
	 */
	v->qemu_kvm = (!strcmp(v->hypervisor, "kvm") ||
		       !strcmp(v->hypervisor, "qemu") ||
		       (dmi_id &&
			(!strcmp(dmi_id, "qemu") || !strcmp(dmi_id, "kvm")))) &&
		      (v->dmi_present || !v->cpuid_known);
	for (size_t i = 0; i < sizeof(hv_names) / sizeof(hv_names[0]); i++)
		if (!strcmp(v->hypervisor, hv_names[i].id))
			snprintf(v->hypervisor_name, sizeof(v->hypervisor_name),
				 "%s", hv_names[i].name);
	if (!strcmp(v->hypervisor, "qemu"))
		snprintf(v->hypervisor_name, sizeof(v->hypervisor_name), "%s",
			 !strcmp(v->cpuid_vendor, "TCGTCGTCGTCG") ?
				 "QEMU without KVM (TCG software emulation)" :
				 "QEMU");
	if (!strcmp(v->hypervisor, "kvm") && !v->dmi_present && v->cpuid_known)
		snprintf(v->hypervisor_name, sizeof(v->hypervisor_name),
			 "KVM, no SMBIOS (a minimal VMM, not a QEMU PC)");
	if (!v->hypervisor[0])
		strcpy(v->hypervisor_name, "unknown");
}

static void platform(struct dr_virt *v)
{
	const char *fields[] = { v->sys_vendor,	  v->product_name,
				 v->board_vendor, v->bios_vendor,
				 v->bios_version, v->product_version };

	if (strstr(v->product_name, "i440FX"))
		strcpy(v->machine, "i440fx");
	else if (strstr(v->product_name, "Q35"))
		strcpy(v->machine, "q35");
	else if (!strncmp(v->product_version, "pc-i440fx", 9) ||
		 !strncmp(v->product_version, "pc-", 3))
		strcpy(v->machine, "i440fx");
	if (!strncmp(v->product_version, "pc-q35", 6))
		strcpy(v->machine, "q35");
	/* Proxmox machine types carry "+pveN": "pc-q35-8.1+pve0". */
	if (strstr(v->product_version, "+pve"))
		strcpy(v->platform, "proxmox");
	for (size_t i = 0; !v->platform[0] && i < 6; i++) {
		if (contains_ci(fields[i], "QNAP"))
			strcpy(v->platform, "qnap");
		else if (contains_ci(fields[i], "Proxmox"))
			strcpy(v->platform, "proxmox");
		else if (contains_ci(fields[i], "OpenStack"))
			strcpy(v->platform, "openstack");
		else if (contains_ci(fields[i], "KubeVirt"))
			strcpy(v->platform, "kubevirt");
	}
}

/* ---- containers ---- */

/* The root filesystem's device, from mountinfo; true if a real disk. */
static bool root_on_disk(struct dr_ctx *c)
{
	char *mi = dr_slurp(c, "/proc/self/mountinfo", false);
	unsigned int maj = 0, mi_ = 0;
	bool found = false;
	char path[64];

	for (char *p = mi; p && *p;) {
		char *eol = strchrnul(p, '\n'), mnt[16];
		unsigned int a, b;

		if (sscanf(p, "%*u %*u %u:%u %*s %15s", &a, &b, mnt) == 3 &&
		    !strcmp(mnt, "/")) {
			maj = a;
			mi_ = b;
			found = true;
		}
		p = *eol ? eol + 1 : eol;
	}
	free(mi);
	if (!found || !maj)
		return false;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", maj, mi_);
	return fsv_exists(c->v, path);
}

/* PID 1's "container=" (systemd's first test); live only, never saved. */
static void pid1_container(char *out, size_t len)
{
	char env[8192];
	ssize_t n;
	int fd = open("/proc/1/environ", O_RDONLY | O_CLOEXEC);

	out[0] = '\0';
	if (fd < 0)
		return;
	n = read(fd, env, sizeof(env) - 1);
	close(fd);
	if (n <= 0)
		return;
	env[n] = '\0';
	for (char *p = env; p < env + n; p += strlen(p) + 1)
		if (!strncmp(p, "container=", 10))
			snprintf(out, len, "%s", p + 10);
}

static void container_live(struct dr_ctx *c, char *name, size_t nlen,
			   char *note, size_t notelen)
{
	char buf[256], weak[32] = "";
	char *cg;

	name[0] = note[0] = '\0';
	pid1_container(buf, sizeof(buf));
	if (!buf[0])
		dr_read(c, "/run/systemd/container", buf, sizeof(buf), false);
	if (buf[0]) {
		snprintf(name, nlen, "%s", buf);
		snprintf(note, notelen, "container=%s", buf);
		return;
	}
	if (fsv_exists(c->v, "/run/.containerenv")) {
		snprintf(name, nlen, "podman");
		snprintf(note, notelen, "/run/.containerenv exists");
		return;
	}
	if (fsv_exists(c->v, "/proc/vz") && !fsv_exists(c->v, "/proc/bc")) {
		snprintf(name, nlen, "openvz");
		snprintf(note, notelen, "/proc/vz without /proc/bc");
		return;
	}
	if (dr_read(c, "/proc/sys/kernel/osrelease", buf, sizeof(buf), false) >
		    0 &&
	    strcasestr(buf, "microsoft")) {
		snprintf(name, nlen, "wsl");
		snprintf(note, notelen, "kernel release %s", buf);
		return;
	}
	/* Weak hints: images keep /.dockerenv; cgroup names are guesses. */
	if (fsv_exists(c->v, "/.dockerenv"))
		strcpy(weak, "docker");
	cg = dr_slurp(c, "/proc/1/cgroup", false);
	if (cg && !weak[0]) {
		if (strstr(cg, "/docker"))
			strcpy(weak, "docker");
		else if (strstr(cg, "/lxc"))
			strcpy(weak, "lxc");
		else if (strstr(cg, "kubepods"))
			strcpy(weak, "kubernetes");
	}
	free(cg);
	if (!weak[0])
		return;
	if (root_on_disk(c)) {
		snprintf(
			note, notelen,
			"a %s hint (/.dockerenv or cgroup names) was ignored: / is on a local block device, so this is not a container",
			weak);
		return;
	}
	snprintf(name, nlen, "%s", weak);
	snprintf(note, notelen, "%s hints and / is not on a local block device",
		 weak);
}

static void collect_container(struct dr_ctx *c, struct dr_virt *v)
{
	char text[512], buf[256];
	char *fact;

	if (fsv_live(c->v)) {
		container_live(c, v->container, sizeof(v->container),
			       v->container_note, sizeof(v->container_note));
		v->container_known = true;
		snprintf(text, sizeof(text), "container %s\nnote %s\n",
			 v->container, v->container_note);
		dr_fact_save(c, "container", text);
		return;
	}
	fact = dr_fact(c, "container");
	if (!fact)
		return;
	v->container_known = true;
	if (dr_kv(fact, "container", buf, sizeof(buf)))
		snprintf(v->container, sizeof(v->container), "%s", buf);
	if (dr_kv(fact, "note", buf, sizeof(buf)))
		snprintf(v->container_note, sizeof(v->container_note), "%s",
			 buf);
	free(fact);
}

void dr_collect_virt(struct dr_ctx *c)
{
	struct dr_virt *v = &c->r->virt;
	const char *dmi_id = NULL;
	char clocks[256];

	collect_cpuid(c, v);
	v->dmi_present = fsv_is_dir(c->v, "/sys/class/dmi/id");
	dmi(c, "sys_vendor", v->sys_vendor, sizeof(v->sys_vendor));
	dmi(c, "product_name", v->product_name, sizeof(v->product_name));
	dmi(c, "product_version", v->product_version,
	    sizeof(v->product_version));
	dmi(c, "board_vendor", v->board_vendor, sizeof(v->board_vendor));
	dmi(c, "bios_vendor", v->bios_vendor, sizeof(v->bios_vendor));
	dmi(c, "bios_version", v->bios_version, sizeof(v->bios_version));
	/* systemd's order: product_name first, to see KVM over QEMU. */
	dmi_id = dmi_match(v->product_name);
	if (!dmi_id)
		dmi_id = dmi_match(v->sys_vendor);
	if (!dmi_id)
		dmi_id = dmi_match(v->board_vendor);
	if (!dmi_id)
		dmi_id = dmi_match(v->bios_vendor);
	if (!dmi_id)
		dmi_id = dmi_match(v->product_version);
	dr_read(c, "/sys/hypervisor/type", v->xen_type, sizeof(v->xen_type),
		false);
	if (!v->xen_type[0] && fsv_exists(c->v, "/proc/xen"))
		strcpy(v->xen_type, "xen");
	if (dr_read(c,
		    "/sys/devices/system/clocksource/clocksource0/available_clocksource",
		    clocks, sizeof(clocks), false) > 0)
		v->kvm_clock = strstr(clocks, "kvm-clock") != NULL;
	decide(v, dmi_id);
	platform(v);
	collect_container(c, v);
}
