// SPDX-License-Identifier: GPL-2.0-or-later
/* Storage classification for iolab advise; see advise_storage.h. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include "advise_storage.h"
#include "../../util/fsread.h"

/* statfs f_type values (linux/magic.h, fs/smb/client). */
#define CIFS_MAGIC 0xFF534D42
#define SMB2_MAGIC 0xFE534D42
#define NFS_MAGIC 0x6969

const char *adv_storage_name(enum adv_storage_kind k)
{
	static const char *const names[] = {
		[ADV_ST_UNKNOWN] = "unknown",	[ADV_ST_FILE] = "file",
		[ADV_ST_BLOCK] = "block",	[ADV_ST_LVM] = "lvm",
		[ADV_ST_LVM_THIN] = "lvm-thin", [ADV_ST_ZVOL] = "zvol",
		[ADV_ST_KRBD] = "krbd",		[ADV_ST_RBD] = "rbd",
		[ADV_ST_CIFS] = "cifs",		[ADV_ST_NFS] = "nfs",
		[ADV_ST_ISCSI] = "iscsi",	[ADV_ST_NETWORK] = "network",
	};

	return names[k];
}

static void set(struct adv_disk *d, enum adv_storage_kind k, bool thin,
		const char *what)
{
	d->st.kind = k;
	d->st.thin = thin;
	snprintf(d->st.what, sizeof(d->st.what), "%s", what);
}

static bool thin_format(const char *fmt)
{
	return fmt && (!strcmp(fmt, "qcow2") || !strcmp(fmt, "qed") ||
		       !strcmp(fmt, "vmdk") || !strcmp(fmt, "vdi") ||
		       !strcmp(fmt, "vhdx") || !strcmp(fmt, "qcow"));
}

/* A thin LV sits on a pool whose dm uuid ends in -tpool. */
static bool dm_on_thin_pool(const char *dm)
{
	char path[128], uuid[256];
	struct dirent *e;
	bool thin = false;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/block/%s/slaves", dm);
	dir = opendir(path);
	if (!dir)
		return false;
	while (!thin && (e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/dm/uuid",
			 e->d_name);
		if (fsv_read(&fsview_host, path, uuid, sizeof(uuid)) > 0 &&
		    (strstr(uuid, "-tpool") || strstr(uuid, "-pool")))
			thin = true;
	}
	closedir(dir);
	return thin;
}

static void probe_block(struct adv_disk *d, dev_t rdev)
{
	char path[128], link[256], uuid[256];
	const char *name;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(rdev),
		 minor(rdev));
	if (fsv_readlink(&fsview_host, path, link, sizeof(link)) < 0) {
		set(d, ADV_ST_BLOCK, false, "block device");
		return;
	}
	name = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	if (!strncmp(name, "rbd", 3)) {
		set(d, ADV_ST_KRBD, true,
		    "Ceph RBD mapped by the kernel (krbd)");
		return;
	}
	if (!strncmp(name, "zd", 2)) {
		set(d, ADV_ST_ZVOL, true, "ZFS volume");
		return;
	}
	if (!strncmp(name, "dm-", 3)) {
		snprintf(path, sizeof(path), "/sys/block/%s/dm/uuid", name);
		if (fsv_read(&fsview_host, path, uuid, sizeof(uuid)) > 0 &&
		    !strncmp(uuid, "LVM-", 4)) {
			if (dm_on_thin_pool(name))
				set(d, ADV_ST_LVM_THIN, true,
				    "LVM thin volume");
			else
				set(d, ADV_ST_LVM, false, "LVM logical volume");
			return;
		}
	}
	set(d, ADV_ST_BLOCK, false, "block device");
}

static void probe_file(struct adv_disk *d, const char *path,
		       const struct stat *st)
{
	struct statfs sf;
	char what[128];

	if (!statfs(path, &sf)) {
		if ((unsigned long)sf.f_type == CIFS_MAGIC ||
		    (unsigned long)sf.f_type == SMB2_MAGIC) {
			set(d, ADV_ST_CIFS, thin_format(d->format),
			    "file on a CIFS/SMB share");
			return;
		}
		if ((unsigned long)sf.f_type == NFS_MAGIC) {
			set(d, ADV_ST_NFS, thin_format(d->format),
			    "file on NFS");
			return;
		}
	}
	if (thin_format(d->format)) {
		snprintf(what, sizeof(what), "%s image, allocates on write",
			 d->format);
		set(d, ADV_ST_FILE, true, what);
		return;
	}
	/* Sparse: fewer blocks allocated than the size, by more than 1 MiB. */
	if (st->st_size > 0 &&
	    (unsigned long long)st->st_blocks * 512 + (1 << 20) <
		    (unsigned long long)st->st_size) {
		snprintf(what, sizeof(what), "sparse file, %.0f%% allocated",
			 100.0 * (double)st->st_blocks * 512 /
				 (double)st->st_size);
		set(d, ADV_ST_FILE, true, what);
		return;
	}
	set(d, ADV_ST_FILE, false, "file");
}

/* The path to stat: absolute, or relative to the process's cwd. */
bool adv_probe_path(const char *file, const struct adv_ctx *ctx, char *buf,
		    size_t len)
{
	if (!ctx || !ctx->probe || !file || !*file)
		return false;
	if (file[0] == '/')
		snprintf(buf, len, "%s", file);
	else if (ctx->cwd)
		snprintf(buf, len, "%s/%s", ctx->cwd, file);
	else
		return false;
	return true;
}

void adv_storage_classify(struct adv_disk *d, const struct adv_ctx *ctx)
{
	const char *p = d->protocol ? d->protocol : "";
	const char *f = d->file ? d->file : "";
	char path[4096];
	struct stat st;

	if (d->st.kind != ADV_ST_UNKNOWN)
		return;
	if (!strcmp(p, "rbd")) {
		set(d, ADV_ST_RBD, true, "Ceph RBD image (librbd)");
		return;
	}
	if (!strcmp(p, "iscsi")) {
		set(d, ADV_ST_ISCSI, false, "iSCSI LUN (libiscsi)");
		return;
	}
	if (!strcmp(p, "nfs")) {
		set(d, ADV_ST_NFS, thin_format(d->format), "NFS (libnfs)");
		return;
	}
	if (*p && strcmp(p, "file") && strcmp(p, "host_device") &&
	    strcmp(p, "host_cdrom")) {
		set(d, ADV_ST_NETWORK, false, p);
		return;
	}
	if (!*f || d->cdrom)
		return;
	if (adv_probe_path(f, ctx, path, sizeof(path)) && !stat(path, &st)) {
		if (S_ISBLK(st.st_mode))
			probe_block(d, st.st_rdev);
		else if (S_ISREG(st.st_mode))
			probe_file(d, path, &st);
		return;
	}
	if (!strncmp(f, "/dev/rbd", 8)) {
		set(d, ADV_ST_KRBD, true,
		    "Ceph RBD mapped by the kernel (krbd)");
		return;
	}
	if (!strncmp(f, "/dev/zvol/", 10)) {
		set(d, ADV_ST_ZVOL, true, "ZFS volume");
		return;
	}
	if (!strncmp(f, "/dev/", 5)) {
		set(d, ADV_ST_BLOCK, false, "block device");
		return;
	}
	if (thin_format(d->format)) {
		char what[128];

		snprintf(what, sizeof(what), "%s image, allocates on write",
			 d->format);
		set(d, ADV_ST_FILE, true, what);
		return;
	}
	set(d, ADV_ST_FILE, false, "file");
}
