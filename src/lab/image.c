// SPDX-License-Identifier: GPL-2.0-or-later
/* Disk images through qemu-img; see image.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image.h"
#include "proc.h"
#include "../util/err.h"
#include "../util/sig.h"
#include "../util/xmem.h"

bool image_create(struct lab_image *im, const char *qemu_img, const char *path,
		  enum lab_format f, uint64_t bytes, struct err *err)
{
	char size[32], *errout = NULL;
	char *argv[] = { (char *)qemu_img,
			 (char *)"create",
			 (char *)"-q",
			 (char *)"-f",
			 (char *)lab_format_names[f],
			 (char *)"-o",
			 (char *)"preallocation=falloc",
			 (char *)path,
			 size,
			 NULL };
	int fd, rc;

	memset(im, 0, sizeof(*im));
	im->cleanup_handle = -1;
	snprintf(im->path, sizeof(im->path), "%s", path);
	im->format = f;
	im->bytes = bytes;
	/* qemu-img would overwrite a file: claim the name first. */
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0)
		return err_set(
			err, errno == EEXIST ? EXIT_USAGE : EXIT_ENV, errno,
			errno == EEXIST ?
				"%s exists: iolab lab creates its own disk image and removes it; give --disk a new file name or a directory" :
				"cannot create the disk image %s: %s",
			path, strerror(errno));
	close(fd);
	im->created = true;
	im->cleanup_handle = cleanup_add(path);
	snprintf(size, sizeof(size), "%llu", (unsigned long long)bytes);
	rc = proc_run(argv, NULL, NULL, &errout, 600000000000ull, err);
	if (rc < 0) {
		free(errout);
		image_remove(im);
		return false;
	}
	if (rc != 0) {
		errout[strcspn(errout, "\n")] = '\0';
		err_set(err, EXIT_ENV, 0, "qemu-img could not create %s: %s",
			path, errout[0] ? errout : "no message");
		free(errout);
		image_remove(im);
		return false;
	}
	free(errout);
	return true;
}

void image_drop_cache(const struct lab_image *im)
{
	int fd = open(im->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	fdatasync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
}

void image_remove(struct lab_image *im)
{
	if (im->created)
		unlink(im->path);
	im->created = false;
	cleanup_remove(im->cleanup_handle);
	im->cleanup_handle = -1;
}
