// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What to change when a profile fails, from what doctor knows: its
 * findings for the disk under the test file (emulated bus, write cache,
 * scheduler, mount options) and the system-wide ones that are more than
 * information. Read from the live system, without probing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_report.h"
#include "../doctor/doctor_diag.h"
#include "../../core/target.h"
#include "../../util/err.h"
#include "../../util/fsread.h"
#include "../../util/xmem.h"

static bool relevant(const struct dr_finding *f, const char *disk)
{
	if (f->disk[0])
		return !strcmp(f->disk, disk);
	return f->sev >= DR_WARNING;
}

void check_hints_collect(struct check_result *r, const struct target *t)
{
	struct doctor_opts o = { 0 };
	struct doctor_report rep = { 0 };
	struct err err = { 0 };

	if (!t->env.device[0] || t->env.ram_backed)
		return;
	if (!doctor_collect(&fsview_host, &o, &rep, &err)) {
		doctor_free(&rep);
		return; /* only a probe can fail, and none was asked for */
	}
	for (size_t i = 0; i < rep.nfindings; i++) {
		const struct dr_finding *f = &rep.findings[i];
		struct check_hint *h;

		if (!relevant(f, t->env.device))
			continue;
		r->hints = xrealloc(r->hints, (r->nhints + 1) * sizeof(*h));
		h = &r->hints[r->nhints++];
		memset(h, 0, sizeof(*h));
		snprintf(h->id, sizeof(h->id), "%s", f->id);
		snprintf(h->disk, sizeof(h->disk), "%s", f->disk);
		h->severity = dr_sev_name(f->sev);
		h->message = xstrdup(f->message ? f->message : "");
		h->fix = xstrdup(f->fix.summary ? f->fix.summary : "");
	}
	doctor_free(&rep);
}

void check_hints_free(struct check_result *r)
{
	for (size_t i = 0; i < r->nhints; i++) {
		free(r->hints[i].message);
		free(r->hints[i].fix);
	}
	free(r->hints);
	r->hints = NULL;
	r->nhints = 0;
}
