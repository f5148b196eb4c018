/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xoshiro256** (Blackman & Vigna, public domain algorithm), seeded through
 * splitmix64: fast, 64-bit, good enough for offsets and incompressible
 * fill data. Not for anything secret.
 */
#ifndef IOLAB_UTIL_PRNG_H
#define IOLAB_UTIL_PRNG_H

#include <stddef.h>
#include <stdint.h>

struct prng {
	uint64_t s[4];
};

static inline uint64_t prng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t prng_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void prng_seed(struct prng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = prng_splitmix(&seed);
}

static inline uint64_t prng_next(struct prng *r)
{
	uint64_t *s = r->s;
	uint64_t out = prng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = prng_rotl(s[3], 45);
	return out;
}

/* Uniform in [0, n) without division (Lemire's multiply-shift). */
static inline uint64_t prng_below(struct prng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)prng_next(r) * n) >> 64);
}

/* Fill @len bytes (a multiple of 8) with random data. */
static inline void prng_fill(struct prng *r, void *buf, size_t len)
{
	uint64_t *p = buf;

	for (size_t i = 0; i < len / 8; i++)
		p[i] = prng_next(r);
}

#endif
