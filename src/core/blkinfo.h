/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What sysfs says about the block device behind a dev_t: the whole disk's
 * name, its driver (for SCSI disks, the host adapter's driver), model,
 * rotational flag and block sizes; and whether anything uses it (mounts,
 * swap, holders such as dm, md or LVM).
 */
#ifndef IOLAB_CORE_BLKINFO_H
#define IOLAB_CORE_BLKINFO_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct fsview;

struct blkinfo {
	char disk[64]; /* whole disk: "vda", "nvme0n1", "sda", "loop0" */
	char part[64]; /* the partition if dev is one, else "" */
	char driver[64]; /* "virtio_blk", "nvme", "ahci", "ata_piix", ... */
	char blk_driver[64]; /* the disk's own driver: "sd", "virtio_blk" */
	char vendor[32]; /* SCSI vendor ("ATA", "QEMU"), else "" */
	char model[96];
	int rotational; /* 0, 1, or -1 unknown */
	unsigned int logical_block_size;
	unsigned int physical_block_size;
	/* An NVMe disk's PCIe link as sysfs reports it ("8.0 GT/s PCIe x4")
	 * and the data it carries at most, MB/s; "" and 0 when unknown. */
	char link[48];
	double link_mbps;
};

/* The data a PCIe link of @width lanes at @speed ("8.0 GT/s PCIe", as
 * sysfs' current_link_speed) carries at most, MB/s (line coding taken
 * off); 0 when the speed cannot be read. */
double blkinfo_pcie_mbps(const char *speed, unsigned int width);

/* Fill @bi for the device @dev (st_dev of a file, or st_rdev). */
bool blkinfo_get(const struct fsview *v, dev_t dev, struct blkinfo *bi);
/* Fill @bi for the whole disk named @disk ("vda"; an entry of /sys/block). */
void blkinfo_disk(const struct fsview *v, const char *disk, struct blkinfo *bi);
/* The device number of a block device by its kernel name ("vda1"). */
bool blkinfo_devno(const struct fsview *v, const char *name, dev_t *dev);
/*
 * The kernel name ("dm-1") of the block device a /dev path names
 * ("/dev/mapper/vg-swap", "/dev/disk/by-uuid/..."), resolved inside the
 * view; false if it names none.
 */
bool blkinfo_dev_name(const struct fsview *v, const char *devpath, char *name,
		      size_t len);

/*
 * Why the block device @rdev must not be written: mounted (itself or a
 * partition), active swap, or held by another device. Returns false if it
 * is free; else true with a sentence in @why.
 */
bool blkinfo_in_use(const struct fsview *v, dev_t rdev, char *why, size_t len);

/*
 * The loop device ("loop3", and its device number) whose backing file is
 * the inode @dev/@ino; false if none. On the running system the loop's own
 * record of its file (LOOP_GET_STATUS64) decides, not the name in sysfs,
 * which may be stale.
 */
bool blkinfo_loop_backing(const struct fsview *v, dev_t dev, ino_t ino,
			  char *loop, size_t len, dev_t *rdev);
/* Whether the regular file @dev/@ino is an active swap file. */
bool blkinfo_swap_file(const struct fsview *v, dev_t dev, ino_t ino);

#endif
