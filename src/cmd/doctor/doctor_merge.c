// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * doctor's fixes as one plan. Each finding's commands say which settings
 * they change (struct dr_knob); run one after another, a later fix could
 * undo an earlier one: tuned's virtual-guest profile sets vm.dirty_ratio,
 * which zeroes the vm.dirty_bytes cap of dirty-limit-large. When two
 * fixes want different values of one setting, this order decides
 * (man/iolab-doctor.1, FIXES):
 *
 *   1. a setting a finding names itself wins over one that a tuned profile
 *      brings along;
 *   2. between two of the same kind, the finding printed first wins (more
 *      severe first, then in the rules' order).
 *
 * The losing finding says so in its notes. A named setting that loses has
 * its commands dropped; a profile's setting that loses is kept out of the
 * profile by a child profile, /etc/tuned/iolab-PROFILE, whose [sysctl]
 * section replaces the parent's and carries the winning values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_impl.h"
#include "../../util/xmem.h"

struct claim {
	const struct dr_knob *k;
	const struct dr_finding *f;
};

static const struct claim *claimed(const struct claim *c, size_t n,
				   const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(c[i].k->key, key))
			return &c[i];
	return NULL;
}

static void lose(struct dr_finding *f, struct dr_knob *k, const struct claim *w)
{
	char note[512];

	k->lost = true;
	snprintf(k->winner, sizeof(k->winner), "%s", w->k->shown);
	snprintf(k->winner_id, sizeof(k->winner_id), "%s", w->f->id);
	f->fix.overridden = true;
	if (k->via[0])
		snprintf(
			note, sizeof(note),
			"not applied: %s (from tuned's %s profile), because %s sets %s, and a setting a finding names wins over one a profile brings along",
			k->shown, k->via, w->f->id, w->k->shown);
	else
		snprintf(note, sizeof(note),
			 "not applied: %s, because %s (printed first) sets %s",
			 k->shown, w->f->id, w->k->shown);
	strv_add_unique(&f->fix.notes, note);
}

/* Decide every clash; mark the losing knobs. */
static void decide_all(struct doctor_report *r)
{
	struct claim *c = NULL;
	size_t n = 0;

	/* Pass 0: settings findings name; pass 1: those profiles bring. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < r->nfindings; i++) {
			struct dr_finding *f = &r->findings[i];

			for (size_t j = 0; j < f->fix.nknobs; j++) {
				struct dr_knob *k = &f->fix.knobs[j];
				const struct claim *w;

				if ((pass == 0) != !k->via[0])
					continue;
				w = claimed(c, n, k->key);
				if (!w) {
					c = xrealloc(c, (n + 1) * sizeof(*c));
					c[n].k = k;
					c[n++].f = f;
				} else if (strcmp(w->k->shown, k->shown)) {
					lose(f, k, w);
				}
			}
		}
	}
	free(c);
}

/* Does a knob of @f that did not lose use command @i? */
static bool kept_by_other(const struct dr_finding *f, size_t i)
{
	for (size_t j = 0; j < f->fix.nknobs; j++) {
		const struct dr_knob *k = &f->fix.knobs[j];

		if (!k->lost && !k->via[0] && i >= k->cmd_first &&
		    i < k->cmd_first + k->cmd_count)
			return true;
	}
	return false;
}

/*
 * The profile @via without its losing settings: a child profile whose
 * [sysctl] replaces the parent's, with the parent's settings that stand
 * and the winners in place of the losers.
 */
static void child_profile(const struct dr_finding *f, const char *via,
			  struct strv *out)
{
	char conf[1024];
	size_t len;

	strv_addf(out, "mkdir -p /etc/tuned/iolab-%s", via);
	len = (size_t)snprintf(
		conf, sizeof(conf),
		"[main]\\nsummary=%s with the settings iolab doctor chose over it\\ninclude=%s\\n\\n[sysctl]\\nreplace=1\\n",
		via, via);
	for (size_t j = 0; j < f->fix.nknobs && len < sizeof(conf); j++) {
		const struct dr_knob *k = &f->fix.knobs[j];
		const char *v = k->lost ? k->winner : k->shown;

		if (strcmp(k->via, via) || v[0] == '/')
			continue;
		len += (size_t)snprintf(conf + len, sizeof(conf) - len, "%s\\n",
					v);
	}
	strv_addf(out, "printf '%s' > /etc/tuned/iolab-%s/tuned.conf", conf,
		  via);
	strv_addf(out, "tuned-adm profile iolab-%s", via);
}

/* The profile whose activation command is @cmd and that lost a setting. */
static const char *losing_profile(const struct dr_finding *f, const char *cmd)
{
	for (size_t j = 0; j < f->fix.nknobs; j++) {
		const struct dr_knob *k = &f->fix.knobs[j];

		if (k->lost && k->via[0] &&
		    !strncmp(cmd, "tuned-adm profile ", 18) &&
		    !strcmp(cmd + 18, k->via))
			return k->via;
	}
	return NULL;
}

static void rewrite(struct dr_finding *f)
{
	struct strv out = { 0 };

	if (!f->fix.overridden)
		return;
	for (size_t i = 0; i < f->fix.commands.n; i++) {
		const char *cmd = f->fix.commands.v[i], *via;
		bool drop = false;

		for (size_t j = 0; j < f->fix.nknobs; j++) {
			const struct dr_knob *k = &f->fix.knobs[j];

			if (k->lost && !k->via[0] && i >= k->cmd_first &&
			    i < k->cmd_first + k->cmd_count)
				drop = true;
		}
		if (drop && !kept_by_other(f, i))
			continue;
		via = losing_profile(f, cmd);
		if (via)
			child_profile(f, via, &out);
		else
			strv_addf(&out, "%s", cmd);
	}
	strv_free(&f->fix.commands);
	f->fix.commands = out;
}

void dr_merge_fixes(struct doctor_report *r)
{
	decide_all(r);
	for (size_t i = 0; i < r->nfindings; i++) {
		struct dr_finding *f = &r->findings[i];

		rewrite(f);
		for (size_t j = 0; j < f->fix.commands.n; j++)
			strv_add_unique(&r->fix_plan, f->fix.commands.v[j]);
	}
}
