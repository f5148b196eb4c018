// SPDX-License-Identifier: GPL-2.0-or-later
/* QEMU argv builder; see qemu_argv.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_argv.h"
#include "../../util/xmem.h"

const char *const lab_bus_names[] = { "virtio-blk", "virtio-scsi", "ide",
				      "ahci",	    "nvme",	   NULL };
const char *const lab_format_names[] = { "raw", "qcow2", NULL };
const char *const lab_accel_names[] = { "auto", "kvm", "tcg", NULL };

/*
 * Linux drivers per bus. ide is the PIIX3 IDE controller of QEMU's "pc"
 * machine (ata_piix); ahci is an ICH9 AHCI controller added to it.
 * Dependencies (virtio, libata, scsi_mod, nvme-core ...) come from
 * modules.dep.
 */
static const char *const mods_virtio_blk[] = { "virtio_pci", "virtio_blk",
					       NULL };
static const char *const mods_virtio_scsi[] = { "virtio_pci", "virtio_scsi",
						"sd_mod", NULL };
static const char *const mods_ide[] = { "ata_piix", "sd_mod", NULL };
static const char *const mods_ahci[] = { "ahci", "sd_mod", NULL };
static const char *const mods_nvme[] = { "nvme", NULL };

const char *const *lab_bus_modules(enum lab_bus bus)
{
	static const char *const *const mods[BUS_COUNT] = {
		mods_virtio_blk, mods_virtio_scsi, mods_ide,
		mods_ahci,	 mods_nvme,
	};

	return (unsigned int)bus < BUS_COUNT ? mods[bus] : NULL;
}

char *qemu_escape(const char *s)
{
	size_t n = 0;
	char *out, *o;

	for (const char *p = s; *p; p++)
		n += *p == ',' ? 2 : 1;
	out = o = xmalloc(n + 1);
	for (const char *p = s; *p; p++) {
		*o++ = *p;
		if (*p == ',')
			*o++ = ',';
	}
	*o = '\0';
	return out;
}

struct argv_b {
	char **v;
	int n, cap;
};

static void add(struct argv_b *a, const char *s)
{
	if (a->n + 2 > a->cap) {
		a->cap = a->cap ? a->cap * 2 : 48;
		a->v = xrealloc(a->v, (size_t)a->cap * sizeof(char *));
	}
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

__attribute__((format(printf, 2, 3))) static void addf(struct argv_b *a,
						       const char *fmt, ...)
{
	char *s;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		xoom();
	va_end(ap);
	add(a, s);
	free(s);
}

static const char *on_off(bool b)
{
	return b ? "on" : "off";
}

unsigned int lab_bus_max_disks(enum lab_bus bus)
{
	switch (bus) {
	case BUS_VIRTIO_BLK: /* a PCI slot each */
	case BUS_VIRTIO_SCSI: /* targets of one controller */
	case BUS_NVME: /* a controller each */
		return LAB_MAX_DISKS;
	case BUS_AHCI: /* the ports of one ICH9 controller */
		return 6;
	case BUS_IDE: /* PIIX3: two channels, master and slave */
		return 4;
	default:
		return 1;
	}
}

/*
 * Disk @k of @c. A guest with one disk keeps the names it always had
 * (lab-file, lab-disk, serial LAB_DISK_SERIAL); disk K of several gets
 * a suffix on each, the serial being what the guest looks for.
 */
static void add_disk(struct argv_b *a, const struct qemu_cell *c,
		     unsigned int k)
{
	const struct qemu_disk *d = &c->disks[k];
	const char *direct = on_off(cache_direct(d->cache));
	const char *noflush = on_off(cache_no_flush(d->cache));
	/* write-cache=off is how -blockdev says writethrough (qemu.md 1.1). */
	const char *wce = on_off(!cache_dsync(d->cache));
	char *img = qemu_escape(d->image);
	char sfx[16] = "", serial[32], unit[32] = "";

	if (c->ndisks > 1)
		snprintf(sfx, sizeof(sfx), "-%u", k);
	snprintf(serial, sizeof(serial), "%s%s", LAB_DISK_SERIAL, sfx);
	add(a, "-blockdev");
	addf(a,
	     "driver=file,node-name=lab-file%s,filename=%s,aio=%s,cache.direct=%s,cache.no-flush=%s",
	     sfx, img, engine_qemu_aio(d->aio), direct, noflush);
	add(a, "-blockdev");
	addf(a,
	     "driver=%s,node-name=lab-disk%s,file=lab-file%s,cache.direct=%s,cache.no-flush=%s",
	     lab_format_names[c->format], sfx, sfx, direct, noflush);
	free(img);
	switch (c->bus) {
	case BUS_VIRTIO_BLK:
		add(a, "-device");
		addf(a,
		     "virtio-blk-pci,drive=lab-disk%s,serial=%s,write-cache=%s",
		     sfx, serial, wce);
		break;
	case BUS_VIRTIO_SCSI:
		if (k == 0) {
			add(a, "-device");
			add(a, "virtio-scsi-pci,id=lab-scsi");
		}
		add(a, "-device");
		addf(a,
		     "scsi-hd,bus=lab-scsi.0,drive=lab-disk%s,serial=%s,write-cache=%s",
		     sfx, serial, wce);
		break;
	case BUS_IDE:
		/* The "pc" machine's own PIIX3 IDE controller. */
		if (c->ndisks > 1)
			snprintf(unit, sizeof(unit), ",unit=%u", k % 2);
		add(a, "-device");
		addf(a,
		     "ide-hd,bus=ide.%u%s,drive=lab-disk%s,serial=%s,write-cache=%s",
		     k / 2, unit, sfx, serial, wce);
		break;
	case BUS_AHCI:
		if (k == 0) {
			add(a, "-device");
			add(a, "ahci,id=lab-ahci");
		}
		add(a, "-device");
		addf(a,
		     "ide-hd,bus=lab-ahci.%u,drive=lab-disk%s,serial=%s,write-cache=%s",
		     k, sfx, serial, wce);
		break;
	case BUS_NVME:
		add(a, "-device");
		addf(a, "nvme,drive=lab-disk%s,serial=%s,write-cache=%s", sfx,
		     serial, wce);
		break;
	default:
		break;
	}
}

char **qemu_argv_build(const struct qemu_cell *c)
{
	struct argv_b a = { 0 };

	add(&a, c->qemu);
	/* Nothing but what we add: no NIC, no VGA, no monitor, no config. */
	add(&a, "-nodefaults");
	add(&a, "-no-user-config");
	add(&a, "-display");
	add(&a, "none");
	/* A guest that panics or reboots ends QEMU instead of looping. */
	add(&a, "-no-reboot");
	add(&a, "-machine");
	add(&a, "pc");
	add(&a, "-accel");
	add(&a, c->accel == ACCEL_KVM ? "kvm" : "tcg");
	if (c->accel == ACCEL_KVM) {
		add(&a, "-cpu");
		add(&a, "host");
	}
	add(&a, "-m");
	addf(&a, "%llum", (unsigned long long)(c->memory_bytes >> 20));
	add(&a, "-smp");
	addf(&a, "%u", c->smp);
	/* -kernel and -initrd take plain paths, not option strings. */
	add(&a, "-kernel");
	add(&a, c->kernel);
	add(&a, "-initrd");
	add(&a, c->initrd);
	add(&a, "-append");
	add(&a, c->append);
	/* ttyS0: the kernel console; ttyS1: the result channel. */
	add(&a, "-chardev");
	addf(&a, "socket,id=lab-console,fd=%d", c->console_fd);
	add(&a, "-device");
	add(&a, "isa-serial,chardev=lab-console");
	add(&a, "-chardev");
	addf(&a, "socket,id=lab-channel,fd=%d", c->channel_fd);
	add(&a, "-device");
	add(&a, "isa-serial,chardev=lab-channel");
	for (unsigned int k = 0; k < c->ndisks && k < LAB_MAX_DISKS; k++)
		add_disk(&a, c, k);
	return a.v;
}

void qemu_argv_free(char **argv)
{
	if (!argv)
		return;
	for (char **p = argv; *p; p++)
		free(*p);
	free(argv);
}
