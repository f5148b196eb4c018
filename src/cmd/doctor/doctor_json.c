// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab doctor --json`; the schema is documented in iolab-doctor(1). */
#include <string.h>

#include "doctor_report.h"
#include "../../report/json_util.h"
#include "doctor_diag.h"

static json_t *jstr(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static json_t *jnum(int64_t v)
{
	return v < 0 ? json_null() : json_integer((json_int_t)v);
}

static json_t *jtri(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *jsystem(const struct doctor_report *r)
{
	const struct dr_distro *d = &r->sys.distro;
	static const char *const fams[] = { NULL,   "debian", "rhel",
					    "suse", "arch",   "alpine" };

	return json_pack(
		"{s:o, s:o, s:o, s:{s:o, s:o, s:o, s:o, s:o, s:o}}", "kernel",
		jstr(r->sys.kernel), "cpus", jnum(r->sys.cpus), "memory_bytes",
		jnum(r->sys.mem_total_kb < 0 ? -1 : r->sys.mem_total_kb * 1024),
		"distribution", "id", jstr(d->id), "id_like", jstr(d->id_like),
		"version_id", jstr(d->version_id), "name", jstr(d->name),
		"family", jstr(fams[d->family]), "package_manager",
		jstr(d->pm));
}

static json_t *jdmi(const struct dr_virt *v)
{
	if (!v->dmi_present)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "sys_vendor",
			 jstr(v->sys_vendor), "product_name",
			 jstr(v->product_name), "product_version",
			 jstr(v->product_version), "board_vendor",
			 jstr(v->board_vendor), "bios_vendor",
			 jstr(v->bios_vendor), "bios_version",
			 jstr(v->bios_version));
}

static json_t *jvirt(const struct doctor_report *r)
{
	const struct dr_virt *v = &r->virt;
	char product[192] = "";

	if (v->sys_vendor[0] || v->product_name[0])
		snprintf(product, sizeof(product), "%s%s%s", v->sys_vendor,
			 v->sys_vendor[0] && v->product_name[0] ? " " : "",
			 v->product_name);
	return json_pack(
		"{s:o, s:o, s:o, s:o, s:o, s:b, s:{s:o, s:o}, "
		"s:o, s:o, s:o, s:o, s:b, s:o, s:o, s:{s:o, s:o}}",
		"hypervisor", jstr(v->hypervisor), "hypervisor_name",
		jstr(v->hypervisor_name), "product", jstr(product), "container",
		!v->container_known ? json_null() :
		v->container[0]	    ? json_string(v->container) :
				      json_string("none"),
		"container_note", jstr(v->container_note), "virtualized",
		v->virtualized, "cpuid", "hypervisor_bit",
		v->hypervisor_bit < 0 ? json_null() :
					json_boolean(v->hypervisor_bit),
		"vendor",
		v->cpuid_known ? json_string(v->cpuid_vendor) : json_null(),
		"dmi", jdmi(v), "machine", jstr(v->machine), "platform",
		jstr(v->platform), "xen_type", jstr(v->xen_type), "kvm_clock",
		v->kvm_clock, "vmm", jstr(v->vmm), "evidence",
		jstr(v->evidence), "acpi", "oem_id", jstr(v->acpi_oem),
		"oem_table_id", jstr(v->acpi_table));
}

static json_t *jguest(const struct doctor_report *r)
{
	const struct dr_guest *g = &r->guest;
	json_t *mods = json_object(), *vm;

	for (int i = 0; i < DR_NMODS; i++)
		if (g->mods[i].name)
			json_object_set_new(mods, g->mods[i].name,
					    json_string(dr_mod_state_name(
						    g->mods[i].state)));
	vm = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "dirty_ratio",
		       jnum(g->dirty_ratio), "dirty_background_ratio",
		       jnum(g->dirty_background_ratio), "dirty_bytes",
		       jnum(g->dirty_bytes), "dirty_background_bytes",
		       jnum(g->dirty_background_bytes),
		       "dirty_expire_centisecs", jnum(g->dirty_expire_cs),
		       "swappiness", jnum(g->swappiness));
	return json_pack(
		"{s:{s:b, s:o, s:o, s:o}, s:o, s:{s:o, s:o}, s:{s:o, s:o}, "
		"s:o, s:{s:b, s:o}}",
		"agent", "channel", g->agent_port, "channel_path",
		jstr(g->agent_port_path), "running", jtri(g->agent_running),
		"installed", jtri(g->agent_installed), "modules", mods,
		"io_uring", "disabled", jnum(g->io_uring_disabled), "available",
		g->io_uring_disabled < 0 ?
			json_null() :
			json_boolean(g->io_uring_disabled == 0),
		"aio", "max_nr", jnum(g->aio_max_nr), "nr", jnum(g->aio_nr),
		"vm", vm, "tuned", "installed", g->tuned_installed, "profile",
		jstr(g->tuned_profile));
}

static json_t *jprobe(const struct dr_probe *p)
{
	json_t *o;

	if (!p->done)
		return json_null();
	o = json_pack("{s:o, s:s, s:s, s:I, s:I, s:I}", "error", jstr(p->error),
		      "class", dr_class_name(p->cls), "engine", p->engine,
		      "bs_bytes", (json_int_t)p->bs, "ios", (json_int_t)p->ios,
		      "errors", (json_int_t)p->errors);
	jset_real(o, "runtime_s", p->runtime_s, 3);
	jset_real(o, "iops", p->iops, 1);
	json_object_set_new(
		o, "lat_ns",
		p->ios ? json_pack("{s:I, s:f, s:I, s:I, s:I}", "min",
				   (json_int_t)p->min_ns, "mean",
				   (double)(int64_t)(p->mean_ns + 0.5), "p50",
				   (json_int_t)p->p50_ns, "p99",
				   (json_int_t)p->p99_ns, "max",
				   (json_int_t)p->max_ns) :
			 json_null());
	json_object_set_new(o, "cached", json_boolean(p->cached));
	return o;
}

static json_t *jdisk(const struct dr_disk *d)
{
	json_t *o = json_object(), *a;

	json_object_set_new(o, "name", json_string(d->name));
	json_object_set_new(o, "devno", jstr(d->devno));
	json_object_set_new(o, "driver", jstr(d->bi.driver));
	json_object_set_new(o, "block_driver", jstr(d->bi.blk_driver));
	json_object_set_new(o, "bus", jstr(d->bus));
	json_object_set_new(o, "kind", json_string(dr_kind_name(d->kind)));
	json_object_set_new(o, "controller", jstr(d->controller));
	json_object_set_new(o, "pci_id", jstr(d->pci_id));
	json_object_set_new(o, "vendor", jstr(d->bi.vendor));
	json_object_set_new(o, "model", jstr(d->bi.model));
	json_object_set_new(o, "size_bytes", jnum(d->size_bytes));
	json_object_set_new(o, "removable", jtri((int)d->removable));
	json_object_set_new(o, "read_only", jtri((int)d->read_only));
	json_object_set_new(o, "rotational", jtri(d->bi.rotational));
	json_object_set_new(o, "logical_block_size",
			    d->bi.logical_block_size ?
				    json_integer(d->bi.logical_block_size) :
				    json_null());
	json_object_set_new(o, "physical_block_size",
			    d->bi.physical_block_size ?
				    json_integer(d->bi.physical_block_size) :
				    json_null());
	json_object_set_new(o, "minimum_io_size", jnum(d->min_io));
	json_object_set_new(o, "optimal_io_size", jnum(d->opt_io));
	json_object_set_new(o, "scheduler", jstr(d->scheduler));
	json_object_set_new(o, "schedulers", jstr(d->schedulers));
	json_object_set_new(o, "queues", jnum(d->hw_queues));
	json_object_set_new(o, "nr_requests", jnum(d->nr_requests));
	json_object_set_new(o, "queue_depth", jnum(d->queue_depth));
	json_object_set_new(o, "write_cache", jstr(d->write_cache));
	json_object_set_new(o, "fua", jtri((int)d->fua));
	json_object_set_new(o, "discard",
			    d->discard_max_bytes < 0 ?
				    json_null() :
				    json_boolean(d->discard_max_bytes > 0));
	json_object_set_new(o, "discard_max_bytes", jnum(d->discard_max_bytes));
	json_object_set_new(o, "discard_granularity",
			    jnum(d->discard_granularity));
	json_object_set_new(o, "max_sectors_kb", jnum(d->max_sectors_kb));
	json_object_set_new(o, "max_hw_sectors_kb", jnum(d->max_hw_sectors_kb));
	json_object_set_new(o, "read_ahead_kb", jnum(d->read_ahead_kb));
	json_object_set_new(o, "nomerges", jnum(d->nomerges));
	json_object_set_new(o, "add_random", jnum(d->add_random));
	json_object_set_new(o, "rq_affinity", jnum(d->rq_affinity));
	a = json_array();
	for (size_t i = 0; i < d->nparts; i++)
		json_array_append_new(
			a,
			json_pack("{s:s, s:o, s:o}", "name", d->parts[i].name,
				  "start_sector",
				  jnum(d->parts[i].start_sectors), "size_bytes",
				  jnum(d->parts[i].size_bytes)));
	json_object_set_new(o, "partitions", a);
	a = json_array();
	for (size_t i = 0; i < d->slaves.n; i++)
		json_array_append_new(a, json_string(d->slaves.v[i]));
	json_object_set_new(o, "on", a);
	a = json_array();
	for (size_t i = 0; i < d->nholders; i++)
		json_array_append_new(
			a, json_pack("{s:s, s:s, s:s, s:o}", "name",
				     d->holders[i].name, "of", d->holders[i].of,
				     "kind", d->holders[i].kind, "label",
				     jstr(d->holders[i].label)));
	json_object_set_new(o, "holders", a);
	a = json_array();
	for (size_t i = 0; i < d->nmounts; i++)
		json_array_append_new(
			a, json_pack("{s:s, s:s, s:s, s:s}", "device",
				     d->mounts[i].dev, "mountpoint",
				     d->mounts[i].target, "fstype",
				     d->mounts[i].fstype, "options",
				     d->mounts[i].options));
	json_object_set_new(o, "mounts", a);
	a = json_array();
	for (size_t i = 0; i < d->nswaps; i++)
		json_array_append_new(a, json_pack("{s:s, s:s}", "device",
						   d->swaps[i].dev, "path",
						   d->swaps[i].path));
	json_object_set_new(o, "swaps", a);
	json_object_set_new(o, "probe", jprobe(&d->probe));
	return o;
}

static json_t *jstrv(const struct strv *v)
{
	json_t *a = json_array();

	for (size_t i = 0; i < v->n; i++)
		json_array_append_new(a, json_string(v->v[i]));
	return a;
}

static json_t *jfinding(const struct dr_finding *f)
{
	json_t *fix = json_object(), *cmds = json_array(),
	       *host = json_object();

	for (size_t i = 0; i < f->fix.commands.n; i++)
		json_array_append_new(cmds, json_string(f->fix.commands.v[i]));
	for (int h = 0; h < DR_HOST_COUNT; h++)
		if (f->fix.host[h])
			json_object_set_new(host, dr_host_keys[h],
					    json_string(f->fix.host[h]));
	json_object_set_new(fix, "summary", jstr(f->fix.summary));
	json_object_set_new(fix, "commands", cmds);
	json_object_set_new(fix, "host", host);
	json_object_set_new(fix, "other_hypervisor", jstr(f->fix.host_other));
	json_object_set_new(fix, "overridden", json_boolean(f->fix.overridden));
	json_object_set_new(fix, "notes", jstrv(&f->fix.notes));
	return json_pack("{s:s, s:s, s:o, s:s, s:o, s:o}", "severity",
			 dr_sev_name(f->sev), "id", f->id, "disk",
			 jstr(f->disk), "message", f->message, "why",
			 jstr(f->why), "fix", fix);
}

static json_t *junreadable(const struct strv *u)
{
	json_t *a = json_array();

	for (size_t i = 0; i < u->n; i++) {
		const char *sep = strstr(u->v[i], ": ");

		json_array_append_new(
			a, json_pack("{s:s%, s:s}", "path", u->v[i],
				     sep ? (size_t)(sep - u->v[i]) :
					   strlen(u->v[i]),
				     "error", sep ? sep + 2 : "unreadable"));
	}
	return a;
}

bool doctor_json_write(const struct doctor_print *p, FILE *f, struct err *err)
{
	const struct doctor_report *r = p->r;
	json_t *doc = jdoc_new("doctor", p->argc, p->argv), *o, *a;
	struct warnings none = { 0 };

	o = json_pack("{s:b, s:b, s:o, s:o}", "probe", p->probe, "all", p->all,
		      "sysroot", jstr(p->sysroot), "capture", jstr(p->capture));
	jset_real(o, "probe_time_s", (double)p->probe_ns / 1e9, 3);
	json_object_set_new(doc, "options", o);
	json_object_set_new(doc, "source",
			    json_pack("{s:b, s:o, s:o}", "live", r->live,
				      "sysroot", jstr(p->sysroot),
				      "captured_by", jstr(r->captured_by)));
	json_object_set_new(doc, "system", jsystem(r));
	json_object_set_new(doc, "virtualization", jvirt(r));
	json_object_set_new(doc, "guest", jguest(r));
	a = json_array();
	for (size_t i = 0; i < r->ndisks; i++)
		json_array_append_new(a, jdisk(&r->disks[i]));
	json_object_set_new(doc, "disks", a);
	a = json_array();
	for (size_t i = 0; i < r->nfindings; i++)
		json_array_append_new(a, jfinding(&r->findings[i]));
	json_object_set_new(doc, "findings", a);
	json_object_set_new(doc, "fix_commands", jstrv(&r->fix_plan));
	json_object_set_new(
		doc, "summary",
		json_pack("{s:I, s:I, s:I}", "critical",
			  (json_int_t)doctor_count(r, DR_CRITICAL), "warning",
			  (json_int_t)doctor_count(r, DR_WARNING), "info",
			  (json_int_t)doctor_count(r, DR_INFO)));
	json_object_set_new(doc, "unreadable", junreadable(&r->unreadable));
	json_object_set_new(doc, "warnings", jwarnings(&none));
	return jdoc_write(doc, f, err);
}
