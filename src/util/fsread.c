// SPDX-License-Identifier: GPL-2.0-or-later
/* System-file reading through a view; see fsread.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fsread.h"

const struct fsview fsview_host = { .root = "" };

static int fsv_path(const struct fsview *v, const char *path, char *out,
		    size_t len)
{
	int n = snprintf(out, len, "%s%s", v->root ? v->root : "", path);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

ssize_t fsv_read(const struct fsview *v, const char *path, char *buf,
		 size_t len)
{
	char full[PATH_MAX];
	ssize_t n, got = 0;
	int fd, rc;

	if (!len)
		return -EINVAL;
	rc = fsv_path(v, path, full, sizeof(full));
	if (rc)
		return rc;
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)got < len - 1) {
		n = read(fd, buf + got, len - 1 - (size_t)got);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			close(fd);
			return rc;
		}
		if (!n)
			break;
		got += n;
	}
	close(fd);
	while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == '\r'))
		got--;
	buf[got] = '\0';
	return got;
}

int fsv_read_u64(const struct fsview *v, const char *path, uint64_t *out)
{
	char buf[64], *end;
	unsigned long long val;
	ssize_t n = fsv_read(v, path, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	errno = 0;
	val = strtoull(buf, &end, 0);
	if (errno || end == buf)
		return -EINVAL;
	*out = val;
	return 0;
}

ssize_t fsv_readlink(const struct fsview *v, const char *path, char *buf,
		     size_t len)
{
	char full[PATH_MAX];
	ssize_t n;
	int rc = fsv_path(v, path, full, sizeof(full));

	if (rc)
		return rc;
	n = readlink(full, buf, len - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

int fsv_link_name(const struct fsview *v, const char *path, char *buf,
		  size_t len)
{
	char target[PATH_MAX];
	const char *slash;
	ssize_t n = fsv_readlink(v, path, target, sizeof(target));

	if (n < 0)
		return (int)n;
	slash = strrchr(target, '/');
	snprintf(buf, len, "%s", slash ? slash + 1 : target);
	return 0;
}

int fsv_realpath(const struct fsview *v, const char *path, char *buf,
		 size_t len)
{
	char full[PATH_MAX], real[PATH_MAX];
	size_t rl = v->root ? strlen(v->root) : 0;
	int rc = fsv_path(v, path, full, sizeof(full));

	if (rc)
		return rc;
	if (!realpath(full, real))
		return -errno;
	if (rl && (strncmp(real, v->root, rl) || (real[rl] && real[rl] != '/')))
		return -EXDEV; /* resolved outside the captured tree */
	snprintf(buf, len, "%s", real[rl] ? real + rl : "/");
	return 0;
}

bool fsv_exists(const struct fsview *v, const char *path)
{
	char full[PATH_MAX];

	if (fsv_path(v, path, full, sizeof(full)))
		return false;
	return access(full, F_OK) == 0;
}
