/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Private to advise_qemu*.c: the options collected from one command line,
 * before advise_qemu_resolve.c turns them into disks.
 */
#ifndef IOLAB_CMD_ADVISE_ADVISE_QEMU_INT_H
#define IOLAB_CMD_ADVISE_ADVISE_QEMU_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "advise_model.h"

struct err;

struct qglobal {
	char *driver, *prop, *value;
};

struct qcollect {
	struct adv_vm *vm;
	struct adv_report *r;
	const struct adv_ctx *ctx;
	bool strict;
	int *drives, *blockdevs, *devices; /* item indices */
	size_t ndrives, nblockdevs, ndevices;
	struct qglobal *globals;
	size_t nglobals;
	bool snapshot; /* -snapshot: every drive writes to a temporary file */
};

/* Build the disks of c->vm from what was collected. */
bool qemu_resolve(struct qcollect *c, struct err *err);

/*
 * A configuration QEMU itself would refuse: an error in strict mode,
 * otherwise a warning in the report. Returns false when it is an error.
 */
bool qemu_problem(struct qcollect *c, struct err *err, const char *id,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Device property, falling back to -global driver.prop=value. */
const char *qemu_dev_prop(const struct qcollect *c, const struct kvl *dev,
			  const char *prop);

#endif
