/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `iolab advise` reports: per VM and disk the resolved settings, then
 * the findings with why and the corrected line; as text or as JSON.
 */
#ifndef IOLAB_CMD_ADVISE_ADVISE_REPORT_H
#define IOLAB_CMD_ADVISE_ADVISE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "advise_model.h"

struct err;

struct advise_render {
	int argc;
	char *const *argv;
	const struct adv_report *r;
	bool scanned; /* the running processes were scanned */
	bool probe; /* files and devices were looked at */
};

void advise_text_print(const struct advise_render *a, FILE *f);
bool advise_json_write(const struct advise_render *a, FILE *f, struct err *err);
/* One CSV line per disk; see advise_csv.c. */
bool advise_csv_write(const struct advise_render *a, FILE *f, struct err *err);

#endif
