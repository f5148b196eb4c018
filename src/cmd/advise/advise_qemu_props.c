// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Small readers of a QEMU device's properties and problem reports, shared by
 * the command-line reader (advise_qemu.c) and the resolver
 * (advise_qemu_resolve.c); see advise_qemu_int.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "advise_qemu.h"
#include "advise_qemu_int.h"
#include "advise_qjson.h"
#include "advise_qopts.h"
#include "advise_shell.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

/* -global virtio-blk-device.x also reaches virtio-blk-pci and -ccw. */
static bool global_applies(const char *gdrv, const char *drv)
{
	size_t n = strlen(gdrv);

	if (!strcmp(gdrv, drv))
		return true;
	if (n > 7 && !strcmp(gdrv + n - 7, "-device"))
		return !strncmp(drv, gdrv, n - 6); /* "virtio-blk-" */
	return false;
}

bool qemu_problem(struct qcollect *c, struct err *err, const char *id,
		  const char *fmt, ...)
{
	char msg[sizeof(err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->strict)
		return err_set(err, EXIT_USAGE, 0, "%s", msg);
	warn_add(&c->r->warnings, id, "%s: %s", c->vm->origin, msg);
	return true;
}

const char *qemu_dev_prop(const struct qcollect *c, const struct kvl *dev,
			  const char *prop)
{
	const char *v = kvl_get(dev, prop), *drv = kvl_get(dev, "driver");

	if (v || !drv)
		return v;
	for (size_t i = c->nglobals; i-- > 0;)
		if (!strcmp(c->globals[i].prop, prop) &&
		    global_applies(c->globals[i].driver, drv))
			return c->globals[i].value;
	return NULL;
}
