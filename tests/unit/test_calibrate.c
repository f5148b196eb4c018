// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pieces of calibrate around the search: how a load is split into
 * QD x threads, the default --disks from a captured sysfs tree, the knee
 * and Little's law on a known curve, and the sentence that reads a result.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cmd/calibrate/calibrate_suite.h"
#include "util/fsread.h"

static void test_split(void **state)
{
	unsigned int qd, t;

	(void)state;
	assert_int_equal(calibrate_split(1, ENGINE_IO_URING, 2, &qd, &t), 1);
	assert_int_equal(qd, 1);
	assert_int_equal(t, 1);
	assert_int_equal(calibrate_split(64, ENGINE_IO_URING, 2, &qd, &t), 64);
	assert_int_equal(t, 1);
	assert_int_equal(calibrate_split(100, ENGINE_NATIVE, 2, &qd, &t), 100);
	assert_int_equal(t, 1);
	assert_int_equal(calibrate_split(128, ENGINE_IO_URING, 2, &qd, &t),
			 128);
	assert_int_equal(qd, 64);
	assert_int_equal(t, 2);
	/* Never more threads than CPUs, nor than 8. */
	assert_int_equal(calibrate_split(4096, ENGINE_IO_URING, 2, &qd, &t),
			 4096);
	assert_int_equal(t, 2);
	calibrate_split(4096, ENGINE_IO_URING, 64, &qd, &t);
	assert_int_equal(t, 8);
	assert_int_equal(qd, 512);
	/* A load that does not divide runs as the nearest multiple below. */
	assert_int_equal(calibrate_split(1001, ENGINE_IO_URING, 16, &qd, &t),
			 1000);
	assert_int_equal(qd * t, 1000);
	/* sync: one request per thread; threads: the pool is the depth. */
	assert_int_equal(calibrate_split(16, ENGINE_SYNC, 2, &qd, &t), 16);
	assert_int_equal(qd, 1);
	assert_int_equal(t, 16);
	assert_int_equal(calibrate_split(16, ENGINE_THREADS, 2, &qd, &t), 16);
	assert_int_equal(qd, 16);
	assert_int_equal(t, 1);
}

/* A captured sysfs tree under a temporary root. */
static char root[64];

static void mk(const char *rel)
{
	char path[512], *p;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (p = path + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	mkdir(path, 0755);
}

static void put(const char *rel, const char *text)
{
	char path[512], dir[512], *slash;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", rel);
	slash = strrchr(dir, '/');
	*slash = '\0';
	mk(dir);
	snprintf(path, sizeof(path), "%s%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int tree_setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/iolab-cal-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	put("/sys/class/block/vda/queue/nr_requests", "256\n");
	mk("/sys/class/block/vda/mq/0");
	put("/sys/class/block/nvme0n1/queue/nr_requests", "1023\n");
	for (int i = 0; i < 4; i++) {
		char q[64];

		snprintf(q, sizeof(q), "/sys/class/block/nvme0n1/mq/%d", i);
		mk(q);
	}
	put("/sys/class/block/loop0/queue/nr_requests", "128\n");
	mk("/sys/class/block/loop0/mq/0");
	/* md0 over two partitions */
	mk("/sys/class/block/md0/slaves/sda1");
	mk("/sys/class/block/md0/slaves/sdb1");
	put("/sys/class/block/md0/queue/nr_requests", "128\n");
	/* dm-0 over md1 over three partitions, and over one more disk */
	mk("/sys/class/block/dm-0/slaves/md1");
	mk("/sys/class/block/dm-0/slaves/sdf");
	mk("/sys/class/block/md1/slaves/sdc1");
	mk("/sys/class/block/md1/slaves/sdd1");
	mk("/sys/class/block/md1/slaves/sde1");
	/* a disk that does not say */
	mk("/sys/class/block/odd0/queue");
	return 0;
}

static int tree_teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static void test_default_disks(void **state)
{
	struct fsview v = { .root = root };
	char why[192];

	(void)state;
	assert_int_equal(calibrate_default_disks(&v, "", why, sizeof(why)), 1);
	assert_non_null(strstr(why, "no block device"));
	/* 256 requests / 32 per disk */
	assert_int_equal(calibrate_default_disks(&v, "vda", why, sizeof(why)),
			 8);
	assert_non_null(strstr(why, "nr_requests 256 x 1 hardware queue"));
	assert_int_equal(calibrate_default_disks(&v, "loop0", why, sizeof(why)),
			 4);
	/* 1023 x 4 / 32 = 127, at most 32 by default */
	assert_int_equal(
		calibrate_default_disks(&v, "nvme0n1", why, sizeof(why)), 32);
	assert_non_null(strstr(why, "4 hardware queues"));
	assert_non_null(strstr(why, "at most 32"));
	/* md and dm: their leaf members, through nesting */
	assert_int_equal(calibrate_default_disks(&v, "md0", why, sizeof(why)),
			 2);
	assert_non_null(strstr(why, "sda1"));
	assert_non_null(strstr(why, "sdb1"));
	assert_int_equal(calibrate_default_disks(&v, "dm-0", why, sizeof(why)),
			 4);
	assert_non_null(strstr(why, "sde1"));
	assert_non_null(strstr(why, "sdf"));
	assert_null(strstr(why, "md1"));
	assert_int_equal(calibrate_default_disks(&v, "odd0", why, sizeof(why)),
			 1);
	assert_int_equal(
		calibrate_default_disks(&v, "missing", why, sizeof(why)), 1);
}

static struct cal_search curve(const double *iops, const double *mean_us,
			       const unsigned int *loads, unsigned int n,
			       int best)
{
	struct cal_search s;

	memset(&s, 0, sizeof(s));
	s.pts = calloc(n, sizeof(*s.pts));
	s.n = s.cap = n;
	s.best = best;
	for (unsigned int i = 0; i < n; i++) {
		s.pts[i].load = loads[i];
		s.pts[i].iops = iops[i];
		s.pts[i].mean_ns = mean_us[i] * 1e3;
		s.pts[i].nsamples = 1;
		s.pts[i].meets_cap = true;
	}
	return s;
}

static void test_knee(void **state)
{
	const unsigned int loads[] = { 1, 2, 4, 8, 16 };
	const double iops[] = { 10000, 18000, 30000, 40000, 41000 };
	const double mean[] = { 100, 111, 133, 200, 390 };
	struct cal_search s = curve(iops, mean, loads, 5, 4);
	struct cal_knee k;

	(void)state;
	calibrate_knee(&s, 0.8, &k);
	assert_true(k.valid);
	assert_true(fabs(k.iops - 32800) < 1e-6);
	/* between load 4 (30000) and 8 (40000): 4 + 0.28 x 4 */
	assert_true(fabs(k.load - 5.12) < 1e-9);
	assert_true(fabs(k.mean_ns - (133 + 0.28 * 67) * 1e3) < 1e-6);
	/* Little: 41000/s x 100 us = 4.1 in service at once; 41000/s x
	 * 390 us = 16 in flight (the load, as a closed loop must). */
	assert_true(fabs(k.parallelism - 4.1) < 1e-9);
	assert_true(fabs(k.in_flight - 15.99) < 1e-9);
	cal_search_free(&s);

	/* Already at 80 % at QD1: the knee is load 1. */
	{
		const double flat[] = { 900, 950, 1000, 1000, 1000 };

		s = curve(flat, mean, loads, 5, 2);
		calibrate_knee(&s, 0.8, &k);
		assert_true(k.valid);
		assert_true(fabs(k.load - 1) < 1e-9);
		cal_search_free(&s);
	}
	/* No max_iops: no knee. */
	s = curve(iops, mean, loads, 5, -1);
	calibrate_knee(&s, 0.8, &k);
	assert_false(k.valid);
	cal_search_free(&s);
}

static struct cal_facts facts(double qd1_us, double qd1_iops, double best_iops,
			      unsigned int best_load)
{
	return (struct cal_facts){
		.qd1_mean_ns = qd1_us * 1e3,
		.qd1_iops = qd1_iops,
		.best_iops = best_iops,
		.best_load = best_load,
		.nloads = 8,
		.knee_load = best_load / 4.0,
		.end = CAL_END_PLATEAU,
		.cap_met = true,
		.cap_ms = 10,
		.max_load = 256,
		.rotational = -1,
		.driver = "",
	};
}

static void test_classify(void **state)
{
	char b[640];
	struct cal_facts f;

	(void)state;
	/* The first story, before: 14 ms at QD1, no scaling. */
	f = facts(14000, 71, 141, 2);
	f.virtualized = true;
	f.cap_met = false;
	calibrate_classify(&f, b, sizeof(b));
	assert_non_null(strstr(b, "14.0 ms"));
	assert_non_null(strstr(b, "emulated controller or a saturated host"));
	assert_non_null(strstr(b, "iolab doctor"));
	assert_non_null(strstr(b, "no load meets --max-latency 10 ms"));
	/* Named emulated controller in a guest. */
	f.driver = "ata_piix";
	calibrate_classify(&f, b, sizeof(b));
	assert_non_null(strstr(b, "emulated controller (ata_piix)"));
	assert_non_null(strstr(b, "virtio"));
	assert_non_null(strstr(b, "; see `iolab doctor`."));
	/* A bare-metal spinning disk. */
	f = facts(8000, 125, 160, 2);
	f.rotational = 1;
	calibrate_classify(&f, b, sizeof(b));
	assert_non_null(strstr(b, "spinning disk"));
	assert_non_null(strstr(b, "one at a time"));
	assert_null(strstr(b, "doctor"));
	/* One load measured (interrupted): nothing said about scaling. */
	f.nloads = 1;
	calibrate_classify(&f, b, sizeof(b));
	assert_null(strstr(b, "one at a time"));
	assert_true(b[strlen(b) - 1] == '.');
	/* The first story, after: flash, scaling well. */
	f = facts(51, 19000, 82000, 64);
	f.virtualized = true;
	f.driver = "virtio_blk";
	calibrate_classify(&f, b, sizeof(b));
	assert_non_null(strstr(b, "local flash"));
	assert_non_null(strstr(b, "4.3x"));
	assert_non_null(strstr(b, "parallel requests well"));
	/* At the bound: still growing there, or flat (noise). */
	f.end = CAL_END_MAX_LOAD;
	f.best_load = 256;
	f.still_growing = true;
	calibrate_classify(&f, b, sizeof(b));
	assert_non_null(strstr(b, "larger --disks"));
	f.still_growing = false;
	calibrate_classify(&f, b, sizeof(b));
	assert_null(strstr(b, "larger --disks"));
	/* A cache, a RAM disk, buffered. */
	f = facts(8, 100000, 400000, 32);
	f.virtualized = true;
	calibrate_classify(&f, b, sizeof(b));
	assert_non_null(strstr(b, "faster than any disk"));
	assert_non_null(strstr(b, "host's page cache"));
	f.ram_backed = true;
	calibrate_classify(&f, b, sizeof(b));
	assert_non_null(strstr(b, "backed by RAM"));
	f.ram_backed = false;
	f.buffered = true;
	calibrate_classify(&f, b, sizeof(b));
	assert_non_null(strstr(b, "page cache"));
	/* Reads of a region no disk stored classify nothing. */
	f.buffered = false;
	f.unbacked = true;
	calibrate_classify(&f, b, sizeof(b));
	assert_non_null(strstr(b, "region no disk stored"));
	assert_null(strstr(b, "faster than any disk"));
	/* Little scaling. */
	f = facts(500, 2000, 5000, 8);
	calibrate_classify(&f, b, sizeof(b));
	assert_non_null(strstr(b, "SATA/SAS-flash"));
	assert_non_null(strstr(b, "only 2.5x"));
	/* The class is read from the median: a mean pulled up by a few slow
	 * reads (180 us median, 260 us mean) stays local flash. */
	f = facts(260, 3800, 20000, 32);
	f.qd1_p50_ns = 180e3;
	f.qd1_p50_lo_ns = 175e3;
	f.qd1_p50_hi_ns = 190e3;
	calibrate_classify(&f, b, sizeof(b));
	assert_non_null(strstr(b, "180.0 us (median)"));
	assert_non_null(strstr(b, "local flash"));
	assert_null(strstr(b, "uncertain"));
	/* Noisy, with windows on both sides of 200 us: hedged. */
	f.qd1_noisy = true;
	f.qd1_p50_hi_ns = 240e3;
	calibrate_classify(&f, b, sizeof(b));
	assert_non_null(strstr(b, "local flash"));
	assert_non_null(strstr(b, "175.0 us to 240.0 us"));
	assert_non_null(strstr(b, "class is uncertain"));
	/* Noisy but inside one class: no hedge. */
	f.qd1_p50_hi_ns = 195e3;
	calibrate_classify(&f, b, sizeof(b));
	assert_null(strstr(b, "uncertain"));
	/* Nothing measured; and a tiny buffer is not overrun. */
	f = facts(0, 0, 0, 0);
	calibrate_classify(&f, b, sizeof(b));
	assert_non_null(strstr(b, "not measured"));
	f = facts(51, 19000, 82000, 64);
	memset(b, 'x', sizeof(b));
	calibrate_classify(&f, b, 20);
	assert_int_equal(strlen(b), 19);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_default_disks),
		cmocka_unit_test(test_knee),
		cmocka_unit_test(test_classify),
	};

	return cmocka_run_group_tests(tests, tree_setup, tree_teardown);
}
