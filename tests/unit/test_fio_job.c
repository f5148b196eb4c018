// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd/run/run_fio_job.c: fio job files read and translated to run options. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/run/run_fio_job.h"
#include "util/err.h"

/* The job's options joined by spaces. */
static const char *args_of(const struct fio_job *j, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < j->nargs; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "",
				      j->args[i]);
	return buf;
}

static void parse_ok(const char *text, struct fio_jobfile *f)
{
	struct err err = { 0 };

	if (!fio_job_parse(text, strlen(text), "t.fio", f, &err))
		fail_msg("refused: %s", err.msg);
}

static void refused_n(const char *text, size_t len, const char *needle)
{
	struct fio_jobfile f;
	struct err err = { 0 };

	if (fio_job_parse(text, len, "t.fio", &f, &err))
		fail_msg("accepted: %s", text);
	assert_int_equal(err.exit_code, EXIT_USAGE);
	if (!strstr(err.msg, needle))
		fail_msg("'%s' not in '%s'", needle, err.msg);
	assert_null(strchr(err.msg, '\n'));
}

static void refused(const char *text, const char *needle)
{
	refused_n(text, strlen(text), needle);
}

static void test_fio_defaults(void **state)
{
	struct fio_jobfile f;
	char buf[1024];

	(void)state;
	/* fio's defaults, not iolab's: rw=read, psync, the page cache. */
	parse_ok("[j]\nsize=1m\n", &f);
	assert_int_equal(f.njobs, 1);
	assert_string_equal(args_of(&f.jobs[0], buf, sizeof(buf)),
			    "--rw=read --bs=4096 --qd=1 --threads=1 "
			    "--engine=sync --cache=writeback --size=1048576 "
			    "--ios=256");
	assert_null(f.jobs[0].target);
	fio_jobfile_free(&f);
}

static void test_translation(void **state)
{
	struct fio_jobfile f;
	char buf[1024];

	(void)state;
	parse_ok("; comment\n# comment\n[global]\r\n"
		 "ioengine = libaio\ndirect=1\niodepth=32\n"
		 "bs=64KB\nfilename=/dev/vdb\ntime_based\nruntime=1m\n"
		 "ramp_time=500ms\nnumjobs=2\nrate_iops=100\n"
		 "[a]\nrw=randrw\nrwmixwrite=30\nfdatasync=8\n"
		 "percentile_list=50:99\n",
		 &f);
	assert_string_equal(args_of(&f.jobs[0], buf, sizeof(buf)),
			    "--rw=randrw --bs=65536 --qd=32 --threads=2 "
			    "--engine=native --cache=none --runtime=60s "
			    "--ramp=500ms --rate-iops=200 --mix=70 "
			    "--flush-every=8 --percentiles=50,99");
	assert_string_equal(f.jobs[0].target, "/dev/vdb");
	assert_false(f.jobs[0].random_map_note);
	fio_jobfile_free(&f);

	/* A synchronous engine runs at depth 1 whatever iodepth says; loops
	 * repeat the size; buffered=0 is direct; directory + filename. */
	parse_ok("[j]\nioengine=psync\niodepth=8\nbuffered=0\nsize=1m\n"
		 "bs=1m\nloops=3\nrw=randwrite\ndirectory=/d\nfilename=f\n",
		 &f);
	assert_string_equal(
		args_of(&f.jobs[0], buf, sizeof(buf)),
		"--rw=randwrite --bs=1048576 --qd=1 --threads=1 "
		"--engine=sync --cache=none --size=1048576 --ios=3");
	assert_string_equal(f.jobs[0].target, "/d/f");
	assert_true(f.jobs[0].random_map_note);
	fio_jobfile_free(&f);
}

static void test_sections(void **state)
{
	struct fio_jobfile f;
	char buf[1024];

	(void)state;
	/* A [global] applies to the jobs after it only; a job's own option
	 * wins over the global one; the job options are kept as written. */
	parse_ok("[global]\nsize=4k\n[a]\nbs=512\n"
		 "[global]\nstonewall\nsize=8k\n[b]\nsize=16k\n",
		 &f);
	assert_int_equal(f.njobs, 2);
	assert_string_equal(f.jobs[0].name, "a");
	assert_non_null(
		strstr(args_of(&f.jobs[0], buf, sizeof(buf)), "--bs=512 "));
	assert_non_null(strstr(buf, "--size=4096 --ios=8"));
	assert_non_null(strstr(args_of(&f.jobs[1], buf, sizeof(buf)),
			       "--size=16384 --ios=4"));
	assert_int_equal(f.jobs[1].nkv, 1);
	assert_string_equal(f.jobs[1].kv[0].key, "size");
	assert_int_equal(f.nglobal, 3);
	fio_jobfile_free(&f);
}

static void test_refused(void **state)
{
	(void)state;
	refused("[j]\nsize=1m\nverify=md5\n", "verify is not supported");
	refused("[j]\nsize=4KiB\n", "size=4KiB is ambiguous");
	refused("[j]\nsize=50%\n", "share of the device");
	refused("[j]\nsize=1m\nrw=randread:4\n", "offset modifier");
	refused("[j]\nsize=1m\nioengine=mmap\n", "ioengine=mmap");
	refused("[j]\nsize=1m\nkb_base=1000\n", "kb_base=1000");
	refused("[j]\nsize=1m\nfsync=1\n", "fdatasync=N");
	refused("[j]\nsize=1m\nrate_iops=10,20\n", "one rate");
	refused("[a]\nsize=1m\n[b]\nsize=1m\n", "job 'b'");
	refused("[j]\nrw=read\n", "give size=");
	refused("[j]\nsize=1k\nbs=4k\n", "smaller than bs=");
	refused("size=1m\n[j]\n", "before any [section]");
	refused("[j k]\nsize=1m\n", "a job name is");
	refused("[j]\nsize\x1b=1m\n", "control character");
	refused_n("[j]\nsize=1m\n\0", 13, "control character");
	refused("", "no job section");
	refused("[global]\nsize=1m\n", "no job section");
	refused("[j]\nsize=1m\nbs=$x\n", "${VAR}");
	refused("[j]\nsize=1m\niodepth=0\n", "iodepth=0");
}

static void test_bounds(void **state)
{
	/* Static: GCC's -Warray-bounds under ASan takes a malloc that may
	 * fail for an object of size 0. */
	static char big[FIO_JOB_MAX_BYTES + 16];
	size_t n = 0;

	(void)state;
	memset(big, ';', FIO_JOB_MAX_BYTES + 1);
	big[FIO_JOB_MAX_BYTES + 1] = 0;
	refused(big, "larger than 64 KiB");
	memcpy(big, "[j]\nsize=1m\nfilename=", 21);
	memset(big + 21, 'x', FIO_JOB_MAX_LINE);
	big[21 + FIO_JOB_MAX_LINE] = 0;
	refused(big, "longer than 1024");
	for (int i = 0; i <= FIO_JOB_MAX_JOBS; i++)
		n += (size_t)sprintf(big + n, "[j%d]\nsize=1m\nstonewall\n", i);
	refused(big, "more than 64 jobs");
	n = (size_t)sprintf(big, "[j]\n");
	for (int i = 0; i <= FIO_JOB_MAX_KV; i++)
		n += (size_t)sprintf(big + n, "size=1m\n");
	refused(big, "more than 64 options");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fio_defaults),
		cmocka_unit_test(test_translation),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
