// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * doctor: collect, judge, free; see doctor_diag.h. Findings are built in
 * doctor_finding.c.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "doctor_impl.h"
#include "../../util/err.h"
#include "../../util/fsread.h"
#include "../../util/xmem.h"

const char *const dr_host_names[DR_HOST_COUNT] = {
	"QNAP Virtualization Station",
	"Proxmox VE",
	"virt-manager",
	"libvirt XML",
};

const char *const dr_host_keys[DR_HOST_COUNT] = {
	"qnap_virtualization_station",
	"proxmox",
	"virt_manager",
	"libvirt_xml",
};

size_t doctor_count(const struct doctor_report *r, enum dr_sev sev)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nfindings; i++)
		n += r->findings[i].sev == sev;
	return n;
}

/* Most severe first; equal ones keep the order the rules made them. */
static void sort_findings(struct doctor_report *r)
{
	for (size_t i = 1; i < r->nfindings; i++) {
		struct dr_finding f = r->findings[i];
		size_t j = i;

		while (j > 0 && r->findings[j - 1].sev < f.sev) {
			r->findings[j] = r->findings[j - 1];
			j--;
		}
		r->findings[j] = f;
	}
}

static void capture_info(struct dr_ctx *c)
{
	char *text;

	if (fsv_live(c->v)) {
		if (c->v->cap) {
			char buf[160], when[64];
			time_t now = time(NULL);
			struct tm tm;

			strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ",
				 gmtime_r(&now, &tm));
			snprintf(buf, sizeof(buf),
				 "iolab %s doctor --capture, %s\n",
				 IOLAB_VERSION, when);
			dr_fact_save(c, "capture", buf);
		}
		return;
	}
	text = dr_fact(c, "capture");
	if (text) {
		text[strcspn(text, "\n")] = '\0';
		snprintf(c->r->captured_by, sizeof(c->r->captured_by), "%s",
			 text);
		free(text);
	}
}

bool doctor_collect(const struct fsview *v, const struct doctor_opts *o,
		    struct doctor_report *r, struct err *err)
{
	struct dr_ctx c = { .v = v, .r = r };
	char *fstab, *cmdline;
	bool ok = true;

	memset(r, 0, sizeof(*r));
	r->live = fsv_live(v);
	capture_info(&c);
	dr_collect_system(&c);
	dr_collect_virt(&c);
	dr_collect_disks(&c, o);
	dr_virt_devices(&c);
	dr_collect_mounts(&c);
	dr_collect_guest(&c);
	if (r->live && o->probe)
		ok = dr_probe_disks(&c, o, err);
	else if (!r->live)
		dr_replay_probes(&c);
	fstab = dr_slurp(&c, "/etc/fstab", false);
	cmdline = dr_slurp(&c, "/proc/cmdline", true);
	dr_rules(r, fstab, cmdline);
	free(fstab);
	free(cmdline);
	/* After the rules: an observation points to the finding that
	 * explains it. */
	if (ok && r->live && o->observe_ns)
		ok = dr_observe(r, o->observe_ns, o->progress, err);
	sort_findings(r);
	dr_merge_fixes(r);
	return ok;
}

static void fix_free(struct dr_fix *f)
{
	free(f->summary);
	strv_free(&f->commands);
	for (int h = 0; h < DR_HOST_COUNT; h++)
		free(f->host[h]);
	free(f->host_other);
	free(f->knobs);
	strv_free(&f->notes);
}

void doctor_free(struct doctor_report *r)
{
	for (size_t i = 0; i < r->ndisks; i++) {
		struct dr_disk *d = &r->disks[i];

		for (size_t m = 0; m < d->nmounts; m++) {
			free(d->mounts[m].target);
			free(d->mounts[m].fstype);
			free(d->mounts[m].options);
		}
		for (size_t s = 0; s < d->nswaps; s++)
			free(d->swaps[s].path);
		free(d->mounts);
		free(d->swaps);
		free(d->parts);
		free(d->holders);
		strv_free(&d->slaves);
	}
	free(r->disks);
	for (size_t i = 0; i < r->nfindings; i++) {
		free(r->findings[i].message);
		free(r->findings[i].why);
		fix_free(&r->findings[i].fix);
	}
	free(r->findings);
	strv_free(&r->unreadable);
	strv_free(&r->fix_plan);
	strv_free(&r->guest.procs);
	memset(r, 0, sizeof(*r));
}
