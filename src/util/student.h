/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Student's t distribution: compare's Welch test and the interval that
 * tells mark when a figure is known (util/, no other dependency).
 */
#ifndef IOLAB_UTIL_STUDENT_H
#define IOLAB_UTIL_STUDENT_H

/* Two-sided p of Student's t with @df degrees of freedom. */
double student_p(double t, double df);
/* The t whose two-sided p is @alpha (NAN for df <= 0). */
double student_crit(double alpha, double df);

#endif
