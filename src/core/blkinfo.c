// SPDX-License-Identifier: GPL-2.0-or-later
/* Block device facts from sysfs and procfs; see blkinfo.h. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "blkinfo.h"
#include "../util/fsread.h"

/* "/sys/dev/block/M:m" -> the real sysfs directory of the device. */
static bool dev_dir(const struct fsview *v, dev_t dev, char *out, size_t len)
{
	char link[PATH_MAX], path[96];
	char *slash;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	n = fsv_readlink(v, path, link, sizeof(link));
	if (n < 0)
		return false;
	/* link is "../../devices/.../block/vda[/vda1]" */
	slash = strstr(link, "devices/");
	if (!slash)
		return false;
	snprintf(out, len, "/sys/%s", slash);
	return true;
}

static void basename_of(const char *path, char *out, size_t len)
{
	const char *s = strrchr(path, '/');

	snprintf(out, len, "%s", s ? s + 1 : path);
}

static void scsi_host_driver(const struct fsview *v, const char *disk,
			     char *out, size_t len)
{
	char real[PATH_MAX], path[PATH_MAX], *p;

	/* /sys/block/sda/device -> ".../host2/target2:0:0/2:0:0:0" */
	snprintf(path, sizeof(path), "/sys/block/%s/device", disk);
	if (fsv_realpath(v, path, real, sizeof(real)))
		return;
	p = strstr(real, "/host");
	if (!p)
		return;
	p++;
	*strchrnul(p, '/') = '\0';
	snprintf(path, sizeof(path), "/sys/class/scsi_host/%s/proc_name", p);
	fsv_read(v, path, out, len);
}

bool blkinfo_get(const struct fsview *v, dev_t dev, struct blkinfo *bi)
{
	char dir[PATH_MAX], path[PATH_MAX + 64], name[64];
	uint64_t u;

	memset(bi, 0, sizeof(*bi));
	bi->rotational = -1;
	if (!dev_dir(v, dev, dir, sizeof(dir)))
		return false;
	basename_of(dir, name, sizeof(name));
	snprintf(path, sizeof(path), "%s/partition", dir);
	if (fsv_exists(v, path)) {
		snprintf(bi->part, sizeof(bi->part), "%s", name);
		*strrchr(dir, '/') = '\0';
		basename_of(dir, name, sizeof(name));
	}
	snprintf(bi->disk, sizeof(bi->disk), "%s", name);

	snprintf(path, sizeof(path), "/sys/block/%s/device/driver", name);
	if (fsv_link_name(v, path, bi->driver, sizeof(bi->driver)) < 0) {
		if (!strncmp(name, "dm-", 3))
			strcpy(bi->driver, "device-mapper");
		else if (!strncmp(name, "md", 2))
			strcpy(bi->driver, "md");
		else if (!strncmp(name, "loop", 4))
			strcpy(bi->driver, "loop");
		else if (!strncmp(name, "nvme", 4))
			strcpy(bi->driver, "nvme");
	}
	if (!strcmp(bi->driver, "sd"))
		scsi_host_driver(v, name, bi->driver, sizeof(bi->driver));
	snprintf(path, sizeof(path), "/sys/block/%s/device/model", name);
	fsv_read(v, path, bi->model, sizeof(bi->model));
	for (char *e = bi->model + strlen(bi->model);
	     e > bi->model && e[-1] == ' ';)
		*--e = '\0';
	snprintf(path, sizeof(path), "/sys/block/%s/queue/rotational", name);
	if (!fsv_read_u64(v, path, &u))
		bi->rotational = (int)u;
	snprintf(path, sizeof(path), "/sys/block/%s/queue/logical_block_size",
		 name);
	if (!fsv_read_u64(v, path, &u))
		bi->logical_block_size = (unsigned int)u;
	snprintf(path, sizeof(path), "/sys/block/%s/queue/physical_block_size",
		 name);
	if (!fsv_read_u64(v, path, &u))
		bi->physical_block_size = (unsigned int)u;
	return true;
}

/* Is dev (or, for a whole disk, one of its partitions) mounted? */
static bool mounted(const struct fsview *v, dev_t dev, char *why, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	char line[4096];
	bool found = false;

	snprintf(path, sizeof(path), "%s/proc/self/mountinfo", v->root);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned int maj, mnt_min;
		char mnt[PATH_MAX];

		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &maj, &mnt_min,
			   mnt) != 3)
			continue;
		if (makedev(maj, mnt_min) == dev) {
			snprintf(why, len,
				 "it is mounted on %s; unmount it first", mnt);
			found = true;
		}
	}
	fclose(f);
	return found;
}

static bool swapped(const struct fsview *v, dev_t dev, char *why, size_t len)
{
	char path[PATH_MAX], line[1024], name[PATH_MAX];
	struct stat st;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/swaps", v->root);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%4095s", name) != 1 || name[0] != '/')
			continue;
		if (!stat(name, &st) && S_ISBLK(st.st_mode) &&
		    st.st_rdev == dev) {
			snprintf(why, len,
				 "it is in use as swap; swapoff it first");
			found = true;
		}
	}
	fclose(f);
	return found;
}

static bool held(const struct fsview *v, const char *dir, char *why, size_t len)
{
	char path[PATH_MAX + 16], full[PATH_MAX * 2];
	struct dirent *de;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "%s/holders", dir);
	snprintf(full, sizeof(full), "%s%s", v->root, path);
	d = opendir(full);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(
			why, len,
			"it is held by %s (device-mapper, md RAID or LVM uses it); release it first",
			de->d_name);
		found = true;
	}
	closedir(d);
	return found;
}

static bool dev_busy(const struct fsview *v, dev_t dev, const char *dir,
		     char *why, size_t len)
{
	return mounted(v, dev, why, len) || swapped(v, dev, why, len) ||
	       held(v, dir, why, len);
}

bool blkinfo_in_use(const struct fsview *v, dev_t rdev, char *why, size_t len)
{
	char dir[PATH_MAX], full[PATH_MAX * 2], sub[PATH_MAX + 300];
	struct dirent *de;
	bool busy;
	DIR *d;

	if (!dev_dir(v, rdev, dir, sizeof(dir)))
		return false;
	if (dev_busy(v, rdev, dir, why, len))
		return true;
	/* A whole disk is in use if any of its partitions is. */
	snprintf(full, sizeof(full), "%s%s", v->root, dir);
	d = opendir(full);
	if (!d)
		return false;
	busy = false;
	while (!busy && (de = readdir(d))) {
		char devno[32];
		unsigned int maj, mi;

		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/partition", dir, de->d_name);
		if (!fsv_exists(v, sub))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/dev", dir, de->d_name);
		if (fsv_read(v, sub, devno, sizeof(devno)) < 0 ||
		    sscanf(devno, "%u:%u", &maj, &mi) != 2)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (dev_busy(v, makedev(maj, mi), sub, why, len)) {
			char tmp[256];

			snprintf(tmp, sizeof(tmp), "its partition %s: %s",
				 de->d_name, why);
			snprintf(why, len, "%s", tmp);
			busy = true;
		}
	}
	closedir(d);
	return busy;
}
