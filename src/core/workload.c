// SPDX-License-Identifier: GPL-2.0-or-later
/* Workload generators; see workload.h. */
#include <string.h>

#include "workload.h"

void workload_init(struct workload *w, const struct job_spec *j,
		   uint64_t region_off, uint64_t region_len, unsigned int lane,
		   unsigned int nlanes)
{
	unsigned int per_thread = nlanes / j->threads; /* Q for threads */
	unsigned int thread = lane / per_thread, sub = lane % per_thread;
	uint64_t lo, hi;

	memset(w, 0, sizeof(*w));
	prng_seed(&w->rng, j->seed * 0x9e3779b97f4a7c15ull + lane + 1);
	w->region_off = region_off;
	w->bs = j->bs;
	w->nblocks = region_len / j->bs;
	if (!w->nblocks)
		w->nblocks = 1;
	w->random = rw_is_random(j->rw);
	w->all_reads = !rw_writes(j);
	w->all_writes = !rw_reads(j);
	w->read_thresh =
		(uint32_t)((double)j->mix_read_pct / 100.0 * 4294967295.0);

	lo = w->nblocks * thread / j->threads;
	hi = w->nblocks * (thread + 1) / j->threads;
	if (hi - lo < per_thread) { /* tiny region: share all of it */
		lo = 0;
		hi = w->nblocks;
	}
	w->seq_lo = lo;
	w->seq_hi = hi;
	w->seq_step = per_thread;
	w->seq_first = lo + (sub < hi - lo ? sub : 0);
	w->seq_cur = w->seq_first;
}
