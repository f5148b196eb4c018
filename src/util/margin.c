// SPDX-License-Identifier: GPL-2.0-or-later
/* A lead against its noise; see margin.h. */
#include <math.h>

#include "margin.h"

struct margin margin_of(double a, double ua, double b, double ub)
{
	struct margin m = { NAN, NAN, false };

	if (!(a > 0) || !(b > 0))
		return m;
	m.ratio = a / b;
	if (isnan(ua) || isnan(ub))
		return m;
	m.unc = sqrt(ua * ua + ub * ub);
	m.too_close = fabs(log(m.ratio)) <= 2 * m.unc;
	return m;
}
