// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab advise --csv`: the disk table for spreadsheets (a fleet's VMs in
 * one sheet). One line per disk with its VM and resolved settings, then
 * how many findings of each severity it has and their rule ids; a line
 * with an empty disk carries the findings about the VM as a whole.
 */
#include <stdio.h>
#include <string.h>

#include "advise_report.h"
#include "../../report/csv.h"
#include "advise_storage.h"

static void findings(struct csv *w, const struct adv_report *r, size_t vm,
		     long disk)
{
	size_t n[3] = { 0 };
	char rules[512] = "";
	size_t len = 0;

	for (size_t i = 0; i < r->nf; i++) {
		const struct adv_finding *x = &r->f[i];

		if (x->vm != vm || x->disk != disk)
			continue;
		n[x->sev]++;
		if (len < sizeof(rules))
			len += (size_t)snprintf(rules + len,
						sizeof(rules) - len, "%s%s",
						len ? " " : "", x->rule);
	}
	csv_num(w, (double)n[ADV_ERROR]);
	csv_num(w, (double)n[ADV_WARNING]);
	csv_num(w, (double)n[ADV_INFO]);
	csv_str(w, rules);
}

static bool vm_findings(const struct adv_report *r, size_t vm)
{
	for (size_t i = 0; i < r->nf; i++)
		if (r->f[i].vm == vm && r->f[i].disk < 0)
			return true;
	return false;
}

static void vm_cols(struct csv *w, const struct adv_vm *vm)
{
	csv_str(w, vm->name);
	csv_str(w, vm->origin);
	csv_num(w, vm->vcpus);
}

bool advise_csv_write(const struct advise_render *a, FILE *f, struct err *err)
{
	static const char *const head[] = {
		"vm",	 "source",   "vcpus",	 "disk",   "bus",   "cache",
		"aio",	 "iothread", "queues",	 "format", "file",  "storage",
		"where", "errors",   "warnings", "info",   "rules", "corrected",
	};
	const struct adv_report *r = a->r;
	struct csv w;

	csv_init(&w, f);
	for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		csv_str(&w, head[i]);
	csv_end_line(&w);
	for (size_t v = 0; v < r->nvms; v++) {
		const struct adv_vm *vm = r->vms[v];

		/* the VM's own line: its findings and the lines its disks'
		   fixes need once */
		if (vm_findings(r, v) || vm->corrected) {
			vm_cols(&w, vm);
			for (int i = 0; i < 10; i++)
				csv_str(&w, NULL);
			findings(&w, r, v, -1);
			csv_str(&w, vm->corrected);
			csv_end_line(&w);
		}
		for (size_t k = 0; k < vm->ndisks; k++) {
			const struct adv_disk *d = &vm->disks[k];

			vm_cols(&w, vm);
			csv_str(&w, d->id);
			csv_str(&w, adv_bus_name(d->bus));
			csv_str(&w, adv_cache_name(d->direct, d->no_flush,
						   d->write_cache));
			csv_str(&w, d->aio);
			csv_str(&w, d->iothread);
			if (d->queues)
				csv_num(&w, d->queues);
			else
				csv_str(&w, NULL);
			csv_str(&w, d->format);
			csv_str(&w, d->file);
			csv_str(&w, d->st.what);
			csv_str(&w, d->where);
			findings(&w, r, v, (long)k);
			csv_str(&w, d->corrected);
			csv_end_line(&w);
		}
	}
	return csv_finish(&w, err);
}
