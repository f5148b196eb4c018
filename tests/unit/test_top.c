// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iolab top's arithmetic against figures worked out by hand from two fixed
 * /proc/diskstats snapshots two seconds apart: iostat -x's r/s, w/s, MB/s,
 * await, aqu-sz and %util; a 32-bit counter wrap; a device that appears,
 * one that disappears, one whose counters went back; an 11-field kernel;
 * malformed lines and a name with an escape sequence. Then the verdicts
 * those figures earn.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/top/top_stats.h"
#include "cmd/top/top_verdict.h"
#include "cmd/top/top_vm.h"

static const char before[] =
	" 253       0 vda 1000 10 80000 2000 500 50 40000 5000 0 3000 7000 0 0 0 0 100 400\n"
	"   8       0 sdb 5 0 40 1 0 0 0 0 0 1 1\n"
	"   7       0 loop0 4294967000 0 0 4294967000 0 0 0 0 0 4294967290 4294967290 0 0 0 0 0 0\n"
	"   8      32 sdc 10000000000 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   3       0 hda 10 0 80 20 4 0 32 40 0 50 60\n"
	"this line is not a device\n"
	"   8      48 sd\x1b]52;c;eA==\x07x 1 0 8 1 0 0 0 0 0 1 1 0 0 0 0 0 0\n";

static const char after[] =
	" 253       0 vda 1400 30 88000 2800 600 50 42000 6500 3 4500 9600 0 0 0 0 150 900\n"
	"   7       0 loop0 204 0 4000 1204 0 0 0 0 1 1990 3994 0 0 0 0 0 0\n"
	"   8      32 sdc 5 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	" 259       0 nvme0n1 7 0 56 1 0 0 0 0 0 1 1 0 0 0 0 0 0\n"
	"   3       0 hda 30 0 240 120 4 0 32 40 0 150 160\n"
	"   1 2\n"
	"   8      48 sd\x1b]52;c;eA==\x07x 1 0 8 1 0 0 0 0 0 1 1 0 0 0 0 0 0";

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void parse(const char *text, struct top_snap *s)
{
	top_parse(text, strlen(text), s);
}

static void test_parse(void **state)
{
	struct top_snap a, b;
	const struct top_dev *d;

	(void)state;
	parse(before, &a);
	parse(after, &b);
	assert_int_equal(a.n, 6);
	assert_int_equal(a.skipped, 1);
	assert_int_equal(b.n, 6);
	assert_int_equal(b.skipped, 1);
	d = top_find(&a, "vda");
	assert_non_null(d);
	assert_int_equal(d->major, 253);
	assert_int_equal(d->nfields, 17);
	assert_int_equal(d->f[TF_FL_TICKS], 400);
	assert_int_equal(top_find(&a, "hda")->nfields, 11);
	/* A hint that is wrong, or out of range, still finds the device. */
	assert_ptr_equal(top_find_near(&a, "vda", 3), top_find(&a, "vda"));
	assert_ptr_equal(top_find_near(&a, "vda", 99), top_find(&a, "vda"));
	assert_ptr_equal(top_find_near(&a, "hda", 4), &a.devs[4]);
	assert_null(top_find_near(&a, "nope", 0));
	/* The escape sequence arrives escaped, and is no /sys path. */
	d = &a.devs[5];
	assert_null(strchr(d->name, '\x1b'));
	assert_null(strchr(d->name, '\x07'));
	assert_string_equal(d->name, "sd\\x1b]52;c;eA==\\x07x");
	assert_false(d->name_clean);
	assert_true(top_find(&a, "vda")->name_clean);
	top_snap_free(&a);
	top_snap_free(&b);
}

static void test_bounds(void **state)
{
	struct top_snap s;

	(void)state;
	/* A name too long, a number too big, a non-number: all skipped. */
	parse("8 0 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 1 2 3 4 5 6 7 8 9 10 11\n"
	      "8 0 sda 1 2 3 4 5 6 7 8 9 10 99999999999999999999999\n"
	      "8 0 sda 1 2 3 4 5 6 7 8 9 10 1x\n"
	      "8 0 sda 1 2 3 4\n"
	      "8 1 ok 1 2 3 4 5 6 7 8 9 10 11 12 13\n",
	      &s);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.skipped, 4);
	/* 13 counters is no layout the kernel printed: the first 11 count. */
	assert_int_equal(s.devs[0].nfields, 11);
	top_snap_free(&s);
}

static void test_delta(void **state)
{
	uint64_t d;

	(void)state;
	assert_true(top_delta(5, 9, &d));
	assert_int_equal(d, 4);
	assert_true(top_delta(UINT32_MAX, 0, &d));
	assert_int_equal(d, 1);
	assert_true(top_delta(4294967000u, 204, &d));
	assert_int_equal(d, 500);
	/* Back from beyond 32 bits, or by more than half of 2^32: a reset. */
	assert_false(top_delta(10000000000ull, 5, &d));
	assert_false(top_delta(1000000000u, 5, &d));
	assert_true(top_delta(3000000000u, 5, &d)); /* 1.29e9 on: a wrap */
	assert_int_equal(d, 1294967301);
}

static void test_rates(void **state)
{
	struct top_snap a, b;
	struct top_rate r;

	(void)state;
	parse(before, &a);
	parse(after, &b);

	/* vda over 2 s: 400 reads, 100 writes, 50 flushes. */
	assert_int_equal(top_rate_of(top_find(&a, "vda"), top_find(&b, "vda"),
				     2.0, &r),
			 TOP_OK);
	NEAR(r.r_s, 200); /* 400 / 2 */
	NEAR(r.w_s, 50); /* 100 / 2 */
	NEAR(r.f_s, 25); /* 50 / 2 */
	NEAR(r.rrqm_s, 10); /* 20 merged / 2 */
	NEAR(r.rmb_s, 2.048); /* 8000 sectors * 512 B / 2 s / 1e6 */
	NEAR(r.wmb_s, 0.512); /* 2000 * 512 / 2 / 1e6 */
	NEAR(r.r_await_ms, 2.0); /* 800 ms / 400 */
	NEAR(r.w_await_ms, 15.0); /* 1500 ms / 100 */
	NEAR(r.f_await_ms, 10.0); /* 500 ms / 50 */
	NEAR(r.d_await_ms, 0); /* no discard: 0, as iostat prints */
	NEAR(r.aqu_sz, 1.3); /* 2600 ms weighted / 2000 ms */
	NEAR(r.util_pct, 75); /* 1500 ms busy / 2000 ms */
	assert_int_equal(r.in_flight, 3);

	/* loop0: 32-bit counters wrapped; 500 reads in 1500 ms. */
	assert_int_equal(top_rate_of(top_find(&a, "loop0"),
				     top_find(&b, "loop0"), 2.0, &r),
			 TOP_OK);
	NEAR(r.r_s, 250);
	NEAR(r.r_await_ms, 3.0);
	NEAR(r.rmb_s, 1.024);
	NEAR(r.util_pct, 99.8); /* 1996 / 2000 */
	NEAR(r.aqu_sz, 2.0); /* 4000 / 2000 */

	/* sdc went back from beyond 32 bits: re-created, no rates. */
	assert_int_equal(top_rate_of(top_find(&a, "sdc"), top_find(&b, "sdc"),
				     2.0, &r),
			 TOP_RESET);
	NEAR(r.r_s, 0);

	/* nvme0n1 is new; sdb is gone (no line in the second snapshot). */
	assert_null(top_find(&a, "nvme0n1"));
	assert_int_equal(top_rate_of(NULL, top_find(&b, "nvme0n1"), 2.0, &r),
			 TOP_NEW);
	assert_null(top_find(&b, "sdb"));

	/* An 11-field kernel: no flushes, the rest as usual. */
	assert_int_equal(top_rate_of(top_find(&a, "hda"), top_find(&b, "hda"),
				     2.0, &r),
			 TOP_OK);
	assert_int_equal(r.nfields, 11);
	NEAR(r.r_s, 10);
	NEAR(r.r_await_ms, 5.0); /* 100 ms / 20 */
	NEAR(r.rmb_s, 0.04096); /* 160 * 512 / 2 / 1e6 */
	NEAR(r.f_s, 0);
	NEAR(r.util_pct, 5); /* 100 / 2000 */

	/* Busy time a little above the interval is 100 %. */
	{
		struct top_dev p = *top_find(&a, "vda"), c = p;

		c.f[TF_IO_TICKS] += 2010;
		top_rate_of(&p, &c, 2.0, &r);
		NEAR(r.util_pct, 100);
	}
	top_snap_free(&a);
	top_snap_free(&b);
}

static void test_sys(void **state)
{
	struct top_sys_snap a = { 0 }, b = { 0 };
	struct top_sys_rate r;

	(void)state;
	a.t_ns = 0;
	b.t_ns = 2000000000ull;
	top_sys_parse_stat("cpu  100 0 100 700 50 0 0 50 0 0\ncpu0 1 2\n", &a);
	top_sys_parse_stat("cpu  200 0 200 1300 150 0 0 150 0 0\n", &b);
	top_sys_parse_psi(
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=1000000\n"
		"full avg10=0.00 avg60=0.00 avg300=0.00 total=500000\n",
		&a);
	top_sys_parse_psi(
		"some avg10=1.00 avg60=0.00 avg300=0.00 total=1500000\n"
		"full avg10=0.00 avg60=0.00 avg300=0.00 total=600000\n",
		&b);
	top_sys_rate_of(&a, &b, &r);
	/* 1000 jiffies in all: 100 iowait, 100 steal. */
	NEAR(r.iowait_pct, 10);
	NEAR(r.steal_pct, 10);
	NEAR(r.psi_some_pct, 25); /* 0.5 s of 2 s */
	NEAR(r.psi_full_pct, 5); /* 0.1 s of 2 s */

	/* A kernel without PSI: unknown, and the reason kept. */
	b.psi_err = a.psi_err = -2;
	top_sys_rate_of(&a, &b, &r);
	assert_true(isnan(r.psi_some_pct));
	assert_int_equal(r.psi_err, -2);
}

static const struct top_class ssd = { "non-rot", 5 },
			      hdd = { "rotational", 20 };

static void test_verdicts(void **state)
{
	struct top_snap a, b;
	struct top_rate r;
	struct top_verdict v[4];
	struct top_sys_rate sys = { NAN, 12, NAN, 30, 0 };

	(void)state;
	parse(before, &a);
	parse(after, &b);
	/* vda: writes at 15 ms with 1.3 in flight: the device is slow. */
	top_rate_of(top_find(&a, "vda"), top_find(&b, "vda"), 2.0, &r);
	assert_int_equal(top_judge_dev(&r, &ssd, v, 4), 1);
	assert_string_equal(v[0].id, "slow-device");
	NEAR(v[0].value, 15);
	assert_string_equal(v[0].unit, "ms");
	assert_non_null(strstr(v[0].msg, "answered writes in 15.0 ms"));
	assert_non_null(strstr(v[0].msg, "1.3 requests in flight"));
	/* The same on a rotational device is fine. */
	assert_int_equal(top_judge_dev(&r, &hdd, v, 4), 0);

	/* loop0: busy 99.8 % at 3 ms: activity, not saturation. */
	top_rate_of(top_find(&a, "loop0"), top_find(&b, "loop0"), 2.0, &r);
	assert_int_equal(top_judge_dev(&r, &ssd, v, 4), 1);
	assert_string_equal(v[0].id, "busy");
	assert_int_equal(v[0].sev, TOP_NOTE);
	NEAR(v[0].value, 99.8);

	/* A long queue at slow answers: the load. */
	r.aqu_sz = 6;
	r.r_await_ms = 30;
	assert_int_equal(top_judge_dev(&r, &hdd, v, 4), 1);
	assert_string_equal(v[0].id, "saturated");
	NEAR(v[0].value, 30);

	/* Flushes with 3 s of 4 s request time: flush-heavy, 75 %. */
	memset(&r, 0, sizeof(r));
	r.state = TOP_OK;
	r.nfields = 17;
	r.d[TF_WR_IOS] = 50;
	r.d[TF_WR_TICKS] = 1000;
	r.w_await_ms = 20;
	r.d[TF_FL_IOS] = 50;
	r.d[TF_FL_TICKS] = 3000;
	r.aqu_sz = 1;
	assert_int_equal(top_judge_dev(&r, &hdd, v, 4), 1);
	assert_string_equal(v[0].id, "flush-heavy");
	NEAR(v[0].value, 75);
	/* A kernel without flush counters says nothing of them. */
	r.nfields = 15;
	assert_int_equal(top_judge_dev(&r, &hdd, v, 4), 0);
	/* Too few requests say nothing; nor does a new device. */
	r.nfields = 17;
	r.d[TF_FL_IOS] = 4;
	r.d[TF_WR_IOS] = 4;
	r.w_await_ms = 500;
	assert_int_equal(top_judge_dev(&r, &ssd, v, 4), 0);
	r.d[TF_WR_IOS] = 50;
	r.state = TOP_NEW;
	assert_int_equal(top_judge_dev(&r, &ssd, v, 4), 0);

	/* Steal 12 %, PSI full 30 %. */
	assert_int_equal(top_judge_sys(&sys, v, 4), 2);
	assert_string_equal(v[0].id, "steal");
	NEAR(v[0].value, 12);
	assert_string_equal(v[1].id, "io-pressure");
	sys.steal_pct = 9;
	sys.psi_full_pct = NAN;
	assert_int_equal(top_judge_sys(&sys, v, 4), 0);
	top_snap_free(&a);
	top_snap_free(&b);
}

static void test_qmp_path(void **state)
{
	char p[108], n[TOP_NAME_MAX];
	char *plain[] = { "-name", "guest=web1,debug-threads=on", "-qmp",
			  "unix:/run/q.sock,server=on,wait=off" };
	/* Proxmox: a chardev and a control monitor on it. */
	char *pve[] = {
		"-id",
		"100",
		"-name",
		"db,debug-threads=on",
		"-chardev",
		"socket,id=hmp,path=/var/run/qemu-server/100.mon,server=on",
		"-mon",
		"chardev=hmp,mode=readline",
		"-chardev",
		"socket,id=qmp,path=/var/run/qemu-server/100.qmp,server=on,wait=off",
		"-mon",
		"chardev=qmp,mode=control"
	};
	/* libvirt passes an open descriptor: no path to connect to. */
	char *virt[] = { "-chardev", "socket,id=charmonitor,fd=31,server=on",
			 "-mon",
			 "chardev=charmonitor,id=monitor,mode=control" };
	char *evil[] = { "-name", "x\x1b[2Jy" };

	(void)state;
	assert_true(top_qmp_path(4, plain, p, sizeof(p)));
	assert_string_equal(p, "/run/q.sock");
	assert_true(top_vm_name(4, plain, n, sizeof(n)));
	assert_string_equal(n, "web1");
	assert_true(top_qmp_path(12, pve, p, sizeof(p)));
	assert_string_equal(p, "/var/run/qemu-server/100.qmp");
	assert_true(top_vm_name(12, pve, n, sizeof(n)));
	assert_string_equal(n, "db");
	assert_false(top_qmp_path(4, virt, p, sizeof(p)));
	assert_false(top_vm_name(4, virt, n, sizeof(n)));
	assert_true(top_vm_name(2, evil, n, sizeof(n)));
	assert_null(strchr(n, '\x1b'));
}

static void test_blockstats(void **state)
{
	static const char reply[] =
		"{\"return\": [{\"device\": \"drive0\", \"stats\": {"
		"\"rd_operations\": 100, \"wr_operations\": 40, "
		"\"flush_operations\": 4, \"rd_bytes\": 409600, "
		"\"wr_bytes\": 4194304, \"rd_total_time_ns\": 50000000, "
		"\"wr_total_time_ns\": 80000000, "
		"\"flush_total_time_ns\": 2000000}}, "
		"{\"device\": \"\", \"qdev\": "
		"\"/machine/peripheral/virtio-disk1/virtio-backend\", "
		"\"stats\": {\"rd_operations\": 1}}, "
		"{\"device\": \"\", \"node-name\": \"lab-disk\", \"qdev\": "
		"\"/machine/peripheral-anon/device[2]/virtio-backend\", "
		"\"stats\": {\"rd_operations\": 2}}, "
		"{\"device\": \"x\", \"stats\": 5}]}";
	static const char later[] =
		"{\"return\": [{\"device\": \"drive0\", \"stats\": {"
		"\"rd_operations\": 300, \"wr_operations\": 60, "
		"\"flush_operations\": 14, \"rd_bytes\": 1228800, "
		"\"wr_bytes\": 6291456, \"rd_total_time_ns\": 250000000, "
		"\"wr_total_time_ns\": 180000000, "
		"\"flush_total_time_ns\": 32000000}}]}";
	struct top_vmstats a, b;
	struct top_vmrate r;
	char why[200];

	(void)state;
	assert_true(top_blockstats_parse(reply, strlen(reply), &a, why,
					 sizeof(why)));
	/* The entry whose stats are no object is left out. */
	assert_int_equal(a.n, 3);
	assert_string_equal(a.d[0].name, "drive0");
	assert_string_equal(a.d[1].name, "virtio-disk1");
	/* A device without an id: its node, as advise names the disk. */
	assert_string_equal(a.d[2].name, "lab-disk");
	assert_true(top_blockstats_parse(later, strlen(later), &b, why,
					 sizeof(why)));
	/* Over 2 s: 200 reads in 200 ms, 20 writes in 100 ms, 10 flushes
	   in 30 ms. */
	top_vmrate_of(&a.d[0], &b.d[0], 2.0, &r);
	assert_int_equal(r.state, TOP_OK);
	NEAR(r.r_s, 100);
	NEAR(r.w_s, 10);
	NEAR(r.f_s, 5);
	NEAR(r.rmb_s, 0.4096); /* 819200 B / 2 s */
	NEAR(r.wmb_s, 1.048576); /* 2 MiB / 2 s */
	NEAR(r.r_await_ms, 1.0);
	NEAR(r.w_await_ms, 5.0);
	NEAR(r.f_await_ms, 3.0);
	/* Backwards: a new block node under the old name. */
	top_vmrate_of(&b.d[0], &a.d[0], 2.0, &r);
	assert_int_equal(r.state, TOP_RESET);
	top_vmstats_free(&a);
	top_vmstats_free(&b);
	/* An error reply, and no JSON at all. */
	{
		static const char e[] = "{\"error\": {\"class\": "
					"\"GenericError\", \"desc\": \"no\"}}";

		assert_false(top_blockstats_parse(e, strlen(e), &a, why,
						  sizeof(why)));
	}
	assert_string_equal(why, "query-blockstats: no");
	assert_false(top_blockstats_parse("garbage", 7, &a, why, sizeof(why)));
}

static void test_vm_advise(void **state)
{
	char *argv[] = {
		"/usr/bin/kvm",
		"-id",
		"100",
		"-name",
		"db",
		"-device",
		"virtio-scsi-pci,id=scsihw0",
		"-drive",
		"file=/dev/pve/vm-100-disk-0,if=none,id=drive-scsi0,format=raw,cache=none,aio=native",
		"-device",
		"scsi-hd,bus=scsihw0.0,drive=drive-scsi0,id=scsi0"
	};
	struct top_vm vm;
	const struct top_vmcfg *c;

	(void)state;
	memset(&vm, 0, sizeof(vm));
	top_vm_advise(100, 11, argv, &vm.cfg, &vm.ncfg);
	assert_int_equal(vm.ncfg, 1);
	c = top_vm_cfg_for(&vm, "drive-scsi0");
	assert_non_null(c);
	assert_non_null(strstr(c->setting, "cache=none"));
	assert_non_null(strstr(c->setting, "aio=native"));
	assert_null(top_vm_cfg_for(&vm, "drive-virtio0"));
	free(vm.cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_sys),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_qmp_path),
		cmocka_unit_test(test_blockstats),
		cmocka_unit_test(test_vm_advise),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
