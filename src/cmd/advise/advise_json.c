// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab advise --json`; the schema is in man/iolab-advise.1. */
#include "advise_report.h"
#include "../../report/json_util.h"
#include "advise_storage.h"

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *jdisk(const struct adv_disk *d)
{
	json_t *o = json_object();

	json_object_set_new(o, "id", jstr(d->id));
	json_object_set_new(o, "file", jstr(d->file));
	json_object_set_new(o, "format", jstr(d->format));
	json_object_set_new(o, "bus", json_string(adv_bus_name(d->bus)));
	json_object_set_new(o, "cache",
			    json_string(adv_cache_name(d->direct, d->no_flush,
						       d->write_cache)));
	json_object_set_new(o, "aio", jstr(d->aio));
	json_object_set_new(o, "iothread", jstr(d->iothread));
	json_object_set_new(o, "queues",
			    d->queues ? json_integer(d->queues) : json_null());
	/* Beyond the summary: the knobs and what they rest on. */
	json_object_set_new(o, "model", jstr(d->model));
	json_object_set_new(o, "volume", jstr(d->volume));
	json_object_set_new(o, "protocol", jstr(d->protocol));
	json_object_set_new(o, "cache_set", json_boolean(d->cache_set));
	json_object_set_new(o, "cache_direct", json_boolean(d->direct));
	json_object_set_new(o, "cache_no_flush", json_boolean(d->no_flush));
	json_object_set_new(o, "write_cache", json_boolean(d->write_cache));
	json_object_set_new(o, "aio_set", json_boolean(d->aio_set));
	json_object_set_new(o, "queues_auto", json_boolean(d->queues_auto));
	json_object_set_new(o, "queue_size",
			    d->queue_size ? json_integer(d->queue_size) :
					    json_null());
	json_object_set_new(o, "discard", json_boolean(d->discard));
	json_object_set_new(o, "cdrom", json_boolean(d->cdrom));
	json_object_set_new(o, "readonly", json_boolean(d->readonly));
	json_object_set_new(o, "storage",
			    json_pack("{s:s, s:b, s:s}", "kind",
				      adv_storage_name(d->st.kind), "thin",
				      d->st.thin, "what", d->st.what));
	json_object_set_new(o, "where", jstr(d->where));
	json_object_set_new(o, "corrected", jstr(d->corrected));
	return o;
}

static const char *source_kind(enum adv_source s)
{
	return s == ADV_SRC_QEMU    ? "qemu" :
	       s == ADV_SRC_PROCESS ? "process" :
	       s == ADV_SRC_LIBVIRT ? "libvirt" :
				      "proxmox";
}

static json_t *jvm(const struct adv_vm *vm)
{
	json_t *o = json_object(), *disks = json_array(), *ios = json_array();

	json_object_set_new(o, "name", jstr(vm->name));
	json_object_set_new(o, "source", json_string(vm->origin));
	json_object_set_new(o, "kind", json_string(source_kind(vm->source)));
	json_object_set_new(o, "vcpus", json_integer(vm->vcpus));
	json_object_set_new(o, "machine", jstr(vm->machine));
	json_object_set_new(o, "guest_os", json_string(adv_os_name(vm->os)));
	json_object_set_new(o, "guest_os_hint", jstr(vm->os_hint));
	for (size_t i = 0; i < vm->niothreads; i++)
		json_array_append_new(ios, json_string(vm->iothreads[i]));
	json_object_set_new(o, "iothreads", ios);
	for (size_t i = 0; i < vm->ndisks; i++)
		json_array_append_new(disks, jdisk(&vm->disks[i]));
	json_object_set_new(o, "disks", disks);
	json_object_set_new(o, "corrected", jstr(vm->corrected));
	return o;
}

bool advise_json_write(const struct advise_render *a, FILE *f, struct err *err)
{
	const struct adv_report *r = a->r;
	json_t *doc = jdoc_new("advise", a->argc, a->argv);
	json_t *vms = json_array(), *fs = json_array();

	json_object_set_new(doc, "options",
			    json_pack("{s:b, s:b}", "running", a->scanned,
				      "probe", a->probe));
	for (size_t i = 0; i < r->nvms; i++)
		json_array_append_new(vms, jvm(r->vms[i]));
	for (size_t i = 0; i < r->nf; i++) {
		const struct adv_finding *x = &r->f[i];
		const struct adv_vm *vm = r->vms[x->vm];
		const struct adv_disk *d = x->disk >= 0 ? &vm->disks[x->disk] :
							  NULL;

		json_array_append_new(
			fs,
			json_pack("{s:s, s:s, s:o, s:o, s:s, s:s, s:s, s:o}",
				  "severity", adv_severity_name(x->sev), "rule",
				  x->rule, "vm", jstr(vm->name), "disk",
				  jstr(d ? d->id : NULL), "message", x->message,
				  "why", x->why, "fix", x->fix, "where",
				  jstr(d ? d->where : NULL)));
	}
	json_object_set_new(doc, "vms", vms);
	json_object_set_new(doc, "findings", fs);
	json_object_set_new(
		doc, "summary",
		json_pack("{s:I, s:I, s:I}", "errors",
			  (json_int_t)adv_report_count(r, ADV_ERROR),
			  "warnings",
			  (json_int_t)adv_report_count(r, ADV_WARNING), "info",
			  (json_int_t)adv_report_count(r, ADV_INFO)));
	json_object_set_new(doc, "warnings", jwarnings(&r->warnings));
	return jdoc_write(doc, f, err);
}
