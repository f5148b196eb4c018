// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Guest kernel discovery; see kernel.h. The x86 boot protocol
 * (Documentation/arch/x86/boot.rst) puts "HdrS" at offset 0x202 and, at
 * 0x20E, a pointer to a NUL-terminated version string, relative to 0x200.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel.h"
#include "../../util/err.h"

bool kernel_release(const char *path, char *out, size_t len, struct err *err)
{
	unsigned char hdr[0x210];
	char ver[256];
	uint16_t ptr;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return err_set(err, errno == ENOENT ? EXIT_USAGE : EXIT_ENV,
			       errno, "cannot read kernel %s: %s", path,
			       strerror(errno));
	n = pread(fd, hdr, sizeof(hdr), 0);
	if (n != (ssize_t)sizeof(hdr) || memcmp(hdr + 0x202, "HdrS", 4)) {
		close(fd);
		return err_set(
			err, EXIT_USAGE, 0,
			"%s is not an x86 kernel image (bzImage); give --kernel a /boot/vmlinuz-* file",
			path);
	}
	ptr = (uint16_t)(hdr[0x20E] | hdr[0x20F] << 8);
	n = pread(fd, ver, sizeof(ver) - 1, (off_t)ptr + 0x200);
	close(fd);
	if (n <= 0 || !ptr)
		return err_set(err, EXIT_USAGE, 0,
			       "%s has no version string in its header", path);
	ver[n] = '\0';
	ver[strcspn(ver, " ")] = '\0';
	if (!ver[0])
		return err_set(err, EXIT_USAGE, 0,
			       "%s has an empty version string", path);
	snprintf(out, len, "%s", ver);
	return true;
}

bool kernel_find(struct lab_kernel *k, const char *path, const char *boot_dir,
		 const char *mod_root, struct err *err)
{
	struct stat st;

	memset(k, 0, sizeof(*k));
	if (path) {
		snprintf(k->path, sizeof(k->path), "%s", path);
	} else {
		char best[256] = "";
		struct dirent *d;
		DIR *dir = opendir(boot_dir);

		if (!dir)
			return err_set(err, EXIT_ENV, errno,
				       "cannot list %s: %s; give --kernel PATH",
				       boot_dir, strerror(errno));
		while ((d = readdir(dir))) {
			if (strncmp(d->d_name, "vmlinuz-", 8))
				continue;
			if (!best[0] || strverscmp(d->d_name + 8, best + 8) > 0)
				snprintf(best, sizeof(best), "%s", d->d_name);
		}
		closedir(dir);
		if (!best[0])
			return err_set(
				err, EXIT_ENV, ENOENT,
				"no kernel in %s (vmlinuz-*); install one (Debian: apt-get install linux-image-amd64) or give --kernel PATH",
				boot_dir);
		snprintf(k->path, sizeof(k->path), "%s/%s", boot_dir, best);
	}
	if (!kernel_release(k->path, k->release, sizeof(k->release), err))
		return false;
	snprintf(k->moddir, sizeof(k->moddir), "%s/%s", mod_root, k->release);
	if (stat(k->moddir, &st) || !S_ISDIR(st.st_mode))
		return err_set(
			err, EXIT_ENV, ENOENT,
			"kernel %s (%s) has no modules in %s; install its modules or choose another --kernel",
			k->path, k->release, k->moddir);
	return true;
}
