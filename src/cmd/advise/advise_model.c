// SPDX-License-Identifier: GPL-2.0-or-later
/* The VM/disk model of iolab advise; see advise_model.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise_model.h"
#include "../../util/xmem.h"

struct adv_vm *adv_vm_new(enum adv_source source, const char *origin)
{
	struct adv_vm *vm = xcalloc(1, sizeof(*vm));

	vm->source = source;
	vm->origin = xstrdup(origin);
	vm->vcpus = 1;
	for (int i = 0; i < ADV_VSLOT_N; i++)
		vm->vslot[i] = -1;
	return vm;
}

static void disk_free(struct adv_disk *d)
{
	free(d->id);
	free(d->file);
	free(d->volume);
	free(d->format);
	free(d->protocol);
	free(d->model);
	free(d->cache_default);
	free(d->aio);
	free(d->iothread);
	for (int i = 0; i < d->nbadprop; i++) {
		free(d->badprop[i].bad);
		free(d->badprop[i].good);
	}
	free(d->where);
	free(d->proto_prefix);
	free(d->corrected);
	free(d->refused);
	free(d->refused_fix);
	free(d->refused_media);
	for (size_t i = 0; i < d->nrepl; i++)
		free(d->repl[i].text);
	free(d->repl);
}

void adv_vm_free(struct adv_vm *vm)
{
	if (!vm)
		return;
	for (size_t i = 0; i < vm->ndisks; i++)
		disk_free(&vm->disks[i]);
	free(vm->disks);
	for (size_t i = 0; i < vm->nitems; i++) {
		free(vm->items[i].head);
		free(vm->items[i].text);
		free(vm->items[i].inner);
		free(vm->items[i].where);
		kvl_free(&vm->items[i].kv);
	}
	free(vm->items);
	for (size_t i = 0; i < vm->niothreads; i++)
		free(vm->iothreads[i]);
	free(vm->iothreads);
	free(vm->name);
	free(vm->origin);
	free(vm->machine);
	free(vm->os_hint);
	free(vm->corrected);
	free(vm);
}

int adv_vm_add_item(struct adv_vm *vm, enum adv_syntax syn, const char *head,
		    const char *where)
{
	struct adv_item *it;

	vm->items = xrealloc(vm->items, (vm->nitems + 1) * sizeof(*vm->items));
	it = &vm->items[vm->nitems];
	memset(it, 0, sizeof(*it));
	it->syn = syn;
	it->head = xstrdup(head);
	it->where = xstrdup(where ? where : "");
	return (int)vm->nitems++;
}

struct adv_disk *adv_vm_add_disk(struct adv_vm *vm)
{
	struct adv_disk *d;

	vm->disks = xrealloc(vm->disks, (vm->ndisks + 1) * sizeof(*vm->disks));
	d = &vm->disks[vm->ndisks++];
	memset(d, 0, sizeof(*d));
	for (int i = 0; i < ADV_SLOT_N; i++)
		d->slot[i] = -1;
	return d;
}

void adv_vm_add_iothread(struct adv_vm *vm, const char *id)
{
	if (adv_vm_has_iothread(vm, id))
		return;
	vm->iothreads =
		xrealloc(vm->iothreads, (vm->niothreads + 1) * sizeof(char *));
	vm->iothreads[vm->niothreads++] = xstrdup(id);
}

void adv_disk_bad_prop(struct adv_disk *d, const char *bad, const char *good,
		       int slot)
{
	if (d->nbadprop == ADV_MAX_BADPROPS)
		return;
	for (int i = 0; i < d->nbadprop; i++)
		if (!strcmp(d->badprop[i].bad, bad) &&
		    d->badprop[i].slot == slot)
			return;
	d->badprop[d->nbadprop].bad = xstrdup(bad);
	d->badprop[d->nbadprop].good = good ? xstrdup(good) : NULL;
	d->badprop[d->nbadprop++].slot = slot;
}

bool adv_vm_has_iothread(const struct adv_vm *vm, const char *id)
{
	for (size_t i = 0; i < vm->niothreads; i++)
		if (!strcmp(vm->iothreads[i], id))
			return true;
	return false;
}

const char *adv_cache_name(bool direct, bool no_flush, bool write_cache)
{
	if (no_flush)
		return direct ? (write_cache ? "none+no-flush" :
					       "directsync+no-flush") :
				(write_cache ? "unsafe" :
					       "writethrough+no-flush");
	if (direct)
		return write_cache ? "none" : "directsync";
	return write_cache ? "writeback" : "writethrough";
}

bool adv_cache_knobs(const char *name, bool *direct, bool *no_flush,
		     bool *write_cache)
{
	static const struct {
		const char *name;
		bool d, n, w;
	} t[] = {
		{ "none", true, false, true },
		{ "off", true, false, true }, /* QEMU's alias of none */
		{ "directsync", true, false, false },
		{ "writethrough", false, false, false },
		{ "writeback", false, false, true },
		{ "unsafe", false, true, true },
	};

	for (size_t i = 0; name && i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(name, t[i].name)) {
			*direct = t[i].d;
			*no_flush = t[i].n;
			*write_cache = t[i].w;
			return true;
		}
	return false;
}

const char *adv_bus_name(enum adv_bus bus)
{
	static const char *const names[] = {
		[ADV_BUS_UNKNOWN] = "unknown",
		[ADV_BUS_VIRTIO_BLK] = "virtio-blk",
		[ADV_BUS_VIRTIO_SCSI] = "virtio-scsi",
		[ADV_BUS_SCSI_EMULATED] = "scsi-emulated",
		[ADV_BUS_IDE] = "ide",
		[ADV_BUS_SATA] = "sata",
		[ADV_BUS_NVME] = "nvme",
		[ADV_BUS_USB] = "usb",
		[ADV_BUS_FLOPPY] = "floppy",
		[ADV_BUS_OTHER] = "other",
	};

	return names[bus];
}

const char *adv_severity_name(enum adv_severity s)
{
	return s == ADV_ERROR ? "error" : s == ADV_WARNING ? "warning" : "info";
}

const char *adv_os_name(enum adv_os os)
{
	return os == ADV_OS_LINUX   ? "linux" :
	       os == ADV_OS_WINDOWS ? "windows" :
	       os == ADV_OS_OTHER   ? "other" :
				      "unknown";
}

/* Ubuntu's machine types carry the release name instead of a version. */
static int ubuntu_version(const char *s)
{
	static const struct {
		const char *name;
		int v; /* QEMU major*100 + minor */
	} t[] = {
		{ "xenial", 205 }, { "bionic", 211 },  { "cosmic", 212 },
		{ "disco", 301 },  { "eoan", 400 },    { "focal", 402 },
		{ "groovy", 500 }, { "hirsute", 502 }, { "impish", 600 },
		{ "jammy", 602 },  { "kinetic", 700 }, { "lunar", 702 },
		{ "mantic", 800 }, { "noble", 802 },   { "oracular", 900 },
		{ "plucky", 902 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strstr(s, t[i].name))
			return t[i].v;
	return -1;
}

/* major*100+minor of a machine type, -1 unknown, 0 unversioned (latest). */
static int machine_version(const char *type)
{
	const char *p;
	int a, b;

	if ((p = strstr(type, "rhel"))) {
		/* Widths bound the numbers: no overflow from a crafted name. */
		if (sscanf(p + 4, "%4d.%3d", &a, &b) != 2)
			return -1;
		/* RHEL 8.4 is the first RHEL machine on QEMU 5.2. */
		if (a <= 7 || (a == 8 && b <= 3))
			return 501;
		return 502;
	}
	if ((a = ubuntu_version(type)) >= 0)
		return a;
	for (p = type; *p; p++)
		if (*p >= '0' && *p <= '9' && (p == type || p[-1] == '-') &&
		    sscanf(p, "%4d.%3d", &a, &b) == 2)
			return a * 100 + b;
	return 0;
}

void adv_vm_set_machine(struct adv_vm *vm, const char *machine)
{
	char type[128];
	const char *p = machine;
	int v;

	if (!strncmp(p, "type=", 5))
		p += 5;
	snprintf(type, sizeof(type), "%.*s", (int)strcspn(p, ","), p);
	free(vm->machine);
	vm->machine = xstrdup(type);
	vm->q35 = strstr(type, "q35") != NULL;
	v = machine_version(type);
	vm->machine_version = v > 0 ? v : 0;
	/* hw_compat_5_1: virtio-blk/scsi num-queues=1 before 5.2. */
	vm->machine_old_queues = v > 0 && v < 502;
}

void adv_report_add_vm(struct adv_report *r, struct adv_vm *vm)
{
	r->vms = xrealloc(r->vms, (r->nvms + 1) * sizeof(*r->vms));
	r->vms[r->nvms++] = vm;
}

void adv_report_add_finding(struct adv_report *r, enum adv_severity sev,
			    const char *rule, size_t vm, long disk,
			    char *message, char *why, char *fix)
{
	struct adv_finding *f;

	r->f = xrealloc(r->f, (r->nf + 1) * sizeof(*r->f));
	f = &r->f[r->nf++];
	f->sev = sev;
	f->rule = rule;
	f->vm = vm;
	f->disk = disk;
	f->message = message;
	f->why = why;
	f->fix = fix;
	f->fix_is_advice = false;
	f->edit = NULL;
	f->overridden = false;
}

size_t adv_report_count(const struct adv_report *r, enum adv_severity s)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nf; i++)
		n += r->f[i].sev == s;
	return n;
}

void adv_report_free(struct adv_report *r)
{
	for (size_t i = 0; i < r->nvms; i++)
		adv_vm_free(r->vms[i]);
	free(r->vms);
	for (size_t i = 0; i < r->nf; i++) {
		free(r->f[i].message);
		free(r->f[i].why);
		free(r->f[i].fix);
		free(r->f[i].edit);
	}
	free(r->f);
	warnings_free(&r->warnings);
	memset(r, 0, sizeof(*r));
}
