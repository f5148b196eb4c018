// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpio "newc" writer; see cpio.h. Each entry is a 110-byte ASCII header
 * ("070701" and thirteen 8-digit hex fields), the NUL-terminated name padded
 * to a multiple of four bytes counted from the header's start, then the
 * data padded likewise. Times are 0 and owners root, so the same inputs
 * always give the same archive.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpio.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

#define CPIO_BUF (256u << 10)
#define CPIO_HDR 110

void cpio_init(struct cpio *c, int fd)
{
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	c->next_ino = 1;
	c->buf = xmalloc(CPIO_BUF);
}

static bool cpio_flush(struct cpio *c, struct err *err)
{
	size_t done = 0;

	while (done < c->buf_len) {
		ssize_t w = write(c->fd, c->buf + done, c->buf_len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return err_set(err, EXIT_ENV, w < 0 ? errno : EIO,
				       "cannot write the initramfs: %s",
				       strerror(w < 0 ? errno : EIO));
		done += (size_t)w;
	}
	c->buf_len = 0;
	return true;
}

static bool cpio_put(struct cpio *c, const void *p, size_t len, struct err *err)
{
	const char *s = p;

	while (len) {
		size_t n = CPIO_BUF - c->buf_len;

		if (n > len)
			n = len;
		memcpy(c->buf + c->buf_len, s, n);
		c->buf_len += n;
		c->off += n;
		s += n;
		len -= n;
		if (c->buf_len == CPIO_BUF && !cpio_flush(c, err))
			return false;
	}
	return true;
}

static bool cpio_pad(struct cpio *c, unsigned int to, struct err *err)
{
	static const char zeros[512];
	size_t n = (size_t)((to - c->off % to) % to);

	return cpio_put(c, zeros, n, err);
}

static bool cpio_header(struct cpio *c, const char *name, mode_t mode,
			uint64_t size, unsigned int rmaj, unsigned int rmin,
			unsigned int nlink, struct err *err)
{
	char hdr[CPIO_HDR + 1];
	size_t namesize;

	if (*name == '/')
		name++; /* archive names are relative, as cpio -H newc writes */
	namesize = strlen(name) + 1;
	if (size > 0xffffffffull)
		return err_set(
			err, EXIT_ENV, EFBIG,
			"%s is too large for a cpio archive (4 GiB limit)",
			name);
	snprintf(hdr, sizeof(hdr),
		 "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 c->next_ino++, (unsigned int)mode, 0u, 0u, nlink, 0u,
		 (unsigned int)size, 0u, 0u, rmaj, rmin, (unsigned int)namesize,
		 0u);
	return cpio_put(c, hdr, CPIO_HDR, err) &&
	       cpio_put(c, name, namesize, err) && cpio_pad(c, 4, err);
}

bool cpio_add_dir(struct cpio *c, const char *name, mode_t mode,
		  struct err *err)
{
	return cpio_header(c, name, S_IFDIR | (mode & 07777), 0, 0, 0, 2, err);
}

bool cpio_add_file(struct cpio *c, const char *name, mode_t mode,
		   const void *data, size_t len, struct err *err)
{
	return cpio_header(c, name, S_IFREG | (mode & 07777), len, 0, 0, 1,
			   err) &&
	       cpio_put(c, data, len, err) && cpio_pad(c, 4, err);
}

bool cpio_add_file_from(struct cpio *c, const char *name, mode_t mode,
			const char *src_path, struct err *err)
{
	char *chunk;
	struct stat st;
	uint64_t left;
	bool ok = true;
	int fd = open(src_path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return err_set(err, EXIT_ENV, errno, "cannot read %s: %s",
			       src_path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return err_set(err, EXIT_ENV, errno, "%s is not a regular file",
			       src_path);
	}
	if (!cpio_header(c, name, S_IFREG | (mode & 07777),
			 (uint64_t)st.st_size, 0, 0, 1, err)) {
		close(fd);
		return false;
	}
	chunk = xmalloc(CPIO_BUF);
	left = (uint64_t)st.st_size;
	while (ok && left) {
		ssize_t r = read(fd, chunk, CPIO_BUF);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			/* The header promised st_size bytes: a short file
			 * would corrupt every entry after it. */
			ok = err_set(err, EXIT_ENV, r < 0 ? errno : EIO,
				     "%s changed size while being archived",
				     src_path);
			break;
		}
		if ((uint64_t)r > left)
			r = (ssize_t)left;
		ok = cpio_put(c, chunk, (size_t)r, err);
		left -= (uint64_t)r;
	}
	free(chunk);
	close(fd);
	return ok && cpio_pad(c, 4, err);
}

bool cpio_add_chardev(struct cpio *c, const char *name, mode_t mode,
		      unsigned int major, unsigned int minor, struct err *err)
{
	return cpio_header(c, name, S_IFCHR | (mode & 07777), 0, major, minor,
			   1, err);
}

bool cpio_finish(struct cpio *c, struct err *err)
{
	/* The trailer is a normal header named TRAILER!!! with nlink 1. */
	return cpio_header(c, "TRAILER!!!", 0, 0, 0, 0, 1, err) &&
	       cpio_pad(c, 512, err) && cpio_flush(c, err);
}

void cpio_free(struct cpio *c)
{
	free(c->buf);
	c->buf = NULL;
}
