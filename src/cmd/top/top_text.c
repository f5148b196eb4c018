// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab top` as text: a frame per sample, iostat -x's columns, then the
 * verdicts as doctor prints findings. On a terminal each frame replaces
 * the last; in batch mode frames follow one another, as top -b.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "top_report.h"

static void pct(FILE *f, const char *label, double v)
{
	if (isnan(v))
		fprintf(f, "  %s -", label);
	else
		fprintf(f, "  %s %.1f %%", label, v);
}

static void header(const struct top_sample *s, FILE *f)
{
	time_t now = time(NULL);
	struct tm tm;
	char when[32] = "";

	if (gmtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fprintf(f, "iolab top: sample %u, %s, over %.2f s\n", s->index, when,
		s->interval_s);
	fprintf(f, "cpu:");
	pct(f, "iowait", s->sys.iowait_pct);
	pct(f, "steal", s->sys.steal_pct);
	if (s->sys.psi_err == -EOPNOTSUPP)
		fprintf(f, "  PSI io off (boot with psi=1 to have it)");
	else if (s->sys.psi_err)
		fprintf(f,
			"  PSI io not in this kernel (Linux 4.20+ with CONFIG_PSI)");
	else {
		fprintf(f, "  PSI io:");
		pct(f, "some", s->sys.psi_some_pct);
		pct(f, "full", s->sys.psi_full_pct);
	}
	fprintf(f, "\n\n");
}

static void row(const struct top_row *w, FILE *f)
{
	const struct top_rate *r = &w->rate;

	fprintf(f, "%-12s ", r->name);
	if (r->state == TOP_NEW) {
		fprintf(f,
			"new since the last sample: figures from the next\n");
		return;
	}
	if (r->state == TOP_RESET) {
		fprintf(f,
			"counters went back (device re-created): figures from the next sample\n");
		return;
	}
	fprintf(f, "%9.1f %9.1f %8.2f %8.2f %8.2f %8.2f ", r->r_s, r->w_s,
		r->rmb_s, r->wmb_s, r->r_await_ms, r->w_await_ms);
	if (r->nfields > TF_FL_TICKS)
		fprintf(f, "%7.1f %8.2f ", r->f_s, r->f_await_ms);
	else
		fprintf(f, "%7s %8s ", "-", "-");
	fprintf(f, "%7.2f %6.1f  %-10s  %s\n", r->aqu_sz, r->util_pct,
		w->cls.kind, w->cls.ident);
}

/* A figure in @w columns, "-" where it is unknown (libvirt's older call). */
static void fig(FILE *f, int w, int prec, double v)
{
	if (isnan(v))
		fprintf(f, " %*s", w, "-");
	else
		fprintf(f, " %*.*f", w, prec, v);
}

static void vm_rows(const struct top_sample *s, FILE *f)
{
	fprintf(f, "\nVMs, from QEMU's own statistics (query-blockstats%s):\n",
		s->lv_uri ? ", or libvirt's block statistics" : "");
	fprintf(f, "%-20s %-12s %9s %9s %8s %8s %8s %8s %7s %8s\n", "VM (pid)",
		"DISK", "r/s", "w/s", "rMB/s", "wMB/s", "r_await", "w_await",
		"f/s", "f_await");
	if (!s->nvms)
		fprintf(f, "(no QEMU process running)\n");
	for (size_t i = 0; i < s->nvms; i++) {
		const struct top_vm *vm = &s->vms[i];
		char who[TOP_NAME_MAX + 24];

		if (vm->lv_only)
			snprintf(who, sizeof(who), "%s (libvirt)", vm->name);
		else
			snprintf(who, sizeof(who), "%s (%d)", vm->name,
				 (int)vm->pid);
		if (vm->why[0]) {
			fprintf(f, "%-20s %s\n", who, vm->why);
			continue;
		}
		for (size_t j = 0; j < vm->cur.n; j++) {
			struct top_vmrate r;
			const struct top_vmcfg *c;

			top_vm_disk_rate(vm, j, &r);
			fprintf(f, "%-20s %-12s", j ? "" : who, r.name);
			if (r.state != TOP_OK) {
				fprintf(f, " %s\n",
					r.state == TOP_NEW ?
						"figures from the next sample" :
						"counters went back: figures from the next sample");
			} else {
				fig(f, 9, 1, r.r_s);
				fig(f, 9, 1, r.w_s);
				fig(f, 8, 2, r.rmb_s);
				fig(f, 8, 2, r.wmb_s);
				fig(f, 8, 2, r.r_await_ms);
				fig(f, 8, 2, r.w_await_ms);
				fig(f, 7, 1, r.f_s);
				fig(f, 8, 2, r.f_await_ms);
				fputc('\n', f);
			}
			/* What advise reads on its command line, and finds. */
			c = top_vm_cfg_for(vm, r.name);
			if (c)
				fprintf(f, "%-20s %-12s %s%s%s\n", "", "",
					c->setting,
					c->findings[0] ? "; advise: " : "",
					c->findings);
		}
	}
}

void top_text_frame(const struct top_sample *s, FILE *f, bool clear)
{
	/* Home and clear to the end: the frame replaces the last one. */
	if (clear)
		fputs("\033[H\033[J", f);
	header(s, f);
	fprintf(f, "%-12s %9s %9s %8s %8s %8s %8s %7s %8s %7s %6s  %-10s  %s\n",
		"DEVICE", "r/s", "w/s", "rMB/s", "wMB/s", "r_await", "w_await",
		"f/s", "f_await", "aqu-sz", "busy%", "kind", "what it is");
	for (size_t i = 0; i < s->nrows; i++)
		row(&s->rows[i], f);
	if (!s->nrows)
		fprintf(f, "(no device to show; name one, or --all)\n");
	for (size_t i = 0; i < s->ngone; i++)
		fprintf(f, "%-12s gone since the last sample\n", s->gone[i]);
	if (s->vms_on)
		vm_rows(s, f);
	if (s->nverdicts)
		fprintf(f, "\n");
	for (size_t i = 0; i < s->nverdicts; i++) {
		const struct top_verdict *v = &s->verdicts[i];

		fprintf(f, "%-8s %s: %s\n", top_sev_label(v->sev), v->id,
			v->msg);
	}
	if (s->truncated)
		fprintf(f,
			"(/proc/diskstats was longer than %u bytes or %u devices: the rest is not shown)\n",
			TOP_READ_MAX, TOP_DEVS_MAX);
	fprintf(f, "\n");
}
