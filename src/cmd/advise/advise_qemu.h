/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QEMU command lines (given as text, as a file, or read from a running
 * process) to VMs: -drive, -blockdev (key=value and JSON), -device,
 * -object iothread, -smp, -machine, -global, -set and the -hda/-cdrom
 * shortcuts, resolved through QEMU's node graph to one model per disk.
 */
#ifndef IOLAB_CMD_ADVISE_ADVISE_QEMU_H
#define IOLAB_CMD_ADVISE_ADVISE_QEMU_H

#include <stdbool.h>

#include "advise_model.h"

struct err;

/*
 * One command line, already split into words (argv[0] is the first
 * option, not the program). @where[i] locates argv[i] in messages.
 * @strict: an unknown option or a dangling reference is an error (given
 * input); otherwise a warning (a running process QEMU accepted).
 * On success the VM is appended to @r.
 */
bool adv_qemu_read_argv(struct adv_report *r, enum adv_source src,
			const char *origin, const char *name_hint, int argc,
			char *const *argv, char *const *where, bool strict,
			const struct adv_ctx *ctx, struct err *err);

/*
 * Text holding one or more QEMU command lines as a shell would read them
 * (--qemu-args, --qemu-args-file, a libvirt domain log). Each command
 * whose program is qemu-system-*, qemu-kvm or kvm is one VM; text with no
 * program name is read as the options of one VM. @label names the text in
 * messages ("--qemu-args" or the file name).
 */
bool adv_qemu_read_text(struct adv_report *r, enum adv_source src,
			const char *origin, const char *label, const char *text,
			const struct adv_ctx *ctx, struct err *err);

/* True if @prog (a path or name) is a QEMU system emulator binary. */
bool adv_qemu_is_program(const char *prog);

#endif
