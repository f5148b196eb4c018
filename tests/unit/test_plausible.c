// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Plausibility by Little's law: a closed-loop run whose latencies summed
 * over its time say more requests were in flight than iolab had is
 * flagged; one that keeps the law, a paced run, and a short one are not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/plausible.h"
#include "core/result.h"
#include "core/blkinfo.h"
#include "core/target.h"
#include "util/warn.h"

/* @n reads of @lat_ns each over @elapsed_s at QD @qd. */
static bool flagged(unsigned int qd, uint64_t n, uint64_t lat_ns,
		    double elapsed_s, uint64_t rate)
{
	struct run_result r;
	struct target t;
	bool has;

	memset(&r, 0, sizeof(r));
	memset(&t, 0, sizeof(t));
	t.fd = t.dir_fd = t.loop_fd = -1;
	t.sparse = true; /* no file behind it to sample */
	t.path = "fake";
	job_defaults(&r.spec);
	r.spec.qd = qd;
	r.spec.rate_iops = rate;
	hist_init(&r.dir[DIR_READ].lat);
	hist_init(&r.dir[DIR_WRITE].lat);
	for (uint64_t i = 0; i < n; i++)
		hist_record(&r.dir[DIR_READ].lat, lat_ns);
	r.dir[DIR_READ].ios = n;
	r.dir[DIR_READ].bytes = n * 4096;
	r.elapsed_s = elapsed_s;
	plausible_check(&r, &t);
	has = warn_has(&r.warnings, "littles-law");
	warnings_free(&r.warnings);
	return has;
}

static void test_littles_law(void **state)
{
	(void)state;
	/* QD4 for 10 s, 10000 reads of 4 ms: 4 in flight, the law kept. */
	assert_false(flagged(4, 10000, 4000000, 10, 0));
	/* The same latencies at twice the IOPS: 8 in flight of 4. */
	assert_true(flagged(4, 20000, 4000000, 10, 0));
	/* 5 % over, within what the window's edges allow. */
	assert_false(flagged(4, 10400, 4000000, 10, 0));
	/* Paced: latency counts from the intended start, backlog included. */
	assert_false(flagged(4, 20000, 4000000, 10, 1000));
	/* Too short, or too few I/Os, to judge. */
	assert_false(flagged(4, 20000, 4000000, 0.4, 0));
	assert_false(flagged(4, 500, 160000000, 10, 0));
}

/* Which physics rule a run of @ios I/Os of @bs over 1 s trips on @e. */
static const char *physics(const struct target_env *e, enum rw_mode rw,
			   uint64_t ios, uint64_t bs, bool virtualized)
{
	static char id[64];
	struct run_result r;

	memset(&r, 0, sizeof(r));
	job_defaults(&r.spec);
	r.spec.rw = rw;
	r.spec.bs = bs;
	r.dir[DIR_READ].ios = ios;
	r.dir[DIR_READ].bytes = ios * bs;
	r.elapsed_s = 1;
	plausible_physics(&r, e, virtualized, &r.warnings);
	snprintf(id, sizeof(id), "%s", r.warnings.n ? r.warnings.v[0].id : "");
	warnings_free(&r.warnings);
	return id;
}

static void test_bus_and_class(void **state)
{
	struct target_env hdd = { .driver = "ahci", .rotational = 1 };
	struct target_env nvme = { .driver = "nvme", .device = "nvme0n1" };

	(void)state;
	/* A SATA link carries 600 MB/s at most. */
	assert_string_equal(physics(&hdd, RW_READ, 1000, 1 << 20, false),
			    "above-bus");
	assert_string_equal(physics(&hdd, RW_READ, 500, 1 << 20, false), "");
	/* A rotating SATA disk seeks a few hundred times a second. */
	assert_string_equal(physics(&hdd, RW_RANDREAD, 50000, 4096, false),
			    "above-device-class");
	assert_string_equal(physics(&hdd, RW_RANDREAD, 300, 4096, false), "");
	assert_string_equal(physics(&hdd, RW_READ, 50000, 4096, false), "");
	/* A PCIe 3.0 x4 link: 3938 MB/s. */
	nvme.link_mbps = blkinfo_pcie_mbps("8.0 GT/s PCIe", 4);
	snprintf(nvme.link, sizeof(nvme.link), "8.0 GT/s PCIe x4");
	assert_string_equal(physics(&nvme, RW_READ, 5000, 1 << 20, false),
			    "above-bus");
	assert_string_equal(physics(&nvme, RW_READ, 3000, 1 << 20, false), "");
	/* In a guest the bus is emulated: no rule applies. */
	assert_string_equal(physics(&hdd, RW_RANDREAD, 50000, 4096, true), "");
	assert_string_equal(physics(&nvme, RW_READ, 5000, 1 << 20, true), "");
}

static void test_pcie_mbps(void **state)
{
	(void)state;
	assert_float_equal(blkinfo_pcie_mbps("2.5 GT/s PCIe", 1), 250, 1e-6);
	assert_float_equal(blkinfo_pcie_mbps("5.0 GT/s PCIe", 4), 2000, 1e-6);
	assert_float_equal(blkinfo_pcie_mbps("8.0 GT/s PCIe", 4),
			   8000.0 / 8 * 128 / 130 * 4, 1e-6);
	assert_float_equal(blkinfo_pcie_mbps("16.0 GT/s PCIe", 4),
			   16000.0 / 8 * 128 / 130 * 4, 1e-6);
	/* What sysfs says of a link it does not know, or nonsense. */
	assert_float_equal(blkinfo_pcie_mbps("Unknown", 4), 0, 0);
	assert_float_equal(blkinfo_pcie_mbps("8.0 GT/s PCIe", 0), 0, 0);
	assert_float_equal(blkinfo_pcie_mbps("1e9 GT/s", 4), 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_littles_law),
		cmocka_unit_test(test_bus_and_class),
		cmocka_unit_test(test_pcie_mbps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
