// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Views over a tree: symlinks resolve inside it, never outside; a capture
 * reproduces files, links, listings and failures; nothing is written
 * outside the capture directory.
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

#include "util/fsread.h"

static char base[PATH_MAX];

static void path_of(char *out, const char *rel)
{
	snprintf(out, PATH_MAX, "%s/%s", base, rel);
}

static void mkdirs(const char *rel)
{
	char p[PATH_MAX], *s;

	path_of(p, rel);
	for (s = p + strlen(base) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX];
	FILE *f;

	path_of(p, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void link_to(const char *rel, const char *target)
{
	char p[PATH_MAX];

	path_of(p, rel);
	assert_int_equal(symlink(target, p), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "/tmp/iolab-fsread-XXXXXX");
	assert_non_null(mkdtemp(base));
	/* A tree as a capture of a Debian guest looks. */
	mkdirs("tree/etc");
	mkdirs("tree/usr/lib");
	mkdirs("tree/sys/devices/pci0/virtio1/block/vda/queue");
	mkdirs("tree/sys/block");
	put("tree/usr/lib/os-release", "ID=debian\n");
	link_to("tree/etc/os-release", "/usr/lib/os-release");
	link_to("tree/sys/block/vda", "../devices/pci0/virtio1/block/vda");
	put("tree/sys/devices/pci0/virtio1/block/vda/queue/scheduler",
	    "none [mq-deadline]\n");
	put("tree/sys/devices/pci0/virtio1/block/vda/size", "2048\n");
	put("tree/sys/devices/pci0/virtio1/block/vda/vda1", "x");
	/* Escapes: absolute and "../" links must stay in the tree. */
	link_to("tree/escape-abs", "/etc/hostname");
	link_to("tree/escape-rel", "../../../../../../../etc/hostname");
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) ? -1 : 0;
}

static void test_links_stay_in_tree(void **state)
{
	char root[PATH_MAX], buf[256];
	struct fsview v;

	(void)state;
	path_of(root, "tree");
	v = (struct fsview){ .root = root };
	assert_int_equal(fsv_read(&v, "/etc/os-release", buf, sizeof(buf)), 9);
	assert_string_equal(buf, "ID=debian");
	assert_int_equal(fsv_read(&v, "/sys/block/vda/queue/scheduler", buf,
				  sizeof(buf)),
			 18);
	/* The host's /etc/hostname exists; the tree's does not. */
	assert_int_equal(fsv_read(&v, "/escape-abs", buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(fsv_read(&v, "/escape-rel", buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(
		fsv_realpath(&v, "/sys/block/vda/queue", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/sys/devices/pci0/virtio1/block/vda/queue");
}

static void test_list_sorted_with_prefix(void **state)
{
	char root[PATH_MAX], **names;
	struct fsview v;
	int n;

	(void)state;
	path_of(root, "tree");
	v = (struct fsview){ .root = root };
	n = fsv_list(&v, "/sys/block/vda", "", &names);
	assert_int_equal(n, 3);
	assert_string_equal(names[0], "queue");
	assert_string_equal(names[1], "size");
	assert_string_equal(names[2], "vda1");
	fsv_list_free(names);
	n = fsv_list(&v, "/sys/block/vda", "vda", &names);
	assert_int_equal(n, 1);
	assert_string_equal(names[0], "vda1");
	fsv_list_free(names);
	assert_int_equal(fsv_list(&v, "/nope", "", &names), -ENOENT);
	assert_null(names);
}

static void test_capture_replays(void **state)
{
	char root[PATH_MAX], capdir[PATH_MAX], buf[256], p[PATH_MAX], **names;
	struct fsv_capture cap = { 0 };
	struct fsview live, replay;
	struct stat st;
	int n;

	(void)state;
	path_of(root, "tree");
	path_of(capdir, "cap");
	mkdir(capdir, 0755);
	assert_int_equal(fsv_capture_open(&cap, capdir), 0);
	live = (struct fsview){ .root = root, .cap = &cap };
	assert_true(fsv_read(&live, "/etc/os-release", buf, sizeof(buf)) > 0);
	assert_true(fsv_read(&live, "/sys/block/vda/size", buf, sizeof(buf)) >
		    0);
	n = fsv_list(&live, "/sys/block/vda", "", &names);
	fsv_list_free(names);
	assert_true(fsv_exists(&live, "/usr/lib"));
	fsv_save(&live, FSV_FACTS "/cpuid", "vendor KVMKVMKVM\n", 17);
	assert_int_equal(cap.err, 0);

	/* Links are captured as links, with the same text. */
	path_of(p, "cap/etc/os-release");
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	path_of(p, "cap/sys/block/vda");
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISLNK(st.st_mode));

	replay = (struct fsview){ .root = capdir };
	assert_int_equal(fsv_read(&replay, "/etc/os-release", buf, sizeof(buf)),
			 9);
	assert_string_equal(buf, "ID=debian");
	assert_int_equal(
		fsv_read(&replay, "/sys/block/vda/size", buf, sizeof(buf)), 4);
	assert_int_equal(fsv_list(&replay, "/sys/block/vda", "", &names), n);
	assert_string_equal(names[2], "vda1");
	fsv_list_free(names);
	/* Never read, so not captured: absent in the replay. */
	assert_int_equal(fsv_read(&replay, "/sys/block/vda/queue/scheduler",
				  buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(
		fsv_read(&replay, FSV_FACTS "/cpuid", buf, sizeof(buf)), 16);
	fsv_capture_close(&cap);
}

static void test_failures_replayed(void **state)
{
	char root[PATH_MAX], capdir[PATH_MAX], buf[64];
	struct fsv_capture cap = { 0 };
	struct fsview live, replay;

	(void)state;
	path_of(root, "tree");
	path_of(capdir, "cap2");
	mkdir(capdir, 0755);
	assert_int_equal(fsv_capture_open(&cap, capdir), 0);
	live = (struct fsview){ .root = root, .cap = &cap };
	/* A directory where a file is expected: EISDIR, and so it stays. */
	assert_int_equal(fsv_read(&live, "/usr/lib", buf, sizeof(buf)),
			 -EISDIR);
	replay = (struct fsview){ .root = capdir };
	assert_int_equal(fsv_read(&replay, "/usr/lib", buf, sizeof(buf)),
			 -EISDIR);
	/* A failure recorded by a capture comes back as that errno. */
	mkdirs("cap2/.iolab");
	put("cap2/.iolab/unreadable", "13 /sys/kernel/secret\n");
	assert_int_equal(fsv_read(&replay, "/sys/kernel/secret", buf,
				  sizeof(buf)),
			 -EACCES);
	fsv_capture_close(&cap);
}

static void test_fifo_not_opened(void **state)
{
	char root[PATH_MAX], p[PATH_MAX], buf[64];
	struct fsview v;

	(void)state;
	path_of(root, "tree");
	path_of(p, "tree/fifo");
	assert_int_equal(mkfifo(p, 0644), 0);
	v = (struct fsview){ .root = root };
	/* Would block forever if opened for reading without a writer. */
	assert_int_equal(fsv_read(&v, "/fifo", buf, sizeof(buf)), -EINVAL);
}

static void test_capture_stays_inside(void **state)
{
	char root[PATH_MAX], capdir[PATH_MAX], outside[PATH_MAX], buf[64];
	char p[PATH_MAX];
	struct fsv_capture cap = { 0 };
	struct fsview live;
	struct stat st;

	(void)state;
	path_of(root, "tree");
	path_of(capdir, "cap3");
	path_of(outside, "outside");
	mkdir(capdir, 0755);
	mkdir(outside, 0755);
	assert_int_equal(fsv_capture_open(&cap, capdir), 0);
	/* A link in the capture must not lead writes out of it. */
	link_to("cap3/usr", outside);
	live = (struct fsview){ .root = root, .cap = &cap };
	assert_true(fsv_read(&live, "/usr/lib/os-release", buf, sizeof(buf)) >
		    0);
	assert_int_not_equal(cap.err, 0);
	path_of(p, "outside/lib");
	assert_int_not_equal(stat(p, &st), 0);
	/* Nor a "..": nothing is written beside the capture. */
	cap.err = 0;
	fsv_save(&live, "/../escaped", "x", 1);
	fsv_save(&live, "/sys/../../escaped2", "x", 1);
	assert_int_equal(cap.err, EINVAL);
	path_of(p, "escaped");
	assert_int_not_equal(lstat(p, &st), 0);
	path_of(p, "escaped2");
	assert_int_not_equal(lstat(p, &st), 0);
	fsv_capture_close(&cap);
}

/* The capture directory is checked once and written through its fd. */
static void test_capture_dir_held(void **state)
{
	char root[PATH_MAX], capdir[PATH_MAX], moved[PATH_MAX];
	char outside[PATH_MAX], p[PATH_MAX], buf[64];
	struct fsv_capture cap = { 0 };
	struct fsview live;
	struct stat st;

	(void)state;
	path_of(root, "tree");
	path_of(capdir, "cap4");
	path_of(moved, "cap4-moved");
	path_of(outside, "outside4");
	mkdir(capdir, 0755);
	mkdir(outside, 0755);
	assert_int_equal(fsv_capture_open(&cap, capdir), 0);
	/* Swapped for a link after the check: writes still go to the dir. */
	assert_int_equal(rename(capdir, moved), 0);
	assert_int_equal(symlink(outside, capdir), 0);
	live = (struct fsview){ .root = root, .cap = &cap };
	assert_true(fsv_read(&live, "/usr/lib/os-release", buf, sizeof(buf)) >
		    0);
	assert_int_equal(cap.err, 0);
	path_of(p, "outside4/usr");
	assert_int_not_equal(lstat(p, &st), 0);
	path_of(p, "cap4-moved/usr/lib/os-release");
	assert_int_equal(lstat(p, &st), 0);
	fsv_capture_close(&cap);

	/* A link, a non-empty directory, one others may write to: refused. */
	assert_int_equal(fsv_capture_open(&cap, capdir), -ELOOP);
	assert_int_equal(fsv_capture_open(&cap, moved), -ENOTEMPTY);
	path_of(p, "cap5");
	mkdir(p, 0755);
	chmod(p, 0777);
	assert_int_equal(fsv_capture_open(&cap, p), -EPERM);
	assert_false(cap.open);
	/* Never opened: nothing is written (a zeroed dirfd is stdin). */
	memset(&cap, 0, sizeof(cap));
	fsv_save(&live, FSV_FACTS "/x", "x", 1);
	assert_int_equal(cap.err, EBADF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_links_stay_in_tree),
		cmocka_unit_test(test_list_sorted_with_prefix),
		cmocka_unit_test(test_capture_replays),
		cmocka_unit_test(test_failures_replayed),
		cmocka_unit_test(test_fifo_not_opened),
		cmocka_unit_test(test_capture_stays_inside),
		cmocka_unit_test(test_capture_dir_held),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
