// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the QEMU command-line reader of iolab advise: the
 * input is read both as text (shell splitting, option strings with ",,"
 * escapes, the JSON form, the node graph) and as a NUL-separated argv as
 * /proc/PID/cmdline gives it (the lenient process path); then the rules
 * run and both renderers write the report, so fixes are formatted too.
 * replay.c runs the same function over the kept corpus in the normal
 * build, so CI replays it without libFuzzer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/advise/advise_qemu.h"
#include "cmd/advise/advise_rules.h"
#include "cmd/advise/advise_report.h"
#include "util/err.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "we");
	return f;
}

static void render(struct adv_report *r)
{
	struct advise_render a = { .r = r };
	struct err err = { 0 };
	size_t disks = 0;

	adv_rules_run(r);
	/* Printing hundreds of disks only slows the search down. */
	for (size_t i = 0; i < r->nvms; i++)
		disks += r->vms[i]->ndisks;
	if (disks > 16)
		return;
	advise_text_print(&a, sink());
	advise_json_write(&a, sink(), &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct adv_ctx ctx = { .probe = false,
					    .proc_root = "/proc" };
	struct adv_report r = { 0 };
	struct err err = { 0 };
	char *text = malloc(size + 1), **argv, **where;
	int argc = 0;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (adv_qemu_read_text(&r, ADV_SRC_QEMU, "fuzz", "fuzz", text, &ctx,
			       &err))
		render(&r);
	adv_report_free(&r);

	/* The same bytes as a process's argv: NUL-separated words. */
	argv = calloc(size + 1, sizeof(char *));
	where = calloc(size + 1, sizeof(char *));
	if (argv && where) {
		for (size_t i = 0; i < size; i += strlen(text + i) + 1) {
			argv[argc] = text + i;
			where[argc++] = "fuzz";
		}
		memset(&err, 0, sizeof(err));
		if (adv_qemu_read_argv(&r, ADV_SRC_PROCESS, "process:0",
				       "pid 0", argc, argv, where, false, &ctx,
				       &err))
			render(&r);
		adv_report_free(&r);
	}
	free(argv);
	free(where);
	free(text);
	return 0;
}
