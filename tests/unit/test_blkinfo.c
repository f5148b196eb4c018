// SPDX-License-Identifier: GPL-2.0-or-later
/* blkinfo on synthetic sysfs/procfs trees: driver resolution and the
 * in-use checks (mounted partition, holders, none). */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/blkinfo.h"
#include "util/fsread.h"

static char root[PATH_MAX];

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX * 2], cmd[PATH_MAX * 3];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void link_to(const char *rel, const char *target)
{
	char path[PATH_MAX * 2], cmd[PATH_MAX * 3];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(symlink(target, path), 0);
}

/* A virtio disk vda (252:0) with partition vda1 (252:1), and a SCSI disk
 * sda (8:0) on a virtio_scsi host. */
static int setup(void **state)
{
	const char *vda =
		"/sys/devices/pci0000:00/0000:00:04.0/virtio2/block/vda";
	const char *sda = "/sys/devices/pci0000:00/0000:00:05.0/virtio3/host0/"
			  "target0:0:0/0:0:0:0/block/sda";
	char p[PATH_MAX];

	(void)state;
	strcpy(root, "/tmp/iolab-blkinfo-XXXXXX");
	assert_non_null(mkdtemp(root));
	link_to("/sys/dev/block/252:0",
		"../../devices/pci0000:00/0000:00:04.0/virtio2/block/vda");
	link_to("/sys/dev/block/252:1",
		"../../devices/pci0000:00/0000:00:04.0/virtio2/block/vda/vda1");
	link_to("/sys/dev/block/8:0",
		"../../devices/pci0000:00/0000:00:05.0/virtio3/host0/target0:0:0/0:0:0:0/block/sda");
	snprintf(p, sizeof(p), "%s/vda1/partition", vda);
	put(p, "1\n");
	snprintf(p, sizeof(p), "%s/vda1/dev", vda);
	put(p, "252:1\n");
	snprintf(p, sizeof(p), "%s/holders/.keep", vda);
	put(p, "");
	snprintf(p, sizeof(p), "%s/vda1/holders/.keep", vda);
	put(p, "");
	put("/sys/block/vda/queue/rotational", "1\n");
	put("/sys/block/vda/queue/logical_block_size", "512\n");
	put("/sys/block/vda/queue/physical_block_size", "4096\n");
	link_to("/sys/block/vda/device/driver",
		"../../../../bus/virtio/drivers/virtio_blk");
	link_to("/sys/block/sda",
		"../devices/pci0000:00/0000:00:05.0/virtio3/host0/target0:0:0/0:0:0:0/block/sda");
	snprintf(p, sizeof(p), "%s/holders/dm-0", sda);
	put(p, "");
	snprintf(p, sizeof(p), "%s/device", sda);
	link_to(p, "../../../0:0:0:0");
	put("/sys/devices/pci0000:00/0000:00:05.0/virtio3/host0/target0:0:0/0:0:0:0/model",
	    "QEMU HARDDISK   \n");
	link_to("/sys/devices/pci0000:00/0000:00:05.0/virtio3/host0/target0:0:0/0:0:0:0/driver",
		"../../../../../../../bus/scsi/drivers/sd");
	put("/sys/class/scsi_host/host0/proc_name", "virtio_scsi\n");
	put("/proc/self/mountinfo",
	    "22 1 252:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n");
	put("/proc/swaps", "Filename Type Size Used Priority\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static void test_driver_and_sizes(void **state)
{
	struct fsview v = { .root = root };
	struct blkinfo bi;

	(void)state;
	assert_true(blkinfo_get(&v, makedev(252, 1), &bi));
	assert_string_equal(bi.disk, "vda");
	assert_string_equal(bi.part, "vda1");
	assert_string_equal(bi.driver, "virtio_blk");
	assert_int_equal(bi.rotational, 1);
	assert_int_equal(bi.logical_block_size, 512);
	assert_int_equal(bi.physical_block_size, 4096);
	/* A SCSI disk is named by its host adapter's driver. */
	assert_true(blkinfo_get(&v, makedev(8, 0), &bi));
	assert_string_equal(bi.disk, "sda");
	assert_string_equal(bi.driver, "virtio_scsi");
	assert_string_equal(bi.model, "QEMU HARDDISK");
}

/* An NVMe disk's PCIe link, read where sysfs has it. */
static void test_nvme_link(void **state)
{
	struct fsview v = { .root = root };
	struct blkinfo bi;

	(void)state;
	put("/sys/block/nvme0n1/device/device/current_link_speed",
	    "8.0 GT/s PCIe\n");
	put("/sys/block/nvme0n1/device/device/current_link_width", "4\n");
	memset(&bi, 0, sizeof(bi));
	blkinfo_disk(&v, "nvme0n1", &bi);
	assert_string_equal(bi.driver, "nvme");
	assert_string_equal(bi.link, "8.0 GT/s PCIe x4");
	assert_float_equal(bi.link_mbps, 8000.0 / 8 * 128 / 130 * 4, 1e-6);
	/* A virtio disk has no such link. */
	memset(&bi, 0, sizeof(bi));
	blkinfo_disk(&v, "vda", &bi);
	assert_string_equal(bi.link, "");
	assert_float_equal(bi.link_mbps, 0, 0);
}

static void test_in_use(void **state)
{
	struct fsview v = { .root = root };
	char why[256];

	(void)state;
	/* vda's partition is mounted on / */
	assert_true(blkinfo_in_use(&v, makedev(252, 0), why, sizeof(why)));
	assert_non_null(strstr(why, "vda1"));
	assert_non_null(strstr(why, "mounted on /"));
	assert_true(blkinfo_in_use(&v, makedev(252, 1), why, sizeof(why)));
	/* sda is held by dm-0 */
	assert_true(blkinfo_in_use(&v, makedev(8, 0), why, sizeof(why)));
	assert_non_null(strstr(why, "dm-0"));
	/* an unknown device is free */
	assert_false(blkinfo_in_use(&v, makedev(7, 9), why, sizeof(why)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_driver_and_sizes),
		cmocka_unit_test(test_in_use),
		cmocka_unit_test(test_nvme_link),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
