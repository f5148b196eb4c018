// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QEMU command lines: each cache= mode becomes the three knobs of
 * reference/qemu.md 1.1 (cache.direct and cache.no-flush on both block
 * nodes, write-cache on the device), aio= sits on the file node, each bus
 * gets its controller and disk device, and a comma in the image path is
 * escaped the way QEMU's option parser wants.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/lab/qemu_argv.h"

static struct qemu_cell cell(enum lab_bus bus, enum engine_kind aio,
			     enum cache_mode cache)
{
	struct qemu_cell c = {
		.qemu = "qemu-system-x86_64",
		.kernel = "/boot/vmlinuz",
		.initrd = "/tmp/i.cpio",
		.append = "console=ttyS0",
		.accel = ACCEL_TCG,
		.memory_bytes = 512ull << 20,
		.smp = 1,
		.format = FMT_RAW,
		.bus = bus,
		.disks = { { .image = "/var/tmp/x.raw",
			     .aio = aio,
			     .cache = cache } },
		.ndisks = 1,
		.console_fd = 5,
		.channel_fd = 6,
	};

	return c;
}

/* The value after the n-th occurrence of @flag, or NULL. */
static const char *after(char **argv, const char *flag, int nth)
{
	for (int i = 0; argv[i]; i++)
		if (!strcmp(argv[i], flag) && nth-- == 0)
			return argv[i + 1];
	return NULL;
}

static bool has_arg(char **argv, const char *s)
{
	for (int i = 0; argv[i]; i++)
		if (!strcmp(argv[i], s))
			return true;
	return false;
}

static void test_cache_knobs(void **state)
{
	static const struct {
		enum cache_mode cache;
		const char *direct, *noflush, *wce;
	} t[] = {
		{ CACHE_NONE, "on", "off", "on" },
		{ CACHE_DIRECTSYNC, "on", "off", "off" },
		{ CACHE_WRITETHROUGH, "off", "off", "off" },
		{ CACHE_WRITEBACK, "off", "off", "on" },
		{ CACHE_UNSAFE, "off", "on", "on" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct qemu_cell c =
			cell(BUS_VIRTIO_BLK, ENGINE_NATIVE, t[i].cache);
		char **argv = qemu_argv_build(&c), want[256];

		snprintf(
			want, sizeof(want),
			"driver=file,node-name=lab-file,filename=/var/tmp/x.raw,aio=native,cache.direct=%s,cache.no-flush=%s",
			t[i].direct, t[i].noflush);
		assert_string_equal(after(argv, "-blockdev", 0), want);
		snprintf(
			want, sizeof(want),
			"driver=raw,node-name=lab-disk,file=lab-file,cache.direct=%s,cache.no-flush=%s",
			t[i].direct, t[i].noflush);
		assert_string_equal(after(argv, "-blockdev", 1), want);
		snprintf(
			want, sizeof(want),
			"virtio-blk-pci,drive=lab-disk,serial=%s,write-cache=%s",
			LAB_DISK_SERIAL, t[i].wce);
		assert_string_equal(after(argv, "-device", 2), want);
		qemu_argv_free(argv);
	}
}

static void test_buses(void **state)
{
	static const struct {
		enum lab_bus bus;
		const char *ctrl, *disk_prefix;
	} t[] = {
		{ BUS_VIRTIO_BLK, NULL, "virtio-blk-pci,drive=lab-disk," },
		{ BUS_VIRTIO_SCSI, "virtio-scsi-pci,id=lab-scsi",
		  "scsi-hd,bus=lab-scsi.0,drive=lab-disk," },
		{ BUS_IDE, NULL, "ide-hd,bus=ide.0,drive=lab-disk," },
		{ BUS_AHCI, "ahci,id=lab-ahci",
		  "ide-hd,bus=lab-ahci.0,drive=lab-disk," },
		{ BUS_NVME, NULL, "nvme,drive=lab-disk," },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct qemu_cell c =
			cell(t[i].bus, ENGINE_IO_URING, CACHE_NONE);
		char **argv = qemu_argv_build(&c);
		/* -device 0, 1: the serial ports; then the disk's. */
		const char *d2 = after(argv, "-device", 2);
		const char *d3 = after(argv, "-device", 3);

		assert_string_equal(after(argv, "-device", 0),
				    "isa-serial,chardev=lab-console");
		assert_string_equal(after(argv, "-device", 1),
				    "isa-serial,chardev=lab-channel");
		if (t[i].ctrl) {
			assert_string_equal(d2, t[i].ctrl);
			d2 = d3;
		} else {
			assert_null(d3);
		}
		assert_memory_equal(d2, t[i].disk_prefix,
				    strlen(t[i].disk_prefix));
		assert_non_null(strstr(d2, "serial=" LAB_DISK_SERIAL));
		qemu_argv_free(argv);
	}
}

/*
 * Cells sharing a guest: a disk each, with its own image, aio= and
 * cache=, and a serial per disk that the guest finds it by.
 */
static void test_shared_disks(void **state)
{
	struct qemu_cell c = cell(BUS_VIRTIO_BLK, ENGINE_THREADS, CACHE_NONE);
	char **argv;

	(void)state;
	c.disks[1] = (struct qemu_disk){ .image = "/proc/self/fd/7",
					 .image_fd = 7,
					 .aio = ENGINE_IO_URING,
					 .cache = CACHE_WRITEBACK };
	c.disks[2] = (struct qemu_disk){ .image = "/proc/self/fd/8",
					 .image_fd = 8,
					 .aio = ENGINE_NATIVE,
					 .cache = CACHE_DIRECTSYNC };
	c.ndisks = 3;
	argv = qemu_argv_build(&c);
	assert_string_equal(
		after(argv, "-blockdev", 0),
		"driver=file,node-name=lab-file-0,filename=/var/tmp/x.raw,aio=threads,cache.direct=on,cache.no-flush=off");
	assert_string_equal(
		after(argv, "-blockdev", 3),
		"driver=raw,node-name=lab-disk-1,file=lab-file-1,cache.direct=off,cache.no-flush=off");
	assert_string_equal(
		after(argv, "-blockdev", 4),
		"driver=file,node-name=lab-file-2,filename=/proc/self/fd/8,aio=native,cache.direct=on,cache.no-flush=off");
	assert_string_equal(
		after(argv, "-device", 2),
		"virtio-blk-pci,drive=lab-disk-0,serial=" LAB_DISK_SERIAL
		"-0,write-cache=on");
	assert_string_equal(
		after(argv, "-device", 3),
		"virtio-blk-pci,drive=lab-disk-1,serial=" LAB_DISK_SERIAL
		"-1,write-cache=on");
	assert_string_equal(
		after(argv, "-device", 4),
		"virtio-blk-pci,drive=lab-disk-2,serial=" LAB_DISK_SERIAL
		"-2,write-cache=off");
	assert_null(after(argv, "-device", 5));
	assert_non_null(strstr(after(argv, "-blockdev", 2), "aio=io_uring"));
	qemu_argv_free(argv);
	/* IDE: two channels, master and slave; AHCI: a port each. */
	c.bus = BUS_IDE;
	argv = qemu_argv_build(&c);
	assert_non_null(strstr(after(argv, "-device", 4),
			       "ide-hd,bus=ide.1,unit=0,drive=lab-disk-2,"));
	qemu_argv_free(argv);
	c.bus = BUS_AHCI;
	argv = qemu_argv_build(&c);
	assert_string_equal(after(argv, "-device", 2), "ahci,id=lab-ahci");
	assert_non_null(strstr(after(argv, "-device", 5),
			       "ide-hd,bus=lab-ahci.2,drive=lab-disk-2,"));
	qemu_argv_free(argv);
	assert_int_equal(lab_bus_max_disks(BUS_IDE), 4);
	assert_int_equal(lab_bus_max_disks(BUS_VIRTIO_BLK), LAB_MAX_DISKS);
}

static void test_machine(void **state)
{
	struct qemu_cell c = cell(BUS_IDE, ENGINE_THREADS, CACHE_WRITEBACK);
	char **argv;

	(void)state;
	c.format = FMT_QCOW2;
	c.disks[0].image = "/data/a,b.qcow2";
	argv = qemu_argv_build(&c);
	assert_string_equal(argv[0], "qemu-system-x86_64");
	assert_true(has_arg(argv, "-nodefaults"));
	assert_true(has_arg(argv, "-no-reboot"));
	assert_string_equal(after(argv, "-accel", 0), "tcg");
	assert_null(after(argv, "-cpu", 0));
	assert_string_equal(after(argv, "-m", 0), "512m");
	assert_string_equal(after(argv, "-kernel", 0), "/boot/vmlinuz");
	assert_string_equal(after(argv, "-chardev", 0),
			    "socket,id=lab-console,fd=5");
	assert_string_equal(after(argv, "-chardev", 1),
			    "socket,id=lab-channel,fd=6");
	assert_non_null(strstr(after(argv, "-blockdev", 0),
			       "filename=/data/a,,b.qcow2,aio=threads,"));
	assert_memory_equal(after(argv, "-blockdev", 1), "driver=qcow2,", 13);
	qemu_argv_free(argv);

	c.accel = ACCEL_KVM;
	argv = qemu_argv_build(&c);
	assert_string_equal(after(argv, "-accel", 0), "kvm");
	assert_string_equal(after(argv, "-cpu", 0), "host");
	qemu_argv_free(argv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_knobs),
		cmocka_unit_test(test_buses),
		cmocka_unit_test(test_shared_disks),
		cmocka_unit_test(test_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
