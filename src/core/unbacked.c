// SPDX-License-Identifier: GPL-2.0-or-later
/* Reads no disk served; see unbacked.h. */
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "unbacked.h"
#include "../util/clock.h"

/* Extents asked per FIEMAP call; a fragmented file takes several. */
#define FIEMAP_BATCH 128
/* Calls at most: bounds the time on a file of millions of extents. */
#define FIEMAP_CALLS 256

bool unbacked_extents(int fd, uint64_t off, uint64_t len, double *frac)
{
	size_t sz = sizeof(struct fiemap) +
		    FIEMAP_BATCH * sizeof(struct fiemap_extent);
	struct fiemap *fm = calloc(1, sz);
	uint64_t end = off + len, pos = off, backed = 0;
	bool ok = true;

	if (!fm || !len) {
		free(fm);
		return false;
	}
	for (int call = 0; pos < end; call++) {
		unsigned int i;

		if (call == FIEMAP_CALLS) {
			ok = false; /* too fragmented to tell cheaply */
			break;
		}
		memset(fm, 0, sz);
		fm->fm_start = pos;
		fm->fm_length = end - pos;
		fm->fm_extent_count = FIEMAP_BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0) {
			ok = false;
			break;
		}
		if (!fm->fm_mapped_extents)
			break; /* the rest is a hole */
		for (i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &fm->fm_extents[i];
			uint64_t a = e->fe_logical, b = a + e->fe_length;

			if (a < pos)
				a = pos;
			if (b > end)
				b = end;
			if (b > a && !(e->fe_flags & FIEMAP_EXTENT_UNWRITTEN))
				backed += b - a;
			if (e->fe_logical + e->fe_length > pos)
				pos = e->fe_logical + e->fe_length;
			if (e->fe_flags & FIEMAP_EXTENT_LAST)
				pos = end;
		}
	}
	free(fm);
	if (!ok)
		return false;
	if (backed > len)
		backed = len;
	*frac = (double)(len - backed) / (double)len;
	return true;
}

static bool all_zero(const unsigned char *p, size_t n)
{
	return p[0] == 0 && !memcmp(p, p + 1, n - 1);
}

/* FNV-1a: enough to find equal blocks among 64; equal hashes are
 * compared byte for byte. */
static uint64_t fnv(const unsigned char *p, size_t n)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

bool unbacked_sample(int fd, uint64_t off, uint64_t len, uint64_t budget_ns,
		     struct unbacked_sample *s)
{
	unsigned int want = UNBACKED_MAX_BLOCKS;
	uint64_t first, step, t0 = clock_ns();
	unsigned char *buf;
	uint64_t hash[UNBACKED_MAX_BLOCKS];
	uint64_t at[UNBACKED_MAX_BLOCKS];

	memset(s, 0, sizeof(*s));
	first = (off + UNBACKED_BLOCK - 1) / UNBACKED_BLOCK * UNBACKED_BLOCK;
	if (off + len < first + UNBACKED_BLOCK)
		return false;
	if ((off + len - first) / UNBACKED_BLOCK < want)
		want = (unsigned int)((off + len - first) / UNBACKED_BLOCK);
	step = (off + len - first) / UNBACKED_BLOCK / want * UNBACKED_BLOCK;
	if (posix_memalign((void **)&buf, UNBACKED_BLOCK, 2 * UNBACKED_BLOCK))
		return false;
	for (unsigned int i = 0; i < want; i++) {
		uint64_t pos = first + (uint64_t)i * step;
		unsigned char *b = buf;
		ssize_t n;

		if (s->blocks && clock_ns() - t0 > budget_ns)
			break;
		n = pread(fd, b, UNBACKED_BLOCK, (off_t)pos);
		if (n != (ssize_t)UNBACKED_BLOCK)
			break;
		at[s->blocks] = pos;
		hash[s->blocks] = fnv(b, UNBACKED_BLOCK);
		if (all_zero(b, UNBACKED_BLOCK)) {
			s->zero++;
		} else {
			for (unsigned int k = 0; k < s->blocks; k++) {
				unsigned char *o = buf + UNBACKED_BLOCK;

				if (hash[k] != hash[s->blocks] ||
				    pread(fd, o, UNBACKED_BLOCK,
					  (off_t)at[k]) != UNBACKED_BLOCK ||
				    memcmp(o, b, UNBACKED_BLOCK))
					continue;
				s->repeated++;
				break;
			}
		}
		s->blocks++;
	}
	free(buf);
	return s->blocks > 0;
}
