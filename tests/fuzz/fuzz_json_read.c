// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the JSON result reader of compare and report
 * (json_read.c and the per-command adapters): the input is one result
 * document; it is compared with itself and rendered as compare text,
 * JSON and CSV and as the report's HTML page. replay.c runs it over the
 * kept corpus in every build.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/adapters.h"
#include "report/compare.h"
#include "report/html/html.h"
#include "report/rdoc.h"
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
	struct err err = { 0 };
	struct rdoc *d[2];
	struct cmp c;
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	d[0] = rdoc_parse(text, "a.json", &err);
	d[1] = d[0] ? rdoc_parse(text, "b.json", &err) : NULL;
	if (d[0] && d[1]) {
		struct cmp_text_opts to = { .color = true };
		struct html_opts ho = { .threshold = 0.05 };
		char *argv[] = { "iolab", "compare", NULL };

		if (cmp_build(&c, d, 2, 0.05, &err)) {
			cmp_text_print(&c, &to, sink());
			cmp_json_write(&c, 2, argv, sink(), &err);
			cmp_csv_write(&c, sink(), &err);
			cmp_free(&c);
		}
		html_write(d, 2, &ho, sink(), &err);
	}
	rdoc_free(d[0]);
	rdoc_free(d[1]);
	free(text);
	return 0;
}
