// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab advise` as text: a table per VM, then its findings. */
#include <stdio.h>
#include <string.h>

#include "advise_report.h"
#include "../run/run_report.h"
#include "../../util/term.h"

#define WRAP 100

/* Print @text after @label, wrapped at WRAP columns, continuation lines
   indented to @indent. */
static void wrapped(FILE *f, int indent, const char *label, const char *text)
{
	int col = fprintf(f, "%*s%s", indent, "", label);
	const char *p = term_safe(text);

	while (*p) {
		size_t word = strcspn(p, " ");

		if (col > indent + (int)strlen(label) &&
		    col + 1 + (int)word > WRAP) {
			col = fprintf(f, "\n%*s", indent + (int)strlen(label),
				      "") -
			      1;
		} else if (col > indent + (int)strlen(label)) {
			col += fprintf(f, " ");
		}
		col += fprintf(f, "%.*s", (int)word, p);
		p += word;
		while (*p == ' ')
			p++;
	}
	fprintf(f, "\n");
}

/* The fix keeps its lines as they are: they are meant to be copied. */
static void fix_lines(FILE *f, int indent, const char *label, const char *fix)
{
	const char *p = term_safe_ml(fix);
	bool first = true;

	while (*p) {
		size_t n = strcspn(p, "\n");

		fprintf(f, "%*s%s%.*s\n", indent, "", first ? label : "",
			(int)n, p);
		first = false;
		indent = indent + (int)strlen(label);
		label = "";
		p += n;
		if (*p)
			p++;
	}
}

enum { COL_ID, COL_BUS, COL_CACHE, COL_AIO, COL_IOT, COL_Q, COL_FMT, NCOL };

/* One disk's table cells (all but the file, which ends the line). */
static void disk_cells(const struct adv_disk *d, char cell[NCOL][64])
{
	/* Names and values come from the configuration: no escapes. */
	snprintf(cell[COL_ID], 64, "%s", d->id ? term_safe(d->id) : "?");
	snprintf(cell[COL_BUS], 64, "%s", adv_bus_name(d->bus));
	snprintf(cell[COL_CACHE], 64, "%s%s",
		 adv_cache_name(d->direct, d->no_flush, d->write_cache),
		 d->cache_set ? "" : " (default)");
	snprintf(cell[COL_AIO], 64, "%s", d->aio ? term_safe(d->aio) : "-");
	snprintf(cell[COL_IOT], 64, "%s",
		 d->iothread	     ? term_safe(d->iothread) :
		 d->iothread_ignored ? "(ignored)" :
				       "-");
	if (d->queues)
		snprintf(cell[COL_Q], 64, "%u%s", d->queues,
			 d->queues_auto ? " auto" : "");
	else
		snprintf(cell[COL_Q], 64, "-");
	snprintf(cell[COL_FMT], 64, "%s",
		 d->format ? term_safe(d->format) : "probed");
}

static void print_disks(const struct adv_vm *vm, FILE *f)
{
	static const char *const head[NCOL] = { "disk",	 "bus",	     "cache",
						"aio",	 "iothread", "queues",
						"format" };
	char cell[NCOL][64];
	int w[NCOL];

	for (int c = 0; c < NCOL; c++)
		w[c] = (int)strlen(head[c]);
	for (size_t i = 0; i < vm->ndisks; i++) {
		disk_cells(&vm->disks[i], cell);
		for (int c = 0; c < NCOL; c++)
			if ((int)strlen(cell[c]) > w[c])
				w[c] = (int)strlen(cell[c]);
	}
	fprintf(f, " ");
	for (int c = 0; c < NCOL; c++)
		fprintf(f, " %-*s", w[c], head[c]);
	fprintf(f, " file\n");
	for (size_t i = 0; i < vm->ndisks; i++) {
		const struct adv_disk *d = &vm->disks[i];

		disk_cells(d, cell);
		fprintf(f, " ");
		for (int c = 0; c < NCOL; c++)
			fprintf(f, " %-*s", w[c], cell[c]);
		fprintf(f, " %s", d->file ? term_safe(d->file) : "-");
		if (d->cdrom || d->readonly || d->temporary)
			fprintf(f, " [%s]",
				d->cdrom    ? "cdrom" :
				d->readonly ? "read-only" :
					      "temporary");
		/* "file" and "block device" say nothing the path does not */
		if (d->st.what[0] &&
		    (d->st.thin ||
		     (d->st.kind != ADV_ST_FILE && d->st.kind != ADV_ST_BLOCK)))
			fprintf(f, " (%s)", term_safe(d->st.what));
		fprintf(f, "\n");
	}
}

/* Every change at once, per disk and for the VM: the lines to paste. */
static void print_corrected(const struct adv_vm *vm, FILE *f)
{
	bool any = vm->corrected != NULL;

	for (size_t i = 0; i < vm->ndisks; i++)
		any |= vm->disks[i].corrected && vm->disks[i].corrected[0];
	if (!any)
		return;
	fprintf(f, "\n  corrected configuration (every fix above applied):\n");
	for (size_t i = 0; i < vm->ndisks; i++) {
		const struct adv_disk *d = &vm->disks[i];

		if (!d->corrected || !d->corrected[0])
			continue;
		fprintf(f, "    %s%s%s:\n", d->id ? term_safe(d->id) : "?",
			d->where ? " at " : "",
			d->where ? term_safe(d->where) : "");
		fix_lines(f, 6, "", d->corrected);
	}
	if (vm->corrected) {
		fprintf(f, "    the VM:\n");
		fix_lines(f, 6, "", vm->corrected);
	}
}

static void print_vm(const struct adv_report *r, size_t v, FILE *f)
{
	const struct adv_vm *vm = r->vms[v];
	size_t nf = 0;

	fprintf(f, "VM %s  (%s)\n", vm->name ? term_safe(vm->name) : "?",
		term_safe(vm->origin));
	fprintf(f, "  %u vCPU%s, machine %s, guest %s%s%s%s, %zu iothread%s\n",
		vm->vcpus, vm->vcpus == 1 ? "" : "s",
		vm->machine ? term_safe(vm->machine) : "default",
		adv_os_name(vm->os), vm->os_hint ? " (" : "",
		vm->os_hint ? term_safe(vm->os_hint) : "",
		vm->os_hint ? ")" : "", vm->niothreads,
		vm->niothreads == 1 ? "" : "s");
	if (!vm->ndisks)
		fprintf(f, "  no disks\n");
	else
		print_disks(vm, f);
	for (size_t i = 0; i < r->nf; i++) {
		const struct adv_finding *x = &r->f[i];
		const struct adv_disk *d;
		char label[64];

		if (x->vm != v)
			continue;
		if (!nf++)
			fprintf(f, "\n");
		d = x->disk >= 0 ? &vm->disks[x->disk] : NULL;
		snprintf(label, sizeof(label), "%-7s ",
			 x->sev == ADV_ERROR   ? "ERROR" :
			 x->sev == ADV_WARNING ? "WARNING" :
						 "INFO");
		fprintf(f, "  %s%s  %s%s%s\n", label, x->rule,
			d && d->id ? term_safe(d->id) : "",
			d && d->where ? " at " : "",
			d && d->where ? term_safe(d->where) : "");
		wrapped(f, 10, "", x->message);
		wrapped(f, 10, "why: ", x->why);
		if (x->fix[0] && x->fix_is_advice)
			wrapped(f, 10, "fix: ", x->fix);
		else if (x->fix[0])
			fix_lines(f, 10, "fix: ", x->fix);
	}
	if (!nf && vm->ndisks)
		fprintf(f, "\n  no findings\n");
	print_corrected(vm, f);
}

static void print_all(const struct advise_render *a, FILE *f)
{
	const struct adv_report *r = a->r;
	size_t ndisks = 0;

	if (!r->nvms) {
		fprintf(f, "%s\n",
			a->scanned ?
				"No running QEMU processes found (qemu-system-*, qemu-kvm or kvm in /proc/*/cmdline); give --qemu-args, --libvirt or --proxmox" :
				"No VMs read");
	}
	for (size_t v = 0; v < r->nvms; v++) {
		if (v)
			fprintf(f, "\n");
		print_vm(r, v, f);
		ndisks += r->vms[v]->ndisks;
	}
	fprintf(f,
		"\n%zu VM%s, %zu disk%s: %zu error%s, %zu warning%s, %zu info\n",
		r->nvms, r->nvms == 1 ? "" : "s", ndisks,
		ndisks == 1 ? "" : "s", adv_report_count(r, ADV_ERROR),
		adv_report_count(r, ADV_ERROR) == 1 ? "" : "s",
		adv_report_count(r, ADV_WARNING),
		adv_report_count(r, ADV_WARNING) == 1 ? "" : "s",
		adv_report_count(r, ADV_INFO));
	text_warnings(&r->warnings, f);
}

void advise_text_print(const struct advise_render *a, FILE *f)
{
	/* Every string came from a configuration or a process (maybe
	   another user's): the fields above are escaped one by one, and the
	   whole report once more, for any field added later. */
	struct term_buf tb;

	print_all(a, term_buf_open(&tb, f));
	term_buf_close(&tb, f);
}
