// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The libvirt domain XML reader; the one file that includes libxml2 (see
 * advise_libvirt.h). Mapping from reference/qemu.md 3.3: <driver cache io
 * discard iothread queues queue_size>, <target bus>, <controller
 * model='virtio-scsi'>, <iothreads>, <vcpu>, <os><type machine>.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise_libvirt.h"
#include "../../engine/engine.h"
#include "../../util/err.h"

#if HAVE_LIBXML2

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "advise_fix.h"
#include "advise_storage.h"
#include "../../util/xmem.h"
#include "../../util/infile.h"

/* Domain XML is a few KiB; a bigger file is not one (iolab-advise(1)). */
#define LIBVIRT_MAX_BYTES (4u << 20)
/* libvirt itself refuses far fewer disks than this. */
#define LIBVIRT_MAX_DEVICES 4096

bool adv_libvirt_available(void)
{
	return true;
}

struct lv {
	struct adv_vm *vm;
	const char *path;
	const struct adv_ctx *ctx;
	xmlDocPtr doc;
};

static bool is(const xmlNode *n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE &&
	       !strcmp((const char *)n->name, name);
}

static xmlNode *child(const xmlNode *n, const char *name)
{
	for (xmlNode *c = n ? n->children : NULL; c; c = c->next)
		if (is(c, name))
			return c;
	return NULL;
}

/* Attribute value (malloc'd, NULL if absent). */
static char *attr(const xmlNode *n, const char *name)
{
	xmlChar *v;
	char *s;

	if (!n)
		return NULL;
	v = xmlGetProp(n, (const xmlChar *)name);
	if (!v)
		return NULL;
	s = xstrdup((const char *)v);
	xmlFree(v);
	return s;
}

static char *text(const xmlNode *n)
{
	xmlChar *v = n ? xmlNodeGetContent(n) : NULL;
	char *s, *b, *e;

	if (!v)
		return NULL;
	s = xstrdup((const char *)v);
	xmlFree(v);
	for (b = s; *b == ' ' || *b == '\n' || *b == '\t' || *b == '\r'; b++)
		;
	e = b + strlen(b);
	while (e > b && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\t' ||
			 e[-1] == '\r'))
		e--;
	*e = '\0';
	memmove(s, b, (size_t)(e - b) + 1);
	return s;
}

/* The column an element starts at: the spaces after the last newline of
   the text before it. */
static size_t column_of(const xmlNode *c)
{
	const char *t, *nl;

	if (!c->prev || c->prev->type != XML_TEXT_NODE || !c->prev->content)
		return 0;
	t = (const char *)c->prev->content;
	nl = strrchr(t, '\n');
	t = nl ? nl + 1 : t;
	return strspn(t, " \t");
}

/* Append @xml with its lines after the first moved @col columns left. */
static void add_outdented(struct fixbuf *out, const char *xml, size_t col)
{
	const char *p = xml;
	bool first = true;

	while (*p) {
		size_t n = strcspn(p, "\n"), ws = strspn(p, " \t");

		if (!first)
			p += ws < col ? ws : col, n -= ws < col ? ws : col;
		fixbuf_addf(out, "%.*s", (int)n, p);
		first = false;
		p += n + (p[n] == '\n');
	}
}

/*
 * The child elements of @n as written, one line each and indented
 * relative to @n's children (NULL: none), so that a corrected <driver>
 * keeps its <iothreads> or <metadata_cache> children. The document is
 * bounded (its size is checked before parsing), so is this.
 */
static char *inner_xml(const struct lv *l, const xmlNode *n)
{
	struct fixbuf out = { 0 };

	for (xmlNode *c = n->children; c; c = c->next) {
		xmlBufferPtr buf;

		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (!(buf = xmlBufferCreate()))
			xoom();
		xmlNodeDump(buf, l->doc, c, 0, 0);
		add_outdented(&out, (const char *)xmlBufferContent(buf),
			      column_of(c));
		xmlBufferFree(buf);
	}
	return out.len ? fixbuf_take(&out) : NULL;
}

/* An element as an item: its attributes in order, and its text. */
static int add_elem(struct lv *l, const xmlNode *n, bool with_text)
{
	char where[512];
	int idx;

	snprintf(where, sizeof(where), "%s:%ld", l->path, xmlGetLineNo(n));
	idx = adv_vm_add_item(l->vm, ADV_SYN_XML, (const char *)n->name, where);
	for (xmlAttr *a = n->properties; a; a = a->next) {
		xmlChar *v = xmlNodeListGetString(l->doc, a->children, 1);

		kvl_add(&l->vm->items[idx].kv, (const char *)a->name,
			v ? (const char *)v : "", KV_STR);
		xmlFree(v);
	}
	if (with_text)
		l->vm->items[idx].text = text(n);
	else
		l->vm->items[idx].inner = inner_xml(l, n);
	return idx;
}

static const char *iget(const struct lv *l, int item, const char *key)
{
	return item < 0 ? NULL : kvl_get(&l->vm->items[item].kv, key);
}

static unsigned count(const char *s)
{
	unsigned long n = s ? strtoul(s, NULL, 10) : 0;

	return n > 65535 ? 65535 : (unsigned)n;
}

/* libosinfo ids name the OS: http://microsoft.com/win/10, .../rhel/9.2 */
static void guess_os(struct lv *l, const xmlNode *root)
{
	static const char *const linux_ids[] = {
		"redhat.com",	 "fedoraproject.org",
		"centos.org",	 "debian.org",
		"ubuntu.com",	 "opensuse.org",
		"suse.com",	 "archlinux.org",
		"oracle.com",	 "rockylinux.org",
		"almalinux.org", "alpinelinux.org",
		"gentoo.org",	 "nixos.org",
		"mageia.org",	 "libosinfo.org/linux",
		"kali.org",	 "linuxmint.com",
		"opensuse",	 NULL,
	};
	const xmlNode *meta = child(root, "metadata"), *f;
	struct adv_vm *vm = l->vm;

	for (const xmlNode *m = meta ? meta->children : NULL; m; m = m->next) {
		for (const xmlNode *o = m->children; o; o = o->next) {
			char *id;

			if (!is(o, "os") || !(id = attr(o, "id")))
				continue;
			if (strstr(id, "microsoft.com")) {
				vm->os = ADV_OS_WINDOWS;
			} else {
				vm->os = ADV_OS_OTHER;
				for (int i = 0; linux_ids[i]; i++)
					if (strstr(id, linux_ids[i]))
						vm->os = ADV_OS_LINUX;
			}
			vm->os_hint = xasprintf("libosinfo id %s", id);
			free(id);
			return;
		}
	}
	/* QNAP and hand-written domains say it in words. */
	for (const char *const *el =
		     (const char *const[]){ "title", "description", "name",
					    NULL };
	     *el; el++) {
		static const char *const words[] = {
			"oracle linux", "rhel",	  "centos", "debian",
			"ubuntu",	"fedora", "suse",   "rocky",
			"alma",		"linux",  NULL,
		};
		char *t = text(child(root, *el)), *low;

		if (!t)
			continue;
		for (low = t; *low; low++)
			*low = (char)tolower((unsigned char)*low);
		for (int i = 0; words[i] && vm->os == ADV_OS_UNKNOWN; i++)
			if (strstr(t, words[i])) {
				vm->os = ADV_OS_LINUX;
				vm->os_hint = xasprintf("<%s> says %s", *el,
							words[i]);
			}
		if (vm->os == ADV_OS_UNKNOWN && strstr(t, "windows")) {
			vm->os = ADV_OS_WINDOWS;
			vm->os_hint = xasprintf("<%s> says windows", *el);
		}
		free(t);
		if (vm->os != ADV_OS_UNKNOWN)
			return;
	}
	f = child(root, "features");
	if (child(f, "hyperv")) {
		vm->os = ADV_OS_WINDOWS;
		vm->os_hint = xstrdup("<features><hyperv>");
		return;
	}
	f = child(root, "clock");
	if (f) {
		char *off = attr(f, "offset");

		if (off && !strcmp(off, "localtime")) {
			vm->os = ADV_OS_WINDOWS;
			vm->os_hint = xstrdup("<clock offset='localtime'>");
		}
		free(off);
	}
}

struct lv_ctrl {
	unsigned index;
	int item, driver_item;
};

static int find_ctrl(const struct lv_ctrl *c, size_t n, unsigned index)
{
	for (size_t i = 0; i < n; i++)
		if (c[i].index == index)
			return (int)i;
	return -1;
}

static void read_source(struct lv *l, const xmlNode *disk, struct adv_disk *d,
			const char *type)
{
	const xmlNode *src = child(disk, "source");
	char *v;

	if (!src)
		return;
	if ((v = attr(src, "file")) || (v = attr(src, "dev")) ||
	    (v = attr(src, "dir"))) {
		d->file = v;
	} else if ((v = attr(src, "protocol"))) {
		char *name = attr(src, "name");

		d->protocol = v;
		d->file = xasprintf("%s:%s", v, name ? name : "");
		free(name);
	} else if ((v = attr(src, "pool"))) {
		char *vol = attr(src, "volume");

		d->file = xasprintf("%s/%s", v, vol ? vol : "");
		free(vol);
		free(v);
	}
	if (!d->protocol) {
		if (!strcmp(type, "file"))
			d->protocol = xstrdup("file");
		else if (!strcmp(type, "block"))
			d->protocol = xstrdup(d->cdrom ? "host_cdrom" :
							 "host_device");
		else if (!strcmp(type, "dir"))
			d->protocol = xstrdup("vvfat");
	}
	(void)l;
}

static bool read_disk(struct lv *l, const xmlNode *n,
		      const struct lv_ctrl *ctrls, size_t nctrl,
		      struct err *err)
{
	struct adv_vm *vm = l->vm;
	char *type = attr(n, "type"), *device = attr(n, "device");
	/* libvirt's default <disk> type is file (virDomainDiskDef). */
	const char *dtype = type ? type : "file";
	const xmlNode *drv = child(n, "driver"), *tgt = child(n, "target");
	const xmlNode *addr = child(n, "address");
	char *bus = NULL, *dev = NULL, where[512];
	struct adv_disk *d;
	int di, ti;
	const char *v;
	bool ok = true, cache_dflt;

	snprintf(where, sizeof(where), "%s:%ld", l->path, xmlGetLineNo(n));
	if (!tgt || !(dev = attr(tgt, "dev"))) {
		ok = err_set(
			err, EXIT_USAGE, 0,
			"%s: <disk> without <target dev=...>; libvirt requires one",
			where);
		goto out;
	}
	bus = attr(tgt, "bus");
	d = adv_vm_add_disk(vm);
	d->id = xstrdup(dev);
	d->where = xstrdup(where);
	d->cdrom = device && !strcmp(device, "cdrom");
	d->passthrough = device && !strcmp(device, "lun");
	d->readonly = child(n, "readonly") != NULL;
	d->temporary = child(n, "transient") != NULL;
	di = drv ? add_elem(l, drv, false) : -1;
	ti = add_elem(l, tgt, false);
	d->slot[ADV_SLOT_DRIVE] = di;
	d->slot[ADV_SLOT_DEVICE] = ti;
	if (addr) {
		char *at = attr(addr, "type");

		/* Addresses that tie the disk to its bus: a move to virtio
		   leaves them invalid. */
		if (at && (!strcmp(at, "drive") || !strcmp(at, "usb")))
			d->slot[ADV_SLOT_ADDR] = add_elem(l, addr, false);
		free(at);
	}
	read_source(l, n, d, dtype);

	v = iget(l, di, "type");
	d->format = xstrdup(v ? v : "raw");
	v = iget(l, di, "cache");
	cache_dflt = v && !strcmp(v, "default");
	d->write_cache = true;
	if (v && !cache_dflt) {
		if (!adv_cache_knobs(v, &d->direct, &d->no_flush,
				     &d->write_cache) ||
		    !strcmp(v, "off")) {
			ok = err_set(
				err, EXIT_USAGE, 0,
				"%s: <driver cache='%s'> is not none, writethrough, writeback, directsync, unsafe or default",
				vm->items[di].where, v);
			goto out;
		}
		d->cache_set = true;
	} else if (child(n, "shareable") && !d->readonly) {
		/* libvirt gives a writable shared disk whose cache mode is
		   "default" (absent or written so) cache=none. */
		d->direct = true;
		d->cache_default = xstrdup(
			cache_dflt ?
				"cache='default' on a <shareable/> disk: libvirt sets cache=none" :
				"no cache attribute on a <shareable/> disk: libvirt sets cache=none");
	} else {
		d->cache_default = xstrdup(
			cache_dflt ?
				"cache='default': libvirt leaves it to QEMU, whose default is writeback" :
				"no cache attribute: QEMU's default");
	}
	if (d->protocol && (!strcmp(d->protocol, "file") ||
			    !strcmp(d->protocol, "host_device") ||
			    !strcmp(d->protocol, "host_cdrom"))) {
		v = iget(l, di, "io");
		if (v && strcmp(v, "default") && engine_qemu_parse(v) < 0) {
			ok = err_set(
				err, EXIT_USAGE, 0,
				"%s: <driver io='%s'> is not threads, native, io_uring or default",
				vm->items[di].where, v);
			goto out;
		}
		d->aio_set = v && strcmp(v, "default");
		d->aio = xstrdup(d->aio_set ? v : "threads");
	}
	v = iget(l, di, "discard");
	d->discard = v && !strcmp(v, "unmap");
	if ((v = iget(l, di, "iothread")))
		d->iothread = xstrdup(v);
	else if (drv && child(drv, "iothreads"))
		d->iothread = xstrdup("(iothread-vq-mapping)");

	if (!bus) {
		/* libvirt derives it from the name: vd* virtio, sd* scsi... */
		bus = xstrdup(!strncmp(dev, "vd", 2) ? "virtio" :
			      !strncmp(dev, "hd", 2) ? "ide" :
			      !strncmp(dev, "sd", 2) ? "scsi" :
			      !strncmp(dev, "fd", 2) ? "fdc" :
						       "unknown");
	}
	if (!strcmp(bus, "virtio")) {
		d->bus = ADV_BUS_VIRTIO_BLK;
		d->model = xstrdup("virtio-blk-pci");
		if ((v = iget(l, di, "queues")))
			d->queues = count(v);
		if (!d->queues) {
			d->queues = vm->machine_old_queues ? 1 : vm->vcpus;
			d->queues_auto = !vm->machine_old_queues;
		}
		d->queue_size = count(iget(l, di, "queue_size"));
		/* libvirt starts a virtio-blk LUN with scsi=on, which QEMU
		   9.1 removed. */
		d->scsi_prop = d->passthrough;
	} else if (!strcmp(bus, "scsi")) {
		char *cs = addr ? attr(addr, "controller") : NULL;
		int ci = find_ctrl(ctrls, nctrl, count(cs));
		const char *model = ci >= 0 ? iget(l, ctrls[ci].item, "model") :
					      NULL;

		free(cs);
		if (ci >= 0) {
			d->slot[ADV_SLOT_CTRL] = ctrls[ci].item;
			d->slot[ADV_SLOT_CTRL_DRIVER] = ctrls[ci].driver_item;
		}
		if (model && !strncmp(model, "virtio", 6)) {
			int cd = ctrls[ci].driver_item;

			d->bus = ADV_BUS_VIRTIO_SCSI;
			d->model = xstrdup("scsi-hd on virtio-scsi-pci");
			d->queues = count(iget(l, cd, "queues"));
			if (!d->queues) {
				d->queues = vm->machine_old_queues ? 1 :
								     vm->vcpus;
				d->queues_auto = !vm->machine_old_queues;
			}
			if (iget(l, cd, "iothread")) {
				free(d->iothread);
				d->iothread = xstrdup(iget(l, cd, "iothread"));
			} else if (d->iothread) {
				/* libvirt: iothread goes on the controller */
				adv_disk_bad_prop(d, "iothread", NULL,
						  ADV_SLOT_DRIVE);
			}
		} else {
			d->bus = ADV_BUS_SCSI_EMULATED;
			d->model = xasprintf(
				"scsi-hd on %s",
				model ? model :
					"lsilogic (libvirt's default SCSI controller)");
			d->queues = 1;
		}
	} else if (!strcmp(bus, "sata")) {
		d->bus = ADV_BUS_SATA;
		d->model =
			xstrdup(d->cdrom ? "ide-cd on ahci" : "ide-hd on ahci");
		d->queues = 1;
	} else if (!strcmp(bus, "ide")) {
		d->bus = ADV_BUS_IDE;
		d->model = xstrdup(d->cdrom ? "ide-cd on piix-ide" :
					      "ide-hd on piix-ide");
		d->queues = 1;
	} else if (!strcmp(bus, "usb")) {
		d->bus = ADV_BUS_USB;
		d->model = xstrdup("usb-storage");
		d->queues = 1;
	} else if (!strcmp(bus, "fdc")) {
		d->bus = ADV_BUS_FLOPPY;
		d->model = xstrdup(vm->q35 ? "floppy on isa-fdc" :
					     "floppy on the PC's fdc");
		d->queues = 1;
	} else {
		d->bus = ADV_BUS_OTHER;
		d->model = xstrdup(bus);
		d->queues = 1;
	}
	if (d->iothread && d->bus != ADV_BUS_VIRTIO_BLK &&
	    d->bus != ADV_BUS_VIRTIO_SCSI)
		adv_disk_bad_prop(d, "iothread", NULL, ADV_SLOT_DRIVE);
	adv_storage_classify(d, l->ctx);
out:
	free(type);
	free(device);
	free(bus);
	free(dev);
	return ok;
}

/* Iothread ids: <iothreadids> if given, else 1..<iothreads>. */
static void read_iothreads(struct lv *l, const xmlNode *root)
{
	const xmlNode *n = child(root, "iothreads");
	const xmlNode *ids = child(root, "iothreadids");
	unsigned cnt = 0;
	char id[16];

	if (n) {
		l->vm->vslot[ADV_VSLOT_IOTHREADS] = add_elem(l, n, true);
		cnt = count(
			l->vm->items[l->vm->vslot[ADV_VSLOT_IOTHREADS]].text);
	}
	for (const xmlNode *c = ids ? ids->children : NULL; c; c = c->next) {
		char *v = is(c, "iothread") ? attr(c, "id") : NULL;

		if (v)
			adv_vm_add_iothread(l->vm, v);
		free(v);
	}
	/* With fewer <iothreadids> than <iothreads>, libvirt gives the
	   others the lowest ids not listed (virDomainIOThreadIDDefArrayInit). */
	for (unsigned i = 1;
	     l->vm->niothreads < cnt && l->vm->niothreads < LIBVIRT_MAX_DEVICES;
	     i++) {
		snprintf(id, sizeof(id), "%u", i);
		adv_vm_add_iothread(l->vm, id);
	}
}

static bool read_domain(struct lv *l, const xmlNode *root, struct err *err)
{
	struct adv_vm *vm = l->vm;
	const xmlNode *n, *devs;
	struct lv_ctrl *ctrls = NULL;
	size_t nctrl = 0;
	bool ok = true;
	char *v;

	if ((n = child(root, "name")))
		vm->name = text(n);
	/* QNAP names domains by UUID and shows <title>. */
	if ((n = child(root, "title"))) {
		char *t = text(n);

		if (t && *t && vm->name && strcmp(t, vm->name)) {
			char *both = xasprintf("%s (%s)", t, vm->name);

			free(vm->name);
			vm->name = both;
		}
		free(t);
	}
	if ((n = child(root, "vcpu"))) {
		char *cur = attr(n, "current"), *t = text(n);

		vm->vcpus = count(cur ? cur : t);
		if (!vm->vcpus)
			vm->vcpus = 1;
		free(cur);
		free(t);
	}
	if ((n = child(child(root, "os"), "type")) &&
	    (v = attr(n, "machine"))) {
		adv_vm_set_machine(vm, v);
		free(v);
	}
	read_iothreads(l, root);
	guess_os(l, root);
	devs = child(root, "devices");
	for (n = devs ? devs->children : NULL; n; n = n->next) {
		char *t;

		if (!is(n, "controller"))
			continue;
		t = attr(n, "type");
		if (t && !strcmp(t, "scsi")) {
			char *idx = attr(n, "index");
			const xmlNode *cd = child(n, "driver");

			ctrls = xrealloc(ctrls, (nctrl + 1) * sizeof(*ctrls));
			ctrls[nctrl].index = count(idx);
			ctrls[nctrl].item = add_elem(l, n, false);
			ctrls[nctrl].driver_item = cd ? add_elem(l, cd, false) :
							-1;
			nctrl++;
			free(idx);
		}
		free(t);
	}
	for (n = devs ? devs->children : NULL; ok && n; n = n->next)
		if (is(n, "disk"))
			ok = read_disk(l, n, ctrls, nctrl, err);
	free(ctrls);
	return ok;
}

/* The first error names the line to fix; later ones follow from it. */
struct first_error {
	int line;
	char msg[256];
};

#if LIBXML_VERSION >= 21200
static void on_error(void *ctx, const xmlError *e)
#else
static void on_error(void *ctx, xmlErrorPtr e)
#endif
{
	struct first_error *fe = ctx;
	size_t n;

	if (fe->msg[0] || !e || e->level < XML_ERR_ERROR)
		return;
	fe->line = e->line;
	snprintf(fe->msg, sizeof(fe->msg), "%s",
		 e->message ? e->message : "cannot parse");
	n = strlen(fe->msg);
	while (n && (fe->msg[n - 1] == '\n' || fe->msg[n - 1] == ' '))
		fe->msg[--n] = '\0';
}

/*
 * Entities are refused, not expanded or capped: libvirt never writes a
 * DOCTYPE, and one entity referenced many times grows without bound in
 * xmlNodeGetContent(). The parser is stopped at the first DOCTYPE (any
 * encoding), so neither the internal subset nor an entity is ever read.
 */
struct lv_parse {
	struct first_error fe;
	bool dtd;
};

static void refuse_dtd(void *ctx, const xmlChar *name, const xmlChar *ext,
		       const xmlChar *sys)
{
	xmlParserCtxtPtr p = ctx;
	struct lv_parse *lp = p->_private;

	(void)name;
	(void)ext;
	(void)sys;
	lp->dtd = true;
	xmlStopParser(p);
}

/* A document that the parser accepted but still holds an entity. */
static bool has_entity(const xmlNode *n, size_t *nodes)
{
	for (; n; n = n->next) {
		if (n->type == XML_ENTITY_REF_NODE ||
		    n->type == XML_ENTITY_DECL || n->type == XML_DTD_NODE)
			return true;
		(*nodes)++;
		if (n->type == XML_ELEMENT_NODE) {
			for (const xmlAttr *a = n->properties; a; a = a->next)
				if (has_entity(a->children, nodes))
					return true;
		}
		if (has_entity(n->children, nodes))
			return true;
	}
	return false;
}

static size_t count_children(const xmlNode *n, const char *name)
{
	size_t k = 0;

	for (const xmlNode *c = n ? n->children : NULL; c; c = c->next)
		k += is(c, name);
	return k;
}

bool adv_libvirt_read_mem(struct adv_report *r, const char *path,
			  const char *buf, size_t len,
			  const struct adv_ctx *ctx, struct err *err)
{
	struct lv l = { .path = path, .ctx = ctx };
	struct lv_parse lp = { 0 };
	xmlParserCtxtPtr pctx;
	size_t nodes = 0;
	xmlNode *root;
	char *origin;
	bool ok;

	if (len > LIBVIRT_MAX_BYTES || len > INT_MAX)
		return err_set(
			err, EXIT_ENV, EFBIG,
			"--libvirt %s is larger than %u MiB, the limit for this input; give the domain XML itself",
			path, LIBVIRT_MAX_BYTES >> 20);
	pctx = xmlNewParserCtxt();
	if (!pctx)
		return err_set(err, EXIT_ENV, ENOMEM,
			       "%s: cannot start the XML parser", path);
	pctx->_private = &lp;
	pctx->sax->internalSubset = refuse_dtd;
	xmlSetStructuredErrorFunc(&lp.fe, on_error);
	/* No NOENT, no DTDLOAD/DTDATTR: nothing is substituted or fetched. */
	l.doc = xmlCtxtReadMemory(pctx, buf, (int)len, path, NULL,
				  XML_PARSE_NONET | XML_PARSE_NOERROR |
					  XML_PARSE_NOWARNING);
	xmlSetStructuredErrorFunc(NULL, NULL);
	xmlFreeParserCtxt(pctx);
	root = l.doc ? xmlDocGetRootElement(l.doc) : NULL;
	if (lp.dtd || (l.doc && (l.doc->intSubset || l.doc->extSubset)) ||
	    (root && has_entity(root, &nodes))) {
		xmlFreeDoc(l.doc);
		return err_set(
			err, EXIT_ENV, 0,
			"%s: a <!DOCTYPE> or entity: iolab does not expand XML entities and libvirt never writes them; export the domain with 'virsh dumpxml'",
			path);
	}
	if (!l.doc)
		return err_set(
			err, EXIT_USAGE, 0,
			"%s:%d: not well-formed XML: %s; fix the file or export it again with 'virsh dumpxml'",
			path, lp.fe.line,
			lp.fe.msg[0] ? lp.fe.msg : "cannot parse");
	if (!is(root, "domain")) {
		ok = err_set(
			err, EXIT_USAGE, 0,
			"%s: root element is <%s>, not <domain>: not a libvirt domain XML",
			path, root ? (const char *)root->name : "none");
		xmlFreeDoc(l.doc);
		return ok;
	}
	if (count_children(child(root, "devices"), "disk") +
			    count_children(child(root, "devices"),
					   "controller") >
		    LIBVIRT_MAX_DEVICES ||
	    count_children(child(root, "iothreadids"), "iothread") >
		    LIBVIRT_MAX_DEVICES) {
		xmlFreeDoc(l.doc);
		return err_set(
			err, EXIT_USAGE, 0,
			"%s: more than %d disks, controllers or iothreads; not a domain libvirt would start",
			path, LIBVIRT_MAX_DEVICES);
	}
	origin = xasprintf("libvirt:%s", path);
	l.vm = adv_vm_new(ADV_SRC_LIBVIRT, origin);
	free(origin);
	l.vm->libvirt_managed = true;
	ok = read_domain(&l, root, err);
	xmlFreeDoc(l.doc);
	if (!ok) {
		adv_vm_free(l.vm);
		return false;
	}
	if (!l.vm->name)
		l.vm->name = xstrdup(path);
	adv_report_add_vm(r, l.vm);
	return true;
}

bool adv_libvirt_read(struct adv_report *r, const char *path,
		      const struct adv_ctx *ctx, struct err *err)
{
	size_t len = 0;
	char *buf =
		infile_read(path, "--libvirt", LIBVIRT_MAX_BYTES, &len, err);
	bool ok;

	if (!buf)
		return false;
	ok = adv_libvirt_read_mem(r, path, buf, len, ctx, err);
	free(buf);
	return ok;
}

#else /* !HAVE_LIBXML2 */

bool adv_libvirt_available(void)
{
	return false;
}

bool adv_libvirt_read(struct adv_report *r, const char *path,
		      const struct adv_ctx *ctx, struct err *err)
{
	(void)r;
	(void)path;
	(void)ctx;
	return err_set(err, EXIT_ENV, 0,
		       "this build has no libxml2; --libvirt is unavailable");
}

bool adv_libvirt_read_mem(struct adv_report *r, const char *path,
			  const char *buf, size_t len,
			  const struct adv_ctx *ctx, struct err *err)
{
	(void)buf;
	(void)len;
	return adv_libvirt_read(r, path, ctx, err);
}

#endif
