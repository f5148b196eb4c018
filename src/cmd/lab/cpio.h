/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A writer of the "newc" cpio format (the SVR4 portable format without
 * checksums, magic 070701), the one the Linux kernel unpacks as an
 * initramfs (Documentation/driver-api/early-userspace/buffer-format.rst).
 * Entries are written in the order given; a file's parent directories must
 * come before it, as the kernel does not create them.
 */
#ifndef IOLAB_CMD_LAB_CPIO_H
#define IOLAB_CMD_LAB_CPIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct err;

struct cpio {
	int fd; /* written to, not owned */
	uint32_t next_ino;
	uint64_t off; /* bytes written so far */
	char *buf; /* write buffer */
	size_t buf_len;
};

/* Start an archive on @fd (an open, writable descriptor). */
void cpio_init(struct cpio *c, int fd);
/* A directory; @mode holds the permission bits. */
bool cpio_add_dir(struct cpio *c, const char *name, mode_t mode,
		  struct err *err);
/* A regular file with @len bytes of @data. */
bool cpio_add_file(struct cpio *c, const char *name, mode_t mode,
		   const void *data, size_t len, struct err *err);
/* A regular file copied from the file at @src_path. */
bool cpio_add_file_from(struct cpio *c, const char *name, mode_t mode,
			const char *src_path, struct err *err);
/* A character device node (S_IFCHR) with @major:@minor. */
bool cpio_add_chardev(struct cpio *c, const char *name, mode_t mode,
		      unsigned int major, unsigned int minor, struct err *err);
/*
 * Write the TRAILER!!! entry, pad the archive to a multiple of 512 bytes
 * and flush. The descriptor stays open.
 */
bool cpio_finish(struct cpio *c, struct err *err);
/* Free the buffer (after cpio_finish, or to abandon an archive). */
void cpio_free(struct cpio *c);

#endif
