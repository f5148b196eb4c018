// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The default of --disks (Oracle's num_physical_disks): how many disks'
 * worth of concurrency the device behind the target takes. An md or
 * device-mapper device counts its leaf members; any other device counts
 * what its queues hold (nr_requests x hardware queues) in units of
 * CAL_SMALL_PER_DISK, so the search may fill the queue but not overrun it
 * by default.
 */
#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "calibrate_suite.h"
#include "../../util/fsread.h"

#define MAX_DEPTH 8

static DIR *view_opendir(const struct fsview *v, const char *path)
{
	char full[PATH_MAX];

	snprintf(full, sizeof(full), "%s%s", v->root ? v->root : "", path);
	return opendir(full);
}

/* Leaf devices under @name's holders tree ("slaves"); names into @list. */
static unsigned int leaves(const struct fsview *v, const char *name, int depth,
			   char *list, size_t len)
{
	char path[PATH_MAX];
	unsigned int n = 0;
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/class/block/%s/slaves", name);
	d = depth < MAX_DEPTH ? view_opendir(v, path) : NULL;
	if (d) {
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			n += leaves(v, e->d_name, depth + 1, list, len);
		}
		closedir(d);
	}
	if (n || !depth)
		return n;
	/* A member with no members of its own is a leaf. */
	if (list[0])
		strncat(list, ", ", len - strlen(list) - 1);
	strncat(list, name, len - strlen(list) - 1);
	return 1;
}

static unsigned int hw_queues(const struct fsview *v, const char *disk)
{
	char path[PATH_MAX];
	unsigned int n = 0;
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/class/block/%s/mq", disk);
	d = view_opendir(v, path);
	if (!d)
		return 1;
	while ((e = readdir(d)))
		if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
			n++;
	closedir(d);
	return n ? n : 1;
}

unsigned int calibrate_default_disks(const struct fsview *v, const char *disk,
				     char *why, size_t len)
{
	char path[PATH_MAX], names[128] = "";
	uint64_t nr = 0;
	unsigned int n, q, disks;

	if (!disk || !*disk) {
		snprintf(why, len,
			 "no block device behind the target: 1 by default");
		return 1;
	}
	n = leaves(v, disk, 0, names, sizeof(names));
	if (n) {
		snprintf(why, len, "%s has %u member%s (%s)", disk, n,
			 n == 1 ? "" : "s", names);
		return n;
	}
	snprintf(path, sizeof(path), "/sys/class/block/%s/queue/nr_requests",
		 disk);
	if (fsv_read_u64(v, path, &nr) < 0 || !nr) {
		snprintf(why, len, "%s does not say its queue size: 1", disk);
		return 1;
	}
	q = hw_queues(v, disk);
	disks = (unsigned int)(nr * q / CAL_SMALL_PER_DISK);
	if (disks < 1)
		disks = 1;
	if (disks > CAL_MAX_DISKS_DEFAULT)
		disks = CAL_MAX_DISKS_DEFAULT;
	snprintf(
		why, len,
		"%s's queues hold %llu requests (nr_requests %llu x %u hardware queue%s), %u per disk%s",
		disk, (unsigned long long)(nr * q), (unsigned long long)nr, q,
		q == 1 ? "" : "s", CAL_SMALL_PER_DISK,
		nr * q / CAL_SMALL_PER_DISK > CAL_MAX_DISKS_DEFAULT ?
			", at most 32 disks by default" :
			"");
	return disks;
}
