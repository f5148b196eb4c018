/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Child processes of the lab (qemu-img, QEMU, decompressors), always from
 * an argv array, never through a shell. Each child gets /dev/null as
 * stdin, is killed if iolab dies (PR_SET_PDEATHSIG), and is registered
 * with util/sig.h so that a hard exit kills it.
 */
#ifndef IOLAB_CMD_LAB_PROC_H
#define IOLAB_CMD_LAB_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct err;

struct proc {
	pid_t pid;
	int out_fd; /* read end of its stdout, or -1 */
	int err_fd; /* read end of its stderr, or -1 */
	int cleanup_handle;
};

struct proc_spec {
	char *const *argv; /* argv[0] is looked up in PATH */
	const int *pass_fds; /* descriptors the child keeps (same numbers) */
	int npass;
	bool capture_out; /* else /dev/null */
	bool capture_err; /* else inherited */
	bool own_group; /* own process group: no terminal Ctrl-C */
};

/* Start a child. False with @err set if it could not be executed. */
bool proc_spawn(const struct proc_spec *s, struct proc *p, struct err *err);
/*
 * Wait for the child; returns its exit status, 128+N if killed by signal
 * N. Closes the capture descriptors and unregisters it.
 */
int proc_wait(struct proc *p);
/* Send SIGKILL (if still running) and wait. */
int proc_kill(struct proc *p);

/*
 * Run a program to completion, capturing stdout and stderr (each
 * NUL-terminated, caller frees; either pointer may be NULL to discard).
 * Killed after @timeout_ns (0 = no limit). Returns the exit status as
 * proc_wait, or -1 with @err set if it could not be started or timed out.
 */
int proc_run(char *const *argv, char **out, size_t *out_len, char **errout,
	     uint64_t timeout_ns, struct err *err);

/* proc_run, the child keeping @pass_fds (same numbers). */
int proc_run_fds(char *const *argv, const int *pass_fds, int npass, char **out,
		 size_t *out_len, char **errout, uint64_t timeout_ns,
		 struct err *err);

/* argv as one line for messages: "qemu-img create -f raw x.img 1G". */
char *proc_argv_str(char *const *argv);

#endif
