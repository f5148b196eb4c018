/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reads that no disk served: a region whose extents are unwritten
 * (fallocate, qemu-img preallocation=falloc) or holes is answered with
 * zeros by the filesystem; a thin or sparse device behind a virtual disk
 * does the same for blocks never written, invisibly to the guest. The
 * first is asked of the filesystem (FIEMAP); the second can only be seen
 * in what the reads return, so a few blocks are sampled.
 */
#ifndef IOLAB_CORE_UNBACKED_H
#define IOLAB_CORE_UNBACKED_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Fraction of [@off, @off + @len) of the file open on @fd that is a hole
 * or an unwritten extent, in @frac. False if the filesystem cannot tell
 * (no FIEMAP: block devices, tmpfs before 6.x, FUSE).
 */
bool unbacked_extents(int fd, uint64_t off, uint64_t len, double *frac);

struct unbacked_sample {
	unsigned int blocks; /* read */
	unsigned int zero; /* of them all zero bytes */
	unsigned int repeated; /* not zero, and equal to an earlier one */
};

#define UNBACKED_BLOCK 4096u
#define UNBACKED_MAX_BLOCKS 64u

/*
 * Read up to UNBACKED_MAX_BLOCKS blocks spread evenly over the region
 * (O_DIRECT where @fd has it, so the page cache is not filled), stopping
 * when @budget_ns has passed. False if not one block could be read.
 */
bool unbacked_sample(int fd, uint64_t off, uint64_t len, uint64_t budget_ns,
		     struct unbacked_sample *s);

#endif
