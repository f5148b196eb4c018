// SPDX-License-Identifier: GPL-2.0-or-later
/* iolab: subcommand dispatch only. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/lab/guest.h"
#include "util/err.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "run", cmd_run, "one workload, fio-like flags" },
	{ "mark", cmd_mark,
	  "CrystalDiskMark suites, repeated runs, spread shown" },
	{ "matrix", cmd_matrix,
	  "a suite under every QEMU engine x cache mode" },
	{ "calibrate", cmd_calibrate,
	  "Oracle CALIBRATE_IO figures and the curve behind them" },
	{ "check", cmd_check,
	  "is this disk fit for etcd, PostgreSQL, MySQL, Oracle, ZooKeeper" },
	{ "doctor", cmd_doctor,
	  "why this Linux guest's disks are slow, and what to change" },
	{ "advise", cmd_advise,
	  "lint QEMU, libvirt and Proxmox disk settings on a host" },
	{ "compare", cmd_compare, "results side by side, with ratios" },
	{ "report", cmd_report, "one self-contained HTML page with charts" },
	{ "lab", cmd_lab,
	  "QEMU aio x cache x bus experiment with real guests" },
	{ "probe", cmd_probe,
	  "disk latency and findings for Prometheus, continuously" },
	{ "top", cmd_top, "what the disks do now, without adding load" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: iolab COMMAND [OPTIONS] [ARGS]\n\n"
		"Measure, explain and fix disk I/O performance, above all of QEMU/KVM guests.\n\n"
		"Commands:\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(f, "  %-10s  %s\n", c->name, c->summary);
	fprintf(f,
		"\n'iolab help COMMAND' (or 'iolab COMMAND --help') shows a command's options;\n"
		"man iolab has the details.\n"
		"  --version   print the version\n");
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;

	/* Inside a lab guest the kernel starts us as /init. */
	if (lab_guest_is_init(argc, argv))
		return lab_guest_main(argc, argv);
	if (!name) {
		usage(stderr);
		return EXIT_USAGE;
	}
	/* "iolab help run": its man page at a terminal, as git's help is;
	 * else "iolab run --help". */
	if (!strcmp(name, "help") && argc > 2) {
		for (const struct command *c = commands; c->name; c++)
			if (!strcmp(argv[2], c->name)) {
				char *hargv[] = { argv[2], (char *)"--help",
						  NULL };

				cmd_help_man(c->name);
				return c->fn(2, hargv);
			}
		fprintf(stderr,
			"iolab: no command '%s' to help with; run 'iolab --help' for the list\n",
			argv[2]);
		return EXIT_USAGE;
	}
	if (!strcmp(name, "-h") || !strcmp(name, "--help") ||
	    !strcmp(name, "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		printf("iolab %s\n", IOLAB_VERSION);
		return EXIT_OK;
	}
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(name, c->name))
			return c->fn(argc - 1, argv + 1);
	fprintf(stderr,
		"iolab: unknown command '%s'; run 'iolab --help' for the list\n",
		name);
	return EXIT_USAGE;
}
