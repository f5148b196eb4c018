// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab doctor`: its flags, and the driver from flags to report. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../commands.h"
#include "../common.h"
#include "../opts.h"
#include "doctor_diag.h"
#include "doctor_report.h"
#include "../../util/err.h"
#include "../../util/fsread.h"
#include "../../util/sig.h"

struct doctor_cli {
	bool json, probe, all, no_progress;
	uint64_t probe_ns, observe_ns;
	const char *sysroot, *capture, *output;
};

#define OFF(f) offsetof(struct doctor_cli, f)

static const struct opt doctor_table[] = {
	{ .kind = OPT_GROUP, .name = "", .help = "What to look at" },
	{ "all", 0, OPT_FLAG, NULL, OFF(all),
	  "also loop, RAM, zram, CD-ROM and floppy devices" },
	{ "probe", 0, OPT_FLAG, NULL, OFF(probe),
	  "measure each disk's QD1 4 KiB random-read latency (read-only)" },
	{ "probe-time", 0, OPT_DURATION, "TIME", OFF(probe_ns),
	  "how long to probe each disk (default 3s)" },
	{ "observe", 0, OPT_DURATION, "TIME", OFF(observe_ns),
	  "watch what the disks do for TIME (kernel counters, no I/O added) and say what it means" },
	{ .kind = OPT_GROUP, .name = "", .help = "Captured trees" },
	{ "sysroot", 0, OPT_STRING, "DIR", OFF(sysroot),
	  "diagnose a tree captured with --capture instead of this system" },
	{ "capture", 0, OPT_STRING, "DIR", OFF(capture),
	  "save everything doctor reads into the new directory DIR" },
	{ .kind = OPT_GROUP, .name = "", .help = "Output" },
	{ "json", 0, OPT_FLAG, NULL, OFF(json), "JSON report on stdout" },
	{ "output", 'o', OPT_STRING, "FILE", OFF(output),
	  "write the report to FILE instead of stdout" },
	{ "no-progress", 0, OPT_FLAG, NULL, OFF(no_progress),
	  "no live progress line on stderr while probing" },
	{ .kind = OPT_GROUP },
};

static const struct opt_cmd doctor_cmd = {
	.name = "doctor",
	.synopsis = "iolab doctor [OPTIONS]",
	.summary =
		"Tell why this Linux system's disks are slow and what to change: the\n"
		"hypervisor, each disk's controller, driver and queue settings, the QEMU\n"
		"guest agent, io_uring and AIO limits; findings with exact fixes.",
	.opts = doctor_table,
	.footer =
		"Exit: 0 no critical finding, 1 usage, 2 environment, 3 capture or I/O error,\n"
		"4 at least one critical finding, 130 interrupted.\n",
	.max_positional = 0,
};

/*
 * --capture DIR: a new directory, or an empty one of ours that no one else
 * may write to; never someone's files, never through a link. Opened once:
 * everything is written through that descriptor.
 */
static bool capture_dir(const char *dir, struct fsv_capture *cap,
			struct err *err)
{
	int rc;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return err_set(err, errno == ENOENT ? EXIT_USAGE : EXIT_ENV,
			       errno, "cannot create --capture %s: %s", dir,
			       strerror(errno));
	rc = fsv_capture_open(cap, dir);
	switch (rc) {
	case 0:
		return true;
	case -ENOTDIR:
		return err_set(
			err, EXIT_USAGE, 0,
			"--capture %s exists and is not a directory; name a new directory",
			dir);
	case -ELOOP:
		return err_set(
			err, EXIT_USAGE, 0,
			"--capture %s is a symbolic link: refusing to write where it points; name a new directory",
			dir);
	case -ENOTEMPTY:
		return err_set(
			err, EXIT_USAGE, 0,
			"--capture %s is not empty: refusing to write among existing files; name a new directory",
			dir);
	case -EPERM:
		return err_set(
			err, EXIT_ENV, 0,
			"--capture %s belongs to another user or others may write to it, so links could be planted in it: refusing; name a new directory",
			dir);
	default:
		return err_set(err, EXIT_ENV, -rc,
			       "cannot open --capture %s: %s", dir,
			       strerror(-rc));
	}
}

static bool check_opts(struct doctor_cli *o, char *root, size_t rootlen,
		       struct err *err)
{
	struct stat st;

	if (o->sysroot) {
		size_t n;

		if (stat(o->sysroot, &st) || !S_ISDIR(st.st_mode))
			return err_set(
				err, EXIT_USAGE, errno,
				"--sysroot %s is not a directory; give a tree made with iolab doctor --capture",
				o->sysroot);
		snprintf(root, rootlen, "%s", o->sysroot);
		n = strlen(root);
		while (n > 1 && root[n - 1] == '/')
			root[--n] = '\0';
		if (!strcmp(root, "/"))
			root[0] = '\0';
		if (o->probe)
			return err_set(
				err, EXIT_USAGE, 0,
				"--probe measures this system's disks and cannot probe a --sysroot tree; its recorded probe results are shown without --probe");
		if (o->observe_ns)
			return err_set(
				err, EXIT_USAGE, 0,
				"--observe watches this system's disks and cannot watch a --sysroot tree");
	}
	if (o->capture && o->sysroot && !strcmp(o->capture, o->sysroot))
		return err_set(
			err, EXIT_USAGE, 0,
			"--capture and --sysroot name the same directory");
	return true;
}

int cmd_doctor(int argc, char **argv)
{
	struct doctor_cli o = { .probe_ns = 3000000000ull };
	struct fsv_capture cap = { 0 };
	struct doctor_report rep;
	struct doctor_opts dopts = { 0 };
	struct fsview view = { .root = "" };
	struct opt_state st;
	struct err err = { 0 };
	char root[4096] = "";
	FILE *out = NULL;
	int rc = EXIT_OK, prc;
	bool collected = false, complete = false, ok;

	prc = opts_parse(&doctor_cmd, argc, argv, &o, &st, &err);
	if (prc != OPTS_OK) {
		opts_state_free(&st);
		return prc == OPTS_HELP ? EXIT_OK : err_report(&err);
	}
	if (o.observe_ns && o.observe_ns < 1000000000ull) {
		err_set(&err, EXIT_USAGE, 0,
			"--observe must be at least 1s: shorter says little about a disk");
		goto out;
	}
	if (o.probe_ns < 100000000ull) {
		err_set(&err, EXIT_USAGE, 0,
			"--probe-time must be at least 100ms");
		goto out;
	}
	if (!check_opts(&o, root, sizeof(root), &err))
		goto out;
	view.root = root;
	out = cli_open_output(o.output, NULL, &err);
	if (!out)
		goto out;
	if (o.capture) {
		if (!capture_dir(o.capture, &cap, &err))
			goto out;
		view.cap = &cap;
	}
	dopts.all = o.all;
	dopts.probe = o.probe;
	dopts.probe_ns = o.probe_ns;
	dopts.observe_ns = o.observe_ns;
	dopts.progress = !o.no_progress && cli_progress_wanted();
	if (o.probe || o.observe_ns)
		sig_install();
	ok = doctor_collect(&view, &dopts, &rep, &err);
	collected = true;
	{
		struct doctor_print p = {
			.argc = argc + 1,
			.argv = argv - 1,
			.r = &rep,
			.sysroot = o.sysroot,
			.capture = o.capture,
			.probe = o.probe,
			.all = o.all,
			.probe_ns = o.probe_ns,
		};
		struct err jerr = { 0 };

		if (o.json) {
			if (!doctor_json_write(&p, out, &jerr))
				rc = err_report(&jerr);
		} else {
			doctor_text_print(&p, out);
		}
	}
	complete = rc == EXIT_OK;
	if (cap.err) {
		if (!err.msg[0])
			err_set(&err, EXIT_IO, cap.err,
				"cannot write the capture at %s: %s",
				cap.err_path, strerror(cap.err));
	} else if (o.capture && ok) {
		fprintf(stderr,
			"iolab: captured what doctor read into %s; diagnose it with iolab doctor --sysroot %s\n",
			o.capture, o.capture);
	}
	if (rc == EXIT_OK && !err.msg[0] && doctor_count(&rep, DR_CRITICAL))
		rc = EXIT_FINDING;
out:
	if (err.msg[0] && (rc == EXIT_OK || rc == EXIT_FINDING))
		rc = err_report(&err);
	if (out && !cli_close_output(out, complete, &err) && rc == EXIT_OK)
		rc = err_report(&err);
	fsv_capture_close(&cap);
	if (collected)
		doctor_free(&rep);
	opts_state_free(&st);
	return rc;
}
