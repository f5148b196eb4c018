/* SPDX-License-Identifier: GPL-2.0-or-later */
/* advise --write-fixed and --diff; see advise_fixed.c. */
#ifndef IOLAB_CMD_ADVISE_ADVISE_FIXED_H
#define IOLAB_CMD_ADVISE_ADVISE_FIXED_H

#include <stdbool.h>

#include "advise_model.h"

struct err;

/*
 * The file @path (read by the source @kind) with every fix of the VMs of
 * @r read from it applied; the input as read in *@orig. NULL with @err
 * set if it cannot be read or a changed item cannot be found in it.
 */
char *adv_fixed_text(const struct adv_report *r, enum adv_source kind,
		     const char *path, char **orig, struct err *err);

/* Write @data to the new file @path (O_EXCL, O_NOFOLLOW, mode 0600). */
bool adv_write_new(const char *path, const char *data, struct err *err);

#endif
