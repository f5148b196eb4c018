// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Targets: the safety rules of design.md section 4 live here. A file we
 * create is filled with incompressible data at full size before anything is
 * timed; anything we did not create is only read unless the user says so;
 * a block device in use is never written.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "blkinfo.h"
#include "owned.h"
#include "target.h"
#include "../util/err.h"
#include "../util/fsread.h"
#include "../util/parse.h"
#include "../util/prng.h"
#include "../util/sig.h"
#include "../util/warn.h"
#include "../util/xmem.h"

#define FILL_CHUNK (4u << 20)

/* The disk behind a device number; a new disk that took over the number
 * (hot-unplug, then another disk) has another. 0 where unknown. */
static uint64_t disk_seq(int fd)
{
	uint64_t seq = 0;

#ifdef BLKGETDISKSEQ
	if (ioctl(fd, BLKGETDISKSEQ, &seq))
		seq = 0;
#else
	(void)fd;
#endif
	return seq;
}

static const struct {
	unsigned long magic;
	const char *name;
} fs_magics[] = {
	{ 0xEF53, "ext4" },	    { 0x58465342, "xfs" },
	{ 0x9123683E, "btrfs" },    { 0x01021994, "tmpfs" },
	{ 0x858458f6, "ramfs" },    { 0x6969, "nfs" },
	{ 0x2fc12fc1, "zfs" },	    { 0xF2F52010, "f2fs" },
	{ 0x794c7630, "overlay" },  { 0xFF534D42, "cifs" },
	{ 0xFE534D42, "smb2" },	    { 0x65735546, "fuse" },
	{ 0x4d44, "vfat" },	    { 0x2011BAB0, "exfat" },
	{ 0x7366746e, "ntfs3" },    { 0xca451a4e, "bcachefs" },
	{ 0x5346544e, "ntfs" },	    { 0x3153464a, "jfs" },
	{ 0x52654973, "reiserfs" }, { 0x73717368, "squashfs" },
	{ 0x9fa0, "proc" },	    { 0x62656572, "sysfs" },
};

static void fs_name(const char *path, int fd, dev_t dev, char *out, size_t len)
{
	struct statfs sf;
	char line[4096];
	FILE *f;

	/* mountinfo names the type exactly (ext3 vs ext4, fuse.x). */
	f = fopen("/proc/self/mountinfo", "re");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			unsigned int maj, mi;
			char *dash, type[64];

			if (sscanf(line, "%*u %*u %u:%u", &maj, &mi) != 2 ||
			    makedev(maj, mi) != dev)
				continue;
			dash = strstr(line, " - ");
			if (dash && sscanf(dash + 3, "%63s", type) == 1) {
				snprintf(out, len, "%s", type);
				fclose(f);
				return;
			}
		}
		fclose(f);
	}
	if (fd >= 0 ? fstatfs(fd, &sf) : statfs(path, &sf))
		return;
	for (size_t i = 0; i < sizeof(fs_magics) / sizeof(fs_magics[0]); i++)
		if ((unsigned long)sf.f_type == fs_magics[i].magic)
			snprintf(out, len, "%s", fs_magics[i].name);
}

void target_fs_type(const char *path, char *out, size_t len)
{
	struct stat st;

	out[0] = 0;
	if (!stat(path, &st))
		fs_name(path, -1, st.st_dev, out, len);
}

bool target_fs_in_ram(const char *path)
{
	struct statfs sf;

	return !statfs(path, &sf) && ((unsigned long)sf.f_type == 0x01021994 ||
				      (unsigned long)sf.f_type == 0x858458f6);
}

/* A loop device whose backing file sits on tmpfs is RAM too. */
static bool loop_on_ram(const char *disk)
{
	char path[128], backing[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", disk);
	if (fsv_read(&fsview_host, path, backing, sizeof(backing)) <= 0)
		return false;
	return target_fs_in_ram(backing);
}

static void fill_env(struct target *t, const struct stat *st)
{
	struct target_env *e = &t->env;
	struct utsname u;
	struct blkinfo bi;
	dev_t dev = t->is_bdev ? st->st_rdev : st->st_dev;

	e->rotational = -1;
	if (!uname(&u))
		snprintf(e->kernel, sizeof(e->kernel), "%s", u.release);
	if (!t->is_bdev)
		fs_name(t->path, t->fd, st->st_dev, e->fs_type,
			sizeof(e->fs_type));
	if (blkinfo_get(&fsview_host, dev, &bi)) {
		snprintf(e->device, sizeof(e->device), "%s", bi.disk);
		snprintf(e->partition, sizeof(e->partition), "%s", bi.part);
		snprintf(e->driver, sizeof(e->driver), "%s", bi.driver);
		snprintf(e->model, sizeof(e->model), "%s", bi.model);
		e->rotational = bi.rotational;
		snprintf(e->link, sizeof(e->link), "%s", bi.link);
		e->link_mbps = bi.link_mbps;
		if (!t->logical_block_size)
			t->logical_block_size = bi.logical_block_size;
	}
	e->ram_backed =
		!strcmp(e->fs_type, "tmpfs") || !strcmp(e->fs_type, "ramfs") ||
		!strncmp(e->device, "ram", 3) ||
		!strncmp(e->device, "zram", 4) ||
		(!strncmp(e->device, "loop", 4) && loop_on_ram(e->device));
}

/* O_DIRECT alignment of a file, from statx where the kernel reports it. */
static void file_dio_align(struct target *t)
{
#ifdef STATX_DIOALIGN
	struct statx sx;

	if (!statx(t->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) &&
	    (sx.stx_mask & STATX_DIOALIGN) && sx.stx_dio_offset_align) {
		t->logical_block_size = sx.stx_dio_offset_align;
		t->dio_mem_align = sx.stx_dio_mem_align;
	}
#else
	(void)t;
#endif
}

/*
 * Fill through the descriptor we created, never the name: O_DIRECT where the
 * filesystem takes it (no page cache left behind), else buffered.
 */
static bool fill_file(struct target *t, uint64_t total, enum data_pattern pat,
		      bool progress, struct err *err)
{
	void *buf = xaligned(4096, FILL_CHUNK);
	struct prng rng;
	uint64_t done = 0;
	time_t last = 0;
	bool ok = true, direct = true;
	int fd;

	/* No message for a refused O_DIRECT: it is not an error here. */
	fd = target_reopen(t, O_WRONLY | O_DIRECT, NULL);
	if (fd < 0 && errno == EINVAL) {
		direct = false;
		fd = target_reopen(t, O_WRONLY, err);
	} else if (fd < 0) {
		fd = target_reopen(t, O_WRONLY | O_DIRECT, err);
	}
	if (fd < 0) {
		free(buf);
		return false;
	}
	prng_seed(&rng, (uint64_t)time(NULL) ^ (uint64_t)getpid());
	memset(buf, 0, FILL_CHUNK);
	while (done < total) {
		size_t n = total - done < FILL_CHUNK ? (size_t)(total - done) :
						       FILL_CHUNK;
		ssize_t w;

		if (sig_pending()) {
			ok = err_set(
				err, sig_exit_code(sig_pending()), EINTR,
				"interrupted while preparing %s; removed it",
				t->path);
			break;
		}
		/* New random data per chunk: nothing to compress or dedupe. */
		if (pat == PATTERN_RANDOM)
			prng_fill(&rng, buf, FILL_CHUNK);
		w = pwrite(fd, buf, n, (off_t)done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EINVAL && direct) {
			/* Alignment O_DIRECT wants here is not 4096. */
			int bfd = target_reopen(t, O_WRONLY, err);

			if (bfd < 0) {
				ok = false;
				break;
			}
			close(fd);
			fd = bfd;
			direct = false;
			continue;
		}
		if (w <= 0) {
			int e = w < 0 ? errno : EIO;

			ok = err_set(err, e == ENOSPC ? EXIT_ENV : EXIT_IO, e,
				     "cannot fill %s at offset %llu: %s",
				     t->path, (unsigned long long)done,
				     strerror(e));
			break;
		}
		done += (uint64_t)w;
		if (progress && time(NULL) != last) {
			char a[32], b[32];

			last = time(NULL);
			fprintf(stderr,
				"\riolab: writing test file %s: %3.0f%% (%s of %s)\033[K",
				t->path, 100.0 * (double)done / (double)total,
				fmt_size(done, a, sizeof(a)),
				fmt_size(total, b, sizeof(b)));
		}
	}
	if (progress)
		fprintf(stderr, "\r\033[K");
	if (ok && fdatasync(fd))
		ok = err_set(err, EXIT_IO, errno, "cannot sync %s: %s", t->path,
			     strerror(errno));
	if (ok)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	free(buf);
	return ok;
}

/*
 * Create the test file in a directory we hold open, O_EXCL and O_NOFOLLOW,
 * and keep its descriptor: whatever happens to the name later, we write
 * only this inode. Its size is rounded up to 4 KiB so that the O_DIRECT
 * fill (and O_DIRECT jobs) can reach its end; the region stays as asked.
 */
static bool create_file(struct target *t, const struct target_req *r,
			struct err *err)
{
	uint64_t len = r->size ? r->size : r->create_size;
	uint64_t total = (r->offset + len + 4095) & ~4095ull;
	char dir[PATH_MAX], a[32], b[32], *slash;
	const char *base;
	struct statvfs vfs;
	struct stat st;
	int fd;

	if (!len)
		return err_set(
			err, EXIT_USAGE, 0,
			"%s does not exist and no --size was given to create it",
			r->path);
	snprintf(dir, sizeof(dir), "%s", r->path);
	slash = strrchr(dir, '/');
	base = slash ? r->path + (slash - dir) + 1 : r->path;
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	t->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->dir_fd < 0)
		return err_set(
			err, errno == ENOENT ? EXIT_USAGE : EXIT_ENV, errno,
			"cannot create test file %s: %s; %s", r->path,
			strerror(errno),
			errno == ENOENT ?
				"its directory does not exist: give a path in one that does" :
				"give a path in a directory you can write to");
	/* ramfs and some FUSE filesystems report no capacity at all. */
	if (!fstatvfs(t->dir_fd, &vfs) && vfs.f_blocks &&
	    (uint64_t)vfs.f_bavail * vfs.f_frsize < total + (64u << 20))
		return err_set(
			err, EXIT_ENV, ENOSPC,
			"not enough free space in %s for a %s test file (%s free); use a smaller --size or another directory",
			dir, fmt_size(total, a, sizeof(a)),
			fmt_size((uint64_t)vfs.f_bavail * vfs.f_frsize, b,
				 sizeof(b)));
	fd = openat(t->dir_fd, base,
		    O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC, 0644);
	if (fd < 0)
		return err_set(
			err, EXIT_ENV, errno,
			"cannot create test file %s: %s; give a path in a directory you can write to",
			r->path, strerror(errno));
	if (fstat(fd, &st)) {
		int e = errno;

		close(fd);
		unlinkat(t->dir_fd, base, 0);
		return err_set(err, EXIT_ENV, e, "cannot stat %s: %s", r->path,
			       strerror(e));
	}
	t->fd = fd;
	t->dev = st.st_dev;
	t->ino = st.st_ino;
	t->name = xstrdup(base);
	t->created = true;
	t->cleanup_handle =
		cleanup_add_inode(t->dir_fd, base, r->path, t->dev, t->ino);
	t->size = total;
	t->region_off = r->offset;
	t->region_len = len;
	t->writable = true;
	if (!fill_file(t, total, r->fill, r->progress, err))
		return false;
	/* Marked only once whole: a half-filled file is no one's to reuse. */
	if (!fstat(fd, &st))
		owned_mark(fd, &st, r->keep);
	return true;
}

/*
 * A file that backs a loop device is that device for the in-use checks:
 * writing it under a mounted filesystem corrupts that filesystem. An
 * active swap file is never written either.
 */
static bool file_free(const struct target *t, struct err *err)
{
	char loop[64], why[384];
	dev_t rdev;

	if (blkinfo_swap_file(&fsview_host, t->dev, t->ino))
		return err_set(
			err, EXIT_ENV, ETXTBSY,
			"refusing to write to %s: it is an active swap file; swapoff it first",
			t->path);
	if (blkinfo_loop_backing(&fsview_host, t->dev, t->ino, loop,
				 sizeof(loop), &rdev) &&
	    blkinfo_in_use(&fsview_host, rdev, why, sizeof(why)))
		return err_set(
			err, EXIT_ENV, EBUSY,
			"refusing to write to %s: it is the backing file of /dev/%s, and %s",
			t->path, loop, why);
	return true;
}

/* While we write a loop device's backing file, hold the loop device O_EXCL:
 * nothing can mount it meanwhile. */
static bool hold_loop(struct target *t, struct err *err)
{
	char loop[64], node[96];
	struct stat st;
	dev_t rdev;

	if (!blkinfo_loop_backing(&fsview_host, t->dev, t->ino, loop,
				  sizeof(loop), &rdev))
		return true;
	snprintf(node, sizeof(node), "/dev/%s", loop);
	t->loop_fd = open(node, O_RDONLY | O_EXCL | O_NOFOLLOW | O_CLOEXEC);
	if (t->loop_fd < 0 && errno == EBUSY)
		return err_set(
			err, EXIT_ENV, EBUSY,
			"refusing to write to %s: it is the backing file of /dev/%s, which is in use (mounted or held open exclusively); unmount or detach it first",
			t->path, loop);
	if (t->loop_fd >= 0 && (fstat(t->loop_fd, &st) || st.st_rdev != rdev)) {
		close(t->loop_fd);
		t->loop_fd = -1;
	}
	return true;
}

static bool prepare_file(struct target *t, const struct target_req *r,
			 const struct stat *st, struct warnings *w,
			 struct err *err)
{
	char a[32], b[32];

	t->size = (uint64_t)st->st_size;
	t->own = owned_check(t->fd, st);
	t->writable = r->allow_write_file || t->own;
	if (r->need_write && !t->writable)
		return err_set(
			err, EXIT_ENV, 0,
			"%s exists and iolab did not create it: refusing to write to it; pass --allow-write-file to let iolab overwrite its contents, or name a new file",
			r->path);
	if (r->need_write && (!file_free(t, err) || !hold_loop(t, err)))
		return false;
	if (!t->size)
		return err_set(
			err, EXIT_USAGE, 0,
			"%s is empty: nothing to read; remove it and let iolab create a test file",
			r->path);
	if (r->offset >= t->size)
		return err_set(err, EXIT_USAGE, 0,
			       "--offset %s is past the end of %s (%s)",
			       fmt_size(r->offset, a, sizeof(a)), r->path,
			       fmt_size(t->size, b, sizeof(b)));
	t->region_off = r->offset;
	t->region_len = r->size ? r->size : t->size - r->offset;
	if (t->region_off + t->region_len > t->size)
		return err_set(
			err, EXIT_USAGE, 0,
			"--size %s from --offset %llu goes past the end of %s (%s); use a smaller --size",
			fmt_size(t->region_len, a, sizeof(a)),
			(unsigned long long)t->region_off, r->path,
			fmt_size(t->size, b, sizeof(b)));
	if ((uint64_t)st->st_blocks * 512 < t->size - t->size / 100) {
		t->sparse = true;
		warn_add(
			w, "sparse-file",
			"%s has holes (%.0f%% of it allocated): reads of holes return zeros without touching the disk; let iolab create its own test file",
			r->path,
			100.0 * (double)st->st_blocks * 512.0 /
				(double)t->size);
	}
	return true;
}

/*
 * Open the checked block device again; for writing, exclusively. udev
 * probes a device for a moment after a writer closes it, so a brief EBUSY
 * is retried.
 */
static int open_bdev(const struct target *t, bool write, struct err *err)
{
	int fd = -1;

	for (int i = 0; i < 30; i++) {
		fd = target_reopen(t, write ? O_RDWR | O_EXCL : O_RDONLY, err);
		if (fd >= 0 || errno != EBUSY || !write)
			break;
		usleep(100000);
	}
	return fd;
}

static bool bdev_read_only(const struct target *t, struct err *err)
{
	return err_set(
		err, EXIT_ENV, EROFS,
		"refusing to write to %s: it is read-only (BLKROGET); make it writable (blockdev --setrw) or measure reads only",
		t->path);
}

static bool prepare_bdev(struct target *t, const struct target_req *r,
			 const struct stat *st, struct err *err)
{
	char why[384], a[32], b[32];
	unsigned int lbs = 0;
	uint64_t bytes = 0;
	int fd, ro = 0;

	t->is_bdev = true;
	t->rdev = st->st_rdev;
	if (r->need_write && !r->allow_write_device)
		return err_set(
			err, EXIT_ENV, 0,
			"%s is a block device: refusing to write to it, as that destroys its data; pass --allow-write-device if that is what you want",
			r->path);
	if (r->need_write &&
	    blkinfo_in_use(&fsview_host, st->st_rdev, why, sizeof(why)))
		return err_set(err, EXIT_ENV, EBUSY,
			       "refusing to write to %s: %s", r->path, why);
	fd = open_bdev(t, r->need_write, err);
	if (fd < 0) {
		if (errno == EBUSY)
			return err_set(
				err, EXIT_ENV, EBUSY,
				"refusing to write to %s: it is in use (held open exclusively by the kernel or another program)",
				r->path);
		if (r->need_write && (errno == EROFS || errno == EACCES))
			return bdev_read_only(t, err);
		return false;
	}
	if (r->need_write && !ioctl(fd, BLKROGET, &ro) && ro) {
		close(fd);
		return bdev_read_only(t, err);
	}
	t->diskseq = disk_seq(fd);
	if (ioctl(fd, BLKGETSIZE64, &bytes) || ioctl(fd, BLKSSZGET, &lbs)) {
		int e = errno;

		close(fd);
		return err_set(err, EXIT_ENV, e, "cannot size %s: %s", r->path,
			       strerror(e));
	}
	if (r->need_write) {
		/* Held until target_release(); every job reopens through it. */
		close(t->fd);
		t->fd = fd;
	} else {
		close(fd);
	}
	t->size = bytes;
	t->logical_block_size = lbs;
	t->writable = r->need_write;
	if (!bytes)
		return err_set(
			err, EXIT_ENV, 0,
			"%s has size 0 (no medium, or a loop device without a file)",
			r->path);
	if (r->offset >= bytes)
		return err_set(err, EXIT_USAGE, 0,
			       "--offset is past the end of %s (%s)", r->path,
			       fmt_size(bytes, a, sizeof(a)));
	t->region_off = r->offset;
	t->region_len = r->size ? r->size : bytes - r->offset;
	if (t->region_off + t->region_len > bytes)
		return err_set(err, EXIT_USAGE, 0,
			       "--size %s goes past the end of %s (%s)",
			       fmt_size(t->region_len, a, sizeof(a)), r->path,
			       fmt_size(bytes, b, sizeof(b)));
	return true;
}

/*
 * Hold what @path names, without following a final symlink for a file to
 * be written: the name may sit in a directory others can write to. Links
 * to block devices (/dev/disk/by-id/...) are followed; the device is then
 * checked through the descriptor.
 */
static int hold_path(const struct target_req *r, struct stat *st,
		     struct err *err)
{
	int fd = open(r->path, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, st)) {
		close(fd);
		return -1;
	}
	if (!S_ISLNK(st->st_mode))
		return fd;
	close(fd);
	fd = open(r->path, O_PATH | O_CLOEXEC);
	if (fd < 0 || fstat(fd, st)) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		err_set(err, EXIT_ENV, e,
			"%s is a symbolic link that cannot be followed: %s; name the file or device itself",
			r->path, strerror(e));
		errno = 0;
		return -1;
	}
	if (S_ISREG(st->st_mode) && r->need_write) {
		close(fd);
		err_set(err, EXIT_ENV, 0,
			"%s is a symbolic link: refusing to write to a file through a link, which can be replaced; name the file itself (realpath %s)",
			r->path, r->path);
		errno = 0;
		return -1;
	}
	return fd;
}

bool target_prepare(struct target *t, const struct target_req *r,
		    struct warnings *w, struct err *err)
{
	struct stat st;
	bool ok;

	memset(t, 0, sizeof(*t));
	t->cleanup_handle = -1;
	t->fd = -1;
	t->dir_fd = -1;
	t->loop_fd = -1;
	t->keep = r->keep;
	if (!r->path || !*r->path)
		return err_set(err, EXIT_USAGE, 0, "no target given");
	t->path = xstrdup(r->path);
	t->fd = hold_path(r, &st, err);
	if (t->fd < 0) {
		if (!errno)
			return false;
		if (errno != ENOENT)
			return err_set(err, EXIT_ENV, errno,
				       "cannot access %s: %s", r->path,
				       strerror(errno));
		ok = create_file(t, r, err);
		if (ok && fstat(t->fd, &st))
			ok = err_set(err, EXIT_ENV, errno, "cannot stat %s: %s",
				     r->path, strerror(errno));
	} else if (S_ISREG(st.st_mode)) {
		t->dev = st.st_dev;
		t->ino = st.st_ino;
		ok = prepare_file(t, r, &st, w, err);
	} else if (S_ISBLK(st.st_mode)) {
		t->dev = st.st_dev;
		t->ino = st.st_ino;
		ok = prepare_bdev(t, r, &st, err);
	} else {
		ok = err_set(err, EXIT_USAGE, 0,
			     "%s is not a regular file or a block device",
			     r->path);
	}
	if (!ok)
		return false;
	if (!t->is_bdev)
		file_dio_align(t);
	fill_env(t, &st);
	if (!t->logical_block_size)
		t->logical_block_size = 512;
	return true;
}

int target_reopen(const struct target *t, int flags, struct err *err)
{
	char proc[64];
	struct stat st;
	int fd, e;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", t->fd);
	fd = t->fd >= 0 ? open(proc, flags | O_CLOEXEC) : -1;
	if (fd < 0) {
		e = t->fd >= 0 ? errno : EBADF;
		if (e == ENOENT && access("/proc/self/fd", F_OK))
			err_set(err, EXIT_ENV, e,
				"cannot reopen %s through /proc/self/fd: /proc is not mounted; mount it (mount -t proc proc /proc)",
				t->path);
		else
			err_set(err, EXIT_ENV, e, "cannot open %s: %s", t->path,
				strerror(e));
		errno = e;
		return -1;
	}
	if (fstat(fd, &st) || st.st_dev != t->dev || st.st_ino != t->ino ||
	    (t->is_bdev && st.st_rdev != t->rdev) ||
	    (t->is_bdev && t->diskseq && disk_seq(fd) != t->diskseq)) {
		close(fd);
		err_set(err, EXIT_ENV, 0,
			"%s is no longer the file or device iolab checked; refusing to use it: make sure nothing replaces the target while iolab runs",
			t->path);
		errno = 0;
		return -1;
	}
	return fd;
}

/* Checked again before every write: the world may have changed. */
static bool still_free(const struct target *t, struct err *err)
{
	char why[384];

	if (!t->is_bdev)
		return file_free(t, err);
	if (blkinfo_in_use(&fsview_host, t->rdev, why, sizeof(why)))
		return err_set(err, EXIT_ENV, EBUSY,
			       "refusing to write to %s: %s", t->path, why);
	return true;
}

int target_open(const struct target *t, enum cache_mode cache, bool write,
		struct err *err)
{
	int flags = O_CLOEXEC | (write ? O_RDWR : O_RDONLY);
	int fd;

	if (write && !t->writable) {
		err_set(err, EXIT_ENV, 0,
			"refusing to write to %s: this run may only read it",
			t->path);
		return -1;
	}
	if (write && !still_free(t, err))
		return -1;
	if (cache_direct(cache))
		flags |= O_DIRECT;
	if (write && cache_dsync(cache))
		flags |= O_DSYNC;
	fd = target_reopen(t, flags, err);
	if (fd >= 0 || !errno)
		return fd;
	if (errno == EINVAL && cache_direct(cache))
		err_set(err, EXIT_ENV, EINVAL,
			"%s (%s) does not support O_DIRECT, which --cache %s needs; use --cache writeback",
			t->path,
			t->env.fs_type[0] ? t->env.fs_type : "this filesystem",
			cache_name(cache));
	else if (errno == EBUSY)
		err_set(err, EXIT_ENV, EBUSY,
			"%s is in use by the kernel or another program",
			t->path);
	else if (errno == ETXTBSY && write)
		err_set(err, EXIT_ENV, ETXTBSY,
			"refusing to write to %s: it is in use as swap or by a running program",
			t->path);
	else if ((errno == EROFS || errno == EACCES) && write && t->is_bdev)
		bdev_read_only(t, err);
	return -1;
}

bool target_check_job(const struct target *t, const struct job_spec *j,
		      struct err *err)
{
	unsigned int a = t->logical_block_size;
	char sz[32], bs[32];

	if (t->region_len < j->bs)
		return err_set(
			err, EXIT_USAGE, 0,
			"the region (%s) is smaller than --bs %s; use a larger --size",
			fmt_size(t->region_len, sz, sizeof(sz)),
			fmt_size(j->bs, bs, sizeof(bs)));
	if (rw_writes(j) && !t->writable)
		return err_set(
			err, EXIT_ENV, 0,
			"refusing to write to %s: this run may only read it",
			t->path);
	if (!cache_direct(j->cache) || engine_has(j->engine, ENGINE_NO_IO))
		return true;
	if (j->bs % a)
		return err_set(
			err, EXIT_USAGE, 0,
			"--bs %llu is not a multiple of the %u-byte block size of %s, which O_DIRECT (--cache %s) requires; use --bs 4k, or a buffered mode such as --cache writeback",
			(unsigned long long)j->bs, a, t->path,
			cache_name(j->cache));
	if (t->region_off % a)
		return err_set(
			err, EXIT_USAGE, 0,
			"--offset %llu is not a multiple of the %u-byte block size of %s, which O_DIRECT (--cache %s) requires",
			(unsigned long long)t->region_off, a, t->path,
			cache_name(j->cache));
	return true;
}

/* Remove the file we created, but only while its name is still ours. */
static void remove_created(struct target *t)
{
	struct stat st;

	if (fstatat(t->dir_fd, t->name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno != ENOENT)
			fprintf(stderr,
				"iolab: cannot check test file %s: %s; it is left behind, remove it by hand\n",
				t->path, strerror(errno));
	} else if (st.st_dev != t->dev || st.st_ino != t->ino) {
		fprintf(stderr,
			"iolab: %s is no longer the test file iolab created (it was replaced); left it alone\n",
			t->path);
	} else if (unlinkat(t->dir_fd, t->name, 0)) {
		fprintf(stderr,
			"iolab: cannot remove test file %s: %s; it is left behind, remove it by hand\n",
			t->path, strerror(errno));
	}
}

void target_release(struct target *t)
{
	if (!t->path)
		return; /* never prepared */
	if (t->created && !t->keep && t->name && t->dir_fd >= 0)
		remove_created(t);
	cleanup_remove(t->cleanup_handle);
	t->cleanup_handle = -1;
	if (t->fd >= 0)
		close(t->fd);
	if (t->dir_fd >= 0)
		close(t->dir_fd);
	if (t->loop_fd >= 0)
		close(t->loop_fd);
	t->fd = t->dir_fd = t->loop_fd = -1;
	free(t->name);
	t->name = NULL;
	free(t->path);
	t->path = NULL;
}

const char *target_describe(const struct target *t, char *buf, size_t len)
{
	const struct target_env *e = &t->env;
	char sz[32];

	snprintf(buf, len, "%s (%s%s%s%s%s%s%s%s)", t->path,
		 t->is_bdev ? "block device, " :
			      (t->created ? "test file, " :
			       t->own	  ? "kept test file, " :
					    "file, "),
		 fmt_size(t->region_len, sz, sizeof(sz)),
		 e->fs_type[0] ? " on " : "", e->fs_type,
		 e->device[0] ? ", " : "", e->device,
		 e->device[0] && e->driver[0] ? " via " : "",
		 e->device[0] ? e->driver : "");
	return buf;
}
