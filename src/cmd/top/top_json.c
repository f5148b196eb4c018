// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab top --json`: one compact document per sample, one per line, so
 * that a reader can act on each as it comes; schema in iolab-top(1).
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "top_report.h"
#include "../../report/json_util.h"
#include "../../util/err.h"

static const char *const state_names[] = { "ok", "new", "reset" };

static json_t *jdev(const struct top_row *w)
{
	const struct top_rate *r = &w->rate;
	json_t *o = json_object();
	bool ok = r->state == TOP_OK;
	bool fl = ok && r->nfields > TF_FL_TICKS;
	bool dc = ok && r->nfields > TF_DC_TICKS;
	const double nan = NAN;

	json_object_set_new(o, "name", json_string(r->name));
	json_object_set_new(o, "major", json_integer(r->major));
	json_object_set_new(o, "minor", json_integer(r->minor));
	json_object_set_new(o, "kind", json_string(w->cls.kind));
	json_object_set_new(o, "identity",
			    w->cls.ident[0] ? json_string(w->cls.ident) :
					      json_null());
	json_object_set_new(o, "state", json_string(state_names[r->state]));
	/* Figures the kernel does not report, or not yet, are null. */
	jset_real(o, "r_s", ok ? r->r_s : nan, 2);
	jset_real(o, "w_s", ok ? r->w_s : nan, 2);
	jset_real(o, "d_s", dc ? r->d_s : nan, 2);
	jset_real(o, "f_s", fl ? r->f_s : nan, 2);
	jset_real(o, "rrqm_s", ok ? r->rrqm_s : nan, 2);
	jset_real(o, "wrqm_s", ok ? r->wrqm_s : nan, 2);
	jset_real(o, "r_mb_s", ok ? r->rmb_s : nan, 4);
	jset_real(o, "w_mb_s", ok ? r->wmb_s : nan, 4);
	jset_real(o, "d_mb_s", dc ? r->dmb_s : nan, 4);
	jset_real(o, "r_await_ms", ok ? r->r_await_ms : nan, 3);
	jset_real(o, "w_await_ms", ok ? r->w_await_ms : nan, 3);
	jset_real(o, "d_await_ms", dc ? r->d_await_ms : nan, 3);
	jset_real(o, "f_await_ms", fl ? r->f_await_ms : nan, 3);
	jset_real(o, "aqu_sz", ok ? r->aqu_sz : nan, 3);
	jset_real(o, "util_pct", ok ? r->util_pct : nan, 2);
	json_object_set_new(o, "in_flight", json_integer(r->in_flight));
	return o;
}

static json_t *jsys(const struct top_sys_rate *s)
{
	json_t *o = json_object();
	const char *note = NULL;

	jset_real(o, "iowait_pct", s->iowait_pct, 2);
	jset_real(o, "steal_pct", s->steal_pct, 2);
	jset_real(o, "psi_io_some_pct", s->psi_some_pct, 2);
	jset_real(o, "psi_io_full_pct", s->psi_full_pct, 2);
	if (s->psi_err == -EOPNOTSUPP)
		note = "PSI is off: boot with psi=1";
	else if (s->psi_err)
		note = "no /proc/pressure/io: PSI needs Linux 4.20+ with CONFIG_PSI";
	json_object_set_new(o, "psi_note",
			    note ? json_string(note) : json_null());
	return o;
}

static json_t *jvms(const struct top_sample *s)
{
	json_t *a = json_array();
	const double nan = NAN;

	for (size_t i = 0; i < s->nvms; i++) {
		const struct top_vm *vm = &s->vms[i];
		json_t *o = json_object(), *disks = json_array();

		json_object_set_new(o, "name", json_string(vm->name));
		json_object_set_new(o, "pid",
				    vm->pid ? json_integer(vm->pid) :
					      json_null());
		json_object_set_new(o, "qmp",
				    vm->qmp[0] ? json_string(vm->qmp) :
						 json_null());
		json_object_set_new(o, "source",
				    top_vm_source(vm) ?
					    json_string(top_vm_source(vm)) :
					    json_null());
		json_object_set_new(o, "libvirt",
				    vm->libvirt && s->lv_uri ?
					    json_string(s->lv_uri) :
					    json_null());
		/* Its own interval: between the two replies, not our reads. */
		jset_real(o, "interval_s",
			  vm->have_prev && !vm->why[0] ?
				  (double)(vm->cur.t_ns - vm->prev.t_ns) / 1e9 :
				  nan,
			  6);
		json_object_set_new(o, "error",
				    vm->why[0] ? json_string(vm->why) :
						 json_null());
		for (size_t j = 0; !vm->why[0] && j < vm->cur.n; j++) {
			struct top_vmrate r;
			json_t *d = json_object();
			const struct top_vmcfg *c;
			bool ok;

			top_vm_disk_rate(vm, j, &r);
			ok = r.state == TOP_OK;
			json_object_set_new(d, "name", json_string(r.name));
			json_object_set_new(d, "state",
					    json_string(state_names[r.state]));
			jset_real(d, "r_s", ok ? r.r_s : nan, 2);
			jset_real(d, "w_s", ok ? r.w_s : nan, 2);
			jset_real(d, "f_s", ok ? r.f_s : nan, 2);
			jset_real(d, "r_mb_s", ok ? r.rmb_s : nan, 4);
			jset_real(d, "w_mb_s", ok ? r.wmb_s : nan, 4);
			jset_real(d, "r_await_ms", ok ? r.r_await_ms : nan, 3);
			jset_real(d, "w_await_ms", ok ? r.w_await_ms : nan, 3);
			jset_real(d, "f_await_ms", ok ? r.f_await_ms : nan, 3);
			json_object_set_new(
				d, "rd_operations",
				json_integer((json_int_t)vm->cur.d[j].rd_ops));
			json_object_set_new(
				d, "wr_operations",
				json_integer((json_int_t)vm->cur.d[j].wr_ops));
			json_object_set_new(
				d, "flush_operations",
				vm->cur.no_flush ?
					json_null() :
					json_integer((json_int_t)vm->cur.d[j]
							     .fl_ops));
			json_object_set_new(
				d, "rd_bytes",
				json_integer(
					(json_int_t)vm->cur.d[j].rd_bytes));
			json_object_set_new(
				d, "wr_bytes",
				json_integer(
					(json_int_t)vm->cur.d[j].wr_bytes));
			c = top_vm_cfg_for(vm, r.name);
			json_object_set_new(d, "setting",
					    c ? json_string(c->setting) :
						json_null());
			json_object_set_new(d, "advise",
					    c ? json_string(c->findings) :
						json_null());
			json_array_append_new(disks, d);
		}
		json_object_set_new(o, "disks", disks);
		json_array_append_new(a, o);
	}
	return a;
}

bool top_json_line(const struct top_sample *s, FILE *f, struct err *err)
{
	json_t *doc = jdoc_new("top", s->argc, s->argv);
	json_t *opts = json_object(), *devs = json_array(),
	       *gone = json_array();
	json_t *vs = json_array(), *warns = json_array();
	char when[32] = "";
	time_t now = time(NULL);
	struct tm tm;
	int rc;

	jset_real(opts, "interval_s", s->interval_opt_s, 3);
	json_object_set_new(opts, "count", json_integer(s->count_opt));
	json_object_set_new(opts, "all", json_boolean(s->all));
	json_object_set_new(opts, "vms", json_boolean(s->vms_on));
	json_object_set_new(doc, "options", opts);
	json_object_set_new(doc, "sample", json_integer(s->index));
	if (gmtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(doc, "time", json_string(when));
	jset_real(doc, "interval_s", s->interval_s, 6);
	json_object_set_new(doc, "system", jsys(&s->sys));
	for (size_t i = 0; i < s->nrows; i++)
		json_array_append_new(devs, jdev(&s->rows[i]));
	json_object_set_new(doc, "devices", devs);
	for (size_t i = 0; i < s->ngone; i++)
		json_array_append_new(gone, json_string(s->gone[i]));
	json_object_set_new(doc, "gone", gone);
	if (s->vms_on)
		json_object_set_new(doc, "vms", jvms(s));
	for (size_t i = 0; i < s->nverdicts; i++) {
		const struct top_verdict *v = &s->verdicts[i];
		json_t *o = json_pack(
			"{s:s, s:s, s:s?, s:s}", "id", v->id, "severity",
			v->sev == TOP_WARNING ? "warning" : "info", "disk",
			v->disk[0] ? v->disk : NULL, "message", v->msg);

		jset_real(o, "value", v->value, 3);
		json_object_set_new(o, "unit", json_string(v->unit));
		json_array_append_new(vs, o);
	}
	json_object_set_new(doc, "verdicts", vs);
	if (s->truncated)
		json_array_append_new(
			warns,
			json_pack(
				"{s:s, s:s}", "id", "diskstats-truncated",
				"message",
				"/proc/diskstats was longer than the bound: the rest is not shown"));
	if (s->skipped)
		json_array_append_new(
			warns,
			json_pack(
				"{s:s, s:s}", "id", "diskstats-unparsed",
				"message",
				"lines of /proc/diskstats did not parse and were skipped"));
	json_object_set_new(doc, "warnings", warns);
	rc = json_dumpf(doc, f, JSON_COMPACT);
	json_decref(doc);
	if (rc || fputc('\n', f) == EOF || fflush(f))
		return err_set(err, EXIT_IO, errno,
			       "cannot write the report: %s", strerror(errno));
	return true;
}
