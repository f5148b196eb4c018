/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rules of iolab advise. Each has a stable id (JSON consumers and
 * tests key on it), a fixed severity, and documents itself in
 * man/iolab-advise.1. Severity: error = QEMU or libvirt refuses to start
 * the VM, or data is silently lost; warning = a measurable slowdown or a
 * risk with a clear fix; info = worth knowing, may be intended.
 */
#ifndef IOLAB_CMD_ADVISE_ADVISE_RULES_H
#define IOLAB_CMD_ADVISE_ADVISE_RULES_H

#include "advise_model.h"

struct adv_rule {
	const char *id;
	enum adv_severity sev;
	const char *summary; /* one line, for --list-rules */
};

extern const struct adv_rule adv_rules[];

/* Evaluate every rule on every disk; findings sorted by VM, severity. */
void adv_rules_run(struct adv_report *r);

#endif
