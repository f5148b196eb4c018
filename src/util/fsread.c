// SPDX-License-Identifier: GPL-2.0-or-later
/* System-file reading through a view, and capturing it; see fsread.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsread.h"
#include "xmem.h"

const struct fsview fsview_host = { .root = "" };

#define MAX_LINKS 40
#define SLURP_MAX (16u << 20)
#define UNREADABLE FSV_FACTS "/unreadable"

bool fsv_live(const struct fsview *v)
{
	return !v->root || !*v->root;
}

static int join(const struct fsview *v, const char *path, char *out, size_t len)
{
	int n = snprintf(out, len, "%s%s", v->root ? v->root : "", path);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* ---- the capture side: everything written beneath cap->dir only ---- */

static void cap_fail(struct fsv_capture *c, const char *path, int e)
{
	if (c->err)
		return;
	c->err = e;
	snprintf(c->err_path, sizeof(c->err_path), "%s%s", c->dir, path);
}

int fsv_capture_open(struct fsv_capture *c, const char *dir)
{
	struct dirent *de;
	struct stat st;
	bool empty = true;
	int fd, dfd, rc = 0;
	DIR *d;

	c->open = false;
	c->dir = dir;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		/* O_DIRECTORY says ENOTDIR for a link to a directory too. */
		if (rc == -ENOTDIR && !lstat(dir, &st) && S_ISLNK(st.st_mode))
			rc = -ELOOP;
		return rc;
	}
	if (fstat(fd, &st))
		rc = -errno;
	else if (st.st_uid != geteuid() || (st.st_mode & 022))
		rc = -EPERM;
	dfd = rc ? -1 : dup(fd);
	d = dfd < 0 ? NULL : fdopendir(dfd);
	if (!rc && !d)
		rc = -errno;
	while (d && empty && (de = readdir(d)))
		empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
	if (d)
		closedir(d);
	else if (dfd >= 0)
		close(dfd);
	if (!rc && !empty)
		rc = -ENOTEMPTY;
	if (rc) {
		close(fd);
		return rc;
	}
	c->dirfd = fd;
	c->open = true;
	return 0;
}

void fsv_capture_close(struct fsv_capture *c)
{
	if (c->open)
		close(c->dirfd);
	c->open = false;
}

/* "." and "..": a capture path is canonical; these would step outside. */
static bool dot_name(const char *p, size_t n)
{
	return (n == 1 && p[0] == '.') ||
	       (n == 2 && p[0] == '.' && p[1] == '.');
}

/*
 * Open the directory that holds @vpath's last component inside the
 * capture (from its descriptor, never by its path again), creating
 * missing directories and never following a symlink or "..", so nothing
 * is ever written outside the capture. Returns a dirfd and the leaf
 * name, or -1.
 */
static int cap_parent(struct fsv_capture *c, const char *vpath,
		      const char **leaf)
{
	char buf[PATH_MAX], *p, *slash;
	int fd, next;

	if (snprintf(buf, sizeof(buf), "%s", vpath) >= (int)sizeof(buf)) {
		cap_fail(c, vpath, ENAMETOOLONG);
		return -1;
	}
	fd = c->open ?
		     openat(c->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) :
		     -1;
	if (fd < 0) {
		cap_fail(c, "", c->open ? errno : EBADF);
		return -1;
	}
	p = buf;
	while (*p == '/')
		p++;
	while ((slash = strchr(p, '/'))) {
		*slash = '\0';
		if (dot_name(p, strlen(p))) {
			cap_fail(c, vpath, EINVAL);
			close(fd);
			return -1;
		}
		if (*p) {
			if (mkdirat(fd, p, 0755) && errno != EEXIST) {
				cap_fail(c, vpath, errno);
				close(fd);
				return -1;
			}
			next = openat(fd, p,
				      O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					      O_CLOEXEC);
			close(fd);
			if (next < 0) {
				cap_fail(c, vpath, errno);
				return -1;
			}
			fd = next;
		}
		p = slash + 1;
		while (*p == '/')
			p++;
	}
	*leaf = vpath + (p - buf);
	if (dot_name(*leaf, strlen(*leaf))) {
		cap_fail(c, vpath, EINVAL);
		close(fd);
		return -1;
	}
	return fd;
}

static void cap_mkdir(const struct fsview *v, const char *vpath)
{
	const char *leaf;
	int fd;

	if (!v->cap || !strcmp(vpath, "/"))
		return;
	fd = cap_parent(v->cap, vpath, &leaf);
	if (fd < 0)
		return;
	if (*leaf && mkdirat(fd, leaf, 0755) && errno != EEXIST)
		cap_fail(v->cap, vpath, errno);
	/* Git and tar drop empty directories: a marker keeps the listing. */
	if (*leaf) {
		int dfd =
			openat(fd, leaf,
			       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int mfd = dfd < 0 ? -1 :
				    openat(dfd, FSV_DIR_MARK,
					   O_WRONLY | O_CREAT | O_NOFOLLOW |
						   O_CLOEXEC,
					   0644);

		if (mfd >= 0)
			close(mfd);
		if (dfd >= 0)
			close(dfd);
	}
	close(fd);
}

static void cap_symlink(const struct fsview *v, const char *vpath,
			const char *target)
{
	const char *leaf;
	int fd;

	if (!v->cap)
		return;
	fd = cap_parent(v->cap, vpath, &leaf);
	if (fd < 0)
		return;
	if (symlinkat(target, fd, leaf) && errno != EEXIST)
		cap_fail(v->cap, vpath, errno);
	close(fd);
}

/* @data NULL: an empty placeholder that keeps existing content. */
static void cap_file(const struct fsview *v, const char *vpath,
		     const char *data, size_t len, bool append)
{
	int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC;
	const char *leaf;
	int dfd, fd;

	if (!v->cap)
		return;
	dfd = cap_parent(v->cap, vpath, &leaf);
	if (dfd < 0)
		return;
	flags |= append ? O_APPEND : data ? O_TRUNC : 0;
	fd = openat(dfd, leaf, flags, 0644);
	close(dfd);
	if (fd < 0) {
		/* A placeholder where a directory already is: fine. */
		if (data || errno != EISDIR)
			cap_fail(v->cap, vpath, errno);
		return;
	}
	while (data && len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			cap_fail(v->cap, vpath, n < 0 ? errno : EIO);
			break;
		}
		data += n;
		len -= (size_t)n;
	}
	if (close(fd))
		cap_fail(v->cap, vpath, errno);
}

/* Reproduce what @vpath is in the view: a directory, a link, or a file. */
static void cap_node(const struct fsview *v, const char *vpath)
{
	char full[PATH_MAX], target[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (!v->cap || join(v, vpath, full, sizeof(full)) || lstat(full, &st))
		return;
	if (S_ISDIR(st.st_mode)) {
		cap_mkdir(v, vpath);
	} else if (S_ISLNK(st.st_mode)) {
		n = readlink(full, target, sizeof(target) - 1);
		if (n >= 0) {
			target[n] = '\0';
			cap_symlink(v, vpath, target);
		}
	} else {
		cap_file(v, vpath, NULL, 0, false);
	}
}

/* A read that failed for a reason other than absence, for the replay. */
static void cap_unreadable(const struct fsview *v, const char *vpath, int e)
{
	char line[PATH_MAX + 32];
	int n;

	if (!v->cap || e == ENOENT)
		return;
	n = snprintf(line, sizeof(line), "%d %s\n", e, vpath);
	if (n > 0 && (size_t)n < sizeof(line))
		cap_file(v, UNREADABLE, line, (size_t)n, true);
}

/* In a tree: the errno a capture recorded for @vpath, or @e. */
static int replay_errno(const struct fsview *v, const char *vpath, int e)
{
	char full[PATH_MAX], line[PATH_MAX + 32];
	int rec = e;
	FILE *f;

	if (fsv_live(v) || e != ENOENT ||
	    join(v, UNREADABLE, full, sizeof(full)))
		return e;
	f = fopen(full, "re");
	if (!f)
		return e;
	while (fgets(line, sizeof(line), f)) {
		char *sp = strchr(line, ' ');
		int num = atoi(line);

		if (!sp || num <= 0)
			continue;
		sp[strcspn(sp, "\n")] = '\0';
		if (!strcmp(sp + 1, vpath)) {
			rec = num;
			break;
		}
	}
	fclose(f);
	return rec;
}

/* ---- resolution inside the view ---- */

/*
 * Canonical view path of @path into @out. Every symlink met is resolved
 * relative to the view's root (and captured); every directory met is
 * captured. On a missing component the path as far as it could be
 * resolved, plus the rest, is still left in @out.
 */
static int resolve(const struct fsview *v, const char *path, bool follow_last,
		   char *out, size_t outlen)
{
	char rest[PATH_MAX * 2], cur[PATH_MAX] = "", next[PATH_MAX];
	char full[PATH_MAX], target[PATH_MAX], tmp[PATH_MAX * 2];
	const char *p;
	int links = 0, rc = 0;

	if (snprintf(rest, sizeof(rest), "%s", path) >= (int)sizeof(rest))
		return -ENAMETOOLONG;
	p = rest;
	for (;;) {
		const char *end;
		size_t clen;
		struct stat st;
		bool last;
		ssize_t n;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		end = strchrnul(p, '/');
		clen = (size_t)(end - p);
		last = !end[strspn(end, "/")];
		if (clen == 1 && p[0] == '.') {
			p = end;
			continue;
		}
		if (clen == 2 && p[0] == '.' && p[1] == '.') {
			char *s = strrchr(cur, '/');

			if (s)
				*s = '\0';
			p = end;
			continue;
		}
		if (snprintf(next, sizeof(next), "%s/%.*s", cur, (int)clen,
			     p) >= (int)sizeof(next))
			return -ENAMETOOLONG;
		p = end;
		if (last && !follow_last) {
			strcpy(cur, next);
			break;
		}
		if ((rc = join(v, next, full, sizeof(full))))
			return rc;
		if (lstat(full, &st)) {
			rc = -errno;
			snprintf(out, outlen, "%s%s", next, p);
			return rc;
		}
		if (S_ISLNK(st.st_mode)) {
			if (++links > MAX_LINKS)
				return -ELOOP;
			n = readlink(full, target, sizeof(target) - 1);
			if (n < 0)
				return -errno;
			target[n] = '\0';
			cap_symlink(v, next, target);
			if (target[0] == '/')
				cur[0] = '\0';
			if (snprintf(tmp, sizeof(tmp), "%s/%s", target, p) >=
			    (int)sizeof(rest))
				return -ENAMETOOLONG;
			strcpy(rest, tmp);
			p = rest;
			continue;
		}
		if (S_ISDIR(st.st_mode))
			cap_mkdir(v, next);
		else if (!last)
			return -ENOTDIR;
		strcpy(cur, next);
	}
	if (snprintf(out, outlen, "%s", cur[0] ? cur : "/") >= (int)outlen)
		return -ENAMETOOLONG;
	return 0;
}

int fsv_realpath(const struct fsview *v, const char *path, char *out,
		 size_t len)
{
	char canon[PATH_MAX];
	int rc = resolve(v, path, true, canon, sizeof(canon));

	if (rc)
		return rc;
	return snprintf(out, len, "%s", canon) >= (int)len ? -ENAMETOOLONG : 0;
}

/* ---- reading ---- */

char *fsv_slurp(const struct fsview *v, const char *path, size_t *lenp,
		int *errnum)
{
	char canon[PATH_MAX] = "", full[PATH_MAX];
	size_t cap = 4096, got = 0;
	struct stat st;
	char *buf;
	int rc, fd;

	rc = resolve(v, path, true, canon, sizeof(canon));
	if (!rc)
		rc = join(v, canon, full, sizeof(full));
	if (rc) {
		*errnum = replay_errno(v, canon, -rc);
		cap_unreadable(v, canon, *errnum);
		return NULL;
	}
	/*
	 * Only regular files (sysfs and procfs attributes are): opening a
	 * device or FIFO found in a tree could block or have side effects.
	 */
	if (!stat(full, &st) && !S_ISREG(st.st_mode)) {
		*errnum = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		cap_unreadable(v, canon, *errnum);
		return NULL;
	}
	fd = open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		*errnum = replay_errno(v, canon, errno);
		cap_unreadable(v, canon, *errnum);
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		*errnum = EINVAL;
		return NULL;
	}
	buf = xmalloc(cap);
	for (;;) {
		ssize_t n;

		if (got + 1 >= cap) {
			if (cap >= SLURP_MAX)
				break;
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		n = read(fd, buf + got, cap - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*errnum = errno;
			close(fd);
			free(buf);
			cap_unreadable(v, canon, *errnum);
			return NULL;
		}
		if (!n)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	cap_file(v, canon, buf, got, false);
	if (lenp)
		*lenp = got;
	return buf;
}

ssize_t fsv_read(const struct fsview *v, const char *path, char *buf,
		 size_t len)
{
	size_t got;
	char *data;
	int e;

	if (!len)
		return -EINVAL;
	data = fsv_slurp(v, path, &got, &e);
	if (!data)
		return -e;
	if (got > len - 1)
		got = len - 1;
	memcpy(buf, data, got);
	free(data);
	while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == '\r'))
		got--;
	buf[got] = '\0';
	return (ssize_t)got;
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
	char canon[PATH_MAX] = "", full[PATH_MAX];
	ssize_t n;
	int rc;

	if (len < 2)
		return -EINVAL;
	rc = resolve(v, path, false, canon, sizeof(canon));
	if (!rc)
		rc = join(v, canon, full, sizeof(full));
	if (rc) {
		rc = replay_errno(v, canon, -rc);
		cap_unreadable(v, canon, rc);
		return -rc;
	}
	n = readlink(full, buf, len - 1);
	if (n < 0) {
		rc = replay_errno(v, canon, errno);
		cap_unreadable(v, canon, rc);
		return -rc;
	}
	buf[n] = '\0';
	cap_symlink(v, canon, buf);
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

static bool stat_in_view(const struct fsview *v, const char *path,
			 struct stat *st)
{
	char canon[PATH_MAX], full[PATH_MAX];

	if (resolve(v, path, true, canon, sizeof(canon)) ||
	    join(v, canon, full, sizeof(full)) || stat(full, st))
		return false;
	cap_node(v, canon);
	return true;
}

bool fsv_exists(const struct fsview *v, const char *path)
{
	struct stat st;

	return stat_in_view(v, path, &st);
}

bool fsv_is_dir(const struct fsview *v, const char *path)
{
	struct stat st;

	return stat_in_view(v, path, &st) && S_ISDIR(st.st_mode);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int fsv_list(const struct fsview *v, const char *path, const char *prefix,
	     char ***names)
{
	char canon[PATH_MAX] = "", full[PATH_MAX], sub[PATH_MAX];
	size_t n = 0, cap = 16, plen = prefix ? strlen(prefix) : 0;
	struct dirent *de;
	char **out;
	DIR *d;
	int rc;

	*names = NULL;
	rc = resolve(v, path, true, canon, sizeof(canon));
	if (!rc)
		rc = join(v, canon, full, sizeof(full));
	if (rc) {
		rc = replay_errno(v, canon, -rc);
		cap_unreadable(v, canon, rc);
		return -rc;
	}
	d = opendir(full);
	if (!d) {
		rc = replay_errno(v, canon, errno);
		cap_unreadable(v, canon, rc);
		return -rc;
	}
	out = xmalloc(cap * sizeof(*out));
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, FSV_DIR_MARK))
			continue;
		if (plen && strncmp(de->d_name, prefix, plen))
			continue;
		if (n + 1 >= cap) {
			cap *= 2;
			out = xrealloc(out, cap * sizeof(*out));
		}
		out[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	out[n] = NULL;
	qsort(out, n, sizeof(*out), cmp_name);
	if (v->cap) {
		cap_mkdir(v, canon);
		for (size_t i = 0; i < n; i++) {
			snprintf(sub, sizeof(sub), "%s/%s",
				 strcmp(canon, "/") ? canon : "", out[i]);
			cap_node(v, sub);
		}
	}
	*names = out;
	return (int)n;
}

void fsv_list_free(char **names)
{
	if (!names)
		return;
	for (char **p = names; *p; p++)
		free(*p);
	free(names);
}

void fsv_save(const struct fsview *v, const char *path, const char *data,
	      size_t len)
{
	cap_file(v, path, data, len, false);
}
