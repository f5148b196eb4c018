// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * advise's reading of a running QEMU's command line, for top --vms: each
 * disk's bus, cache mode and aio beside QEMU's figures, and the ids of
 * advise's findings on it, so a slow VM disk shows its likely cause.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "top_vm.h"
#include "../advise/advise_libvirt.h"
#include "../advise/advise_model.h"
#include "../advise/advise_qemu.h"
#include "../advise/advise_rules.h"
#include "../../util/err.h"
#include "../../util/term.h"
#include "../../util/xmem.h"

static void describe(const struct adv_report *r, size_t di, struct top_vmcfg *c)
{
	const struct adv_disk *d = &r->vms[0]->disks[di];
	size_t o = 0;
	char raw[sizeof(c->setting)];

	term_sanitize(c->id, sizeof(c->id), d->id ? d->id : "?", 0);
	snprintf(raw, sizeof(raw), "%s, cache=%s%s, aio=%s",
		 adv_bus_name(d->bus),
		 adv_cache_name(d->direct, d->no_flush, d->write_cache),
		 d->cache_set ? "" : " (default)", d->aio ? d->aio : "-");
	term_sanitize(c->setting, sizeof(c->setting), raw, 0);
	c->findings[0] = '\0';
	for (size_t i = 0; i < r->nf; i++) {
		const struct adv_finding *f = &r->f[i];

		if (f->vm != 0 || f->disk != (long)di ||
		    o >= sizeof(c->findings))
			continue;
		o += (size_t)snprintf(c->findings + o, sizeof(c->findings) - o,
				      "%s%s %s", o ? ", " : "",
				      adv_severity_name(f->sev), f->rule);
	}
}

static void describe_all(struct adv_report *r, struct top_vmcfg **cfg,
			 size_t *n)
{
	if (r->nvms != 1)
		return;
	adv_rules_run(r);
	*cfg = xcalloc(r->vms[0]->ndisks + 1, sizeof(**cfg));
	for (size_t i = 0; i < r->vms[0]->ndisks; i++)
		describe(r, i, &(*cfg)[(*n)++]);
}

void top_vm_advise_xml(const char *dom, const char *xml, size_t len,
		       struct top_vmcfg **cfg, size_t *n)
{
	struct adv_report r;
	struct adv_ctx ctx = { .probe = false, .proc_root = "/proc" };
	struct err err = { 0 };
	char where[TOP_NAME_MAX + 16];

	*cfg = NULL;
	*n = 0;
	memset(&r, 0, sizeof(r));
	/* advise names a libvirt disk by its <target dev>, as libvirt does. */
	snprintf(where, sizeof(where), "domain %s", dom);
	if (adv_libvirt_read_mem(&r, where, xml, len, &ctx, &err))
		describe_all(&r, cfg, n);
	adv_report_free(&r);
}

void top_vm_advise(pid_t pid, int argc, char *const *argv,
		   struct top_vmcfg **cfg, size_t *n)
{
	struct adv_report r;
	struct adv_ctx ctx = { .probe = false, .proc_root = "/proc" };
	struct err err = { 0 };
	char origin[64], hint[64], **where;

	*cfg = NULL;
	*n = 0;
	if (argc < 1)
		return;
	memset(&r, 0, sizeof(r));
	where = xcalloc((size_t)argc + 1, sizeof(*where));
	for (int i = 0; i < argc; i++)
		where[i] = xasprintf("pid %d argv[%d]", (int)pid, i);
	snprintf(origin, sizeof(origin), "process:%d", (int)pid);
	snprintf(hint, sizeof(hint), "pid %d", (int)pid);
	/* Leniently, as advise --running: QEMU accepted this line. */
	if (adv_qemu_read_argv(&r, ADV_SRC_PROCESS, origin, hint, argc - 1,
			       argv + 1, where + 1, false, &ctx, &err))
		describe_all(&r, cfg, n);
	adv_report_free(&r);
	for (int i = 0; i < argc; i++)
		free(where[i]);
	free(where);
}

const struct top_vmcfg *top_vm_cfg_for(const struct top_vm *vm,
				       const char *name)
{
	for (size_t i = 0; i < vm->ncfg; i++) {
		const char *id = vm->cfg[i].id;

		/* QMP names a -drive by its id; Proxmox's are "drive-scsi0". */
		if (!strcmp(id, name) ||
		    (!strncmp(name, "drive-", 6) && !strcmp(id, name + 6)))
			return &vm->cfg[i];
	}
	return NULL;
}
