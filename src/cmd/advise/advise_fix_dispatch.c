// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which source's fixer writes the corrected line for a VM (see
 * advise_fix.h); apart from the shared helpers in advise_fix.c, which the
 * fixers call.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise_fix.h"
#include "../../util/xmem.h"

char *adv_fix(const struct adv_vm *vm, const struct adv_disk *d,
	      const struct adv_edit *e)
{
	switch (vm->source) {
	case ADV_SRC_QEMU:
	case ADV_SRC_PROCESS:
		return adv_qemu_fix(vm, d, e);
	case ADV_SRC_LIBVIRT:
		return adv_libvirt_fix(vm, d, e);
	case ADV_SRC_PROXMOX:
		return adv_pve_fix(vm, d, e);
	}
	return xstrdup("");
}
