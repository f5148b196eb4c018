// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lab's disk image: qemu-img writes the file iolab created, even when
 * its name is swapped for a link to another file in between, and the
 * removal takes only the file iolab created.
 */
#include <errno.h>
#include <fcntl.h>
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

#include "cmd/lab/image.h"
#include "util/err.h"

static char base[PATH_MAX], fake[PATH_MAX + 16], img[PATH_MAX + 16];
static char moved[PATH_MAX + 16], victim[PATH_MAX + 16];

static void put(const char *path, const char *text, int mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static int setup(void **state)
{
	char script[4 * PATH_MAX];

	(void)state;
	snprintf(base, sizeof(base), "/tmp/iolab-image-XXXXXX");
	assert_non_null(mkdtemp(base));
	snprintf(img, sizeof(img), "%s/disk.raw", base);
	snprintf(moved, sizeof(moved), "%s/disk.moved", base);
	snprintf(victim, sizeof(victim), "%s/victim", base);
	snprintf(fake, sizeof(fake), "%s/fake-qemu-img", base);
	/*
	 * A qemu-img that, before it writes, sees the name swapped for a link
	 * to a victim (as another user writing to the directory could).
	 * Its argument 7 is the path it was told to create.
	 */
	snprintf(script, sizeof(script),
		 "#!/bin/sh\n"
		 "mv '%s' '%s' && ln -s '%s' '%s'\n"
		 "printf 'IMAGE' > \"$7\"\n",
		 img, moved, victim, img);
	put(fake, script, 0755);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) ? -1 : 0;
}

static void test_swap_before_qemu_img(void **state)
{
	struct lab_image im;
	struct err err = { 0 };
	struct stat st;
	char buf[64];

	(void)state;
	put(victim, "precious\n", 0644);
	assert_true(image_create(&im, fake, img, FMT_RAW, 1 << 20, &err));
	slurp(victim, buf, sizeof(buf));
	assert_string_equal(buf, "precious\n");
	/* What qemu-img wrote went to the file iolab created. */
	slurp(moved, buf, sizeof(buf));
	assert_string_equal(buf, "IMAGE");
	/* The link now at the name is not iolab's: left alone. */
	image_remove(&im);
	assert_int_equal(lstat(img, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	slurp(victim, buf, sizeof(buf));
	assert_string_equal(buf, "precious\n");
	unlink(img);
	unlink(moved);
}

static void test_existing_name_refused(void **state)
{
	struct lab_image im;
	struct err err = { 0 };
	char buf[64];

	(void)state;
	put(victim, "precious\n", 0644);
	/* A link at the name, even to a missing file: never created through. */
	assert_int_equal(symlink(victim, img), 0);
	assert_false(image_create(&im, fake, img, FMT_RAW, 1 << 20, &err));
	assert_int_equal(err.exit_code, EXIT_USAGE);
	slurp(victim, buf, sizeof(buf));
	assert_string_equal(buf, "precious\n");
	unlink(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_swap_before_qemu_img),
		cmocka_unit_test(test_existing_name_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
