// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The probe's own files: DIR/iolab-probe.dat, 16 MiB of random data written
 * once and synced, so that a read probe reads stored, incompressible data
 * (not a hole the filesystem answers from its metadata) and --write has a
 * file it may overwrite. Created with O_EXCL | O_NOFOLLOW, mode 0600: never
 * an existing file, never through a planted link. Only a leftover of a
 * killed probe is replaced, recognised by its magic first bytes, owner, size
 * and single link. Never where it would leave less than 10 % or 64 MiB
 * free. Removed on exit if the name is still the inode created.
 *
 * The default targets: one such file per mounted local, block-backed,
 * writable filesystem (ext4, xfs, btrfs...); tmpfs, proc, sysfs, overlay,
 * network and FUSE filesystems are not disks. The file goes in the
 * mountpoint's top, except for / where it goes in /var/lib/iolab-probe
 * (if that is on / too), to keep the root directory clean.
 */
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "probe_impl.h"
#include "../../util/err.h"
#include "../../util/prng.h"
#include "../../util/xmem.h"

#define ROOT_DIR "/var/lib/iolab-probe"
/* What the file must leave free: a probe must never be what fills a disk. */
#define MIN_FREE_BYTES (64ull << 20)
#define MIN_FREE_PERCENT 10
#define CHUNK (1u << 20)

static const char magic[16] = "iolab-probe v1\n";

/* A leftover of ours: regular, our uid, one link, our size and magic. */
static bool is_leftover(int dirfd)
{
	char head[sizeof(magic)];
	struct stat st;
	bool ours;
	int fd = openat(dirfd, PROBE_FILE_NAME,
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
				O_CLOEXEC);

	if (fd < 0)
		return false;
	ours = !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	       st.st_uid == geteuid() && st.st_nlink == 1 &&
	       (uint64_t)st.st_size == PROBE_FILE_SIZE &&
	       pread(fd, head, sizeof(head), 0) == (ssize_t)sizeof(head) &&
	       !memcmp(head, magic, sizeof(magic));
	close(fd);
	return ours;
}

/*
 * Room for the file, leaving MIN_FREE_BYTES and MIN_FREE_PERCENT of the
 * filesystem free (a small /boot stays untouched).
 */
static bool room(int dirfd, const char *dir, struct err *err)
{
	struct statvfs v;
	unsigned long long size, avail;

	if (fstatvfs(dirfd, &v))
		return err_set(err, EXIT_ENV, errno, "cannot statfs %s: %s",
			       dir, strerror(errno));
	size = (unsigned long long)v.f_blocks * v.f_frsize;
	avail = (unsigned long long)v.f_bavail * v.f_frsize;
	if (avail < PROBE_FILE_SIZE + MIN_FREE_BYTES ||
	    (avail - PROBE_FILE_SIZE) * 100 < size * MIN_FREE_PERCENT)
		return err_set(
			err, EXIT_ENV, ENOSPC,
			"%s has %llu MiB free of %llu MiB: the probe's %llu MiB file must leave %d%% and %llu MiB free",
			dir, avail >> 20, size >> 20, PROBE_FILE_SIZE >> 20,
			MIN_FREE_PERCENT, MIN_FREE_BYTES >> 20);
	return true;
}

static bool fill(int fd, const char *path, struct err *err)
{
	struct prng r;
	char *buf = xmalloc(CHUNK);
	bool ok = true;

	prng_seed(&r, (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32));
	for (uint64_t off = 0; ok && off < PROBE_FILE_SIZE; off += CHUNK) {
		prng_fill(&r, buf, CHUNK);
		if (!off)
			memcpy(buf, magic, sizeof(magic));
		if (pwrite(fd, buf, CHUNK, (off_t)off) != (ssize_t)CHUNK)
			ok = err_set(err, EXIT_ENV, errno ? errno : ENOSPC,
				     "cannot write %s: %s", path,
				     strerror(errno ? errno : ENOSPC));
	}
	free(buf);
	if (ok && fsync(fd))
		ok = err_set(err, EXIT_ENV, errno, "cannot sync %s: %s", path,
			     strerror(errno));
	/* The reads must come from the disk, not from these pages. */
	if (ok)
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return ok;
}

bool probe_file_create(struct probe_target *t, const char *dir, struct err *err)
{
	const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY |
			  O_CLOEXEC;
	size_t n = dir ? strlen(dir) : 0;
	/* No directory given is the current one (and keeps GCC's
	 * -Wformat-overflow from seeing a NULL %s under the sanitizers). */
	const char *d = n ? dir : ".";
	char *path = xasprintf("%s%s%s", d, n && dir[n - 1] == '/' ? "" : "/",
			       PROBE_FILE_NAME);
	struct stat st;
	int dirfd, fd, e;

	dir = d;

	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd < 0) {
		e = errno;
		err_set(err, EXIT_ENV, e,
			"cannot open the directory %s for the probe's file: %s",
			dir,
			e == ENOTDIR ? "not a directory (or a symbolic link)" :
				       strerror(e));
		goto fail;
	}
	if (!room(dirfd, dir, err)) {
		close(dirfd);
		goto fail;
	}
	fd = openat(dirfd, PROBE_FILE_NAME, flags, 0600);
	/*
	 * Between the check and the unlink the name could change hands; the
	 * directories probe uses are writable by root (or by its user) only.
	 */
	if (fd < 0 && errno == EEXIST && is_leftover(dirfd) &&
	    !unlinkat(dirfd, PROBE_FILE_NAME, 0))
		fd = openat(dirfd, PROBE_FILE_NAME, flags, 0600);
	if (fd < 0) {
		e = errno;
		if (e == EEXIST)
			err_set(err, EXIT_ENV, e,
				"%s exists and is not a file a probe left: probe writes only a file it creates; remove or rename it",
				path);
		else
			err_set(err, EXIT_ENV, e, "cannot create %s: %s", path,
				strerror(e));
		close(dirfd);
		goto fail;
	}
	close(dirfd);
	if (fstat(fd, &st)) {
		e = errno;
		err_set(err, EXIT_ENV, e, "cannot stat %s: %s", path,
			strerror(e));
		close(fd);
		(void)unlink(path);
		goto fail;
	}
	t->path = path;
	t->owned = true;
	t->dev = (uint64_t)st.st_dev;
	t->ino = (uint64_t)st.st_ino;
	if (!fill(fd, path, err)) {
		close(fd);
		probe_file_remove(t);
		t->path = NULL;
		goto fail; /* frees path */
	}
	close(fd);
	return true;
fail:
	free(path);
	return false;
}

void probe_file_remove(struct probe_target *t)
{
	struct stat st;

	if (!t->owned || !t->path)
		return;
	if (!lstat(t->path, &st) && (uint64_t)st.st_dev == t->dev &&
	    (uint64_t)st.st_ino == t->ino)
		(void)unlink(t->path);
	t->owned = false;
}

/* Local, block-backed filesystems: what a disk latency probe is about. */
static bool local_fs(const struct mntent *m)
{
	static const char *const types[] = { "ext2",  "ext3",	  "ext4",
					     "xfs",   "btrfs",	  "f2fs",
					     "jfs",   "reiserfs", "bcachefs",
					     "nilfs2" };

	if (strncmp(m->mnt_fsname, "/dev/", 5) || hasmntopt(m, "ro"))
		return false;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(m->mnt_type, types[i]))
			return true;
	return false;
}

size_t probe_default_dirs(char ***out, size_t max)
{
	char **d = xcalloc(max, sizeof(*d));
	dev_t *seen = xcalloc(max, sizeof(*seen));
	FILE *f = setmntent("/proc/self/mounts", "re");
	struct mntent *m;
	size_t n = 0;

	while (f && n < max && (m = getmntent(f))) {
		struct stat st, rs;
		bool dup = false;

		if (!local_fs(m) || stat(m->mnt_dir, &st))
			continue;
		/* Bind mounts and btrfs subvolumes: one file per device. */
		for (size_t i = 0; i < n; i++)
			dup |= seen[i] == st.st_dev;
		if (dup)
			continue;
		seen[n] = st.st_dev;
		if (!strcmp(m->mnt_dir, "/")) {
			(void)mkdir(ROOT_DIR, 0700); /* EEXIST is fine */
			d[n++] = xstrdup(
				!lstat(ROOT_DIR, &rs) && S_ISDIR(rs.st_mode) &&
						rs.st_dev == st.st_dev ?
					ROOT_DIR :
					"/");
		} else {
			d[n++] = xstrdup(m->mnt_dir);
		}
	}
	if (f)
		endmntent(f);
	free(seen);
	*out = d;
	return n;
}
