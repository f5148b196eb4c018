/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One lab guest: start QEMU for a cell, watch it (the watchdog), collect
 * what the guest sends over the channel, QEMU's stderr and the tail of
 * the kernel console, and make sure QEMU is gone when this returns.
 */
#ifndef IOLAB_CMD_LAB_VM_H
#define IOLAB_CMD_LAB_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "channel.h"
#include "qemu_argv.h"

struct err;

struct vm_limits {
	uint64_t boot_ns; /* start to the guest's HELLO */
	uint64_t idle_ns; /* longest silence of the guest after HELLO */
	uint64_t total_ns; /* start to QEMU's exit */
};

enum vm_end {
	VM_EXITED, /* QEMU exited by itself */
	VM_BOOT_TIMEOUT, /* no HELLO in time: killed */
	VM_IDLE_TIMEOUT, /* the guest fell silent: killed */
	VM_TOTAL_TIMEOUT, /* the cell took too long: killed */
	VM_INTERRUPTED, /* a signal asked iolab to stop: killed */
};

/* What the guest sent about one of its disks (one cell). */
struct vm_part {
	bool started; /* START seen (always, for a guest of one disk) */
	double start_s, end_s; /* from QEMU's start: START to the next */
	char disk[32]; /* the guest's name for the test disk */
	char serial[32]; /* the serial it found it by; "-": by size */
	char fail[512]; /* the guest's FAIL message about it, if any */
	char *log; /* LOG messages after its START, one per line */
	char *suite; /* DATA "suite", or NULL */
	int suite_code;
	char *doctor; /* DATA "doctor", or NULL */
	int doctor_code;
};

struct vm_outcome {
	enum vm_end end;
	int exit_status; /* QEMU's, or 128 + signal */
	bool booted; /* HELLO seen */
	bool finished; /* END seen */
	double boot_s; /* start to HELLO */
	double elapsed_s; /* start to exit */
	char guest_version[64];
	char fail[512]; /* FAIL before any START: the whole guest */
	char *qemu_stderr; /* verbatim, NUL-terminated */
	char *console_tail; /* the last bytes of the kernel console */
	char *guest_log; /* LOG messages before any START, one per line */
	struct vm_part parts[LAB_MAX_DISKS]; /* one per disk of the cell */
	unsigned int nparts;
};

/*
 * Called for each channel message as it arrives, and with @ev NULL about
 * once a second (progress display).
 */
typedef void (*vm_event_fn)(const struct chan_event *ev, void *ctx);

/*
 * Run @c (its console_fd and channel_fd are filled here). False with @err
 * set only if QEMU could not be started at all; every other ending is
 * described in @o. Free @o with vm_outcome_free().
 */
bool vm_run(struct qemu_cell *c, const struct vm_limits *l, vm_event_fn fn,
	    void *ctx, struct vm_outcome *o, struct err *err);
void vm_outcome_free(struct vm_outcome *o);

#endif
