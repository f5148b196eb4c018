// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Building findings: adding one, its why and its fix lines, and the names of
 * severities, classes and kinds; shared by the collectors and the rules
 * (doctor_impl.h).
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

static char *vfmt(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		xoom();
	return s;
}

const char *dr_sev_name(enum dr_sev s)
{
	static const char *const n[] = { "info", "warning", "critical" };

	return n[s];
}

const char *dr_kind_name(enum dr_kind k)
{
	static const char *const n[] = { "paravirtual",	  "emulated",
					 "emulated-nvme", "native",
					 "stacked",	  "memory",
					 "other" };

	return n[k];
}

const char *dr_class_name(enum dr_class c)
{
	static const char *const n[] = { "virtual", "nvme", "ssd", "hdd" };

	return n[c];
}

const char *dr_mod_state_name(enum dr_mod_state s)
{
	static const char *const n[] = { "unknown", "missing", "available",
					 "loaded", "builtin" };

	return n[s];
}

struct dr_finding *dr_add(struct doctor_report *r, enum dr_sev sev,
			  const char *id, const char *disk, const char *fmt,
			  ...)
{
	struct dr_finding *f;
	va_list ap;

	r->findings = xrealloc(r->findings,
			       (r->nfindings + 1) * sizeof(*r->findings));
	f = &r->findings[r->nfindings++];
	memset(f, 0, sizeof(*f));
	f->sev = sev;
	snprintf(f->id, sizeof(f->id), "%s", id);
	snprintf(f->disk, sizeof(f->disk), "%s", disk ? disk : "");
	va_start(ap, fmt);
	f->message = vfmt(fmt, ap);
	va_end(ap);
	return f;
}

void dr_why(struct dr_finding *f, const char *fmt, ...)
{
	va_list ap;

	free(f->why);
	va_start(ap, fmt);
	f->why = vfmt(fmt, ap);
	va_end(ap);
}

void dr_fix_summary(struct dr_finding *f, const char *fmt, ...)
{
	va_list ap;

	free(f->fix.summary);
	va_start(ap, fmt);
	f->fix.summary = vfmt(fmt, ap);
	va_end(ap);
}

void dr_fix_cmd(struct dr_finding *f, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vfmt(fmt, ap);
	va_end(ap);
	strv_addf(&f->fix.commands, "%s", s);
	free(s);
}

void dr_fix_host(struct dr_finding *f, enum dr_host h, const char *fmt, ...)
{
	va_list ap;

	free(f->fix.host[h]);
	va_start(ap, fmt);
	f->fix.host[h] = vfmt(fmt, ap);
	va_end(ap);
}

void dr_fix_other(struct dr_finding *f, const char *fmt, ...)
{
	va_list ap;

	free(f->fix.host_other);
	va_start(ap, fmt);
	f->fix.host_other = vfmt(fmt, ap);
	va_end(ap);
}

void dr_fix_knob(struct dr_finding *f, const char *key, const char *shown,
		 const char *via, size_t first)
{
	struct dr_knob *k;

	f->fix.knobs = xrealloc(f->fix.knobs,
				(f->fix.nknobs + 1) * sizeof(*f->fix.knobs));
	k = &f->fix.knobs[f->fix.nknobs++];
	memset(k, 0, sizeof(*k));
	snprintf(k->key, sizeof(k->key), "%s", key);
	snprintf(k->shown, sizeof(k->shown), "%s", shown);
	snprintf(k->via, sizeof(k->via), "%s", via ? via : "");
	k->cmd_first = first;
	k->cmd_count = f->fix.commands.n - first;
}
