// SPDX-License-Identifier: GPL-2.0-or-later
/* Which devices top shows, and what kind each is: read from /sys only. */
#include <stdio.h>
#include <string.h>

#include "top_report.h"
#include "../../core/blkinfo.h"
#include "../../util/fsread.h"
#include "../../util/term.h"

static bool prefixed(const char *name, const char *p)
{
	return !strncmp(name, p, strlen(p));
}

static bool is_partition(const struct fsview *v, const struct top_dev *d)
{
	char path[128];

	if (!d->name_clean)
		return false;
	snprintf(path, sizeof(path), "/sys/class/block/%s/partition", d->name);
	return fsv_exists(v, path);
}

bool top_shown(const struct fsview *v, const struct top_dev *d,
	       char *const *disks, int ndisks, bool all)
{
	static const char *const extra[] = { "loop", "ram", "zram", "sr",
					     "fd" };

	if (ndisks) {
		for (int i = 0; i < ndisks; i++) {
			const char *n = disks[i];

			if (!strncmp(n, "/dev/", 5))
				n += 5;
			if (!strcmp(n, d->name))
				return true;
		}
		return false;
	}
	/* A disk's line already counts its partitions' requests. */
	if (is_partition(v, d))
		return false;
	if (all)
		return true;
	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
		if (prefixed(d->name, extra[i]))
			return false;
	return true;
}

/* The disk's driver, hardware queues, scheduler and write cache. */
static void ident_of(const struct fsview *v, const char *disk, char *out,
		     size_t len)
{
	struct blkinfo bi;
	char path[PATH_MAX], buf[256], raw[160];
	char **names = NULL;
	size_t o;
	int nq;

	memset(&bi, 0, sizeof(bi));
	blkinfo_disk(v, disk, &bi);
	o = (size_t)snprintf(raw, sizeof(raw), "%s",
			     bi.driver[0] ? bi.driver : "driver unknown");
	snprintf(path, sizeof(path), "/sys/block/%s/mq", disk);
	nq = fsv_list(v, path, "", &names);
	if (nq > 0 && o < sizeof(raw))
		o += (size_t)snprintf(raw + o, sizeof(raw) - o, ", %d queue%s",
				      nq, nq == 1 ? "" : "s");
	if (nq >= 0)
		fsv_list_free(names);
	snprintf(path, sizeof(path), "/sys/block/%s/queue/scheduler", disk);
	if (fsv_read(v, path, buf, sizeof(buf)) > 0 && o < sizeof(raw)) {
		char *a = strchr(buf, '['), *b = a ? strchr(a, ']') : NULL;

		if (a && b) {
			*b = '\0';
			o += (size_t)snprintf(raw + o, sizeof(raw) - o, ", %s",
					      a + 1);
		}
	}
	snprintf(path, sizeof(path), "/sys/block/%s/queue/write_cache", disk);
	if (fsv_read(v, path, buf, sizeof(buf)) > 0 && o < sizeof(raw))
		snprintf(raw + o, sizeof(raw) - o, ", %s", buf);
	/* sysfs text is the kernel's, but a driver name is only a string. */
	term_sanitize(out, len, raw, 0);
}

void top_class_of(const struct fsview *v, const struct top_dev *d,
		  struct top_class *c)
{
	char path[PATH_MAX], real[PATH_MAX], disk[TOP_NAME_MAX];
	uint64_t rot = 0;

	snprintf(c->kind, sizeof(c->kind), "non-rot");
	c->slow_ms = 5;
	c->ident[0] = '\0';
	if (!d->name_clean)
		return;
	snprintf(disk, sizeof(disk), "%s", d->name);
	/* A partition's queue is its disk's: .../block/sda/sda1. */
	snprintf(path, sizeof(path), "/sys/class/block/%s", d->name);
	if (is_partition(v, d) &&
	    fsv_realpath(v, path, real, sizeof(real)) >= 0) {
		char *slash = strrchr(real, '/');

		if (slash) {
			*slash = '\0';
			slash = strrchr(real, '/');
			if (slash)
				snprintf(disk, sizeof(disk), "%s", slash + 1);
		}
	}
	ident_of(v, disk, c->ident, sizeof(c->ident));
	if (prefixed(disk, "nvme")) {
		snprintf(c->kind, sizeof(c->kind), "nvme");
		c->slow_ms = 2;
		return;
	}
	snprintf(path, sizeof(path), "/sys/block/%s/queue/rotational", disk);
	if (!fsv_read_u64(v, path, &rot) && rot == 1) {
		snprintf(c->kind, sizeof(c->kind), "rotational");
		c->slow_ms = 20;
	}
}
