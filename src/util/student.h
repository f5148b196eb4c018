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
/*
 * Half-width of the two-sided (1 - @alpha) interval of the mean of @n
 * values taken one after another; *mean gets their mean and *n_eff (may be
 * NULL) the number of independent values they are worth. From
 * STUDENT_AR_MIN values on, a positive lag-1 autocorrelation r counts them
 * as n (1 - r) / (1 + r) (the AR(1) effective sample size): runs of one
 * test share a disk's slower moods, and a drift must widen the interval,
 * not hide in it. NAN below 2 values.
 */
#define STUDENT_AR_MIN 6
double student_mean_half(const double *v, unsigned int n, double alpha,
			 double *mean, double *n_eff);

#endif
