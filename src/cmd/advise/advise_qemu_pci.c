// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PCI slots for the devices a QEMU fix adds (see adv_qemu_free_slot in
 * advise_fix.h). A new -device without addr= takes the lowest free slot
 * when QEMU creates it, which may be the slot a later device names with
 * addr=: QEMU then refuses to start ("PCI: slot 3 function 0 not
 * available"). So the new device names a slot of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise_fix.h"

#define NSLOTS 32

/* The slot of an addr= value: "0x5", "5", "0x1f.0x7" (hex, QEMU's
   SLOT[.FUNCTION]); a JSON number is a devfn. -1 if unreadable. */
static int addr_slot(const struct kv *kv)
{
	char *end;
	unsigned long n;

	if (kv->type == KV_NUM) {
		n = strtoul(kv->val, &end, 10);
		return *end || n >= NSLOTS * 8 ? -1 : (int)(n >> 3);
	}
	n = strtoul(kv->val, &end, 16);
	if (end == kv->val || (*end && *end != '.') || n >= NSLOTS)
		return -1;
	return (int)n;
}

/* A device on the root bus: no bus=, or the root bus named. */
static bool on_root(const struct kvl *kv)
{
	const char *bus = kvl_get(kv, "bus");

	return !bus || !strcmp(bus, "pci.0") || !strcmp(bus, "pcie.0");
}

static bool is_pc(const struct adv_vm *vm)
{
	const char *m = vm->machine;

	return !m || !*m || !strncmp(m, "pc", 2) || !strncmp(m, "q35", 3);
}

bool adv_qemu_free_slot(const struct adv_vm *vm, unsigned seq, const char **bus,
			unsigned *slot)
{
	bool used[NSLOTS] = { 0 };

	if (!is_pc(vm))
		return false;
	/* the machine's own: host bridge at 0; i440fx's PIIX3 at 1 and its
	   default VGA at 2; q35's VGA at 1 and ICH9 LPC/SATA/SMBus at 0x1f */
	used[0] = used[1] = true;
	used[vm->q35 ? 0x1f : 2] = true;
	for (size_t i = 0; i < vm->nitems; i++) {
		const struct adv_item *it = &vm->items[i];
		long a;

		if (it->syn != ADV_SYN_QEMU_KV && it->syn != ADV_SYN_QEMU_JSON)
			continue;
		if (strcmp(it->head, "-device") && strcmp(it->head, "-drive"))
			continue;
		a = kvl_find(&it->kv, "addr");
		if (a >= 0 && on_root(&it->kv) && addr_slot(&it->kv.v[a]) >= 0)
			used[addr_slot(&it->kv.v[a])] = true;
	}
	for (int s = NSLOTS - 1; s > 0; s--) {
		if (used[s] || seq--)
			continue;
		*bus = vm->q35 ? "pcie.0" : "pci.0";
		*slot = (unsigned)s;
		return true;
	}
	return false;
}
