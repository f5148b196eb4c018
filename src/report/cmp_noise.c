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

/* z quantiles of the power calculation: 1 - alpha/2 and the power. */
#define Z_ALPHA 1.959963984540054
#define Z_POWER 0.841621233572914

/* Continued fraction of the incomplete beta function (modified Lentz). */
static double betacf(double a, double b, double x)
{
	const double eps = 1e-15, tiny = 1e-300;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 500; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		if (fabs(c) < tiny)
			c = tiny;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double ibeta(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		 b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

double cmp_student_p(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	return ibeta(df / 2, 0.5, df / (df + t * t));
}

double cmp_student_crit(double alpha, double df)
{
	double lo = 0, hi = 1;

	if (!(df > 0) || !(alpha > 0 && alpha < 1))
		return NAN;
	while (cmp_student_p(hi, df) > alpha && hi < 1e12)
		hi *= 2;
	/* p(t) falls with t: bisect to a relative 1e-12. */
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (cmp_student_p(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

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
	nz->p = cmp_student_p(nz->t, nz->df);
	if (nz->mean_a > 0)
		nz->half =
			cmp_student_crit(CMP_ALPHA, nz->df) * se / nz->mean_a;
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
