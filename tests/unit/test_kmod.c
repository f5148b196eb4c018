// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The modules.dep resolver: dependencies before their users whatever
 * order depmod wrote them in, nothing twice (also across calls), '-' and
 * '_' alike, built-in modules skipped, compression suffixes, and the
 * errors for a missing module or a broken modules.dep. Then the real
 * modules of the installed kernels, for every bus the lab offers.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cmd/lab/kmod.h"
#include "cmd/lab/qemu_argv.h"
#include "util/err.h"

static char tree[64];

static void make_tree(const char *dep, const char *builtin)
{
	char path[128];
	FILE *f;

	strcpy(tree, "/tmp/iolab-test-kmod-XXXXXX");
	assert_non_null(mkdtemp(tree));
	snprintf(path, sizeof(path), "%s/modules.dep", tree);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(dep, f);
	fclose(f);
	if (builtin) {
		snprintf(path, sizeof(path), "%s/modules.builtin", tree);
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(builtin, f);
		fclose(f);
	}
}

static void drop_tree(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tree);
	assert_int_equal(system(cmd), 0);
}

static long pos(const struct kmod_list *l, const char *path)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->paths[i], path))
			return (long)i;
	return -1;
}

/* Shaped like Debian 6.1's entries, listed in an unhelpful order. */
static const char dep[] =
	"kernel/drivers/scsi/sd_mod.ko: kernel/block/t10-pi.ko kernel/lib/crc64-rocksoft.ko kernel/drivers/scsi/scsi_mod.ko kernel/drivers/scsi/scsi_common.ko kernel/lib/crc-t10dif.ko\n"
	"kernel/drivers/virtio/virtio_pci.ko: kernel/drivers/virtio/virtio_pci_legacy_dev.ko kernel/drivers/virtio/virtio_pci_modern_dev.ko kernel/drivers/virtio/virtio.ko kernel/drivers/virtio/virtio_ring.ko\n"
	"kernel/drivers/block/virtio_blk.ko: kernel/drivers/virtio/virtio.ko kernel/drivers/virtio/virtio_ring.ko\n"
	"kernel/drivers/scsi/virtio_scsi.ko: kernel/drivers/scsi/scsi_mod.ko kernel/drivers/scsi/scsi_common.ko kernel/drivers/virtio/virtio.ko kernel/drivers/virtio/virtio_ring.ko\n"
	"kernel/block/t10-pi.ko: kernel/lib/crc64-rocksoft.ko kernel/lib/crc-t10dif.ko\n"
	"kernel/lib/crc64-rocksoft.ko:\n"
	"kernel/lib/crc-t10dif.ko:\n"
	"kernel/drivers/scsi/scsi_mod.ko: kernel/drivers/scsi/scsi_common.ko\n"
	"kernel/drivers/scsi/scsi_common.ko:\n"
	"kernel/drivers/virtio/virtio_pci_legacy_dev.ko:\n"
	"kernel/drivers/virtio/virtio_pci_modern_dev.ko:\n"
	"kernel/drivers/virtio/virtio.ko:\n"
	"kernel/drivers/virtio/virtio_ring.ko:\n"
	"kernel/drivers/nvme/host/nvme-core.ko.xz:\n"
	"kernel/drivers/nvme/host/nvme.ko.xz: kernel/drivers/nvme/host/nvme-core.ko.xz\n";

static void test_order(void **state)
{
	const char *const names[] = { "virtio_pci", "virtio_scsi", "sd_mod" };
	struct kmod_list l = { 0 };
	struct kmod_index ix;
	struct err err = { 0 };

	(void)state;
	make_tree(dep, NULL);
	assert_true(kmod_index_load(&ix, tree, &err));
	assert_true(kmod_resolve(&ix, names, 3, &l, &err));
	/* Every module's dependencies come before it. */
	for (size_t i = 0; i < ix.n; i++) {
		long me = pos(&l, ix.v[i].path);

		if (me < 0)
			continue;
		for (size_t d = 0; d < ix.v[i].ndeps; d++) {
			long dp = pos(&l, ix.v[i].deps[d]);

			assert_true(dp >= 0);
			assert_true(dp < me);
		}
	}
	/* Each once: 5 for virtio_pci, 3 more for virtio_scsi, 4 for sd_mod. */
	for (size_t i = 0; i < l.n; i++)
		for (size_t k = i + 1; k < l.n; k++)
			assert_string_not_equal(l.paths[i], l.paths[k]);
	assert_int_equal(l.n, 12);
	assert_int_equal(pos(&l, "kernel/lib/crc64-rocksoft.ko") <
				 pos(&l, "kernel/block/t10-pi.ko"),
			 1);
	kmod_list_free(&l);
	kmod_index_free(&ix);
	drop_tree();
}

static void test_names(void **state)
{
	const char *const a[] = { "nvme" }, *const b[] = { "nvme-core" };
	const char *const c[] = { "virtio_blk", "virtio_blk" };
	struct kmod_list l = { 0 };
	struct kmod_index ix;
	struct err err = { 0 };
	char name[64];

	(void)state;
	kmod_name("kernel/drivers/nvme/host/nvme-core.ko.xz", name,
		  sizeof(name));
	assert_string_equal(name, "nvme_core");
	kmod_name("virtio_blk.ko", name, sizeof(name));
	assert_string_equal(name, "virtio_blk");
	assert_string_equal(kmod_compression("a/b.ko.xz"), "xz");
	assert_string_equal(kmod_compression("a/b.ko.zst"), "zst");
	assert_string_equal(kmod_compression("a/b.ko.gz"), "gz");
	assert_null(kmod_compression("a/b.ko"));
	assert_null(kmod_compression("a/xz.ko"));

	make_tree(dep, NULL);
	assert_true(kmod_index_load(&ix, tree, &err));
	assert_true(kmod_resolve(&ix, a, 1, &l, &err));
	assert_int_equal(l.n, 2);
	assert_string_equal(l.paths[0],
			    "kernel/drivers/nvme/host/nvme-core.ko.xz");
	/* Across calls and with the other spelling: nothing added twice. */
	assert_true(kmod_resolve(&ix, b, 1, &l, &err));
	assert_int_equal(l.n, 2);
	assert_true(kmod_resolve(&ix, c, 2, &l, &err));
	assert_int_equal(l.n, 5);
	kmod_list_free(&l);
	kmod_index_free(&ix);
	drop_tree();
}

static void test_builtin_and_errors(void **state)
{
	const char *const blk[] = { "virtio_pci", "virtio_blk" };
	const char *const none[] = { "ahci" };
	struct kmod_list l = { 0 };
	struct kmod_index ix;
	struct err err = { 0 };

	(void)state;
	/* virtio_blk compiled in: only virtio_pci's chain is loaded. */
	make_tree(
		"kernel/drivers/virtio/virtio_pci.ko: kernel/drivers/virtio/virtio.ko\n"
		"kernel/drivers/virtio/virtio.ko:\n",
		"kernel/drivers/block/virtio_blk.ko\n");
	assert_true(kmod_index_load(&ix, tree, &err));
	assert_true(kmod_resolve(&ix, blk, 2, &l, &err));
	assert_int_equal(l.n, 2);
	assert_false(kmod_resolve(&ix, none, 1, &l, &err));
	assert_non_null(strstr(err.msg, "no module ahci"));
	assert_int_equal(err.exit_code, EXIT_ENV);
	kmod_list_free(&l);
	kmod_index_free(&ix);
	drop_tree();

	/* A dependency modules.dep does not list. */
	make_tree("kernel/a.ko: kernel/b.ko\n", NULL);
	assert_true(kmod_index_load(&ix, tree, &err));
	memset(&err, 0, sizeof(err));
	assert_false(
		kmod_resolve(&ix, (const char *const[]){ "a" }, 1, &l, &err));
	assert_non_null(strstr(err.msg, "run depmod"));
	kmod_list_free(&l);
	kmod_index_free(&ix);
	drop_tree();

	/* A loop in a broken file ends with an error, not a crash. */
	make_tree("kernel/a.ko: kernel/b.ko\nkernel/b.ko: kernel/a.ko\n", NULL);
	assert_true(kmod_index_load(&ix, tree, &err));
	memset(&err, 0, sizeof(err));
	assert_false(
		kmod_resolve(&ix, (const char *const[]){ "a" }, 1, &l, &err));
	assert_non_null(strstr(err.msg, "loop"));
	kmod_list_free(&l);
	kmod_index_free(&ix);
	drop_tree();

	assert_false(kmod_index_load(&ix, "/nonexistent-iolab", &err));
	assert_non_null(strstr(err.msg, "modules.dep"));
	kmod_index_free(&ix);
}

/* The installed kernels: every lab bus resolves to files that exist. */
static void test_real_modules(void **state)
{
	struct dirent *d;
	DIR *dir = opendir("/lib/modules");
	int checked = 0;

	(void)state;
	if (!dir)
		skip();
	while ((d = readdir(dir))) {
		char moddir[300];
		struct kmod_index ix;
		struct err err = { 0 };

		if (d->d_name[0] == '.')
			continue;
		snprintf(moddir, sizeof(moddir), "/lib/modules/%s", d->d_name);
		if (!kmod_index_load(&ix, moddir, &err)) {
			kmod_index_free(&ix);
			continue;
		}
		for (int b = 0; b < BUS_COUNT; b++) {
			const char *const *names = lab_bus_modules(b);
			struct kmod_list l = { 0 };
			size_t n = 0;

			while (names[n])
				n++;
			assert_true(kmod_resolve(&ix, names, n, &l, &err));
			for (size_t i = 0; i < l.n; i++) {
				char p[700];

				snprintf(p, sizeof(p), "%s/%s", moddir,
					 l.paths[i]);
				assert_int_equal(access(p, R_OK), 0);
			}
			kmod_list_free(&l);
		}
		kmod_index_free(&ix);
		checked++;
	}
	closedir(dir);
	if (!checked)
		skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_builtin_and_errors),
		cmocka_unit_test(test_real_modules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
