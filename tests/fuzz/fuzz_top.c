// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for iolab top's readers of untrusted input: the input
 * is read as /proc/diskstats (then rates and verdicts of every device
 * against itself and against a snapshot with its counters bumped and
 * wrapped, and both renderers), as /proc/stat and /proc/pressure/io, as a
 * query-blockstats reply, and as a NUL-separated QEMU argv for the QMP
 * socket and name finders. replay.c runs it over the kept corpus.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/top/top_report.h"
#include "util/err.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "we");
	return f;
}

static void diskstats(const char *text, size_t size)
{
	static const struct top_class cls = { "non-rot", 5, "" };
	struct top_snap a, b;
	struct top_row rows[8];
	struct top_verdict v[16];
	struct top_sample s = { 0 };
	struct err err = { 0 };
	size_t nv = 0, nr = 0;

	top_parse(text, size, &a);
	top_parse(text, size, &b);
	for (size_t i = 0; i < b.n; i++)
		for (int k = 0; k < TF_COUNT; k++)
			b.devs[i].f[k] =
				b.devs[i].f[k] * 3 + 7 + (k & 1) * UINT32_MAX;
	for (size_t i = 0; i < a.n && nr < 8; i++, nr++) {
		rows[nr].cls = cls;
		top_rate_of(&a.devs[i], &b.devs[i], 1.0, &rows[nr].rate);
		nv += top_judge_dev(&rows[nr].rate, &cls, v + nv, 16 - nv);
		top_rate_of(&b.devs[i], &a.devs[i], 0.0, &rows[nr].rate);
		nv += top_judge_dev(&rows[nr].rate, &cls, v + nv, 16 - nv);
	}
	s.rows = rows;
	s.nrows = nr;
	s.verdicts = v;
	s.nverdicts = nv;
	s.index = 1;
	s.interval_s = 1;
	top_text_frame(&s, sink(), false);
	top_json_line(&s, sink(), &err);
	top_csv_rows(&s, sink(), &err);
	top_snap_free(&a);
	top_snap_free(&b);
}

static void sys(const char *text)
{
	struct top_sys_snap a = { 0 }, b = { 0 };
	struct top_sys_rate r;
	struct top_verdict v[4];

	top_sys_parse_stat(text, &a);
	top_sys_parse_psi(text, &a);
	b = a;
	b.t_ns = 1000000000;
	top_sys_rate_of(&a, &b, &r);
	top_judge_sys(&r, v, 4);
}

static void qmp(const char *text, size_t size)
{
	struct top_vmstats a, b;
	struct top_vmrate r;
	char why[200];

	if (top_blockstats_parse(text, size, &a, why, sizeof(why))) {
		if (top_blockstats_parse(text, size, &b, why, sizeof(why))) {
			for (size_t i = 0; i < a.n; i++)
				top_vmrate_of(&a.d[i], &b.d[i], 1.0, &r);
			top_vmstats_free(&b);
		}
		top_vmstats_free(&a);
	}
}

static void argv_of(const char *text, size_t size)
{
	char *argv[64], path[108], name[TOP_NAME_MAX];
	int argc = 0;

	for (size_t i = 0; i < size && argc < 64; i += strlen(text + i) + 1)
		argv[argc++] = (char *)text + i;
	top_qmp_path(argc, argv, path, sizeof(path));
	top_vm_name(argc, argv, name, sizeof(name));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	diskstats(text, size);
	sys(text);
	qmp(text, size);
	argv_of(text, size);
	free(text);
	return 0;
}
