/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What each lane does next: the operation (read or write, by the mix) and
 * the offset. Random offsets are uniform over the whole region and aligned
 * to the block size (as DiskSpd and fio's default). Sequential lanes walk
 * their job thread's stripe of the region; the Q lanes of one job thread
 * under the threads engine interleave (lane k takes blocks k, k+Q, ...), so
 * together they form the one sequential stream a guest would send.
 */
#ifndef IOLAB_CORE_WORKLOAD_H
#define IOLAB_CORE_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "job.h"
#include "../util/prng.h"

struct workload {
	struct prng rng;
	uint64_t region_off;
	uint64_t bs;
	uint64_t nblocks; /* whole region, in blocks */
	bool random;
	uint32_t read_thresh; /* op is a read if rand32 < thresh */
	bool all_reads, all_writes;
	uint64_t seq_lo, seq_hi; /* this lane's stripe, in blocks */
	uint64_t seq_first; /* first block of this lane */
	uint64_t seq_cur, seq_step;
};

/*
 * Set up lane @lane of @nlanes for job @j on a region [@off, @off + @len).
 * The seed mixes the job's seed with the lane number.
 */
void workload_init(struct workload *w, const struct job_spec *j,
		   uint64_t region_off, uint64_t region_len, unsigned int lane,
		   unsigned int nlanes);

static inline bool workload_next_is_read(struct workload *w)
{
	if (w->all_reads)
		return true;
	if (w->all_writes)
		return false;
	return (uint32_t)(prng_next(&w->rng) >> 32) < w->read_thresh;
}

static inline uint64_t workload_next_off(struct workload *w)
{
	uint64_t blk;

	if (w->random)
		return w->region_off + prng_below(&w->rng, w->nblocks) * w->bs;
	blk = w->seq_cur;
	w->seq_cur += w->seq_step;
	if (w->seq_cur >= w->seq_hi)
		w->seq_cur = w->seq_first;
	return w->region_off + blk * w->bs;
}

#endif
