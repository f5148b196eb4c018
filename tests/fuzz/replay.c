// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Runs the fuzz targets over every file of the given directories (the
 * kept corpora), so the normal gcc build and the sanitizer build replay
 * them without libFuzzer. The target is chosen by the directory's name
 * (corpus/libvirt -> fuzz_libvirt.c, built with its entry point renamed
 * to fuzz_libvirt_one). Exit 0 if every input of every directory went
 * through.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*fuzz_fn)(const uint8_t *data, size_t size);

int fuzz_qemu_args_one(const uint8_t *data, size_t size);
int fuzz_libvirt_one(const uint8_t *data, size_t size);
int fuzz_proxmox_one(const uint8_t *data, size_t size);
int fuzz_storage_cfg_one(const uint8_t *data, size_t size);
int fuzz_json_read_one(const uint8_t *data, size_t size);
int fuzz_top_one(const uint8_t *data, size_t size);
int fuzz_fio_job_one(const uint8_t *data, size_t size);

static const struct {
	const char *name;
	fuzz_fn fn;
} targets[] = {
	{ "qemu_args", fuzz_qemu_args_one },
	{ "libvirt", fuzz_libvirt_one },
	{ "proxmox", fuzz_proxmox_one },
	{ "storage_cfg", fuzz_storage_cfg_one },
	{ "json_read", fuzz_json_read_one },
	{ "top", fuzz_top_one },
	{ "fio_job", fuzz_fio_job_one },
};

static fuzz_fn target_of(const char *dir)
{
	const char *base = strrchr(dir, '/');
	size_t n;

	base = base ? base + 1 : dir;
	n = strcspn(base, "/");
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
		if (strlen(targets[i].name) == n &&
		    !strncmp(base, targets[i].name, n))
			return targets[i].fn;
	return NULL;
}

static int replay_file(fuzz_fn fn, const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return -1;
	}
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	fn(buf, (size_t)n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	size_t count = 0;

	for (int i = 1; i < argc; i++) {
		fuzz_fn fn = target_of(argv[i]);
		size_t before = count;
		DIR *d;
		struct dirent *e;

		if (!fn) {
			fprintf(stderr, "replay: no fuzz target for %s\n",
				argv[i]);
			return 1;
		}
		d = opendir(argv[i]);
		if (!d) {
			fprintf(stderr, "replay: cannot open %s\n", argv[i]);
			return 1;
		}
		while ((e = readdir(d))) {
			char path[4096];

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i],
				 e->d_name);
			if (replay_file(fn, path)) {
				fprintf(stderr, "replay: cannot read %s\n",
					path);
				closedir(d);
				return 1;
			}
			count++;
		}
		closedir(d);
		printf("replayed %zu inputs of %s\n", count - before, argv[i]);
		if (count == before)
			return 1;
	}
	return count ? 0 : 1;
}
