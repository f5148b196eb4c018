// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --textfile DIR: node_exporter's textfile collector reads each NAME.prom
 * in DIR at every scrape, so DIR/iolab.prom must never be seen half written. Each
 * write makes a new temporary file in DIR (created exclusively, never
 * through a link: O_EXCL | O_NOFOLLOW), fills it and renames it
 * over iolab.prom; rename replaces a link planted at the name rather than
 * following it. DIR is opened once and everything goes through that
 * descriptor, so a DIR swapped for a link later changes nothing. The
 * temporary name does not end in .prom: the collector ignores it. No
 * fsync: readers see the rename at once, and metrics lost in a crash are
 * rewritten at the next interval, so forcing the disk would only add load.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe_impl.h"
#include "../../util/err.h"

#define PROM_NAME "iolab.prom"

bool probe_textfile_open(struct probe_textfile *tf, const char *dir,
			 struct err *err)
{
	tf->dir = dir;
	struct stat st;
	int e;

	tf->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (tf->dirfd >= 0)
		return true;
	e = errno;
	/* O_DIRECTORY | O_NOFOLLOW on a link fails with ENOTDIR. */
	if (!lstat(dir, &st) && S_ISLNK(st.st_mode))
		return err_set(
			err, EXIT_ENV, ELOOP,
			"--textfile %s is a symbolic link: refusing to write where it points; give the directory itself",
			dir);
	return err_set(
		err, e == ENOENT || e == ENOTDIR ? EXIT_USAGE : EXIT_ENV, e,
		"cannot open --textfile %s: %s; give the directory node_exporter's --collector.textfile.directory names",
		dir, strerror(e));
}

static bool write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		buf += n;
		len -= (size_t)n;
	}
	return true;
}

bool probe_textfile_write(struct probe_textfile *tf, const char *buf,
			  size_t len, struct err *err)
{
	char tmp[64];
	int fd, e;

	snprintf(tmp, sizeof(tmp), ".%s.%ld.tmp", PROM_NAME, (long)getpid());
	/* A stale one of ours (a crash): ours to remove, never to open. */
	(void)unlinkat(tf->dirfd, tmp, 0);
	fd = openat(tf->dirfd, tmp,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return err_set(err, EXIT_IO, errno, "cannot create %s/%s: %s",
			       tf->dir, tmp, strerror(errno));
	/* 0644 whatever the umask: node_exporter runs as another user. */
	if (fchmod(fd, 0644) || !write_all(fd, buf, len)) {
		e = errno;
		close(fd);
		unlinkat(tf->dirfd, tmp, 0);
		return err_set(err, EXIT_IO, e, "cannot write %s/%s: %s",
			       tf->dir, tmp, strerror(e));
	}
	if (close(fd) || renameat(tf->dirfd, tmp, tf->dirfd, PROM_NAME)) {
		e = errno;
		unlinkat(tf->dirfd, tmp, 0);
		return err_set(err, EXIT_IO, e, "cannot replace %s/%s: %s",
			       tf->dir, PROM_NAME, strerror(e));
	}
	return true;
}

void probe_textfile_close(struct probe_textfile *tf)
{
	if (tf->dirfd >= 0)
		close(tf->dirfd);
	tf->dirfd = -1;
}
