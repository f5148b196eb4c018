// SPDX-License-Identifier: GPL-2.0-or-later
/* Proxmox VE VM configs; see advise_proxmox.h. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "advise_proxmox.h"
#include "advise_storage.h"
#include "../../engine/engine.h"
#include "../../util/err.h"
#include "../../util/xmem.h"
#include "../../util/infile.h"

/*
 * pmxcfs keeps a file under 1 MiB; a bigger config or storage.cfg is not
 * one, and reading it is refused (iolab-advise(1) states the limit).
 */
#define PVE_MAX_BYTES (4u << 20)
/* Proxmox has at most 31 SCSI, 16 VirtIO, 6 SATA and 4 IDE drives. */
#define PVE_MAX_DRIVES 1024
/* A cluster with thousands of storages is not one iolab has to read. */
#define PVE_MAX_STORAGES 4096

struct pve_storage {
	char *id, *type, *path, *vg, *pool;
	char *content; /* as written, NULL: the plugin's default */
	char *portal, *target, *server, *volume; /* iSCSI, GlusterFS */
	bool krbd, sparse, nocow;
};

struct pve {
	struct adv_vm *vm;
	const char *path;
	const struct adv_ctx *ctx;
	struct pve_storage *st;
	size_t nst;
	char *storage_cfg; /* the file used, or NULL */
	struct kvl conf; /* key -> value of the main section */
	int *lines; /* line number per conf entry */
};

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static void replace(char **slot, const char *val)
{
	free(*slot);
	*slot = xstrdup(val);
}

/* storage.cfg: "type: id" headers, then indented "key value" lines. */
static bool parse_storage_cfg(struct pve *p, const char *path, const char *text,
			      struct err *err)
{
	char *buf = xstrdup(text), *save = NULL, *line;
	struct pve_storage *cur = NULL;

	p->storage_cfg = xstrdup(path);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		bool indented = line[0] == ' ' || line[0] == '\t';
		char *t = trim(line), *sp;

		if (!*t || *t == '#')
			continue;
		if (!indented && (sp = strchr(t, ':'))) {
			if (p->nst == PVE_MAX_STORAGES) {
				free(buf);
				return err_set(
					err, EXIT_USAGE, 0,
					"%s: more than %d storages; not a Proxmox storage.cfg",
					path, PVE_MAX_STORAGES);
			}
			*sp = '\0';
			p->st = xrealloc(p->st, (p->nst + 1) * sizeof(*p->st));
			cur = &p->st[p->nst++];
			memset(cur, 0, sizeof(*cur));
			cur->type = xstrdup(trim(t));
			cur->id = xstrdup(trim(sp + 1));
			continue;
		}
		if (!cur)
			continue;
		sp = t + strcspn(t, " \t");
		if (*sp)
			*sp++ = '\0';
		sp = trim(sp);
		/* A repeated key: the last one counts, as in Proxmox. */
		if (!strcmp(t, "path"))
			replace(&cur->path, sp);
		else if (!strcmp(t, "vgname"))
			replace(&cur->vg, sp);
		else if (!strcmp(t, "pool"))
			replace(&cur->pool, sp);
		else if (!strcmp(t, "content"))
			replace(&cur->content, sp);
		else if (!strcmp(t, "portal"))
			replace(&cur->portal, sp);
		else if (!strcmp(t, "target"))
			replace(&cur->target, sp);
		else if (!strcmp(t, "server"))
			replace(&cur->server, sp);
		else if (!strcmp(t, "volume"))
			replace(&cur->volume, sp);
		else if (!strcmp(t, "krbd"))
			cur->krbd = !strcmp(sp, "1");
		else if (!strcmp(t, "sparse"))
			cur->sparse = !strcmp(sp, "1");
		else if (!strcmp(t, "nocow"))
			cur->nocow = !strcmp(sp, "1");
	}
	free(buf);
	return true;
}

static bool read_storage_cfg(struct pve *p, const char *path, struct err *err)
{
	char *buf = infile_read(path, "--proxmox-storage", PVE_MAX_BYTES, NULL,
				err);
	bool ok;

	if (!buf)
		return false;
	ok = parse_storage_cfg(p, path, buf, err);
	free(buf);
	return ok;
}

/* storage.cfg beside the config: .../pve/storage.cfg for
   .../pve/qemu-server/ID.conf and .../pve/nodes/N/qemu-server/ID.conf. */
static bool find_storage_cfg(struct pve *p, const char *given, struct err *err)
{
	char dir[4096], try[4200];

	if (given)
		return read_storage_cfg(p, given, err);
	snprintf(dir, sizeof(dir), "%s", p->path);
	for (int up = 0; up < 4; up++) {
		char *slash = strrchr(dir, '/');

		if (!slash)
			break;
		*slash = '\0';
		snprintf(try, sizeof(try), "%s/storage.cfg", *dir ? dir : "");
		if (up && !access(try, R_OK))
			return read_storage_cfg(p, try, err);
	}
	if (!strncmp(p->path, "/etc/pve/", 9) &&
	    !access("/etc/pve/storage.cfg", R_OK))
		return read_storage_cfg(p, "/etc/pve/storage.cfg", err);
	return true;
}

static const struct pve_storage *storage(const struct pve *p, const char *id)
{
	for (size_t i = 0; i < p->nst; i++)
		if (!strcmp(p->st[i].id, id))
			return &p->st[i];
	return NULL;
}

static void storage_free(struct pve *p)
{
	for (size_t i = 0; i < p->nst; i++) {
		free(p->st[i].id);
		free(p->st[i].type);
		free(p->st[i].path);
		free(p->st[i].vg);
		free(p->st[i].pool);
		free(p->st[i].content);
		free(p->st[i].portal);
		free(p->st[i].target);
		free(p->st[i].server);
		free(p->st[i].volume);
	}
	free(p->st);
	free(p->storage_cfg);
}

/* Options of Proxmox drives (qemu-server Drive.pm), by bus. */
static const char *const base_opts[] = {
	"file",
	"volume",
	"media",
	"cyls",
	"heads",
	"secs",
	"trans",
	"snapshot",
	"cache",
	"format",
	"size",
	"backup",
	"replicate",
	"rerror",
	"werror",
	"aio",
	"discard",
	"detect_zeroes",
	"serial",
	"shared",
	"import-from",
	"bps",
	"bps_rd",
	"bps_wr",
	"mbps",
	"mbps_rd",
	"mbps_wr",
	"iops",
	"iops_rd",
	"iops_wr",
	"mbps_max",
	"mbps_rd_max",
	"mbps_wr_max",
	"iops_max",
	"iops_rd_max",
	"iops_wr_max",
	"bps_max_length",
	"bps_rd_max_length",
	"bps_wr_max_length",
	"iops_max_length",
	"iops_rd_max_length",
	"iops_wr_max_length",
	"bps_rd_length",
	"bps_wr_length",
	"iops_rd_length",
	"iops_wr_length",
	NULL,
};
static const char *const ide_opts[] = { "model", "ssd", "wwn", NULL };
static const char *const sata_opts[] = { "ssd", "wwn", NULL };
static const char *const scsi_opts[] = { "iothread",  "queues", "ro",
					 "scsiblock", "ssd",	"wwn",
					 "product",   "vendor", NULL };
static const char *const virtio_opts[] = { "iothread", "ro", NULL };

static bool in(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

static const char *const *bus_opts(const char *bus)
{
	return !strcmp(bus, "ide")  ? ide_opts :
	       !strcmp(bus, "sata") ? sata_opts :
	       !strcmp(bus, "scsi") ? scsi_opts :
				      virtio_opts;
}

static bool pbool(const struct kvl *kv, const char *key)
{
	bool b = false;

	return kv_parse_bool(kvl_get(kv, key), &b) && b;
}

static unsigned count_or(const char *s, unsigned def)
{
	unsigned long n;

	if (!s || !*s)
		return def;
	n = strtoul(s, NULL, 10);
	return n > 65535 ? 65535 : (unsigned)n;
}

static const char *conf(const struct pve *p, const char *key)
{
	return kvl_get(&p->conf, key);
}

/* Where the volume lives, and what kind of storage that is. */
static void resolve_volume(struct pve *p, struct adv_disk *d, const char *vol)
{
	const char *colon = strchr(vol, ':');
	const struct pve_storage *s;
	char sid[256], what[128];
	const char *name, *type;
	bool guessed = false;

	d->volume = xstrdup(vol);
	if (vol[0] == '/' || !colon) {
		d->file = xstrdup(vol);
		d->protocol = xstrdup(
			!strncmp(vol, "/dev/", 5) ? "host_device" : "file");
		return;
	}
	snprintf(sid, sizeof(sid), "%.*s", (int)(colon - vol), vol);
	name = colon + 1;
	s = storage(p, sid);
	type = s ? s->type : NULL;
	if (!type) {
		/* A stock Proxmox install names its storages so. */
		type = !strcmp(sid, "local-lvm") ? "lvmthin" :
		       !strcmp(sid, "local-zfs") ? "zfspool" :
		       !strcmp(sid, "local")	 ? "dir" :
						   NULL;
		guessed = type != NULL;
	}
	if (!type) {
		d->file = xstrdup(vol);
		return;
	}
	if (!strcmp(type, "glusterfs") && strncmp(name, "iso/", 4)) {
		/* GlusterfsPlugin::path(): disks go through libgfapi */
		d->file = xasprintf("gluster://%s/%s/images/%s",
				    s && s->server ? s->server : "localhost",
				    s && s->volume ? s->volume : sid, name);
		d->protocol = xstrdup("gluster");
		d->st.kind = ADV_ST_NETWORK;
		d->st.thin = d->format && strcmp(d->format, "raw");
		snprintf(what, sizeof(what),
			 "%s image on glusterfs storage '%s' (libgfapi)",
			 d->format ? d->format : "raw", sid);
	} else if (!strcmp(type, "dir") || !strcmp(type, "nfs") ||
		   !strcmp(type, "cifs") || !strcmp(type, "glusterfs") ||
		   !strcmp(type, "btrfs") || !strcmp(type, "cephfs")) {
		const char *base = s && s->path ? s->path : NULL;
		char *def = NULL;
		bool sparse_raw = !d->format || !strcmp(d->format, "raw");

		if (!base)
			base = def = !strcmp(type, "dir") &&
						     !strcmp(sid, "local") ?
					     xstrdup("/var/lib/vz") :
					     xasprintf("/mnt/pve/%s", sid);
		size_t n = strlen(name);

		/* ISO images live under template/iso, disks under images;
		   btrfs keeps a raw image in its own subvolume */
		if (!strncmp(name, "iso/", 4))
			d->file = xasprintf("%s/template/%s", base, name);
		else if (!strcmp(type, "btrfs") && n > 4 &&
			 !strcmp(name + n - 4, ".raw"))
			d->file = xasprintf("%s/images/%.*s/disk.raw", base,
					    (int)(n - 4), name);
		else
			d->file = xasprintf("%s/images/%s", base, name);
		free(def);
		d->protocol = xstrdup("file");
		/* BTRFSPlugin: O_DIRECT on a file with data checksums can
		   leave checksum errors, so qemu-server does not use it */
		d->st.no_direct = !strcmp(type, "btrfs") && !(s && s->nocow);
		d->st.kind = !strcmp(type, "nfs")	? ADV_ST_NFS :
			     !strcmp(type, "cifs")	? ADV_ST_CIFS :
			     !strcmp(type, "glusterfs") ? ADV_ST_NETWORK :
							  ADV_ST_FILE;
		/* Proxmox creates raw images without preallocation. */
		d->st.thin = !sparse_raw || strcmp(type, "glusterfs");
		snprintf(what, sizeof(what), "%s image on %s storage '%s'",
			 d->format ? d->format : "raw", type, sid);
	} else if (!strcmp(type, "lvm") || !strcmp(type, "lvmthin")) {
		d->file = xasprintf("/dev/%s/%s", s && s->vg ? s->vg : "pve",
				    name);
		d->protocol = xstrdup("host_device");
		d->st.kind = !strcmp(type, "lvm") ? ADV_ST_LVM :
						    ADV_ST_LVM_THIN;
		d->st.thin = d->st.kind == ADV_ST_LVM_THIN;
		snprintf(what, sizeof(what), "%s on storage '%s'",
			 !strcmp(type, "lvm") ? "LVM logical volume" :
						"LVM thin volume",
			 sid);
	} else if (!strcmp(type, "zfspool")) {
		d->file = xasprintf("/dev/zvol/%s/%s",
				    s && s->pool ? s->pool : "rpool/data",
				    name);
		d->protocol = xstrdup("host_device");
		d->st.kind = ADV_ST_ZVOL;
		d->st.thin = true;
		snprintf(what, sizeof(what), "ZFS volume on storage '%s'%s",
			 sid, s && s->sparse ? " (sparse)" : "");
	} else if (!strcmp(type, "rbd")) {
		d->file = xasprintf("rbd:%s/%s", s && s->pool ? s->pool : "rbd",
				    name);
		d->protocol = xstrdup(s && s->krbd ? "host_device" : "rbd");
		d->st.kind = s && s->krbd ? ADV_ST_KRBD : ADV_ST_RBD;
		d->st.thin = true;
		snprintf(what, sizeof(what), "Ceph RBD (%s) on storage '%s'",
			 s && s->krbd ? "krbd" : "librbd", sid);
	} else if (!strcmp(type, "zfs")) {
		/* ZFS over iSCSI: ZFSPlugin::path() gives QEMU an iscsi://
		   URL that it opens with libiscsi, no host block device */
		d->file = xasprintf("iscsi://%s/%s/(LUN of %s)",
				    s && s->portal ? s->portal : "?",
				    s && s->target ? s->target : "?", name);
		d->protocol = xstrdup("iscsi");
		d->st.kind = ADV_ST_ISCSI;
		d->st.thin = true;
		snprintf(what, sizeof(what),
			 "ZFS over iSCSI on storage '%s' (libiscsi)", sid);
	} else if (!strncmp(type, "iscsi", 5)) {
		d->file = xstrdup(vol);
		d->protocol = xstrdup(!strcmp(type, "iscsi") ? "host_device" :
							       "iscsi");
		d->st.kind = ADV_ST_ISCSI;
		snprintf(what, sizeof(what), "iSCSI LUN on storage '%s'", sid);
	} else {
		d->file = xstrdup(vol);
		snprintf(what, sizeof(what), "%s storage '%s'", type, sid);
		d->st.kind = ADV_ST_NETWORK;
	}
	if (guessed)
		snprintf(d->st.what, sizeof(d->st.what),
			 "%s, type assumed without storage.cfg", what);
	else
		snprintf(d->st.what, sizeof(d->st.what), "%s", what);
}

static const struct pve_storage *disk_storage(const struct pve *p,
					      const struct adv_disk *d)
{
	char sid[256];
	const char *colon = d->volume ? strchr(d->volume, ':') : NULL;

	if (!colon)
		return NULL;
	snprintf(sid, sizeof(sid), "%.*s", (int)(colon - d->volume), d->volume);
	return storage(p, sid);
}

/* qemu-server storage_allows_io_uring_default(). */
static bool io_uring_allowed(const struct adv_disk *d)
{
	if (d->st.kind == ADV_ST_KRBD && !d->direct)
		return false;
	return d->st.kind != ADV_ST_LVM && d->st.kind != ADV_ST_CIFS;
}

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *s = list; s && *s; s += strcspn(s, ",")) {
		s += strspn(s, ", ");
		if (!strncmp(s, word, n) &&
		    (s[n] == ',' || s[n] == ' ' || s[n] == '\0'))
			return true;
	}
	return false;
}

static void add_refusal(struct adv_disk *d, char *why, char *fix)
{
	char *w = d->refused ? xasprintf("%s; %s", d->refused, why) : why;
	char *f = d->refused_fix ?
			  xasprintf("%s; and %s", d->refused_fix, fix) :
			  fix;

	if (w != why) {
		free(d->refused);
		free(why);
	}
	if (f != fix) {
		free(d->refused_fix);
		free(fix);
	}
	d->refused = w;
	d->refused_fix = f;
}

/*
 * What qemu-server itself refuses at "qm start": a volume whose content
 * type its storage does not list (get_current_vm_volumes ->
 * check_volume_storage_type), and an ISO image without media=
 * (config_to_command: "explicit media parameter is required for iso
 * images").
 */
static void check_refused(struct adv_disk *d, const struct kvl *kv,
			  const char *key, const struct pve_storage *st)
{
	const char *vol = kvl_get(kv, "file"), *colon = strchr(vol, ':');
	bool iso = vol[0] != '/' && colon && !strncmp(colon + 1, "iso/", 4);
	const char *vtype = iso ? "iso" : "images";

	if (st && st->content && !has_word(st->content, vtype))
		add_refusal(
			d,
			xasprintf(
				"storage '%s' does not support content-type '%s' (its content is '%s'): Proxmox refuses to start the VM",
				st->id, vtype, st->content),
			xasprintf("pvesm set %s --content %s,%s", st->id,
				  st->content, vtype));
	if (iso && !kvl_get(kv, "media")) {
		/* Proxmox means a CD-ROM: no data-disk advice for it. Its
		   own finding, whose fix is an edit of the drive line, so
		   that the corrected copy has media=cdrom too. */
		d->cdrom = true;
		d->refused_media = xasprintf(
			"%s: an ISO image without media=cdrom: Proxmox refuses to start the VM (\"explicit media parameter is required for iso images\")",
			key);
	}
}

static bool read_drive(struct pve *p, size_t ci, struct err *err)
{
	const char *key = p->conf.v[ci].key, *val = p->conf.v[ci].val, *v;
	struct adv_vm *vm = p->vm;
	char bus[8], where[4200];
	struct adv_disk *d;
	const struct pve_storage *st;
	struct kvl *kv;
	int it;
	bool b;

	snprintf(where, sizeof(where), "%s:%d", p->path, p->lines[ci]);
	snprintf(bus, sizeof(bus), "%.*s", (int)strcspn(key, "0123456789"),
		 key);
	it = adv_vm_add_item(vm, ADV_SYN_PVE, key, where);
	kv = &vm->items[it].kv;
	{
		char *copy = xstrdup(val), *save = NULL, *tok;
		bool first = true;

		for (tok = strtok_r(copy, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save), first = false) {
			char *eq = strchr(tok, '=');

			if (!eq && first) {
				kvl_add(kv, "file", tok, KV_STR);
				kv->v[kv->n - 1].implied = true;
				continue;
			}
			if (!eq) {
				/* The message copies @tok: free after. */
				err_set(err, EXIT_USAGE, 0,
					"%s: %s: '%s' is not key=value", where,
					key, tok);
				free(copy);
				return false;
			}
			*eq = '\0';
			if (!in(tok, base_opts) && !in(tok, ide_opts) &&
			    !in(tok, scsi_opts) && !in(tok, virtio_opts) &&
			    strcmp(tok, "model")) {
				err_set(err, EXIT_USAGE, 0,
					"%s: %s: unknown drive option '%s'; Proxmox would refuse this line",
					where, key, tok);
				free(copy);
				return false;
			}
			kvl_add(kv, strcmp(tok, "volume") ? tok : "file",
				eq + 1, KV_STR);
		}
		free(copy);
	}
	v = kvl_get(kv, "file");
	if (!v || !*v)
		return err_set(
			err, EXIT_USAGE, 0,
			"%s: %s: no volume; write %s: STORAGE:VOLUME,...",
			where, key, key);
	if (!strcmp(v, "none"))
		return true; /* an empty CD-ROM drive */

	d = adv_vm_add_disk(vm);
	d->id = xstrdup(key);
	d->where = xstrdup(where);
	d->slot[ADV_SLOT_DRIVE] = it;
	d->cdrom = (v = kvl_get(kv, "media")) && !strcmp(v, "cdrom");
	d->readonly = pbool(kv, "ro");
	d->temporary = pbool(kv, "snapshot");
	d->passthrough = pbool(kv, "scsiblock");
	d->discard = (v = kvl_get(kv, "discard")) && !strcmp(v, "on");
	if ((v = kvl_get(kv, "format")))
		d->format = xstrdup(v);
	else {
		const char *f = kvl_get(kv, "file"), *dot = strrchr(f, '.');

		d->format = xstrdup(dot && (!strcmp(dot, ".qcow2") ||
					    !strcmp(dot, ".vmdk")) ?
					    dot + 1 :
					    "raw");
	}
	resolve_volume(p, d, kvl_get(kv, "file"));
	st = disk_storage(p, d);
	check_refused(d, kv, key, st);

	for (size_t i = 0; i < kv->n; i++) {
		const char *k = kv->v[i].key;

		if (!in(k, base_opts) && !in(k, bus_opts(bus)))
			adv_disk_bad_prop(d, k, NULL, ADV_SLOT_DRIVE);
	}
	/* drive_uses_cache_direct(): no cache= is direct, except CD-ROMs
	   and btrfs without nocow. */
	d->write_cache = true;
	if ((v = kvl_get(kv, "cache"))) {
		if (!adv_cache_knobs(v, &d->direct, &d->no_flush,
				     &d->write_cache) ||
		    !strcmp(v, "off"))
			return err_set(
				err, EXIT_USAGE, 0,
				"%s: %s: cache=%s is not none, writethrough, writeback, unsafe or directsync",
				where, key, v);
		d->cache_set = true;
	} else {
		d->direct = !d->cdrom &&
			    !(st && !strcmp(st->type, "btrfs") && !st->nocow);
		d->cache_default =
			xstrdup("no cache= given: Proxmox's default");
	}
	if (d->protocol && (!strcmp(d->protocol, "file") ||
			    !strcmp(d->protocol, "host_device"))) {
		if ((v = kvl_get(kv, "aio"))) {
			if (engine_qemu_parse(v) < 0)
				return err_set(
					err, EXIT_USAGE, 0,
					"%s: %s: aio=%s is not native, threads or io_uring",
					where, key, v);
			d->aio = xstrdup(v);
			d->aio_set = true;
		} else {
			d->aio = xstrdup(io_uring_allowed(d) ? "io_uring" :
					 d->direct	     ? "native" :
							       "threads");
		}
	}
	if ((v = kvl_get(kv, "discard")) && strcmp(v, "on") &&
	    strcmp(v, "ignore"))
		return err_set(err, EXIT_USAGE, 0,
			       "%s: %s: discard=%s is not on or ignore", where,
			       key, v);
	if ((v = kvl_get(kv, "iothread")) && !kv_parse_bool(v, &b))
		return err_set(err, EXIT_USAGE, 0,
			       "%s: %s: iothread=%s is not 0 or 1", where, key,
			       v);
	d->iothread_asked = pbool(kv, "iothread");

	if (!strcmp(bus, "virtio")) {
		d->bus = ADV_BUS_VIRTIO_BLK;
		d->model = xstrdup("virtio-blk-pci");
		d->queues = vm->machine_old_queues ? 1 : vm->vcpus;
		d->queues_auto = !vm->machine_old_queues;
		if (d->iothread_asked)
			d->iothread = xasprintf("iothread-%s", key);
	} else if (!strcmp(bus, "scsi")) {
		const char *hw = conf(p, "scsihw");

		if (!hw)
			hw = "lsi";
		if (!strncmp(hw, "virtio-scsi", 11)) {
			bool single = !strcmp(hw, "virtio-scsi-single");

			d->bus = ADV_BUS_VIRTIO_SCSI;
			d->model = xasprintf(
				"scsi-hd on virtio-scsi-pci (scsihw: %s)", hw);
			d->ctrl_shared = !single;
			d->queues = count_or(kvl_get(kv, "queues"), 0);
			if (!d->queues) {
				d->queues = vm->machine_old_queues ? 1 :
								     vm->vcpus;
				d->queues_auto = !vm->machine_old_queues;
			}
			if (d->iothread_asked && single)
				d->iothread =
					xasprintf("iothread-virtio%s", key);
			d->iothread_ignored = d->iothread_asked && !single;
		} else {
			d->bus = ADV_BUS_SCSI_EMULATED;
			d->model = xasprintf("scsi-hd on %s (scsihw: %s)",
					     !strcmp(hw, "pvscsi") ? "pvscsi" :
					     !strncmp(hw, "megasas", 7) ?
								     "megasas" :
								     "lsi",
					     hw);
			d->queues = 1;
			d->iothread_ignored = d->iothread_asked;
		}
	} else {
		d->bus = !strcmp(bus, "sata") || vm->q35 ? ADV_BUS_SATA :
							   ADV_BUS_IDE;
		d->model = xstrdup(d->bus == ADV_BUS_SATA ?
					   "ide-hd on ahci" :
					   "ide-hd on piix-ide");
		if (d->cdrom) {
			free(d->model);
			d->model = xstrdup(d->bus == ADV_BUS_SATA ?
						   "ide-cd on ahci" :
						   "ide-cd on piix-ide");
		}
		d->queues = 1;
	}
	/* Proxmox creates one -object iothread per disk that has one. */
	if (d->iothread)
		adv_vm_add_iothread(vm, d->iothread);
	adv_storage_classify(d, p->ctx);
	return true;
}

static bool is_drive_key(const char *key)
{
	static const char *const buses[] = { "ide", "sata", "scsi", "virtio" };

	for (size_t i = 0; i < 4; i++) {
		size_t n = strlen(buses[i]);

		if (!strncmp(key, buses[i], n) && key[n] &&
		    strspn(key + n, "0123456789") == strlen(key + n))
			return true;
	}
	return false;
}

static bool check_drives(const struct pve *p, struct err *err)
{
	size_t n = 0;

	for (size_t i = 0; i < p->conf.n; i++)
		n += is_drive_key(p->conf.v[i].key);
	if (n > PVE_MAX_DRIVES)
		return err_set(
			err, EXIT_USAGE, 0,
			"%s: %zu drives, more than the %d iolab reads (Proxmox allows 57); not a Proxmox VM config",
			p->path, n, PVE_MAX_DRIVES);
	return true;
}

static void read_vm_settings(struct pve *p)
{
	struct adv_vm *vm = p->vm;
	const char *v;
	unsigned cores, sockets;

	if ((v = conf(p, "name")))
		vm->name = xstrdup(v);
	adv_vm_set_machine(vm, (v = conf(p, "machine")) ? v : "pc");
	if (!conf(p, "machine")) {
		free(vm->machine);
		vm->machine = NULL;
	}
	cores = count_or(conf(p, "cores"), 1);
	sockets = count_or(conf(p, "sockets"), 1);
	vm->vcpus = count_or(conf(p, "vcpus"), cores * sockets);
	if (!vm->vcpus)
		vm->vcpus = 1;
	if ((v = conf(p, "ostype"))) {
		vm->os = !strncmp(v, "l2", 2) ? ADV_OS_LINUX :
			 !strncmp(v, "w", 1)  ? ADV_OS_WINDOWS :
						ADV_OS_OTHER;
		vm->os_hint = xasprintf("ostype: %s", v);
	}
	for (size_t i = 0; i < p->conf.n; i++) {
		const char *k = p->conf.v[i].key;
		char where[4200];
		int it;

		/* machine: too, so that a fix replaces it where it stands
		   instead of adding a second machine: line */
		if (strcmp(k, "scsihw") && strcmp(k, "boot") &&
		    strcmp(k, "machine"))
			continue;
		snprintf(where, sizeof(where), "%s:%d", p->path, p->lines[i]);
		it = adv_vm_add_item(vm, ADV_SYN_PVE, k, where);
		kvl_add(&vm->items[it].kv, "value", p->conf.v[i].val, KV_STR);
		vm->items[it].kv.v[0].implied = true;
		if (!strcmp(k, "scsihw"))
			vm->vslot[ADV_VSLOT_SCSIHW] = it;
		else if (!strcmp(k, "boot"))
			vm->vslot[ADV_VSLOT_BOOT] = it;
	}
}

/* The main section: "key: value" lines up to the first [snapshot]. */
static bool read_conf(struct pve *p, char *buf, struct err *err)
{
	char *line = buf, *next;
	int lineno = 0;

	for (; line; line = next) {
		char *t, *colon;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		t = trim(line);
		if (!*t || *t == '#')
			continue;
		if (*t == '[')
			break; /* snapshots and pending changes follow */
		colon = strchr(t, ':');
		if (!colon || colon == t ||
		    strspn(t, "abcdefghijklmnopqrstuvwxyz0123456789_-") !=
			    (size_t)(colon - t))
			return err_set(
				err, EXIT_USAGE, 0,
				"%s:%d: expected 'key: value', got '%.60s'",
				p->path, lineno, t);
		*colon = '\0';
		kvl_add(&p->conf, t, trim(colon + 1), KV_STR);
		p->lines = xrealloc(p->lines, p->conf.n * sizeof(int));
		p->lines[p->conf.n - 1] = lineno;
	}
	return true;
}

/* The config in @buf (modified); storage.cfg read by @storage. */
static bool pve_parse(struct adv_report *r, struct pve *p, char *buf,
		      bool (*read_st)(struct pve *p, const void *arg,
				      struct err *err),
		      const void *arg, struct err *err)
{
	const char *path = p->path;
	char *origin, *base;
	bool ok;

	ok = read_conf(p, buf, err);
	if (ok && !p->conf.n)
		ok = err_set(
			err, EXIT_USAGE, 0,
			"%s: no 'key: value' line: not a Proxmox VM config; give /etc/pve/qemu-server/VMID.conf",
			path);
	if (ok) {
		origin = xasprintf("proxmox:%s", path);
		p->vm = adv_vm_new(ADV_SRC_PROXMOX, origin);
		free(origin);
		ok = read_st(p, arg, err) && check_drives(p, err);
		if (ok)
			read_vm_settings(p);
		for (size_t i = 0; ok && i < p->conf.n; i++)
			if (is_drive_key(p->conf.v[i].key))
				ok = read_drive(p, i, err);
	}
	if (ok && !p->vm->name) {
		base = strrchr(path, '/');
		p->vm->name = xasprintf(
			"VM %.*s", (int)strcspn(base ? base + 1 : path, "."),
			base ? base + 1 : path);
	}
	kvl_free(&p->conf);
	free(p->lines);
	storage_free(p);
	if (!ok) {
		adv_vm_free(p->vm);
		return false;
	}
	adv_report_add_vm(r, p->vm);
	return true;
}

static bool storage_file(struct pve *p, const void *arg, struct err *err)
{
	return find_storage_cfg(p, arg, err);
}

bool adv_proxmox_read(struct adv_report *r, const char *path,
		      const char *storage_cfg, const struct adv_ctx *ctx,
		      struct err *err)
{
	struct pve p = { .path = path, .ctx = ctx };
	char *buf;
	int errnum;
	bool ok;

	buf = infile_read(path, "--proxmox", PVE_MAX_BYTES, NULL, err);
	if (!buf)
		return false;
	if (storage_cfg && access(storage_cfg, R_OK)) {
		errnum = errno;
		free(buf);
		return err_set(err, EXIT_ENV, errnum,
			       "cannot read --proxmox-storage %s: %s",
			       storage_cfg, strerror(errnum));
	}
	ok = pve_parse(r, &p, buf, storage_file, storage_cfg, err);
	free(buf);
	return ok;
}

static bool storage_text(struct pve *p, const void *arg, struct err *err)
{
	return !arg || parse_storage_cfg(p, "storage.cfg", arg, err);
}

bool adv_proxmox_read_text(struct adv_report *r, const char *path,
			   const char *text, const char *storage,
			   const struct adv_ctx *ctx, struct err *err)
{
	struct pve p = { .path = path, .ctx = ctx };
	char *buf = xstrdup(text);
	bool ok = pve_parse(r, &p, buf, storage_text, storage, err);

	free(buf);
	return ok;
}
