/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One sample of `iolab top` as the renderers see it: the devices shown
 * with their rates, class and verdicts, the ones that went away, the
 * system's figures; printed as a text frame or one JSON line.
 */
#ifndef IOLAB_CMD_TOP_TOP_REPORT_H
#define IOLAB_CMD_TOP_TOP_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "top_stats.h"
#include "top_verdict.h"
#include "top_vm.h"

struct err;
struct fsview;

struct top_row {
	struct top_rate rate;
	struct top_class cls;
};

struct top_sample {
	int argc;
	char *const *argv;
	double interval_opt_s; /* --interval */
	unsigned count_opt; /* --count, 0 = until stopped */
	bool all;
	unsigned index; /* 1, 2, ... */
	double interval_s; /* measured */
	size_t nrows;
	struct top_row *rows;
	size_t ngone;
	char (*gone)[TOP_NAME_MAX];
	struct top_sys_rate sys;
	size_t nverdicts;
	struct top_verdict *verdicts;
	bool vms_on; /* --vms */
	const char *lv_uri; /* libvirt's connection, NULL if none */
	const struct top_vm *vms;
	size_t nvms;
	bool truncated; /* /proc/diskstats was cut at the bound */
	size_t skipped; /* its lines that did not parse */
};

/* Devices shown: @disks (names or /dev/ paths, NULL-terminated, may be
   empty) or else the whole disks, loop, RAM and optical ones only with
   @all. Partitions are part of their disk's figures already. */
bool top_shown(const struct fsview *v, const struct top_dev *d,
	       char *const *disks, int ndisks, bool all);
/* The device's class, from /sys (queue/rotational, the name). */
void top_class_of(const struct fsview *v, const struct top_dev *d,
		  struct top_class *c);

/*
 * The rates of disk @i of @vm against its previous reply (state TOP_NEW
 * when it had none).
 */
void top_vm_disk_rate(const struct top_vm *vm, size_t i, struct top_vmrate *r);
/* Where a VM's figures come from: "libvirt", "qmp", or NULL (none). */
const char *top_vm_source(const struct top_vm *vm);

void top_text_frame(const struct top_sample *s, FILE *f, bool clear);
bool top_json_line(const struct top_sample *s, FILE *f, struct err *err);
void top_csv_header(FILE *f);

/* Full-screen keys: start (false if stdin is no terminal), wait until
   @t_ns or 'q' (true), and put the terminal back. */
bool top_keys_start(void);
bool top_keys_wait(uint64_t t_ns);
void top_keys_restore(void);
bool top_csv_rows(const struct top_sample *s, FILE *f, struct err *err);

#endif
