// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab advise`: its flags, and the driver from sources to findings. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../commands.h"
#include "../common.h"
#include "../opts.h"
#include "advise_libvirt.h"
#include "advise_proxmox.h"
#include "advise_qemu.h"
#include "advise_fix.h"
#include "advise_fixed.h"
#include "advise_rules.h"
#include "advise_scan.h"
#include "advise_report.h"
#include "advise_rewrite.h"
#include "../../util/err.h"
#include "../../util/xmem.h"
#include "../../util/infile.h"

/* A --qemu-args-file larger than this is not a command line. */
#define ARGS_FILE_MAX (16u << 20)

enum src_kind { SRC_ARGS, SRC_ARGS_FILE, SRC_LIBVIRT, SRC_PROXMOX };

struct src {
	enum src_kind kind;
	const char *value;
};

struct advise_opts {
	bool running, json, csv, no_probe, rules, diff;
	const char *output, *pve_storage, *write_fixed;
	struct src *src;
	size_t nsrc;
};

static bool add_src(void *o, enum src_kind kind, const char *arg)
{
	struct advise_opts *a = o;

	a->src = xrealloc(a->src, (a->nsrc + 1) * sizeof(*a->src));
	a->src[a->nsrc].kind = kind;
	a->src[a->nsrc++].value = arg;
	return true;
}

static bool set_args(void *o, const char *arg, struct err *err)
{
	(void)err;
	return add_src(o, SRC_ARGS, arg);
}

static bool set_args_file(void *o, const char *arg, struct err *err)
{
	(void)err;
	return add_src(o, SRC_ARGS_FILE, arg);
}

static bool set_libvirt(void *o, const char *arg, struct err *err)
{
	(void)err;
	return add_src(o, SRC_LIBVIRT, arg);
}

static bool set_proxmox(void *o, const char *arg, struct err *err)
{
	(void)err;
	return add_src(o, SRC_PROXMOX, arg);
}

#define OFF(f) offsetof(struct advise_opts, f)

static const struct opt advise_table[] = {
	{ .kind = OPT_GROUP,
	  .name = "",
	  .help = "Sources (several may be given; none: --running)" },
	{ "running", 0, OPT_FLAG, NULL, OFF(running),
	  "the running QEMU processes (/proc/*/cmdline of qemu-system-*, qemu-kvm, kvm)" },
	{ "qemu-args", 0, OPT_CALL, "STRING", 0,
	  "a QEMU command line, quoted as for a shell", NULL, 0, 0, set_args },
	{ "qemu-args-file", 0, OPT_CALL, "FILE", 0,
	  "a file holding QEMU command lines (a script, a libvirt log; - is stdin)",
	  NULL, 0, 0, set_args_file },
	{ "libvirt", 0, OPT_CALL, "FILE", 0,
	  "a libvirt domain XML (virsh dumpxml, QNAP Virtualization Station)",
	  NULL, 0, 0, set_libvirt },
	{ "proxmox", 0, OPT_CALL, "FILE", 0,
	  "a Proxmox VM config (/etc/pve/qemu-server/VMID.conf)", NULL, 0, 0,
	  set_proxmox },
	{ "proxmox-storage", 0, OPT_STRING, "FILE", OFF(pve_storage),
	  "the storage.cfg for --proxmox (default: found beside the config)" },
	{ "no-probe", 0, OPT_FLAG, NULL, OFF(no_probe),
	  "do not look at the files and devices the configuration names" },
	{ .kind = OPT_GROUP, .name = "", .help = "Output" },
	{ "json", 0, OPT_FLAG, NULL, OFF(json), "JSON report on stdout" },
	{ "csv", 0, OPT_FLAG, NULL, OFF(csv),
	  "CSV on stdout: one line per disk with its findings, for spreadsheets" },
	{ "output", 'o', OPT_STRING, "FILE", OFF(output),
	  "write the report to FILE instead of stdout" },
	{ "diff", 0, OPT_FLAG, NULL, OFF(diff),
	  "instead of the report: a unified diff from the input file to its corrected copy" },
	{ "write-fixed", 0, OPT_STRING, "PATH", OFF(write_fixed),
	  "also write the input file with every fix applied to PATH, a new file" },
	{ "rules", 0, OPT_FLAG, NULL, OFF(rules),
	  "list the rules (id, severity, summary) and exit" },
	{ .kind = OPT_GROUP },
};

static const struct opt_cmd advise_cmd = {
	.name = "advise",
	.synopsis =
		"iolab advise [--running] [--qemu-args STRING | --qemu-args-file FILE]\n"
		"                    [--libvirt FILE] [--proxmox FILE] [--json | --csv]\n"
		"                    [--diff] [--write-fixed PATH]",
	.summary =
		"Read the disk settings of QEMU command lines, running QEMU processes,\n"
		"libvirt domain XML and Proxmox VM configs; resolve each disk (file, format,\n"
		"bus, cache mode, aio, iothread, queues) and flag unsafe or slow settings\n"
		"with the corrected line in the source's own syntax. --diff and\n"
		"--write-fixed apply every fix to one input file (a libvirt XML, a\n"
		"Proxmox config or a QEMU argument file), changing only the lines and\n"
		"elements the fixes change.",
	.opts = advise_table,
	.footer =
		"Severity: error = QEMU or libvirt refuses to start, or flushes are dropped;\n"
		"warning = slow or risky with a clear fix; info = worth knowing.\n"
		"Exit: 0 no error-level finding, 4 error-level findings, 1 usage or a\n"
		"malformed configuration (named with file:line), 2 an input that cannot\n"
		"be read or is refused (a directory, not a regular file, empty, NUL bytes,\n"
		"over the size limit, an XML <!DOCTYPE> or entity) or --libvirt in a\n"
		"build without libxml2.\n",
	.max_positional = 0,
};

static char *slurp(const char *path, struct err *err)
{
	return infile_read(path, "--qemu-args-file", ARGS_FILE_MAX, NULL, err);
}

static bool read_source(struct adv_report *r, const struct advise_opts *o,
			const struct src *s, const struct adv_ctx *ctx,
			struct err *err)
{
	char *text, *origin;
	bool ok;

	switch (s->kind) {
	case SRC_ARGS:
		return adv_qemu_read_text(r, ADV_SRC_QEMU, "qemu-args",
					  "--qemu-args", s->value, ctx, err);
	case SRC_ARGS_FILE:
		text = slurp(s->value, err);
		if (!text)
			return false;
		origin = xasprintf("qemu-args-file:%s", s->value);
		ok = adv_qemu_read_text(r, ADV_SRC_QEMU, origin,
					strcmp(s->value, "-") ? s->value :
								"stdin",
					text, ctx, err);
		free(origin);
		free(text);
		return ok;
	case SRC_LIBVIRT:
		return adv_libvirt_read(r, s->value, ctx, err);
	case SRC_PROXMOX:
		return adv_proxmox_read(r, s->value, o->pve_storage, ctx, err);
	}
	return false;
}

/*
 * --diff and --write-fixed rewrite one file: the single source, which
 * must be a file. Returns its kind, or -1 with @err set.
 */
static int fixed_source(const struct advise_opts *o, struct err *err)
{
	const struct src *s = o->nsrc == 1 ? &o->src[0] : NULL;

	if (!s || o->running || s->kind == SRC_ARGS ||
	    (s->kind == SRC_ARGS_FILE && !strcmp(s->value, "-"))) {
		err_set(err, EXIT_USAGE, 0,
			"--diff and --write-fixed rewrite one input file: give exactly one --libvirt, --proxmox or --qemu-args-file FILE (not stdin)");
		return -1;
	}
	return s->kind == SRC_LIBVIRT ? ADV_SRC_LIBVIRT :
	       s->kind == SRC_PROXMOX ? ADV_SRC_PROXMOX :
					ADV_SRC_QEMU;
}

/* The corrected copy: written to --write-fixed, shown by --diff. */
static bool write_fixed(const struct advise_opts *o,
			const struct adv_report *rep, enum adv_source kind,
			FILE *out, struct err *err)
{
	char *orig = NULL, *fixed, *a, *b;
	bool ok = true;

	fixed = adv_fixed_text(rep, kind, o->src[0].value, &orig, err);
	if (!fixed)
		return false;
	if (o->write_fixed)
		ok = adv_write_new(o->write_fixed, fixed, err);
	if (ok && o->diff) {
		a = xasprintf("%s", o->src[0].value);
		b = xasprintf("%s", o->write_fixed ? o->write_fixed :
						     o->src[0].value);
		rw_diff(out, orig, fixed, a, b);
		free(a);
		free(b);
	}
	free(orig);
	free(fixed);
	return ok;
}

static void list_rules(FILE *f)
{
	for (const struct adv_rule *r = adv_rules; r->id; r++)
		fprintf(f, "%-22s %-8s %s\n", r->id, adv_severity_name(r->sev),
			r->summary);
}

int cmd_advise(int argc, char **argv)
{
	struct advise_opts o = { 0 };
	struct adv_report rep = { 0 };
	struct adv_ctx ctx = { .proc_root = "/proc" };
	struct opt_state st;
	struct err err = { 0 };
	FILE *out = NULL;
	int rc = EXIT_OK, prc;
	bool ok = true, complete = false;
	int fkind = -1;

	prc = opts_parse(&advise_cmd, argc, argv, &o, &st, &err);
	if (prc != OPTS_OK) {
		opts_state_free(&st);
		free(o.src);
		return prc == OPTS_HELP ? EXIT_OK : err_report(&err);
	}
	if (o.rules) {
		list_rules(stdout);
		goto done;
	}
	if (o.json && o.csv) {
		err_set(&err, EXIT_USAGE, 0,
			"--json and --csv exclude each other; choose one");
		goto done;
	}
	if (o.pve_storage) {
		bool any = false;

		for (size_t i = 0; i < o.nsrc; i++)
			any |= o.src[i].kind == SRC_PROXMOX;
		if (!any) {
			err_set(&err, EXIT_USAGE, 0,
				"--proxmox-storage applies to --proxmox; give the VM config too");
			goto done;
		}
	}
	if ((o.diff || o.write_fixed) && (fkind = fixed_source(&o, &err)) < 0)
		goto done;
	if (o.diff && (o.json || o.csv)) {
		err_set(&err, EXIT_USAGE, 0,
			"--diff replaces the report; leave out --json and --csv");
		goto done;
	}
	for (size_t i = 0; i < o.nsrc; i++)
		if (o.src[i].kind == SRC_LIBVIRT && !adv_libvirt_available()) {
			err_set(&err, EXIT_ENV, 0,
				"this build has no libxml2; --libvirt is unavailable");
			goto done;
		}
	ctx.probe = !o.no_probe;
	if (!o.nsrc)
		o.running = true;
	for (size_t i = 0; ok && i < o.nsrc; i++)
		ok = read_source(&rep, &o, &o.src[i], &ctx, &err);
	if (ok && o.running) {
		size_t found;

		ok = adv_scan_processes(&rep, &ctx, &found, &err);
	}
	if (!ok)
		goto done;
	adv_rules_run(&rep);
	adv_merge_run(&rep);
	out = cli_open_output(o.output, NULL, &err);
	if (!out)
		goto done;
	{
		struct advise_render a = {
			.argc = argc + 1,
			.argv = argv - 1,
			.r = &rep,
			.scanned = o.running,
			.probe = ctx.probe,
		};

		if (fkind >= 0 &&
		    !write_fixed(&o, &rep, (enum adv_source)fkind, out, &err))
			goto done;
		if (o.diff) {
			/* the diff alone, for patch(1) */
		} else if (o.json) {
			if (!advise_json_write(&a, out, &err))
				goto done;
		} else if (o.csv) {
			if (!advise_csv_write(&a, out, &err))
				goto done;
		} else {
			advise_text_print(&a, out);
		}
	}
	complete = true;
	if (adv_report_count(&rep, ADV_ERROR))
		rc = EXIT_FINDING;
done:
	if (err.msg[0])
		rc = err_report(&err);
	if (out && !cli_close_output(out, complete, &err) && rc == EXIT_OK)
		rc = err_report(&err);
	adv_report_free(&rep);
	opts_state_free(&st);
	free(o.src);
	return rc;
}
