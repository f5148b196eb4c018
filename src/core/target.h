/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The thing measured: a regular file (created and filled by us, or the
 * user's, read-only unless allowed) or a block device (read-only unless
 * --allow-write-device, and never when mounted or held). Prepared once,
 * then opened by each job with that job's cache mode.
 */
#ifndef IOLAB_CORE_TARGET_H
#define IOLAB_CORE_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "job.h"

struct err;
struct warnings;

struct target_req {
	const char *path;
	uint64_t size; /* region length; 0 = whole file or device */
	uint64_t create_size; /* size of a file we create when size is 0 */
	uint64_t offset; /* region start */
	bool need_write; /* some job will write */
	bool allow_write_file;
	bool allow_write_device;
	bool keep; /* keep a file we created */
	enum data_pattern fill;
	bool progress; /* show fill progress on a terminal */
};

struct target_env {
	char kernel[65];
	char fs_type[32]; /* filesystem holding a file; "" for devices */
	char device[64]; /* whole disk behind it: "vda" */
	char partition[64];
	char driver[64]; /* "virtio_blk" */
	char model[96];
	int rotational; /* -1 unknown */
	char link[48]; /* the disk's PCIe link, "" unknown (blkinfo.h) */
	double link_mbps; /* what that link carries, MB/s; 0 unknown */
	bool ram_backed; /* tmpfs, ramfs, brd, zram */
};

struct target {
	char *path;
	bool is_bdev;
	bool created; /* we made it; we remove it unless keep */
	bool own; /* an existing file iolab made and marked (owned.h) */
	bool keep;
	bool writable;
	uint64_t size; /* of the file or device */
	uint64_t region_off, region_len;
	unsigned int logical_block_size; /* O_DIRECT offset/length unit */
	unsigned int dio_mem_align;
	bool sparse; /* an existing file with holes */
	int cleanup_handle;
	/*
	 * The descriptor of what was checked, held until target_release():
	 * every later open goes through it (/proc/self/fd), never through
	 * the name, which someone may have replaced. A written block device
	 * is held O_EXCL (so nothing mounts it while we write); a file we
	 * created, read-write; else O_PATH.
	 */
	int fd;
	dev_t dev; /* st_dev and st_ino of what was checked */
	ino_t ino;
	dev_t rdev; /* the device number of a block device */
	uint64_t diskseq; /* and its disk sequence number, 0 unknown */
	int dir_fd; /* the directory a created file is in, else -1 */
	char *name; /* its name there */
	/* A written file that backs a loop device: that device, held O_EXCL
	 * so that nothing mounts it while we write; else -1. */
	int loop_fd;
	struct target_env env;
};

/*
 * Prepare per @req: checks, creation and fill. Warnings go to @w. Call
 * target_release() afterwards even when this fails (it removes a file left
 * half-written).
 */
bool target_prepare(struct target *t, const struct target_req *req,
		    struct warnings *w, struct err *err);
/*
 * Open for a job: O_DIRECT and O_DSYNC as the cache mode says, read-write
 * only if @write. Through the held descriptor; a write re-runs the in-use
 * checks. Returns the fd or -1 with @err set.
 */
int target_open(const struct target *t, enum cache_mode cache, bool write,
		struct err *err);
/*
 * Open the checked file or device again with @flags (O_CLOEXEC added),
 * through the held descriptor, and verify it is the same inode. Returns the
 * fd or -1 with @err set (may be NULL).
 */
int target_reopen(const struct target *t, int flags, struct err *err);
/* Check block size and region against O_DIRECT alignment. */
bool target_check_job(const struct target *t, const struct job_spec *j,
		      struct err *err);
/*
 * The target as the tables name it: "PATH (test file, 1 GiB on ext4, vda
 * via virtio_blk)"; the size is the region measured. Returns @buf.
 */
const char *target_describe(const struct target *t, char *buf, size_t len);
/* Remove a file we created (unless kept) and free. */
void target_release(struct target *t);
/* The filesystem @path is on ("ext4", "tmpfs"), "" when unknown. */
void target_fs_type(const char *path, char *out, size_t len);
/* Whether @path is on tmpfs or ramfs: its data is host RAM. */
bool target_fs_in_ram(const char *path);

#endif
