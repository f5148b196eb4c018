/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `iolab doctor` prints: the diagnosis (doctor_diag.h) and how it was
 * asked for; as a report grouped by disk, findings first, or as JSON.
 */
#ifndef IOLAB_CMD_DOCTOR_DOCTOR_REPORT_H
#define IOLAB_CMD_DOCTOR_DOCTOR_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct doctor_report;
struct err;

struct doctor_print {
	int argc;
	char *const *argv;
	const struct doctor_report *r;
	const char *sysroot; /* NULL: the live system */
	const char *capture; /* NULL: none */
	bool probe, all;
	uint64_t probe_ns;
};

void doctor_text_print(const struct doctor_print *p, FILE *f);
bool doctor_json_write(const struct doctor_print *p, FILE *f, struct err *err);

#endif
