// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The VM's part of the corrected configuration: lines every disk's fix
 * may need (scsihw:, boot:, <iothreads>, -object iothread, a shared
 * controller) are taken out of the disks' lines and written once; see
 * advise_fix.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise_fix.h"
#include "../../util/xmem.h"

/*
 * Lines that belong to the VM, not to one disk: written once for all its
 * disks. A controller two disks share is one too.
 */
static bool vm_level(const char *line)
{
	static const char *const prefixes[] = { "scsihw:",  "boot:",
						"machine:", "<iothreads>",
						"-object ", "<controller" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(line, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

static bool is_boot(const char *line)
{
	return !strncmp(line, "boot:", 5);
}

/* <iothreads>N</iothreads>: VM-wide, the largest count asked for wins. */
static long iothreads_line(const char *line)
{
	return strncmp(line, "<iothreads>", 11) ? -1 : atol(line + 11);
}

struct lines {
	char **v;
	size_t n;
};

/*
 * Split into units: a line, with the indented or closing lines after it
 * (an XML element over several lines stays whole).
 */
static void lines_split(struct lines *l, const char *text)
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, "\n");

		if (l->n && (*p == ' ' || *p == '\t' || !strncmp(p, "</", 2))) {
			char *joined = xasprintf("%s\n%.*s", l->v[l->n - 1],
						 (int)n, p);

			free(l->v[l->n - 1]);
			l->v[l->n - 1] = joined;
		} else {
			l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
			l->v[l->n++] = xasprintf("%.*s", (int)n, p);
		}
		p += n + (p[n] == '\n');
	}
}

static bool lines_has(const struct lines *l, const char *line)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], line))
			return true;
	return false;
}

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* Split each disk's corrected lines into its own and the VM's. */
void adv_split_vm_lines(struct adv_vm *vm, const char *const *from,
			const char *const *to, size_t nto)
{
	struct lines *per = xcalloc(vm->ndisks + 1, sizeof(*per));
	struct lines vml = { 0 };
	struct fixbuf out = { 0 };
	long iothreads = -1;

	for (size_t i = 0; i < vm->ndisks; i++)
		if (vm->disks[i].corrected)
			lines_split(&per[i], vm->disks[i].corrected);
	for (size_t i = 0; i < vm->ndisks; i++) {
		struct fixbuf own = { 0 };

		for (size_t k = 0; k < per[i].n; k++) {
			const char *line = per[i].v[k];
			bool shared = vm_level(line);

			/* a controller's -device (no drive=) that two disks
			   both change is one line */
			for (size_t j = 0; !shared && j < vm->ndisks &&
					   !strncmp(line, "-device ", 8) &&
					   !strstr(line, "drive");
			     j++)
				shared = j != i && lines_has(&per[j], line);
			if (!shared) {
				fixbuf_add(&own, line);
				continue;
			}
			if (iothreads_line(line) > iothreads)
				iothreads = iothreads_line(line);
			if (!is_boot(line) && iothreads_line(line) < 0 &&
			    !lines_has(&vml, line))
				lines_split(&vml, line);
		}
		/* NULL, not "", when all of it is the VM's */
		free(vm->disks[i].corrected);
		vm->disks[i].corrected = own.len ? fixbuf_take(&own) : NULL;
		free(own.s);
	}
	if (iothreads >= 0)
		fixbuf_addf(&out, "<iothreads>%ld</iothreads>", iothreads);
	for (size_t i = 0; i < vml.n; i++)
		fixbuf_add(&out, vml.v[i]);
	if (vm->source == ADV_SRC_PROXMOX && nto) {
		char *boot = adv_pve_boot_fix(vm, from, (const char *const *)to,
					      nto);

		if (boot)
			fixbuf_add(&out, boot);
		free(boot);
	}
	if (out.len)
		vm->corrected = fixbuf_take(&out);
	for (size_t i = 0; i < vm->ndisks; i++)
		lines_free(&per[i]);
	free(per);
	lines_free(&vml);
}
