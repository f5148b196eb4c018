/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether one figure's lead over another is more than their noise: the
 * rule every ranking (matrix, lab) states its margin by.
 */
#ifndef IOLAB_UTIL_MARGIN_H
#define IOLAB_UTIL_MARGIN_H

#include <stdbool.h>

struct margin {
	double ratio; /* a / b, NAN when either is not positive */
	double unc; /* relative uncertainty of the ratio, NAN unknown */
	bool too_close; /* the lead is inside the noise */
};

/*
 * @a and @b with relative uncertainties @ua and @ub (coefficients of
 * variation, NAN when unknown): they combine in quadrature, and a lead
 * with |ln(a/b)| <= 2 x that (about 95 %) is too close to call. With an
 * unknown uncertainty the lead is never called too close, and the caller
 * must say the noise is unknown.
 */
struct margin margin_of(double a, double ua, double b, double ub);

#endif
