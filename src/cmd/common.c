// SPDX-License-Identifier: GPL-2.0-or-later
/* Shared command-driver helpers; see common.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common.h"
#include "../core/job.h"
#include "../core/target.h"
#include "../util/err.h"
#include "../util/parse.h"
#include "../util/sig.h"

/*
 * The -o file while the command runs: a temporary file beside the name,
 * renamed over it only once the report is complete. One per process.
 */
static struct {
	FILE *f;
	int dirfd;
	int cleanup;
	char tmp[NAME_MAX + 1];
	char name[NAME_MAX + 1];
	const char *path;
} outfile = { .dirfd = -1, .cleanup = -1 };

/*
 * Character devices a report may go to: /dev/null, /dev/zero, /dev/full
 * and terminals. Not /dev/mem, /dev/port, SCSI generic (a write is a
 * command to the disk) or the like; opening some devices has effects, so
 * this is decided before open().
 */
static bool chardev_ok(dev_t rdev)
{
	unsigned int ma = major(rdev), mi = minor(rdev);

	if (ma == 1)
		return mi == 3 || mi == 5 || mi == 7;
	return ma == 4 || ma == 5 || (ma >= 136 && ma <= 143);
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* A terminal, /dev/null or a pipe: opened as it is, never created. */
static FILE *open_special(const char *path, const struct stat *st,
			  struct err *err)
{
	struct stat fst;
	FILE *f;
	int fd;

	if (S_ISCHR(st->st_mode) && !chardev_ok(st->st_rdev)) {
		err_set(err, EXIT_ENV, 0,
			"--output %s is a device iolab does not write reports to; give a file name, -, or /dev/null",
			path);
		return NULL;
	}
	fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		err_set(err, EXIT_ENV, errno, "cannot write --output %s: %s",
			path, strerror(errno));
		return NULL;
	}
	/* The name may have been switched between stat() and open(). */
	if (fstat(fd, &fst) ||
	    (fst.st_mode & S_IFMT) != (st->st_mode & S_IFMT) ||
	    fst.st_rdev != st->st_rdev) {
		close(fd);
		err_set(err, EXIT_ENV, 0,
			"--output %s changed while iolab opened it; run again",
			path);
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		err_set(err, EXIT_ENV, errno, "cannot write --output %s: %s",
			path, strerror(errno));
		close(fd);
	}
	return f;
}

/* True if @name in @dirfd is the entry @target names, existing or not. */
static bool same_name(int dirfd, const char *name, const char *target)
{
	const char *slash = strrchr(target, '/');
	char dir[PATH_MAX];
	struct stat a, b;
	bool same;
	int fd;

	if (strcmp(slash ? slash + 1 : target, name))
		return false;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == target)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - target),
			 target);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return false;
	same = !fstat(fd, &a) && !fstat(dirfd, &b) && same_file(&a, &b);
	close(fd);
	return same;
}

/* ".NAME.XXXXXX" beside NAME, created new, never through a link. */
static int create_temp(int dirfd, const char *name, char *tmp, size_t len)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	bool short_name = strlen(name) + 9 <= NAME_MAX;

	for (int tries = 0; tries < 100; tries++) {
		unsigned char r[6];
		char sfx[sizeof(r) + 1];
		int fd;

		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return -1;
		for (size_t i = 0; i < sizeof(r); i++)
			sfx[i] = abc[r[i] % (sizeof(abc) - 1)];
		sfx[sizeof(r)] = '\0';
		snprintf(tmp, len, ".%s.%s", short_name ? name : "iolab-out",
			 sfx);
		fd = openat(dirfd, tmp,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    0644);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

FILE *cli_open_output(const char *path, const char *target, struct err *err)
{
	char dir[PATH_MAX], full[PATH_MAX + NAME_MAX + 2];
	struct stat st, lst, tst, o1;
	const char *name, *slash;
	mode_t mode = 0644;
	bool exists;
	int fd;

	if (!path || !strcmp(path, "-"))
		return stdout;
	if (!*path) {
		err_set(err, EXIT_USAGE, 0, "--output needs a file name");
		return NULL;
	}
	exists = !stat(path, &st);
	if (exists && S_ISBLK(st.st_mode)) {
		err_set(err, EXIT_ENV, 0,
			"--output %s is a block device: iolab never writes a report onto a disk; give a file name",
			path);
		return NULL;
	}
	if (target && exists && !stat(target, &tst) && same_file(&st, &tst)) {
		err_set(err, EXIT_USAGE, 0,
			"--output %s is the target itself; choose another file",
			path);
		return NULL;
	}
	/* /dev/stdout and the like: the stream the caller already gave us. */
	if (exists && !fstat(STDOUT_FILENO, &o1) && same_file(&st, &o1))
		return stdout;
	if (exists && S_ISDIR(st.st_mode)) {
		err_set(err, EXIT_USAGE, 0,
			"--output %s is a directory; give a file name", path);
		return NULL;
	}
	if (exists && !S_ISREG(st.st_mode))
		return open_special(path, &st, err);

	/* A file, new or not: written beside it, renamed over it at the end. */
	slash = strrchr(path, '/');
	name = slash ? slash + 1 : path;
	if (!*name || !strcmp(name, ".") || !strcmp(name, "..") ||
	    strlen(name) > NAME_MAX) {
		err_set(err, EXIT_USAGE, 0,
			"--output %s does not name a file; give a file name",
			path);
		return NULL;
	}
	snprintf(dir, sizeof(dir), "%.*s",
		 slash ? (slash == path ? 1 : (int)(slash - path)) : 1,
		 slash ? path : ".");
	outfile.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (outfile.dirfd < 0) {
		err_set(err, EXIT_ENV, errno, "cannot write --output %s: %s",
			path, strerror(errno));
		return NULL;
	}
	/* A file made in /dev (a mistyped /dev/sdX) would stand for a device. */
	if (!fstat(outfile.dirfd, &lst) && !stat("/dev", &tst) &&
	    same_file(&lst, &tst)) {
		err_set(err, EXIT_ENV, 0,
			"--output %s is not a device iolab writes reports to and iolab does not create files in /dev; give a file name",
			path);
		goto fail;
	}
	if (target && same_name(outfile.dirfd, name, target)) {
		err_set(err, EXIT_USAGE, 0,
			"--output %s is the target itself; choose another file",
			path);
		goto fail;
	}
	/* A link at the name is replaced, never followed. */
	if (!fstatat(outfile.dirfd, name, &lst, AT_SYMLINK_NOFOLLOW) &&
	    S_ISREG(lst.st_mode)) {
		if (faccessat(outfile.dirfd, name, W_OK, AT_EACCESS)) {
			err_set(err, EXIT_ENV, errno,
				"cannot write --output %s: %s", path,
				strerror(errno));
			goto fail;
		}
		mode = lst.st_mode & 0777;
	}
	snprintf(outfile.name, sizeof(outfile.name), "%s", name);
	/* Until the temporary file is registered, a signal must not leave it. */
	sig_install_exit();
	fd = create_temp(outfile.dirfd, name, outfile.tmp, sizeof(outfile.tmp));
	if (fd < 0) {
		err_set(err, EXIT_ENV, errno, "cannot write --output %s: %s",
			path, strerror(errno));
		goto fail;
	}
	snprintf(full, sizeof(full), "%s/%s", dir, outfile.tmp);
	/* Removed only while the name is still our file (a signal too). */
	if (!fstat(fd, &lst))
		outfile.cleanup = cleanup_add_inode(outfile.dirfd, outfile.tmp,
						    full, lst.st_dev,
						    lst.st_ino);
	else
		outfile.cleanup = cleanup_add(full);
	if (mode != 0644)
		(void)fchmod(fd, mode);
	outfile.f = fdopen(fd, "w");
	if (!outfile.f) {
		err_set(err, EXIT_ENV, errno, "cannot write --output %s: %s",
			path, strerror(errno));
		close(fd);
		unlinkat(outfile.dirfd, outfile.tmp, 0);
		cleanup_remove(outfile.cleanup);
		outfile.cleanup = -1;
		goto fail;
	}
	outfile.path = path;
	return outfile.f;
fail:
	close(outfile.dirfd);
	outfile.dirfd = -1;
	return NULL;
}

/* Rename the finished temporary file over the name, or remove it. */
static bool finish_file(FILE *f, bool complete, struct err *err)
{
	bool ok = true;
	int e = 0;

	if (fflush(f) || fsync(fileno(f)))
		ok = false, e = errno;
	if (fclose(f) && ok)
		ok = false, e = errno;
	if (ok && complete &&
	    renameat(outfile.dirfd, outfile.tmp, outfile.dirfd, outfile.name))
		ok = false, e = errno;
	if (!ok || !complete)
		unlinkat(outfile.dirfd, outfile.tmp, 0);
	cleanup_remove(outfile.cleanup);
	outfile.cleanup = -1;
	close(outfile.dirfd);
	outfile.dirfd = -1;
	outfile.f = NULL;
	if (!ok && complete)
		return err_set(
			err, EXIT_ENV, e,
			"cannot write the report to %s: %s; the file is left as it was",
			outfile.path, strerror(e));
	return true;
}

bool cli_close_output(FILE *f, bool complete, struct err *err)
{
	if (f == stdout)
		return fflush(f) == 0 ||
		       err_set(err, EXIT_ENV, errno,
			       "cannot write the report: %s", strerror(errno));
	if (f == outfile.f)
		return finish_file(f, complete, err);
	if (fclose(f))
		return err_set(err, EXIT_ENV, errno,
			       "cannot write the report: %s", strerror(errno));
	return true;
}

int cli_finish(int rc, struct err *err, struct target *t, FILE *out,
	       bool complete)
{
	if (err->msg[0] && rc == EXIT_OK)
		rc = err_report(err);
	if (t) {
		if (t->created && t->keep)
			fprintf(stderr, "iolab: kept test file %s\n", t->path);
		target_release(t);
	}
	if (out && !cli_close_output(out, complete, err) && rc == EXIT_OK)
		rc = err_report(err);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

bool cli_parse_percentiles(struct job_spec *j, const char *list,
			   struct err *err)
{
	char buf[512], *items[JOB_MAX_PERCENTILES];
	int n;

	if (strlen(list) >= sizeof(buf))
		return err_set(err, EXIT_USAGE, 0, "the list is too long");
	strcpy(buf, list);
	/* fio writes the list with colons; accept both. */
	for (char *p = buf; *p; p++)
		if (*p == ':')
			*p = ',';
	n = parse_list(buf, items, JOB_MAX_PERCENTILES, err);
	if (n < 0)
		return false;
	for (int i = 0; i < n; i++)
		if (!parse_double(items[i], 0, 100, &j->percentiles[i], err))
			return false;
	qsort(j->percentiles, (size_t)n, sizeof(double), cmp_double);
	j->npercentiles = n;
	return true;
}

const char *const cli_pattern_names[] = { "random", "zero", NULL };

bool cli_progress_wanted(void)
{
	return isatty(STDERR_FILENO);
}
