// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a run may take: the memory figure from a captured tree (meminfo,
 * cgroup v1 and v2 limits, a parent's limit binding a child), the buffer
 * size of a job (none for the null engine), the refusal, and CPU lists
 * parsed without wrapping.
 */
#include <limits.h>
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

#include "core/job.h"
#include "core/resources.h"
#include "util/err.h"
#include "util/fsread.h"
#include "util/parse.h"

#define GIB (1024ull * 1024 * 1024)
#define MIB (1024ull * 1024)

static char base[PATH_MAX];

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX * 2], *s;
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", base, rel);
	for (s = strchr(p + strlen(base) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "/tmp/iolab-unit-res-XXXXXX");
	assert_non_null(mkdtemp(base));
	put("/proc/meminfo", "MemTotal:  8000000 kB\n"
			     "MemFree:   100000 kB\n"
			     "MemAvailable:    4194304 kB\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd);
}

static void test_meminfo_only(void **state)
{
	struct fsview v = { .root = base };
	uint64_t avail = 0;
	char what[256];

	(void)state;
	assert_true(res_mem_available(&v, &avail, what, sizeof(what)));
	assert_int_equal(avail, 4 * GIB);
	assert_string_equal(what, "MemAvailable");
}

static void test_cgroup_v1_parent_binds(void **state)
{
	struct fsview v = { .root = base };
	uint64_t avail = 0;
	char what[256];

	(void)state;
	put("/proc/self/mountinfo",
	    "30 25 0:26 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory\n"
	    "31 25 0:27 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n");
	put("/proc/self/cgroup", "5:cpu:/\n4:memory:/jobs/one\n0::/\n");
	/* The root: no limit (PAGE_COUNTER_MAX). */
	put("/sys/fs/cgroup/memory/memory.limit_in_bytes",
	    "9223372036854771712\n");
	/* The parent holds 1 GiB, 256 MiB of it page cache: 1.25 GiB left. */
	put("/sys/fs/cgroup/memory/jobs/memory.limit_in_bytes", "2147483648\n");
	put("/sys/fs/cgroup/memory/jobs/memory.usage_in_bytes", "1073741824\n");
	put("/sys/fs/cgroup/memory/jobs/memory.stat",
	    "cache 1\ntotal_cache 268435456\n");
	/* The child's own limit is looser. */
	put("/sys/fs/cgroup/memory/jobs/one/memory.limit_in_bytes",
	    "3221225472\n");
	put("/sys/fs/cgroup/memory/jobs/one/memory.usage_in_bytes", "0\n");
	assert_true(res_mem_available(&v, &avail, what, sizeof(what)));
	assert_int_equal(avail, 1 * GIB + 256 * MIB);
	assert_non_null(strstr(what, "/sys/fs/cgroup/memory/jobs/"
				     "memory.limit_in_bytes"));
}

static void test_cgroup_v2(void **state)
{
	struct fsview v = { .root = base };
	uint64_t avail = 0;
	char what[256];

	(void)state;
	put("/proc/self/mountinfo",
	    "30 25 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n");
	put("/proc/self/cgroup", "0::/svc\n");
	put("/sys/fs/cgroup/svc/memory.max", "536870912\n");
	put("/sys/fs/cgroup/svc/memory.current", "134217728\n");
	put("/sys/fs/cgroup/svc/memory.stat", "anon 100\nfile 67108864\n");
	assert_true(res_mem_available(&v, &avail, what, sizeof(what)));
	/* 512 MiB - (128 MiB - 64 MiB of file cache) */
	assert_int_equal(avail, 448 * MIB);
	assert_non_null(strstr(what, "memory.max"));

	put("/sys/fs/cgroup/svc/memory.max", "max\n");
	assert_true(res_mem_available(&v, &avail, what, sizeof(what)));
	assert_int_equal(avail, 4 * GIB);
}

static void test_buffers_and_refusal(void **state)
{
	struct fsview v = { .root = base };
	struct job_spec j;
	struct err err = { 0 };
	char p[PATH_MAX + 32];

	(void)state;

	/* No cgroups in this tree: MemAvailable (4 GiB) alone. */
	snprintf(p, sizeof(p), "%s/proc/self/mountinfo", base);
	unlink(p);
	job_defaults(&j);
	j.engine = ENGINE_THREADS;
	j.qd = 4096 / 4;
	j.threads = 1;
	j.bs = 1000; /* rounded to 4 KiB per slot */
	assert_int_equal(job_buffer_bytes(&j), 1024ull * 4096);
	j.engine = ENGINE_NULL;
	j.qd = 4096;
	j.threads = 256;
	j.bs = 64 * MIB;
	assert_int_equal(job_buffer_bytes(&j), 0);

	/* 3/4 of 4 GiB passes, a byte more does not. */
	assert_true(res_check_buffers(&v, 3 * GIB, "x", "fix", &err));
	assert_false(res_check_buffers(&v, 3 * GIB + 4096, "QD 1", "use less",
				       &err));
	assert_int_equal(err.exit_code, EXIT_ENV);
	assert_non_null(strstr(err.msg, "QD 1"));
	assert_non_null(strstr(err.msg, "use less"));
	assert_non_null(strstr(err.msg, "4 GiB"));
}

static void test_cpu_lists(void **state)
{
	struct err err = { 0 };
	int cpus[PARSE_MAX_CPU];
	bool set[PARSE_MAX_CPU] = { false };
	char buf[64];

	(void)state;
	assert_int_equal(parse_cpu_list("0-3,6", cpus, PARSE_MAX_CPU, &err), 5);
	assert_int_equal(cpus[4], 6);
	assert_int_equal(parse_cpu_list("1023", cpus, PARSE_MAX_CPU, &err), 1);
	/* 2^32 + 1 wrapped to CPU 1 through an int. */
	assert_int_equal(
		parse_cpu_list("4294967297", cpus, PARSE_MAX_CPU, &err), -1);
	assert_int_equal(err.exit_code, EXIT_USAGE);
	assert_int_equal(parse_cpu_list("1024", cpus, PARSE_MAX_CPU, &err), -1);
	assert_int_equal(parse_cpu_list("99999999999999999999999", cpus,
					PARSE_MAX_CPU, &err),
			 -1);
	assert_int_equal(parse_cpu_list("3-1", cpus, PARSE_MAX_CPU, &err), -1);
	assert_int_equal(parse_cpu_list("0,", cpus, PARSE_MAX_CPU, &err), -1);
	assert_int_equal(parse_cpu_list("-1", cpus, PARSE_MAX_CPU, &err), -1);
	assert_int_equal(parse_cpu_list("", cpus, PARSE_MAX_CPU, &err), -1);
	assert_int_equal(parse_cpu_list("0-1023", cpus, 8, &err), -1);

	set[0] = set[1] = set[2] = set[5] = set[1023] = true;
	assert_string_equal(fmt_cpu_list(set, buf, sizeof(buf)), "0-2,5,1023");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meminfo_only),
		cmocka_unit_test(test_cgroup_v1_parent_binds),
		cmocka_unit_test(test_cgroup_v2),
		cmocka_unit_test(test_buffers_and_refusal),
		cmocka_unit_test(test_cpu_lists),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
