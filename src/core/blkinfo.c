// SPDX-License-Identifier: GPL-2.0-or-later
/* Block device facts from sysfs and procfs; see blkinfo.h. */
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

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

	/*
	 * The device link is relative and short ("../../../0:0:0:0"); the
	 * resolved path holds the host: ".../host2/target2:0:0/2:0:0:0".
	 */
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

double blkinfo_pcie_mbps(const char *speed, unsigned int width)
{
	char *end;
	double gt = strtod(speed, &end);

	if (end == speed || gt <= 0 || gt > 1000 || !width || width > 32 ||
	    strncmp(end, " GT/s", 5))
		return 0;
	/* 8b/10b up to 5 GT/s (PCIe 1 and 2), 128b/130b from 8 GT/s. */
	return gt * 1000 / 8 * (gt <= 5 ? 0.8 : 128.0 / 130) * width;
}

/* An NVMe namespace's controller sits on a PCI function: its link. */
static void pcie_link(const struct fsview *v, const char *name,
		      struct blkinfo *bi)
{
	char path[PATH_MAX], speed[40] = "";
	uint64_t width = 0;

	snprintf(path, sizeof(path),
		 "/sys/block/%s/device/device/current_link_speed", name);
	if (fsv_read(v, path, speed, sizeof(speed)) <= 0)
		return;
	speed[strcspn(speed, "\n")] = '\0';
	snprintf(path, sizeof(path),
		 "/sys/block/%s/device/device/current_link_width", name);
	if (fsv_read_u64(v, path, &width))
		return;
	bi->link_mbps = blkinfo_pcie_mbps(speed, (unsigned int)width);
	if (bi->link_mbps > 0)
		snprintf(bi->link, sizeof(bi->link), "%.30s x%u", speed,
			 (unsigned int)width);
}

void blkinfo_disk(const struct fsview *v, const char *name, struct blkinfo *bi)
{
	char path[PATH_MAX];
	uint64_t u;

	snprintf(bi->disk, sizeof(bi->disk), "%s", name);
	bi->rotational = -1;
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
	snprintf(bi->blk_driver, sizeof(bi->blk_driver), "%s", bi->driver);
	if (!strcmp(bi->driver, "sd")) {
		scsi_host_driver(v, name, bi->driver, sizeof(bi->driver));
		snprintf(path, sizeof(path), "/sys/block/%s/device/vendor",
			 name);
		fsv_read(v, path, bi->vendor, sizeof(bi->vendor));
		for (char *e = bi->vendor + strlen(bi->vendor);
		     e > bi->vendor && e[-1] == ' ';)
			*--e = '\0';
	}
	snprintf(path, sizeof(path), "/sys/block/%s/device/model", name);
	fsv_read(v, path, bi->model, sizeof(bi->model));
	for (char *e = bi->model + strlen(bi->model);
	     e > bi->model && e[-1] == ' ';)
		*--e = '\0';
	if (!strcmp(bi->driver, "nvme"))
		pcie_link(v, name, bi);
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
}

bool blkinfo_get(const struct fsview *v, dev_t dev, struct blkinfo *bi)
{
	char dir[PATH_MAX], path[PATH_MAX + 64], name[64];

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
	blkinfo_disk(v, name, bi);
	return true;
}

bool blkinfo_devno(const struct fsview *v, const char *name, dev_t *dev)
{
	char path[PATH_MAX], buf[32];
	unsigned int maj, mi;

	snprintf(path, sizeof(path), "/sys/class/block/%s/dev", name);
	if (fsv_read(v, path, buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "%u:%u", &maj, &mi) != 2)
		return false;
	*dev = makedev(maj, mi);
	return true;
}

bool blkinfo_dev_name(const struct fsview *v, const char *devpath, char *name,
		      size_t len)
{
	char real[PATH_MAX], path[PATH_MAX + 32];

	/* fsv_exists first: a capture then holds the node the links end at. */
	if (devpath[0] != '/' || !fsv_exists(v, devpath) ||
	    fsv_realpath(v, devpath, real, sizeof(real)) ||
	    strncmp(real, "/dev/", 5))
		return false;
	basename_of(real, name, len);
	snprintf(path, sizeof(path), "/sys/class/block/%s", name);
	return fsv_exists(v, path);
}

/* Is dev (or, for a whole disk, one of its partitions) mounted? */
static bool mounted(const struct fsview *v, dev_t dev, char *why, size_t len)
{
	char *data, *line, *save = NULL;
	bool found = false;
	int e;

	data = fsv_slurp(v, "/proc/self/mountinfo", NULL, &e);
	if (!data)
		return false;
	for (line = strtok_r(data, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
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
	free(data);
	return found;
}

static bool swapped(const struct fsview *v, dev_t dev, char *why, size_t len)
{
	char *data, *line, *save = NULL, name[PATH_MAX], kname[64];
	bool found = false;
	struct stat st;
	dev_t d;
	int e;

	data = fsv_slurp(v, "/proc/swaps", NULL, &e);
	if (!data)
		return false;
	for (line = strtok_r(data, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%4095s", name) != 1 || name[0] != '/')
			continue;
		if (blkinfo_dev_name(v, name, kname, sizeof(kname)) &&
		    blkinfo_devno(v, kname, &d) && d == dev)
			found = true;
		/* On the running system stat() is the last word. */
		else if (fsv_live(v) && !stat(name, &st) &&
			 S_ISBLK(st.st_mode) && st.st_rdev == dev)
			found = true;
		if (found)
			snprintf(why, len,
				 "it is in use as swap; swapoff it first");
	}
	free(data);
	return found;
}

static bool held(const struct fsview *v, const char *dir, char *why, size_t len)
{
	char path[PATH_MAX + 16], **names;
	const char *who = NULL;
	int n;

	snprintf(path, sizeof(path), "%s/holders", dir);
	n = fsv_list(v, path, "", &names);
	for (int i = 0; i < n && !who; i++)
		if (names[i][0] != '.')
			who = names[i];
	if (who)
		snprintf(
			why, len,
			"it is held by %s (device-mapper, md RAID or LVM uses it); release it first",
			who);
	fsv_list_free(names);
	return who != NULL;
}

static bool dev_busy(const struct fsview *v, dev_t dev, const char *dir,
		     char *why, size_t len)
{
	return mounted(v, dev, why, len) || swapped(v, dev, why, len) ||
	       held(v, dir, why, len);
}

bool blkinfo_in_use(const struct fsview *v, dev_t rdev, char *why, size_t len)
{
	char dir[PATH_MAX], sub[PATH_MAX + 300], disk[64], **names;
	bool busy = false;
	int n;

	if (!dev_dir(v, rdev, dir, sizeof(dir)))
		return false;
	if (dev_busy(v, rdev, dir, why, len))
		return true;
	/* A whole disk is in use if any of its partitions is. */
	basename_of(dir, disk, sizeof(disk));
	n = fsv_list(v, dir, disk, &names);
	for (int i = 0; i < n && !busy; i++) {
		unsigned int maj, mi;
		char devno[32];
		dev_t pd;

		snprintf(sub, sizeof(sub), "%s/%s/partition", dir, names[i]);
		if (!fsv_exists(v, sub))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/dev", dir, names[i]);
		if (fsv_read(v, sub, devno, sizeof(devno)) < 0 ||
		    sscanf(devno, "%u:%u", &maj, &mi) != 2)
			continue;
		pd = makedev(maj, mi);
		snprintf(sub, sizeof(sub), "%s/%s", dir, names[i]);
		if (dev_busy(v, pd, sub, why, len)) {
			char tmp[256];

			snprintf(tmp, sizeof(tmp), "its partition %s: %s",
				 names[i], why);
			snprintf(why, len, "%s", tmp);
			busy = true;
		}
	}
	fsv_list_free(names);
	return busy;
}

/* The kernel's 32-bit encoding of lo_device (new_encode_dev). */
static dev_t loop_dev_decode(uint64_t x)
{
	return makedev((unsigned int)((x & 0xfff00) >> 8),
		       (unsigned int)((x & 0xff) | ((x >> 12) & 0xfff00)));
}

static bool loop_backs(const char *name, dev_t d, const char *backing,
		       dev_t dev, ino_t ino)
{
	struct loop_info64 info;
	char node[96];
	struct stat st;
	bool match = false, known = false;
	int fd;

	snprintf(node, sizeof(node), "/dev/%s", name);
	fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0) {
		if (!fstat(fd, &st) && S_ISBLK(st.st_mode) && st.st_rdev == d &&
		    !ioctl(fd, LOOP_GET_STATUS64, &info)) {
			known = true;
			match = loop_dev_decode(info.lo_device) == dev &&
				(ino_t)info.lo_inode == ino;
		}
		close(fd);
	}
	if (!known && !stat(backing, &st))
		match = st.st_dev == dev && st.st_ino == ino;
	return match;
}

bool blkinfo_loop_backing(const struct fsview *v, dev_t dev, ino_t ino,
			  char *loop, size_t len, dev_t *rdev)
{
	char path[PATH_MAX], backing[PATH_MAX], **names;
	bool found = false;
	int n;

	if (!fsv_live(v))
		return false;
	n = fsv_list(v, "/sys/block", "loop", &names);
	for (int i = 0; i < n && !found; i++) {
		dev_t d;

		snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file",
			 names[i]);
		if (fsv_read(v, path, backing, sizeof(backing)) <= 0 ||
		    !blkinfo_devno(v, names[i], &d))
			continue;
		if (loop_backs(names[i], d, backing, dev, ino)) {
			snprintf(loop, len, "%s", names[i]);
			*rdev = d;
			found = true;
		}
	}
	fsv_list_free(names);
	return found;
}

bool blkinfo_swap_file(const struct fsview *v, dev_t dev, ino_t ino)
{
	char *data, *line, *save = NULL, name[PATH_MAX];
	bool found = false;
	struct stat st;
	int e;

	if (!fsv_live(v))
		return false;
	data = fsv_slurp(v, "/proc/swaps", NULL, &e);
	if (!data)
		return false;
	for (line = strtok_r(data, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%4095s", name) == 1 && name[0] == '/' &&
		    !stat(name, &st) && S_ISREG(st.st_mode) &&
		    st.st_dev == dev && st.st_ino == ino)
			found = true;
	free(data);
	return found;
}
