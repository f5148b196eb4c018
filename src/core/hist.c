// SPDX-License-Identifier: GPL-2.0-or-later
/* Log-linear latency histogram; see hist.h for the error bound. */
#include <math.h>

#include "hist.h"

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_add(struct hist *dst, const struct hist *src)
{
	if (!src->count)
		return;
	for (unsigned int i = 0; i < HIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
	dst->count += src->count;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t hist_bucket_low(unsigned int idx)
{
	unsigned int shift;

	if (idx < 2 * HIST_SUB)
		return idx;
	shift = idx / HIST_SUB - 1;
	return (uint64_t)(HIST_SUB + idx % HIST_SUB) << shift;
}

uint64_t hist_bucket_width(unsigned int idx)
{
	if (idx < 2 * HIST_SUB)
		return 1;
	return 1ull << (idx / HIST_SUB - 1);
}

static uint64_t bucket_value(const struct hist *h, unsigned int idx)
{
	uint64_t v = hist_bucket_low(idx) + hist_bucket_width(idx) / 2;

	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

void hist_percentiles(const struct hist *h, const double *ps, int n,
		      uint64_t *out)
{
	uint64_t cum = 0;
	unsigned int idx = 0;

	for (int k = 0; k < n; k++) {
		double want;

		if (!h->count) {
			out[k] = 0;
			continue;
		}
		if (ps[k] <= 0) {
			out[k] = h->min;
			continue;
		}
		if (ps[k] >= 100) {
			out[k] = h->max;
			continue;
		}
		/* The first bucket holding the ceil(p/100 * N)-th value. */
		want = ceil(ps[k] / 100.0 * (double)h->count);
		if (want < 1)
			want = 1;
		while (idx < HIST_BUCKETS && (double)(cum + h->b[idx]) < want)
			cum += h->b[idx++];
		out[k] = idx < HIST_BUCKETS ? bucket_value(h, idx) : h->max;
	}
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t v;

	hist_percentiles(h, &p, 1, &v);
	return v;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

double hist_stddev(const struct hist *h)
{
	double mean, var;

	if (h->count < 2)
		return 0.0;
	mean = hist_mean(h);
	var = (h->sumsq - (double)h->count * mean * mean) /
	      (double)(h->count - 1);
	return var > 0 ? sqrt(var) : 0.0;
}
