/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Log-linear latency histogram (fio's "plat" layout behind an
 * HdrHistogram-shaped API). Values are nanoseconds.
 *
 * Values below 2 * HIST_SUB are stored exactly. Above, each power-of-two
 * range [2^k, 2^(k+1)) is split into HIST_SUB equal buckets of width
 * 2^(k - HIST_SUB_BITS). A percentile is reported as its bucket's midpoint,
 * so the error is at most half a bucket width over the bucket's lower bound:
 * (2^k / HIST_SUB / 2) / 2^k = 1 / (2 * HIST_SUB) = 0.78 % for 64 buckets.
 * Values above HIST_MAX_NS land in the last bucket; min and max are exact.
 *
 * Recording is O(1): one clz, a shift, an increment; no allocation. A
 * histogram belongs to one thread; merge with hist_add() after the run.
 */
#ifndef IOLAB_CORE_HIST_H
#define IOLAB_CORE_HIST_H

#include <stdint.h>
#include <string.h>

#define HIST_SUB_BITS 6
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_MAX_MSB 40 /* 2^41 ns ~ 36 min: beyond any sane I/O */
#define HIST_BUCKETS ((HIST_MAX_MSB - HIST_SUB_BITS + 2) * HIST_SUB)
#define HIST_MAX_NS ((1ull << (HIST_MAX_MSB + 1)) - 1)

struct hist {
	uint64_t count;
	uint64_t sum; /* exact, for the mean */
	double sumsq; /* for the standard deviation */
	uint64_t min, max;
	uint64_t b[HIST_BUCKETS];
};

static inline unsigned int hist_index(uint64_t v)
{
	unsigned int msb, shift;

	if (v < 2 * HIST_SUB)
		return (unsigned int)v;
	if (v > HIST_MAX_NS)
		return HIST_BUCKETS - 1;
	msb = 63u - (unsigned int)__builtin_clzll(v);
	shift = msb - HIST_SUB_BITS;
	return (shift + 1) * HIST_SUB +
	       (unsigned int)((v >> shift) & (HIST_SUB - 1));
}

static inline void hist_record(struct hist *h, uint64_t v)
{
	h->b[hist_index(v)]++;
	h->count++;
	h->sum += v;
	h->sumsq += (double)v * (double)v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void hist_init(struct hist *h);
/* dst += src (lossless). */
void hist_add(struct hist *dst, const struct hist *src);
/* Lowest value of a bucket and its width. */
uint64_t hist_bucket_low(unsigned int idx);
uint64_t hist_bucket_width(unsigned int idx);
/* Value at percentile p (0..100), bucket midpoint clamped to [min, max]. */
uint64_t hist_percentile(const struct hist *h, double p);
/* Several percentiles in one walk; @ps ascending. */
void hist_percentiles(const struct hist *h, const double *ps, int n,
		      uint64_t *out);
double hist_mean(const struct hist *h);
double hist_stddev(const struct hist *h);

#endif
