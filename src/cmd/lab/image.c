// SPDX-License-Identifier: GPL-2.0-or-later
/* Disk images through qemu-img; see image.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image.h"
#include "proc.h"
#include "../../util/err.h"
#include "../../util/sig.h"
#include "../../util/xmem.h"

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
			 im->fdpath,
			 size,
			 NULL };
	int fd, rc;

	memset(im, 0, sizeof(*im));
	im->cleanup_handle = -1;
	im->fd = -1;
	snprintf(im->path, sizeof(im->path), "%s", path);
	im->format = f;
	im->bytes = bytes;
	/* Children reach the file through our descriptor, via /proc. */
	if (access("/proc/self/fd", X_OK))
		return err_set(
			err, EXIT_ENV, errno,
			"/proc is not mounted: iolab lab hands the disk image to qemu-img and QEMU as /proc/self/fd/N; mount /proc");
	/* qemu-img would overwrite a file: claim the name first. */
	fd = open(path, O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return err_set(
			err, errno == EEXIST ? EXIT_USAGE : EXIT_ENV, errno,
			errno == EEXIST ?
				"%s exists: iolab lab creates its own disk image and removes it; give --disk a new file name or a directory" :
				"cannot create the disk image %s: %s",
			path, strerror(errno));
	im->created = true;
	im->cleanup_handle = cleanup_add(path);
	/* Not 0-2: a child's stdin/stdout/stderr are replaced. */
	if (fd < 3) {
		int hi = fcntl(fd, F_DUPFD_CLOEXEC, 3);

		close(fd);
		if (hi < 0) {
			err_set(err, EXIT_ENV, errno,
				"cannot hold the disk image %s open: %s", path,
				strerror(errno));
			image_remove(im);
			return false;
		}
		fd = hi;
	}
	im->fd = fd;
	snprintf(im->fdpath, sizeof(im->fdpath), "/proc/self/fd/%d", fd);
	if (fstat(fd, &im->st)) {
		err_set(err, EXIT_ENV, errno,
			"cannot stat the disk image %s: %s", path,
			strerror(errno));
		image_remove(im);
		return false;
	}
	/* From now on a signal removes the name only while it is our file. */
	cleanup_remove(im->cleanup_handle);
	im->cleanup_handle =
		cleanup_add_inode(-1, NULL, path, im->st.st_dev, im->st.st_ino);
	snprintf(size, sizeof(size), "%llu", (unsigned long long)bytes);
	rc = proc_run_fds(argv, &im->fd, 1, NULL, NULL, &errout,
			  600000000000ull, err);
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
	if (im->fd < 0)
		return;
	fdatasync(im->fd);
	posix_fadvise(im->fd, 0, 0, POSIX_FADV_DONTNEED);
}

void image_discard(const struct lab_image *im)
{
	struct stat st;

	if (im->fd < 0 || fstat(im->fd, &st) || st.st_size <= 0)
		return;
	if (fallocate(im->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
		      st.st_size))
		posix_fadvise(im->fd, 0, 0, POSIX_FADV_DONTNEED);
}

void image_remove(struct lab_image *im)
{
	struct stat st;

	/* Only the name of the file we created: not whatever is there now. */
	if (im->created) {
		if (im->fd < 0 ||
		    (!lstat(im->path, &st) && st.st_dev == im->st.st_dev &&
		     st.st_ino == im->st.st_ino))
			unlink(im->path);
		else if (!lstat(im->path, &st))
			fprintf(stderr,
				"iolab: %s is no longer the disk image iolab created; left it alone\n",
				im->path);
	}
	if (im->fd >= 0)
		close(im->fd);
	im->fd = -1;
	im->created = false;
	cleanup_remove(im->cleanup_handle);
	im->cleanup_handle = -1;
}
