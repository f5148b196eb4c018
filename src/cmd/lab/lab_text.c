// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab lab` as tables: per bus and image format, the Read and the Write
 * table of `matrix` (rows aio x cache, columns the suite's tests, MB/s),
 * refused and failed cells pointing to footnotes that give QEMU's own
 * words or the reason; then the best safe and the best overall setting.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab_report.h"
#include "../run/run_report.h"
#include "lab_host.h"
#include "../../util/margin.h"
#include "../../util/parse.h"
#include "../../util/term.h"
#include "../../util/xmem.h"

/* Distinct reasons, numbered in order of first appearance. */
struct notes {
	const char *text[256];
	enum lab_status status[256];
	int n;
};

static int note_of(struct notes *ns, const struct lab_cell *c)
{
	for (int i = 0; i < ns->n; i++)
		if (ns->status[i] == c->status &&
		    !strcmp(ns->text[i], c->reason))
			return i + 1;
	if (ns->n == 256)
		return 0;
	ns->text[ns->n] = c->reason;
	ns->status[ns->n] = c->status;
	return ++ns->n;
}

/* The test columns of a group: the first ok cell's tests. */
static const struct lab_cell *columns(const struct lab_report *r, int bus,
				      int format)
{
	for (size_t i = 0; i < r->ncells; i++) {
		const struct lab_cell *c = &r->cells[i];

		if ((int)c->bus == bus && (int)c->format == format && c->nfigs)
			return c;
	}
	return NULL;
}

static int col_width(const char *name)
{
	int w = (int)strlen(name) + 2;

	return w < 11 ? 11 : w;
}

static const struct lab_fig *fig_named(const struct lab_cell *c,
				       const char *name)
{
	for (unsigned int i = 0; i < c->nfigs; i++)
		if (!strcmp(c->figs[i].name, name))
			return &c->figs[i];
	return NULL;
}

static void print_table(const struct lab_report *r, int bus, int format,
			int dir, const struct lab_cell *cols, struct notes *ns,
			FILE *f)
{
	/* The guests' headline: the best run with --runs, else the mean. */
	bool best = r->opts &&
		    lab_suite_spec(&r->opts->suite)->procedure == MARK_FIXED;

	fprintf(f, "\n%s, %s image: %s MB/s (%s)\n", lab_bus_names[bus],
		lab_format_names[format], dir ? "Write" : "Read",
		best ? "best of runs, as CrystalDiskMark" : "mean of runs");
	fprintf(f, "%-9s %-13s", "aio", "cache");
	for (unsigned int t = 0; cols && t < cols->nfigs; t++)
		fprintf(f, "%*s", col_width(cols->figs[t].name),
			cols->figs[t].name);
	fprintf(f, "  %s\n", "on host power loss");
	for (size_t i = 0; i < r->ncells; i++) {
		const struct lab_cell *c = &r->cells[i];

		if ((int)c->bus != bus || (int)c->format != format)
			continue;
		fprintf(f, "%-9s %-13s", engine_name(c->aio),
			cache_name(c->cache));
		if (c->status != LAB_OK) {
			char tag[48];

			snprintf(tag, sizeof(tag), "%s [%d]",
				 c->status == LAB_REFUSED ? "refused by QEMU" :
							    "failed",
				 note_of(ns, c));
			fprintf(f, "%*s",
				cols ? col_width(cols->figs[0].name) : 11, tag);
			fprintf(f, "\n");
			continue;
		}
		for (unsigned int t = 0; cols && t < cols->nfigs; t++) {
			const struct lab_fig *fg =
				fig_named(c, cols->figs[t].name);
			int w = col_width(cols->figs[t].name);

			if (fg && fg->has[dir]) {
				char v[40];

				snprintf(v, sizeof(v), "%.2f%s%s%s%s",
					 fg->mbps[dir],
					 fg->cache_reads[dir] ? "c" : "",
					 fg->unbacked_reads[dir] ? "z" : "",
					 fg->cached_writes[dir] ? "w" : "",
					 fg->imprecise[dir] ? "~" : "");
				fprintf(f, "%*s", w, v);
			} else {
				fprintf(f, "%*s", w, "-");
			}
		}
		fprintf(f, "  %s\n", cache_risk(c->cache));
	}
}

static bool in_group(const struct lab_cell *c, int bus, int format)
{
	return (bus < 0 || (int)c->bus == bus) &&
	       (format < 0 || (int)c->format == format);
}

/* The measured cells of a group whose reads were a cache's: named, and
 * not ranked (lab_best skips them). */
static void print_set_aside(const struct lab_report *r, int bus, int format,
			    FILE *f)
{
	char buf[128];
	int n = 0;

	for (size_t i = 0; i < r->ncells; i++) {
		const struct lab_cell *c = &r->cells[i];

		if (!in_group(c, bus, format) || !lab_cell_set_aside(c))
			continue;
		fprintf(f, "%s%s", n++ ? ", " : "Not ranked: ",
			lab_cell_words(c, bus < 0, buf, sizeof(buf)));
	}
	if (n)
		fprintf(f,
			"; their reads came from a cache (the guest's page cache, or latencies below any disk's: the host's page cache), not the disk\n");
}

/* Best safe and best overall cell of a group (bus/format -1: all), the
 * safe one's lead over the next safe one against their noise. */
static void print_best(const struct lab_report *r, int bus, int format,
		       const char *scope, FILE *f)
{
	double s_safe, s_all;
	long safe = lab_best(r, bus, format, true, &s_safe);
	long all = lab_best(r, bus, format, false, &s_all);
	const struct lab_cell *next = NULL;
	char buf[128];

	print_set_aside(r, bus, format, f);
	if (all < 0)
		return;
	/* The runner-up shows how clear the win is. */
	for (size_t i = 0; i < r->ncells; i++) {
		const struct lab_cell *c = &r->cells[i];

		if ((long)i == safe || c->status != LAB_OK ||
		    c->cache == CACHE_UNSAFE || lab_cell_set_aside(c) ||
		    !in_group(c, bus, format))
			continue;
		if (!next || lab_cell_score(c) > lab_cell_score(next))
			next = c;
	}
	if (safe >= 0) {
		const struct lab_cell *b = &r->cells[safe];

		fprintf(f, "Best %ssetting%s: %s, geometric mean %.2f MB/s",
			all == safe ? "" : "safe ", scope,
			lab_cell_words(b, bus < 0, buf, sizeof(buf)), s_safe);
		if (next && lab_cell_score(next) > 0) {
			struct margin m = margin_of(s_safe, lab_cell_unc(b),
						    lab_cell_score(next),
						    lab_cell_unc(next));

			lab_cell_words(next, bus < 0, buf, sizeof(buf));
			if (m.too_close)
				fprintf(f,
					" (too close to call against %s, %.2f MB/s: within the noise, %s%.0f%%)",
					buf, lab_cell_score(next),
					term_glyph("\u00b1"), 100 * m.unc);
			else if (isnan(m.unc))
				fprintf(f,
					" (the next safe one: %s, %.2f MB/s, %.2fx; noise unknown with one run: use --runs 3)",
					buf, lab_cell_score(next), m.ratio);
			else
				fprintf(f,
					" (the next safe one: %s, %.2f MB/s, %.2fx, beyond the noise of %s%.0f%%)",
					buf, lab_cell_score(next), m.ratio,
					term_glyph("\u00b1"), 100 * m.unc);
		}
		fprintf(f, "; %s\n", cache_risk(b->cache));
		if (lab_cell_cached_writes(b))
			fprintf(f,
				"  its writes were acknowledged from a cache: ranked at the rate counting the flush that put them on the storage\n");
	}
	if (all != safe)
		fprintf(f, "Best overall%s: %s, geometric mean %.2f MB/s; %s\n",
			scope,
			lab_cell_words(&r->cells[all], bus < 0, buf,
				       sizeof(buf)),
			s_all, cache_risk(r->cells[all].cache));
}

static unsigned int ok_cells(const struct lab_report *r, int bus, int format)
{
	unsigned int n = 0;

	for (size_t i = 0; i < r->ncells; i++)
		n += r->cells[i].status == LAB_OK &&
		     (int)r->cells[i].bus == bus &&
		     (int)r->cells[i].format == format;
	return n;
}

/* With several buses: each at the best safe setting they all ran. */
static void print_buses(const struct lab_report *r, int nbus, const int *buses,
			FILE *f)
{
	long best = lab_best(r, -1, -1, true, NULL);
	const struct lab_cell *ref, *cols;

	if (nbus < 2 || best < 0)
		return;
	ref = &r->cells[best];
	cols = ref;
	for (int dir = 0; dir < 2; dir++) {
		fprintf(f,
			"\nBuses compared at aio=%s cache=%s, %s image: %s MB/s\n",
			engine_name(ref->aio), cache_name(ref->cache),
			lab_format_names[ref->format], dir ? "Write" : "Read");
		fprintf(f, "%-23s", "bus");
		for (unsigned int t = 0; t < cols->nfigs; t++)
			fprintf(f, "%*s", col_width(cols->figs[t].name),
				cols->figs[t].name);
		fprintf(f, "\n");
		for (int b = 0; b < nbus; b++) {
			const struct lab_cell *c = NULL;

			for (size_t i = 0; i < r->ncells; i++)
				if ((int)r->cells[i].bus == buses[b] &&
				    r->cells[i].format == ref->format &&
				    r->cells[i].aio == ref->aio &&
				    r->cells[i].cache == ref->cache)
					c = &r->cells[i];
			fprintf(f, "%-23s", lab_bus_names[buses[b]]);
			for (unsigned int t = 0; t < cols->nfigs; t++) {
				const struct lab_fig *fg =
					c && c->status == LAB_OK ?
						fig_named(c,
							  cols->figs[t].name) :
						NULL;
				int w = col_width(cols->figs[t].name);

				if (fg && fg->has[dir])
					fprintf(f, "%*.2f", w, fg->mbps[dir]);
				else
					fprintf(f, "%*s", w, "-");
			}
			fprintf(f, "\n");
		}
	}
}

static void print_indented(const char *text, FILE *f)
{
	for (const char *s = text; *s;) {
		size_t n = strcspn(s, "\n");

		if (n)
			fprintf(f, "      %.*s\n", (int)n, s);
		s += n + (s[n] ? 1 : 0);
	}
}

/* The legend of the marks the tables carry. */
static void print_marks(const struct lab_report *r, FILE *f)
{
	bool c = false, z = false, w = false, n = false;

	for (size_t i = 0; i < r->ncells; i++)
		for (unsigned int t = 0; t < r->cells[i].nfigs; t++)
			for (int d = 0; d < 2; d++) {
				const struct lab_fig *g = &r->cells[i].figs[t];

				if (r->cells[i].status != LAB_OK || !g->has[d])
					continue;
				c |= g->cache_reads[d];
				z |= g->unbacked_reads[d];
				w |= g->cached_writes[d];
				n |= g->imprecise[d];
			}
	if (c || z || w || n)
		fprintf(f, "\n");
	if (c)
		fprintf(f,
			"c = reads from a cache (the guest's page cache, or below any disk's latency: the host's), not the disk\n");
	if (z)
		fprintf(f,
			"z = reads of a region no disk stored (never written, zeros or one block repeated)\n");
	if (w)
		fprintf(f,
			"w = writes acknowledged from a cache; ranked at the rate counting the flush after the run\n");
	if (n)
		fprintf(f,
			"~ = not known to the precision asked within the time per test: the mean of its runs, noisier than that\n");
}

static void print_notes(const struct lab_report *r, const struct notes *ns,
			FILE *f)
{
	char buf[128];

	if (!ns->n)
		return;
	fprintf(f, "\n");
	for (int i = 0; i < ns->n; i++) {
		bool first = true;

		fprintf(f, "[%d] %s (", i + 1,
			ns->status[i] == LAB_REFUSED ?
				"QEMU refused to start; its message" :
				"failed");
		for (size_t k = 0; k < r->ncells; k++) {
			const struct lab_cell *c = &r->cells[k];

			if (c->status != ns->status[i] ||
			    strcmp(c->reason, ns->text[i]))
				continue;
			fprintf(f, "%s%s", first ? "" : "; ",
				lab_cell_words(c, true, buf, sizeof(buf)));
			first = false;
		}
		fprintf(f, "):\n    %s\n", ns->text[i]);
		if (ns->status[i] == LAB_FAILED) {
			/* The console's last lines say where the guest was. */
			for (size_t k = 0; k < r->ncells; k++) {
				const struct lab_cell *c = &r->cells[k];
				const char *t, *p;
				int lines = 0;

				if (c->status != LAB_FAILED ||
				    strcmp(c->reason, ns->text[i]) ||
				    !c->console_tail || !c->console_tail[0])
					continue;
				t = c->console_tail + strlen(c->console_tail);
				for (p = t; p > c->console_tail; p--)
					if (p[-1] == '\n' && ++lines > 6)
						break;
				if (c->guest_log) {
					fprintf(f, "    the guest said:\n");
					print_indented(c->guest_log, f);
				}
				fprintf(f, "    guest console, last lines:\n");
				for (const char *s = p; *s;) {
					size_t n = strcspn(s, "\n");

					if (n)
						fprintf(f, "      %.*s\n",
							(int)n, s);
					s += n + (s[n] ? 1 : 0);
				}
				break;
			}
		}
	}
}

/*
 * --doctor: per bus and format, the guest's view of its test disk (from
 * the first cell that has it) and the write cache each cache mode shows
 * the guest (reference/qemu.md 1.4).
 */
static void print_doctor(const struct lab_report *r, int bus, int format,
			 FILE *f)
{
	struct lab_doctor d, one;
	bool have = false;
	char wb[160] = "", wt[160] = "";

	for (size_t i = 0; i < r->ncells; i++) {
		const struct lab_cell *c = &r->cells[i];

		if ((int)c->bus != bus || (int)c->format != format ||
		    !lab_doctor_parse(c, &one))
			continue;
		if (!have)
			d = one;
		have = true;
		if (!strcmp(one.write_cache, "write back") &&
		    !strstr(wb, cache_name(c->cache)))
			snprintf(wb + strlen(wb), sizeof(wb) - strlen(wb),
				 "%s%s", wb[0] ? ", " : "",
				 cache_name(c->cache));
		else if (!strcmp(one.write_cache, "write through") &&
			 !strstr(wt, cache_name(c->cache)))
			snprintf(wt + strlen(wt), sizeof(wt) - strlen(wt),
				 "%s%s", wt[0] ? ", " : "",
				 cache_name(c->cache));
	}
	if (!have)
		return;
	fprintf(f, "\nInside the %s guest (iolab doctor), %s image:\n",
		lab_bus_names[bus], lab_format_names[format]);
	fprintf(f, "  %s\n", d.disk);
	if (wb[0] || wt[0]) {
		fprintf(f, "  write cache as the guest sees it:");
		if (wb[0])
			fprintf(f, " write back (cache=%s)%s", wb,
				wt[0] ? "," : "");
		if (wt[0])
			fprintf(f, " write through (cache=%s)", wt);
		fprintf(f, "\n");
	}
	for (unsigned int k = 0; k < d.nfind; k++)
		fprintf(f, "  %s\n", d.find[k]);
	if (d.others[0])
		fprintf(f, "  about the lab guest itself, not the disk: %s\n",
			d.others);
}

/* What QEMU printed for cells that ran anyway (warnings). */
static void print_qemu_messages(const struct lab_report *r, FILE *f)
{
	char buf[128];
	bool first = true;

	for (size_t i = 0; i < r->ncells; i++) {
		const struct lab_cell *c = &r->cells[i];

		if (c->status != LAB_OK || !c->qemu_stderr ||
		    !c->qemu_stderr[0])
			continue;
		if (first)
			fprintf(f, "\nQEMU's messages for cells that ran:\n");
		first = false;
		fprintf(f, "  %s: %s\n",
			lab_cell_words(c, true, buf, sizeof(buf)),
			c->qemu_stderr);
	}
}

static void print_all(const struct lab_report *r, FILE *f)
{
	struct notes ns = { .n = 0 };
	int buses[BUS_COUNT], nbus = 0, groups = 0;
	struct lab_cell plan = { .nfigs = 0 };
	bool seen_fmt[FMT_COUNT] = { false };
	char a[32], b[32];

	fprintf(f, "iolab lab: QEMU %s (%s), accelerator %s\n", r->qemu_version,
		r->qemu, r->accel == ACCEL_KVM ? "KVM" : "TCG");
	fprintf(f, "guest: Linux %s (%s), %u vCPU, %s RAM\n", r->kernel_release,
		r->kernel, r->smp, fmt_size(r->memory_bytes, a, sizeof(a)));
	fprintf(f,
		"disk: a %s image per cell in %s%s%s, filled with random data before its suite\n",
		fmt_size(r->disk_bytes, b, sizeof(b)), r->image_dir,
		r->image_fs[0] ? " on " : "", r->image_fs);
	fprintf(f, "suite: %s\n", r->suite_title);
	if (r->guest_per_cell)
		fprintf(f,
			"guests: one per cell (--guest-per-cell), %u started\n",
			r->nguests);
	else
		fprintf(f,
			"guests: %u started; cells of one bus and format share one, each on an image of its own, measured one after another\n",
			r->nguests);
	if (r->accel_note[0])
		fprintf(f, "note: %s\n", r->accel_note);
	if (r->accel != ACCEL_KVM)
		fprintf(f,
			"note: TCG emulates the guest's CPU: these figures compare the settings with each other, not with hardware or with a KVM guest\n");
	if (r->partial)
		fprintf(f, "** PARTIAL: interrupted after %zu cells **\n",
			r->ncells);
	/* The columns are the tests asked for, whichever cells ran them. */
	if (r->opts) {
		const struct lab_suite *s = &r->opts->suite;

		for (unsigned int t = 0;
		     t < lab_suite_ntests(s) && t < LAB_MAX_TESTS; t++)
			lab_suite_test_name(s, t, plan.figs[t].name,
					    sizeof(plan.figs[t].name));
		plan.nfigs = lab_suite_ntests(s) < LAB_MAX_TESTS ?
				     lab_suite_ntests(s) :
				     LAB_MAX_TESTS;
	}
	for (size_t i = 0; i < r->ncells; i++) {
		bool known = false;

		for (int k = 0; k < nbus; k++)
			known |= buses[k] == (int)r->cells[i].bus;
		if (!known)
			buses[nbus++] = (int)r->cells[i].bus;
		seen_fmt[r->cells[i].format] = true;
	}
	for (int k = 0; k < nbus; k++) {
		for (int fm = 0; fm < FMT_COUNT; fm++) {
			const struct lab_cell *cols;

			if (!seen_fmt[fm])
				continue;
			groups++;
			cols = plan.nfigs ? &plan : columns(r, buses[k], fm);
			print_table(r, buses[k], fm, 0, cols, &ns, f);
			print_table(r, buses[k], fm, 1, cols, &ns, f);
		}
	}
	for (int k = 0; k < nbus; k++)
		for (int fm = 0; fm < FMT_COUNT; fm++)
			if (seen_fmt[fm])
				print_doctor(r, buses[k], fm, f);
	print_buses(r, nbus, buses, f);
	print_marks(r, f);
	print_notes(r, &ns, f);
	print_qemu_messages(r, f);
	fprintf(f, "\n");
	for (int k = 0; k < nbus; k++) {
		for (int fm = 0; fm < FMT_COUNT; fm++) {
			char scope[64];

			if (!seen_fmt[fm])
				continue;
			if (ok_cells(r, buses[k], fm) < 2)
				continue;
			snprintf(scope, sizeof(scope), " (%s, %s)",
				 lab_bus_names[buses[k]], lab_format_names[fm]);
			print_best(r, buses[k], fm, scope, f);
		}
	}
	if (groups > 1)
		print_best(r, -1, -1, " of all", f);
	if (lab_best(r, -1, -1, false, NULL) < 0)
		fprintf(f, "No cell produced figures: nothing to recommend.\n");
	fprintf(f,
		"(MB/s = 10^6 bytes/s. Safe = survives host power loss with a guest that flushes; "
		"the geometric mean weighs every test and direction alike.)\n");
	text_warnings(&r->warnings, f);
	fprintf(f, "elapsed: %s\n", lab_fmt_secs(r->elapsed_s, a, sizeof(a)));
}

void lab_text_print(const struct lab_report *r, FILE *out)
{
	/* QEMU's messages and version, the guest's reasons and doctor
	   findings, the kernel's release: escaped on the way out, all. */
	struct term_buf tb;

	print_all(r, term_buf_open(&tb, out));
	term_buf_close(&tb, out);
}
