// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which filesystems and swap areas live on each disk: mountinfo and
 * /proc/swaps, mapped through partitions and holders (LVM, dm-crypt, md).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_impl.h"
#include "../../util/fsread.h"
#include "../../util/xmem.h"

/* Does @kname live on @d: the disk, a partition, or something holding it? */
static bool on_disk(const struct dr_disk *d, const char *kname)
{
	if (!strcmp(d->name, kname))
		return true;
	for (size_t p = 0; p < d->nparts; p++)
		if (!strcmp(d->parts[p].name, kname))
			return true;
	for (size_t h = 0; h < d->nholders; h++)
		if (!strcmp(d->holders[h].name, kname))
			return true;
	return false;
}

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static char *unescape(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] &&
		    s[3]) {
			*o++ = (char)(((s[1] - '0') << 6) |
				      ((s[2] - '0') << 3) | (s[3] - '0'));
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

/* Kernel name of device maj:min ("vda1"), via /sys/dev/block. */
static bool devno_name(struct dr_ctx *c, unsigned int maj, unsigned int mi,
		       char *out, size_t len)
{
	char path[64], link[PATH_MAX];
	const char *slash;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", maj, mi);
	if (fsv_readlink(c->v, path, link, sizeof(link)) < 0)
		return false;
	slash = strrchr(link, '/');
	snprintf(out, len, "%s", slash ? slash + 1 : link);
	return true;
}

/* Per-mount options, then the filesystem's own that are not repeats. */
static char *merge_opts(const char *opts, const char *super)
{
	char *out = xmalloc(strlen(opts) + strlen(super) + 2);
	size_t len = (size_t)sprintf(out, "%s", opts);

	for (const char *p = super; *p;) {
		size_t n = strcspn(p, ",");
		bool dup = false;

		for (const char *q = opts; *q && !dup;) {
			size_t m = strcspn(q, ",");

			dup = m == n && !strncmp(p, q, n);
			q += m + (q[m] == ',');
		}
		if (!dup)
			len += (size_t)sprintf(out + len, "%s%.*s",
					       len ? "," : "", (int)n, p);
		p += n + (p[n] == ',');
	}
	return out;
}

static void add_mount(struct dr_disk *d, const char *dev, const char *target,
		      const char *fstype, const char *opts, const char *super)
{
	struct dr_mount *m;

	d->mounts = xrealloc(d->mounts, (d->nmounts + 1) * sizeof(*d->mounts));
	m = &d->mounts[d->nmounts++];
	snprintf(m->dev, sizeof(m->dev), "%s", dev);
	m->target = unescape(target);
	m->fstype = xstrdup(fstype);
	m->options = merge_opts(opts, super);
}

static void mounts(struct dr_ctx *c)
{
	char *mi = dr_slurp(c, "/proc/self/mountinfo", true), *line, *save;

	for (line = mi ? strtok_r(mi, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char target[PATH_MAX], opts[1024], fstype[64], super[1024];
		char kname[64], *dash;
		unsigned int maj, mn;

		if (sscanf(line, "%*u %*u %u:%u %*s %4095s %1023s", &maj, &mn,
			   target, opts) != 4 ||
		    !maj)
			continue;
		dash = strstr(line, " - ");
		super[0] = '\0';
		if (!dash ||
		    sscanf(dash + 3, "%63s %*s %1023s", fstype, super) < 1)
			continue;
		if (!devno_name(c, maj, mn, kname, sizeof(kname)))
			continue;
		/* LVM on md RAID1 over two disks: each disk shows it. */
		for (size_t i = 0; i < c->r->ndisks; i++)
			if (on_disk(&c->r->disks[i], kname))
				add_mount(&c->r->disks[i], kname, target,
					  fstype, opts, super);
	}
	free(mi);
}

/* The device of the mount holding @path (longest mount point). */
static const char *mount_dev_of(struct doctor_report *r, const char *path)
{
	const struct dr_mount *best = NULL;
	size_t best_len = 0;

	for (size_t i = 0; i < r->ndisks; i++)
		for (size_t m = 0; m < r->disks[i].nmounts; m++) {
			const struct dr_mount *mt = &r->disks[i].mounts[m];
			size_t l = strlen(mt->target);

			if (!strncmp(path, mt->target, l) &&
			    (path[l] == '/' || !path[l] || l == 1) &&
			    l >= best_len) {
				best = mt;
				best_len = l;
			}
		}
	return best ? best->dev : NULL;
}

static void add_swap(struct dr_disk *d, const char *kname, const char *path)
{
	struct dr_swap *s;

	d->swaps = xrealloc(d->swaps, (d->nswaps + 1) * sizeof(*d->swaps));
	s = &d->swaps[d->nswaps++];
	snprintf(s->dev, sizeof(s->dev), "%s", kname);
	s->path = unescape(path);
}

static void swaps(struct dr_ctx *c)
{
	char *sw = dr_slurp(c, "/proc/swaps", true), *line, *save;

	for (line = sw ? strtok_r(sw, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char path[PATH_MAX], type[32], kname[64] = "";
		const char *dev;

		if (sscanf(line, "%4095s %31s", path, type) != 2 ||
		    path[0] != '/')
			continue;
		if (!strcmp(type, "file")) {
			dev = mount_dev_of(c->r, path);
			if (dev)
				snprintf(kname, sizeof(kname), "%s", dev);
		} else {
			blkinfo_dev_name(c->v, path, kname, sizeof(kname));
		}
		for (size_t i = 0; kname[0] && i < c->r->ndisks; i++)
			if (on_disk(&c->r->disks[i], kname))
				add_swap(&c->r->disks[i], kname, path);
	}
	free(sw);
}

void dr_collect_mounts(struct dr_ctx *c)
{
	mounts(c);
	swaps(c);
}
