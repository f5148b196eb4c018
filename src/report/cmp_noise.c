// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare's noise model (see compare.h and iolab-compare(1)): Welch's
 * t-test on the samples behind a figure, at the 5 % level, two-sided; the
 * 95 % interval of the difference shown beside the ratio; and the sample
 * count a test at 80 % power would need to tell a change of the size seen.
 */
#include <math.h>
#include <string.h>

#include "compare.h"
#include "../util/student.h"

/* z quantiles of the power calculation: 1 - alpha/2 and the power. */
#define Z_ALPHA 1.959963984540054
#define Z_POWER 0.841621233572914

static void mean_sd(const double *v, size_t n, double *mean, double *sd)
{
	double s = 0, q = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		q += (v[i] - *mean) * (v[i] - *mean);
	*sd = sqrt(q / (double)(n - 1));
}

void cmp_noise_init(struct cmp_noise *nz, enum rspread kind, const double *a,
		    size_t na, const double *b, size_t nb)
{
	double va, vb, se;

	memset(nz, 0, sizeof(*nz));
	nz->kind = RSP_NONE;
	nz->mean_a = nz->mean_b = nz->sd_a = nz->sd_b = NAN;
	nz->df = nz->t = nz->p = nz->half = nz->need = NAN;
	if (kind == RSP_NONE || !a || !b || na < 2 || nb < 2)
		return;
	nz->kind = kind;
	nz->na = na;
	nz->nb = nb;
	mean_sd(a, na, &nz->mean_a, &nz->sd_a);
	mean_sd(b, nb, &nz->mean_b, &nz->sd_b);
	va = nz->sd_a * nz->sd_a / (double)na;
	vb = nz->sd_b * nz->sd_b / (double)nb;
	se = sqrt(va + vb);
	if (se > 0) {
		/* Welch-Satterthwaite degrees of freedom. */
		nz->df = (va + vb) * (va + vb) /
			 (va * va / (double)(na - 1) +
			  vb * vb / (double)(nb - 1));
		nz->t = (nz->mean_b - nz->mean_a) / se;
	} else {
		/* No spread at all: any difference of the means is real. */
		nz->df = (double)(na + nb - 2);
		nz->t = nz->mean_b == nz->mean_a ? 0 :
			nz->mean_b > nz->mean_a	 ? INFINITY :
						   -INFINITY;
	}
	nz->p = student_p(nz->t, nz->df);
	if (nz->mean_a > 0)
		nz->half = student_crit(CMP_ALPHA, nz->df) * se / nz->mean_a;
}

/*
 * Samples per input a two-sided test at CMP_ALPHA would need to find a
 * change of @delta with 80 % power: n = 2 (z_a + z_b)^2 s^2 / delta^2,
 * s^2 the mean of the two variances.
 */
static double need_for(const struct cmp_noise *nz, double delta)
{
	double s2 = (nz->sd_a * nz->sd_a + nz->sd_b * nz->sd_b) / 2, n;

	if (!(delta > 0))
		return INFINITY;
	n = ceil(2 * (Z_ALPHA + Z_POWER) * (Z_ALPHA + Z_POWER) * s2 /
		 (delta * delta));
	return n < 2 ? 2 : n;
}

enum cmp_verdict cmp_judge(enum runit unit, enum rbetter better, double base,
			   double v, double threshold, struct cmp_noise *nz)
{
	int sign; /* +1: v is more than base, -1 less */
	double delta;

	if (better == RB_NONE || !isfinite(base) || !isfinite(v))
		return CV_NONE;
	if (v == base)
		return CV_SAME;
	sign = v > base ? 1 : -1;
	if (unit == RU_COUNT)
		/* A count is exact: no noise to weigh it against. */
		return (sign > 0) == (better == RB_HIGHER) ? CV_BETTER :
							     CV_WORSE;
	if (base > 0) {
		double r = v / base;

		/* Symmetric in ratio: 1.05x up and 1/1.05x down. */
		if (r < 1 + threshold && r > 1 / (1 + threshold))
			return CV_SAME;
	}
	if (!nz || nz->kind == RSP_NONE)
		return CV_NOSPREAD;
	/* Significant, and the samples move the way the figure does. */
	if (nz->p < CMP_ALPHA && (nz->mean_b - nz->mean_a > 0) == (sign > 0) &&
	    nz->mean_b != nz->mean_a)
		return (sign > 0) == (better == RB_HIGHER) ? CV_BETTER :
							     CV_WORSE;
	/* The size of the change seen, carried over to the samples' scale. */
	delta = base > 0 && nz->mean_a > 0 ? fabs(v / base - 1) * nz->mean_a :
					     fabs(nz->mean_b - nz->mean_a);
	nz->need = need_for(nz, delta);
	return CV_NOISE;
}
