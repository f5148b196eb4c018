// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab advise --json` to the compare/report model; the schema is in
 * iolab-advise(1): "vms":[{"name","source","vcpus","machine","guest_os",
 * "iothreads","disks":[{"id","file","format","bus","cache","aio",
 * "iothread","queues",...}]}], "findings":[{"severity","rule","vm","disk",
 * "message","why","fix","where"}], "summary".
 */
#include <stdio.h>

#include "../adapters.h"
#include "../../report/adapt.h"
#include "../../report/json_read.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

static const char *s_or(const struct jr_node *n, const char *path)
{
	const char *s = jr_str(n, path);

	return s ? s : "";
}

static void vm_table(struct rdoc *d, const struct jr_node *vms)
{
	static const char *const head[] = {
		"VM", "source", "vCPUs", "machine", "guest OS", "iothreads"
	};
	struct rtable *t = rdoc_table(d, "vms", "Virtual machines", 6, head);

	for (size_t i = 0; i < jr_len(vms); i++) {
		const struct jr_node *vm = jr_at(vms, i);
		const struct jr_node *io = jr_get(vm, "iothreads");
		char cpus[32], iot[32];
		const char *row[6] = {
			s_or(vm, "name"),
			s_or(vm, "source"),
			jr_scalar(vm, "vcpus", cpus, sizeof(cpus)),
			s_or(vm, "machine"),
			s_or(vm, "guest_os"),
			NULL,
		};

		/* A list of iothread ids (advise) or a count. */
		if (jr_is_array(io))
			snprintf(iot, sizeof(iot), "%zu", jr_len(io));
		else if (!jr_scalar(vm, "iothreads", iot, sizeof(iot)))
			iot[0] = 0;
		row[5] = iot;
		rtable_row(t, row);
	}
}

bool adapt_advise(struct rdoc *d, const struct jr_node *root, struct err *err)
{
	static const char *const sev[] = { "error", "warning", "info", NULL };
	static const char *const head[] = { "VM",     "disk",	  "file",
					    "format", "bus",	  "cache",
					    "aio",    "iothread", "queues" };
	const struct jr_node *vms = jr_get(root, "vms");
	const struct jr_node *f = jr_get(root, "findings");
	struct rtable *t;
	size_t ndisks = 0;
	char buf[256];

	if (!jr_is_array(vms) || !jr_is_array(f))
		return err_set(
			err, EXIT_USAGE, 0,
			"an advise document without \"vms\" or \"findings\"; give the output of 'iolab advise --json'");
	adapt_warnings(d, jr_get(root, "warnings"));
	for (size_t i = 0; i < jr_len(f); i++) {
		const struct jr_node *x = jr_at(f, i);
		const char *vm = jr_str(x, "vm"), *disk = jr_str(x, "disk");

		snprintf(buf, sizeof(buf), "%s%s%s", vm ? vm : "",
			 vm && disk ? " / " : "", disk ? disk : "");
		rdoc_finding(d, jr_str(x, "severity"),
			     jr_str(x, "rule") ? jr_str(x, "rule") :
						 jr_str(x, "id"),
			     vm || disk ? buf : NULL, jr_str(x, "message"),
			     jr_str(x, "why"),
			     jr_str(x, "fix") ? jr_str(x, "fix") :
						jr_str(x, "fix.summary"));
		adapt_fix(d, jr_get(x, "fix"));
		rdoc_finding_where(d, "found at", jr_str(x, "where"));
	}
	adapt_finding_counts(d, sev);
	vm_table(d, vms);
	t = rdoc_table(d, "disks", "Disks as QEMU will run them", 9, head);
	for (size_t i = 0; i < jr_len(vms); i++) {
		const struct jr_node *vm = jr_at(vms, i);
		const struct jr_node *disks = jr_get(vm, "disks");

		for (size_t j = 0; j < jr_len(disks); j++) {
			const struct jr_node *k = jr_at(disks, j);
			char iot[32], q[32], key[160], lab[160];
			const char *row[9] = {
				s_or(vm, "name"),
				s_or(k, "id"),
				s_or(k, "file"),
				s_or(k, "format"),
				s_or(k, "bus"),
				s_or(k, "cache"),
				s_or(k, "aio"),
				jr_scalar(k, "iothread", iot, sizeof(iot)),
				jr_scalar(k, "queues", q, sizeof(q)),
			};
			static const char *const keys[] = { "bus", "cache",
							    "aio", NULL };

			rtable_row(t, row);
			ndisks++;
			for (int s = 0; keys[s]; s++) {
				snprintf(key, sizeof(key), "%s/%s/%s",
					 s_or(vm, "name"), s_or(k, "id"),
					 keys[s]);
				snprintf(lab, sizeof(lab), "%s %s %s",
					 s_or(vm, "name"), s_or(k, "id"),
					 keys[s]);
				rdoc_set_detail(d, key, lab, s_or(k, keys[s]));
			}
		}
	}
	snprintf(buf, sizeof(buf), "%zu VM%s, %zu disk%s", jr_len(vms),
		 jr_len(vms) == 1 ? "" : "s", ndisks, ndisks == 1 ? "" : "s");
	d->title = xstrdup(buf);
	return true;
}
