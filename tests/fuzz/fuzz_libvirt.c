// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the libvirt domain XML reader of iolab advise:
 * the input is the XML (entities and DOCTYPEs must be refused, never
 * expanded); then the rules run and both renderers write the report.
 * replay.c runs it over the kept corpus in every build.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/advise/advise_libvirt.h"
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct adv_ctx ctx = { .probe = false,
					    .proc_root = "/proc" };
	struct adv_report r = { 0 };
	struct err err = { 0 };

	if (adv_libvirt_read_mem(&r, "fuzz.xml", (const char *)data, size, &ctx,
				 &err)) {
		struct advise_render a = { .r = &r };

		adv_rules_run(&r);
		advise_text_print(&a, sink());
		advise_json_write(&a, sink(), &err);
	}
	adv_report_free(&r);
	return 0;
}
