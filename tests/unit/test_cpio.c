// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cpio newc writer and the guest initramfs: headers, padding and
 * data checked by our own reader; the archive listed and unpacked by GNU
 * cpio (when installed) to show another implementation reads it; and the
 * initramfs's layout, guest.conf and module handling (a gzip-compressed
 * module is stored decompressed).
 */
#include <fcntl.h>
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

#include "cmd/lab/cpio.h"
#include "cmd/lab/initramfs.h"
#include "cmd/lab/kmod.h"
#include "util/err.h"

struct entry {
	char name[256];
	unsigned int mode, nlink, rmaj, rmin;
	size_t size;
	const unsigned char *data;
};

static unsigned int hex8(const unsigned char *p)
{
	char b[9];

	memcpy(b, p, 8);
	b[8] = '\0';
	return (unsigned int)strtoul(b, NULL, 16);
}

/*
 * Parse a newc archive into @e (at most @max); checks the magic, the
 * 4-byte alignment of names and data and the trailer. Returns the count
 * of entries before the trailer, or -1.
 */
static int parse_newc(const unsigned char *a, size_t len, struct entry *e,
		      int max)
{
	size_t off = 0;
	int n = 0;

	while (off + 110 <= len) {
		const unsigned char *h = a + off;
		size_t namesize, size;
		struct entry x;

		if (memcmp(h, "070701", 6))
			return -1;
		memset(&x, 0, sizeof(x));
		x.mode = hex8(h + 14);
		x.nlink = hex8(h + 38);
		size = hex8(h + 54);
		x.rmaj = hex8(h + 78);
		x.rmin = hex8(h + 86);
		namesize = hex8(h + 94);
		if (hex8(h + 102) != 0 || namesize < 1 || namesize > 255)
			return -1;
		memcpy(x.name, h + 110, namesize);
		if (x.name[namesize - 1] != '\0')
			return -1;
		off += (110 + namesize + 3) & ~(size_t)3;
		if (off + size > len)
			return -1;
		x.size = size;
		x.data = a + off;
		off += (size + 3) & ~(size_t)3;
		if (!strcmp(x.name, "TRAILER!!!"))
			return (len % 512 == 0) ? n : -1;
		if (n < max)
			e[n] = x;
		n++;
	}
	return -1;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void write_file(const char *path, const char *data)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(data, f);
	fclose(f);
}

static void test_cpio_format(void **state)
{
	char dir[] = "/tmp/iolab-test-cpio-XXXXXX", path[512], src[512];
	struct entry e[8];
	struct err err = { 0 };
	struct cpio c;
	unsigned char *a;
	size_t len;
	int fd, n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a.cpio", dir);
	snprintf(src, sizeof(src), "%s/src.bin", dir);
	write_file(src, "0123456789"); /* 10 bytes: padding needed */
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	assert_true(fd >= 0);
	cpio_init(&c, fd);
	assert_true(cpio_add_dir(&c, "/dev", 0755, &err));
	assert_true(cpio_add_chardev(&c, "/dev/console", 0600, 5, 1, &err));
	assert_true(cpio_add_dir(&c, "/lab", 0755, &err));
	assert_true(cpio_add_file(&c, "/lab/x", 0644, "abc", 3, &err));
	assert_true(cpio_add_file_from(&c, "/init", 0755, src, &err));
	assert_false(
		cpio_add_file_from(&c, "/nope", 0755, "/nonexistent/x", &err));
	assert_non_null(strstr(err.msg, "/nonexistent/x"));
	assert_true(cpio_finish(&c, &err));
	cpio_free(&c);
	close(fd);

	a = slurp(path, &len);
	n = parse_newc(a, len, e, 8);
	assert_int_equal(n, 5);
	assert_string_equal(e[0].name, "dev"); /* names are relative */
	assert_int_equal(e[0].mode, S_IFDIR | 0755);
	assert_string_equal(e[1].name, "dev/console");
	assert_int_equal(e[1].mode, S_IFCHR | 0600);
	assert_int_equal(e[1].rmaj, 5);
	assert_int_equal(e[1].rmin, 1);
	assert_string_equal(e[3].name, "lab/x");
	assert_int_equal(e[3].size, 3);
	assert_memory_equal(e[3].data, "abc", 3);
	assert_string_equal(e[4].name, "init");
	assert_int_equal(e[4].mode, S_IFREG | 0755);
	assert_int_equal(e[4].size, 10);
	assert_memory_equal(e[4].data, "0123456789", 10);
	free(a);

	/* Another implementation reads it too: GNU cpio lists and unpacks. */
	if (!access("/usr/bin/cpio", X_OK) || !access("/bin/cpio", X_OK)) {
		char cmd[1200], line[256], got[1024] = "";
		FILE *p;

		snprintf(cmd, sizeof(cmd), "cpio -it --quiet < %s", path);
		p = popen(cmd, "r");
		assert_non_null(p);
		while (fgets(line, sizeof(line), p))
			strncat(got, line, sizeof(got) - strlen(got) - 1);
		assert_int_equal(pclose(p), 0);
		assert_string_equal(got,
				    "dev\ndev/console\nlab\nlab/x\ninit\n");
		snprintf(
			cmd, sizeof(cmd),
			"cd %s && mkdir out && cd out && cpio -id --quiet init 'lab*' < %s && cmp init %s && test \"$(cat lab/x)\" = abc && test -x init",
			dir, path, src);
		assert_int_equal(system(cmd), 0);
	}
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

static void test_initramfs(void **state)
{
	char dir[] = "/tmp/iolab-test-initrd-XXXXXX", p[600], cmd[1400];
	const char *const blk[] = { "virtio_blk" };
	const char *const nvme[] = { "nvme" };
	struct kmod_list l_blk = { 0 }, l_nvme = { 0 };
	struct initramfs_spec s = { 0 };
	struct kmod_index ix;
	struct err err = { 0 };
	struct entry e[32];
	unsigned char *a;
	const char *conf = NULL;
	size_t len;
	bool seen_nvme = false, seen_core = false;
	int fd, n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(
		cmd, sizeof(cmd),
		"cd %s && mkdir -p mods/kernel/v mods/kernel/n && "
		"echo virtio > mods/kernel/v/virtio.ko && "
		"echo blk > mods/kernel/v/virtio_blk.ko && "
		"echo nvme-core > mods/kernel/n/nvme-core.ko && gzip mods/kernel/n/nvme-core.ko && "
		"echo nvme > mods/kernel/n/nvme.ko && "
		"printf 'kernel/v/virtio.ko:\\nkernel/v/virtio_blk.ko: kernel/v/virtio.ko\\n"
		"kernel/n/nvme-core.ko.gz:\\nkernel/n/nvme.ko: kernel/n/nvme-core.ko.gz\\n' > mods/modules.dep && "
		"echo INIT > init",
		dir);
	assert_int_equal(system(cmd), 0);
	snprintf(p, sizeof(p), "%s/mods", dir);
	assert_true(kmod_index_load(&ix, p, &err));
	assert_true(kmod_resolve(&ix, blk, 1, &l_blk, &err));
	assert_true(kmod_resolve(&ix, nvme, 1, &l_nvme, &err));
	snprintf(p, sizeof(p), "%s/init", dir);
	s.init_path = p;
	s.ix = &ix;
	s.mods[BUS_VIRTIO_BLK] = &l_blk;
	s.mods[BUS_NVME] = &l_nvme;
	s.conf = "disk_bytes=1048576\n";
	snprintf(cmd, sizeof(cmd), "%s/i.cpio", dir);
	fd = open(cmd, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_true(initramfs_write(fd, &s, &err));
	close(fd);
	a = slurp(cmd, &len);
	n = parse_newc(a, len, e, 32);
	assert_true(n > 8);
	for (int i = 0; i < n; i++) {
		char *nm = e[i].name;

		/* Parents come before what they hold. */
		for (char *sl = strchr(nm, '/'); sl; sl = strchr(sl + 1, '/')) {
			bool parent = false;

			*sl = '\0';
			for (int k = 0; k < i; k++)
				parent |= !strcmp(e[k].name, nm) &&
					  S_ISDIR(e[k].mode);
			assert_true(parent);
			*sl = '/';
		}
		if (!strcmp(nm, "lab/guest.conf"))
			conf = strndup((const char *)e[i].data, e[i].size);
		if (!strcmp(nm, "init")) {
			assert_int_equal(e[i].size, 5);
			assert_int_equal(e[i].mode, S_IFREG | 0755);
		}
		if (strstr(nm, "nvme-core")) {
			/* gzip'd on the host, stored plain for the guest */
			assert_non_null(strstr(nm, "nvme-core.ko"));
			assert_null(strstr(nm, ".gz"));
			assert_memory_equal(e[i].data, "nvme-core\n", 10);
			seen_core = true;
		}
		seen_nvme |= strstr(nm, "n/nvme.ko") != NULL;
	}
	assert_true(seen_nvme && seen_core);
	assert_non_null(conf);
	assert_non_null(strstr(conf, "disk_bytes=1048576\n"));
	snprintf(
		cmd, sizeof(cmd),
		"modules.virtio-blk=%s/mods/kernel/v/virtio.ko %s/mods/kernel/v/virtio_blk.ko\n",
		dir, dir);
	assert_non_null(strstr(conf, cmd));
	snprintf(
		cmd, sizeof(cmd),
		"modules.nvme=%s/mods/kernel/n/nvme-core.ko %s/mods/kernel/n/nvme.ko\n",
		dir, dir);
	assert_non_null(strstr(conf, cmd));
	free((void *)conf);
	free(a);
	kmod_list_free(&l_blk);
	kmod_list_free(&l_nvme);
	kmod_index_free(&ix);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpio_format),
		cmocka_unit_test(test_initramfs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
