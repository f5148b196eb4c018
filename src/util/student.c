// SPDX-License-Identifier: GPL-2.0-or-later
/* Student's t distribution, for intervals and tests; see student.h. */
#include <math.h>

#include "student.h"

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

double student_p(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	return ibeta(df / 2, 0.5, df / (df + t * t));
}

double student_crit(double alpha, double df)
{
	double lo = 0, hi = 1;

	if (!(df > 0) || !(alpha > 0 && alpha < 1))
		return NAN;
	while (student_p(hi, df) > alpha && hi < 1e12)
		hi *= 2;
	/* p(t) falls with t: bisect to a relative 1e-12. */
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (student_p(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* Lag-1 autocorrelation, kept in [0, 0.9]: a negative one would narrow
 * the interval on a few runs' chance alternation. */
static double lag1(const double *v, unsigned int n, double mean)
{
	double num = 0, den = 0, r;

	for (unsigned int i = 0; i < n; i++) {
		den += (v[i] - mean) * (v[i] - mean);
		if (i + 1 < n)
			num += (v[i] - mean) * (v[i + 1] - mean);
	}
	if (!(den > 0))
		return 0;
	r = num / den;
	return r < 0 ? 0 : r > 0.9 ? 0.9 : r;
}

double student_mean_half(const double *v, unsigned int n, double alpha,
			 double *mean, double *n_eff)
{
	double sum = 0, sq = 0, r = 0, ne;

	*mean = NAN;
	if (n_eff)
		*n_eff = n;
	if (!n)
		return NAN;
	for (unsigned int i = 0; i < n; i++)
		sum += v[i];
	*mean = sum / n;
	if (n < 2)
		return NAN;
	for (unsigned int i = 0; i < n; i++)
		sq += (v[i] - *mean) * (v[i] - *mean);
	if (n >= STUDENT_AR_MIN)
		r = lag1(v, n, *mean);
	ne = n * (1 - r) / (1 + r);
	if (ne < 2)
		ne = 2;
	if (n_eff)
		*n_eff = ne;
	return student_crit(alpha, ne - 1) * sqrt(sq / (n - 1)) / sqrt(ne);
}
