/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What one interval's figures mean, a line per finding in doctor's words:
 * the device is slow, the load is more than the device takes, flushes
 * dominate, steal or I/O pressure makes everything look slow. Each
 * verdict carries the figure behind it. Nothing here reads or prints.
 */
#ifndef IOLAB_CMD_TOP_TOP_VERDICT_H
#define IOLAB_CMD_TOP_TOP_VERDICT_H

#include <stddef.h>

#include "top_stats.h"

enum top_sev { TOP_NOTE, TOP_WARNING };

/* What "slow" means for a device: from /sys, by its kind. */
struct top_class {
	char kind[16]; /* "rotational", "nvme", "non-rot" (queue/rotational) */
	double slow_ms; /* a mean answer above this is slow for the kind */
	/* doctor's one line: "virtio_blk, 2 queues, mq-deadline, write back" */
	char ident[160];
};

struct top_verdict {
	enum top_sev sev;
	char id[24]; /* stable: "slow-device", "saturated", ... */
	char disk[TOP_NAME_MAX]; /* "" for the whole system */
	char msg[384];
	double value; /* the figure behind it */
	const char *unit; /* of value: "ms", "%" */
};

/* Fewer requests than this in an interval say nothing about latency. */
#define TOP_MIN_IOS 5

/* The verdicts on one device; writes at most @max, returns the count. */
size_t top_judge_dev(const struct top_rate *r, const struct top_class *c,
		     struct top_verdict *out, size_t max);
/* The verdicts on the whole system (steal, PSI). */
size_t top_judge_sys(const struct top_sys_rate *s, struct top_verdict *out,
		     size_t max);
const char *top_sev_label(enum top_sev s);

#endif
