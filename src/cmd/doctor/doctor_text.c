// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab doctor` for people: a verdict line, then the whole system's
 * findings, then each disk with its findings first and its facts after,
 * then the guest side, then what could not be read.
 */
#include <stdbool.h>
#include <string.h>

#include "doctor_report.h"
#include "doctor_diag.h"
#include "../../util/parse.h"
#include "../../util/term.h"

#define WIDTH 100

/* Print @text wrapped at WIDTH, the first line after @lead, the rest
   indented by @indent. */
static void wrap(FILE *f, const char *lead, int indent, const char *text)
{
	int col = fprintf(f, "%s", lead);
	bool first = true;

	text += strspn(text, " ");
	while (*text) {
		size_t word = strcspn(text, " ");

		if (!first) {
			if (col + 1 + (int)word > WIDTH) {
				fprintf(f, "\n%*s", indent, "");
				col = indent;
			} else {
				col += fprintf(f, " ");
			}
		}
		col += fprintf(f, "%.*s", (int)word, text);
		first = false;
		text += word;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

static const char *sev_label(enum dr_sev s)
{
	static const char *const n[] = { "INFO", "WARNING", "CRITICAL" };

	return n[s];
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The same commands and host lines (the summary differs by the name). */
static bool same_fix(const struct dr_fix *a, const struct dr_fix *b)
{
	if (a->commands.n != b->commands.n || a->notes.n || b->notes.n ||
	    !same_str(a->host_other, b->host_other))
		return false;
	for (size_t i = 0; i < a->commands.n; i++)
		if (strcmp(a->commands.v[i], b->commands.v[i]))
			return false;
	for (int h = 0; h < DR_HOST_COUNT; h++)
		if (!same_str(a->host[h], b->host[h]))
			return false;
	return true;
}

static const struct dr_finding *earlier_same(const struct doctor_report *r,
					     const struct dr_finding *f)
{
	for (const struct dr_finding *e = r->findings; e < f; e++)
		if (!strcmp(e->id, f->id) && e->disk[0] &&
		    same_fix(&e->fix, &f->fix))
			return e;
	return NULL;
}

static void print_finding(const struct doctor_report *r,
			  const struct dr_finding *f, FILE *out)
{
	char lead[64];
	const struct dr_finding *prev = earlier_same(r, f);

	snprintf(lead, sizeof(lead), "%-8s %s: ", sev_label(f->sev), f->id);
	wrap(out, lead, 9, f->message);
	if (f->why)
		wrap(out, "    why: ", 9, f->why);
	if (prev && f->disk[0]) {
		fprintf(out, "    fix: as for %s above\n", prev->disk);
		return;
	}
	if (f->fix.summary)
		wrap(out, "    fix: ", 9, f->fix.summary);
	for (size_t i = 0; i < f->fix.notes.n; i++)
		wrap(out, "   note: ", 9, f->fix.notes.v[i]);
	for (size_t i = 0; i < f->fix.commands.n; i++)
		fprintf(out, "         %s %s\n",
			f->fix.commands.v[i][0] == '#' ? "" : "$",
			f->fix.commands.v[i]);
	for (int h = 0; h < DR_HOST_COUNT; h++) {
		if (!f->fix.host[h])
			continue;
		snprintf(lead, sizeof(lead), "         %s: ", dr_host_names[h]);
		wrap(out, lead, 11, f->fix.host[h]);
	}
	if (f->fix.host_other)
		wrap(out, "         ", 11, f->fix.host_other);
}

static void print_findings_of(const struct doctor_report *r, const char *disk,
			      FILE *out)
{
	for (size_t i = 0; i < r->nfindings; i++)
		if (!strcmp(r->findings[i].disk, disk))
			print_finding(r, &r->findings[i], out);
}

static const char *num(int64_t v, char *buf, size_t len)
{
	if (v < 0)
		return "?";
	snprintf(buf, len, "%lld", (long long)v);
	return buf;
}

static void header(const struct doctor_print *p, FILE *out)
{
	const struct doctor_report *r = p->r;
	const struct dr_virt *v = &r->virt;
	char mem[32], line[512];
	size_t crit = doctor_count(r, DR_CRITICAL);
	size_t warn = doctor_count(r, DR_WARNING);
	size_t info = doctor_count(r, DR_INFO);

	snprintf(line, sizeof(line), "%s, kernel %s, %s CPUs, %s RAM",
		 r->sys.distro.name[0] ? r->sys.distro.name :
					 "unknown distribution",
		 r->sys.kernel[0] ? r->sys.kernel : "?",
		 num(r->sys.cpus, (char[24]){ 0 }, 24),
		 r->sys.mem_total_kb < 0 ?
			 "?" :
			 fmt_size((uint64_t)r->sys.mem_total_kb * 1024, mem,
				  sizeof(mem)));
	fprintf(out, "iolab doctor: %s\n", line);
	if (p->sysroot && r->captured_by[0])
		fprintf(out, "Tree:     %s (captured by %s)\n", p->sysroot,
			r->captured_by);
	else if (p->sysroot)
		fprintf(out, "Tree:     %s\n", p->sysroot);
	snprintf(line, sizeof(line), "%s", v->hypervisor_name);
	if (v->cpuid_vendor[0])
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 " (CPUID \"%s\")", v->cpuid_vendor);
	if (v->sys_vendor[0] || v->product_name[0])
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "; %s %s", v->sys_vendor, v->product_name);
	else if (v->virtualized)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "; no DMI product");
	if (v->product_version[0])
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 ", %s", v->product_version);
	if (v->platform[0])
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "; platform %s", v->platform);
	if (v->evidence[0])
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "; seen: %s", v->evidence);
	if (v->container[0])
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "; in a %s container", v->container);
	wrap(out, "Runs on: ", 10, line);
	fprintf(out, "Verdict:  %zu critical, %zu warning%s, %zu note%s%s\n",
		crit, warn, warn == 1 ? "" : "s", info, info == 1 ? "" : "s",
		crit ? " (exit status 4)" : "");
}

static void disk_facts(const struct dr_disk *d, FILE *out)
{
	char a[32], b[32], c[32], line[512];

	snprintf(line, sizeof(line), "%s%s%s%s%s%s%s",
		 d->bi.driver[0] ? d->bi.driver : "?",
		 d->pci_id[0] ? ", PCI " : "", d->pci_id,
		 d->bi.vendor[0] || d->bi.model[0] ? ", model " : "",
		 d->bi.vendor, d->bi.vendor[0] ? " " : "", d->bi.model);
	fprintf(out, "    %-13s%s\n", "driver", line);
	fprintf(out, "    %-13s%s, logical/physical block %u/%u B%s\n", "size",
		d->size_bytes < 0 ?
			"?" :
			fmt_size((uint64_t)d->size_bytes, a, sizeof(a)),
		d->bi.logical_block_size, d->bi.physical_block_size,
		d->read_only == 1 ? ", read-only" : "");
	fprintf(out, "    %-13sscheduler %s (of: %s)", "queue",
		d->scheduler[0] ? d->scheduler : "?",
		d->schedulers[0] ? d->schedulers : "?");
	if (d->hw_queues >= 0)
		fprintf(out, ", %lld hardware queue%s", (long long)d->hw_queues,
			d->hw_queues == 1 ? "" : "s");
	else
		fprintf(out, ", bio-based (no hardware queues)");
	fprintf(out, ", nr_requests %s", num(d->nr_requests, b, sizeof(b)));
	if (d->queue_depth >= 0)
		fprintf(out, ", device queue depth %lld",
			(long long)d->queue_depth);
	fprintf(out, "\n");
	fprintf(out,
		"    %-13srotational %s%s, write cache: %s, discard: %s, max_sectors_kb %s\n",
		"",
		d->bi.rotational < 0 ? "?" :
		d->bi.rotational     ? "1" :
				       "0",
		!strcmp(d->bus, "virtio-blk") ? " (always 1 on virtio-blk)" :
						"",
		d->write_cache[0] ? d->write_cache : "?",
		d->discard_max_bytes < 0 ? "?" :
		d->discard_max_bytes	 ? "yes" :
					   "no",
		num(d->max_sectors_kb, a, sizeof(a)));
	fprintf(out, "    %-13sread_ahead_kb %s, nomerges %s, add_random %s\n",
		"", num(d->read_ahead_kb, a, sizeof(a)),
		num(d->nomerges, b, sizeof(b)),
		num(d->add_random, c, sizeof(c)));
	for (size_t i = 0; i < d->nparts; i++)
		fprintf(out, "    %-13s%s: start sector %s, %s\n",
			i ? "" : "partitions", d->parts[i].name,
			num(d->parts[i].start_sectors, a, sizeof(a)),
			d->parts[i].size_bytes < 0 ?
				"?" :
				fmt_size((uint64_t)d->parts[i].size_bytes, b,
					 sizeof(b)));
	for (size_t i = 0; i < d->nholders; i++)
		fprintf(out, "    %-13s%s (%s%s%s) on %s\n", i ? "" : "held by",
			d->holders[i].name, d->holders[i].kind,
			d->holders[i].label[0] ? " " : "", d->holders[i].label,
			d->holders[i].of);
	for (size_t i = 0; i < d->nmounts; i++)
		fprintf(out, "    %-13s%s on %s, %s (%s)\n", i ? "" : "mounts",
			d->mounts[i].dev, d->mounts[i].target,
			d->mounts[i].fstype, d->mounts[i].options);
	for (size_t i = 0; i < d->nswaps; i++)
		fprintf(out, "    %-13s%s (%s)\n", i ? "" : "swap",
			d->swaps[i].path, d->swaps[i].dev);
	if (d->probe.done) {
		const struct dr_probe *p = &d->probe;

		if (p->ios)
			fprintf(out,
				"    %-13s4 KiB random reads, QD1, O_DIRECT, %.1f s: median %s, p99 %s, max %s, %.0f IOPS%s\n",
				"probe", p->runtime_s,
				fmt_ns((double)p->p50_ns, a, sizeof(a)),
				fmt_ns((double)p->p99_ns, b, sizeof(b)),
				fmt_ns((double)p->max_ns, c, sizeof(c)),
				p->iops, p->error[0] ? " (incomplete)" : "");
		if (p->error[0])
			fprintf(out, "    %-13s%s\n", p->ios ? "" : "probe",
				p->error);
	}
}

static void guest(const struct doctor_report *r, FILE *out)
{
	const struct dr_guest *g = &r->guest;
	char a[32], b[32], line[512] = "";

	fprintf(out, "\nGuest side\n");
	fprintf(out, "    %-13schannel %s; qemu-ga %s, %s\n", "guest agent",
		g->agent_port ? g->agent_port_path : "absent",
		g->agent_running < 0  ? "process unknown" :
		g->agent_running == 1 ? "running" :
					"not running",
		g->agent_installed == 1 ? "installed" : "not installed");
	for (int i = 0; i < DR_NMODS; i++)
		if (g->mods[i].name)
			snprintf(line + strlen(line),
				 sizeof(line) - strlen(line), "%s%s %s",
				 i ? ", " : "", g->mods[i].name,
				 dr_mod_state_name(g->mods[i].state));
	fprintf(out, "    %-13s%s\n", "drivers", line);
	if (g->io_uring_disabled < 0)
		fprintf(out,
			"    %-13sno kernel.io_uring_disabled (kernel before 6.6)\n",
			"io_uring");
	else
		fprintf(out, "    %-13s%s (kernel.io_uring_disabled=%lld)\n",
			"io_uring",
			g->io_uring_disabled ? "restricted" : "enabled",
			(long long)g->io_uring_disabled);
	fprintf(out, "    %-13saio-max-nr %s, %s in use\n", "Linux AIO",
		num(g->aio_max_nr, a, sizeof(a)), num(g->aio_nr, b, sizeof(b)));
	fprintf(out,
		"    %-13sdirty_ratio %s%%, dirty_background_ratio %s%%, dirty_bytes %lld, dirty_background_bytes %lld, swappiness %lld\n",
		"vm", num(g->dirty_ratio, a, sizeof(a)),
		num(g->dirty_background_ratio, b, sizeof(b)),
		(long long)g->dirty_bytes, (long long)g->dirty_background_bytes,
		(long long)g->swappiness);
	fprintf(out, "    %-13s%s\n", "tuned",
		g->tuned_profile[0] ? g->tuned_profile :
		g->tuned_installed  ? "installed, no active profile" :
				      "not installed");
}

static void print_all(const struct doctor_print *p, FILE *out)
{
	const struct doctor_report *r = p->r;
	bool any = false;

	header(p, out);
	for (size_t i = 0; i < r->nfindings; i++)
		any |= !r->findings[i].disk[0];
	if (any) {
		fprintf(out, "\nSystem\n");
		print_findings_of(r, "", out);
	}
	for (size_t i = 0; i < r->ndisks; i++) {
		const struct dr_disk *d = &r->disks[i];
		char sz[32];

		fprintf(out, "\nDisk %s: %s, %s\n", d->name, d->controller,
			d->size_bytes < 0 ? "size ?" :
					    fmt_size((uint64_t)d->size_bytes,
						     sz, sizeof(sz)));
		print_findings_of(r, d->name, out);
		disk_facts(d, out);
	}
	guest(r, out);
	if (r->fix_plan.n) {
		/* One list to paste: each command once, clashes resolved as
		   the notes above say (doctor_merge.c). */
		fprintf(out,
			"\nAll fix commands, merged (as root, in this order)\n");
		for (size_t i = 0; i < r->fix_plan.n; i++)
			fprintf(out, "    %s %s\n",
				r->fix_plan.v[i][0] == '#' ? "" : "$",
				r->fix_plan.v[i]);
	}
	if (r->unreadable.n) {
		fprintf(out, "\nUnreadable (reported, not fatal)\n");
		for (size_t i = 0; i < r->unreadable.n; i++)
			fprintf(out, "    %s\n", r->unreadable.v[i]);
	}
}

void doctor_text_print(const struct doctor_print *p, FILE *out)
{
	/* Model names, paths, distro names come from sysfs and /etc (or a
	   --sysroot tree): escaped on the way out, all of them. */
	struct term_buf tb;

	print_all(p, term_buf_open(&tb, out));
	term_buf_close(&tb, out);
}
