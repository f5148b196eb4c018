// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QEMU command lines resolved to disks: where each knob is read from
 * (protocol node, inheritance, device), -global/-set, auto ids, buses, and
 * a process's lenient parse.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/advise/advise_model.h"
#include "cmd/advise/advise_qemu.h"
#include "util/err.h"

static const struct adv_ctx ctx = { .probe = false, .proc_root = "/proc" };

static struct adv_report rep;

static const struct adv_vm *read_args(const char *text)
{
	struct err err = { 0 };

	adv_report_free(&rep);
	if (!adv_qemu_read_text(&rep, ADV_SRC_QEMU, "t", "t", text, &ctx, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(rep.nvms, 1);
	return rep.vms[0];
}

static const struct adv_disk *disk(const struct adv_vm *vm, const char *id)
{
	for (size_t i = 0; i < vm->ndisks; i++)
		if (!strcmp(vm->disks[i].id, id))
			return &vm->disks[i];
	fail_msg("no disk %s", id);
	return NULL;
}

static void test_direct_on_protocol_node(void **state)
{
	const struct adv_vm *vm = read_args(
		"-blockdev driver=file,node-name=f0,filename=/v/a.raw,aio=native "
		"-blockdev driver=raw,node-name=d0,file=f0,cache.direct=on "
		"-device virtio-blk-pci,drive=d0,id=v0");
	const struct adv_disk *d = disk(vm, "v0");

	(void)state;
	/* a separate file node does not inherit: QEMU refuses this */
	assert_false(d->direct);
	assert_true(d->direct_above);
	assert_string_equal(d->aio, "native");
	assert_string_equal(d->protocol, "file");
	assert_string_equal(d->format, "raw");
	assert_string_equal(d->file, "/v/a.raw");
}

static void test_inline_inherits(void **state)
{
	const struct adv_vm *vm = read_args(
		"-blockdev driver=qcow2,node-name=d0,cache.direct=on,"
		"cache.no-flush=off,file.driver=host_device,"
		"file.filename=/dev/vg/lv,file.aio=io_uring,discard=unmap "
		"-device virtio-blk-pci,drive=d0,write-cache=off");
	const struct adv_disk *d = &vm->disks[0];

	(void)state;
	assert_true(d->direct);
	assert_false(d->write_cache);
	assert_true(d->discard); /* inherited by the inline child */
	assert_string_equal(adv_cache_name(d->direct, d->no_flush,
					   d->write_cache),
			    "directsync");
	assert_string_equal(d->aio, "io_uring");
	assert_string_equal(d->proto_prefix, "file.");
	assert_string_equal(d->id, "d0");
}

static void test_drive_cache_and_overrides(void **state)
{
	const struct adv_vm *vm =
		read_args("-smp 8 -global virtio-blk-device.num-queues=3 "
			  "-drive file=/v/a.img,if=none,id=d0,cache=none,"
			  "cache.no-flush=on,format=raw "
			  "-device virtio-blk-pci,drive=d0,id=v0 "
			  "-set device.v0.write-cache=off");
	const struct adv_disk *d = disk(vm, "v0");

	(void)state;
	assert_true(d->direct && d->no_flush && !d->write_cache);
	assert_int_equal(d->queues, 3); /* from -global */
	assert_false(d->queues_auto);
	assert_string_equal(d->aio, "threads");
	assert_false(d->aio_set);
}

static void test_auto_ids_and_buses(void **state)
{
	const struct adv_vm *vm =
		read_args("-M pc -hda /v/a.img -cdrom /v/x.iso "
			  "-drive file=/v/b.raw,format=raw,if=virtio "
			  "-drive file=/v/c.raw,format=raw,if=virtio -smp 2");
	const struct adv_disk *a = disk(vm, "ide0-hd0");

	(void)state;
	assert_int_equal(a->bus, ADV_BUS_IDE);
	assert_null(a->format); /* probed */
	assert_true(disk(vm, "ide1-cd0")->cdrom);
	assert_int_equal(disk(vm, "virtio0")->bus, ADV_BUS_VIRTIO_BLK);
	assert_int_equal(disk(vm, "virtio1")->queues, 2);
	vm = read_args("-machine q35 -drive file=/v/a.img,format=raw "
		       "-drive file=/v/b.raw,format=raw,if=none,id=b "
		       "-device ide-hd,drive=b,bus=ide.2");
	assert_int_equal(disk(vm, "ide0-hd0")->bus, ADV_BUS_SATA);
	assert_int_equal(disk(vm, "b")->bus, ADV_BUS_SATA);
}

static void test_scsi_controllers(void **state)
{
	const struct adv_vm *vm = read_args(
		"-smp 4 -object iothread,id=t0 "
		"-device virtio-scsi-pci,id=vs,iothread=t0,num_queues=2 "
		"-device lsi53c895a,id=lsi "
		"-drive file=/v/a.raw,format=raw,if=none,id=a "
		"-device scsi-hd,bus=vs.0,drive=a,id=sa "
		"-drive file=/v/b.raw,format=raw,if=none,id=b "
		"-device scsi-hd,bus=lsi.0,drive=b,id=sb");

	(void)state;
	assert_int_equal(disk(vm, "sa")->bus, ADV_BUS_VIRTIO_SCSI);
	assert_string_equal(disk(vm, "sa")->iothread, "t0");
	assert_int_equal(disk(vm, "sa")->queues, 2);
	assert_int_equal(disk(vm, "sb")->bus, ADV_BUS_SCSI_EMULATED);
	assert_true(adv_vm_has_iothread(vm, "t0"));
}

static void test_json_forms(void **state)
{
	const struct adv_vm *vm = read_args(
		/* in -drive, the JSON's own commas are doubled too */
		"-smp 4 -drive 'file=json:{\"driver\":\"qcow2\",,\"file\":"
		"{\"driver\":\"file\",,\"filename\":\"/v/j.qcow2\"}}',if=none,"
		"id=j,cache=none "
		"-device '{\"driver\":\"virtio-blk-pci\",\"drive\":\"j\","
		"\"id\":\"vj\",\"iothread-vq-mapping\":[{\"iothread\":\"t1\"}]}' "
		"-object '{\"qom-type\":\"iothread\",\"id\":\"t1\"}'");
	const struct adv_disk *d = disk(vm, "vj");

	(void)state;
	assert_string_equal(d->file, "/v/j.qcow2");
	assert_string_equal(d->format, "qcow2");
	assert_string_equal(d->protocol, "file");
	assert_string_equal(d->iothread, "t1");
	assert_true(adv_vm_has_iothread(vm, "t1"));
}

static void test_process_is_lenient(void **state)
{
	char *argv[] = {
		"-name", "guest=p1", "-x-future-option",
		"val",	 "-drive",   "file=/v/a.raw,format=raw,if=virtio"
	};
	char *where[] = { "a0", "a1", "a2", "a3", "a4", "a5" };
	struct err err = { 0 };

	(void)state;
	adv_report_free(&rep);
	assert_true(adv_qemu_read_argv(&rep, ADV_SRC_PROCESS, "process:1",
				       "pid 1", 6, argv, where, false, &ctx,
				       &err));
	assert_int_equal(rep.nvms, 1);
	assert_string_equal(rep.vms[0]->name, "p1");
	assert_true(rep.vms[0]->libvirt_managed);
	assert_int_equal(rep.vms[0]->ndisks, 1);
	assert_true(warn_has(&rep.warnings, "advise-unknown-option"));
	/* the same command line given by a user is refused */
	adv_report_free(&rep);
	assert_false(adv_qemu_read_argv(&rep, ADV_SRC_QEMU, "q", "q", 6, argv,
					where, true, &ctx, &err));
	assert_non_null(strstr(err.msg, "a2: unknown QEMU option"));
}

static void test_log_lines_skipped(void **state)
{
	const struct adv_vm *vm = read_args(
		"2024-01-01 10:00:00: starting up, it's a log\n"
		"LC_ALL=C /usr/bin/qemu-system-x86_64 -name guest=v \\\n"
		"  -drive file=/v/a.raw,format=raw,if=virtio\n"
		"2024-01-01T10:00:01Z qemu-system-x86_64: can't open x\n");

	(void)state;
	assert_string_equal(vm->name, "v");
	assert_int_equal(vm->ndisks, 1);
	assert_string_equal(vm->disks[0].where, "t:3");
}

static int teardown(void **state)
{
	(void)state;
	adv_report_free(&rep);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_direct_on_protocol_node),
		cmocka_unit_test(test_inline_inherits),
		cmocka_unit_test(test_drive_cache_and_overrides),
		cmocka_unit_test(test_auto_ids_and_buses),
		cmocka_unit_test(test_scsi_controllers),
		cmocka_unit_test(test_json_forms),
		cmocka_unit_test(test_process_is_lenient),
		cmocka_unit_test(test_log_lines_skipped),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
