/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Ctrl-C and friends. The first signal whose default action would end the
 * process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1/2, SIGALRM, ...) only
 * asks the run to stop (partial results are printed and files cleaned up on
 * the normal path); a second one removes the registered temporary files at
 * once and exits. Temporary files are registered here so that both paths, and an
 * out-of-memory exit, remove them. Child processes (the lab's QEMUs) are
 * registered too, so that a hard exit kills them before removing files.
 */
#ifndef IOLAB_UTIL_SIG_H
#define IOLAB_UTIL_SIG_H

#include <sys/types.h>

void sig_install(void);
/*
 * For commands that do not poll sig_pending() (doctor, advise, compare,
 * report): SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1/2, SIGALRM and the
 * other signals that would end the process remove the registered files and
 * exit at once. Does nothing where a handler (sig_install()) or SIG_IGN is set;
 * sig_install() called later replaces it.
 */
void sig_install_exit(void);
/* The signal that asked us to stop, or 0. Cheap: one relaxed load. */
int sig_pending(void);
/* Ask to stop as if by this signal (used by tests and the watchdog). */
void sig_raise_stop(int signo);
/* Exit code for a run stopped by @signo (130 for SIGINT, 143 SIGTERM). */
int sig_exit_code(int signo);

/* Register a path to unlink on a hard exit; returns a handle or -1. */
int cleanup_add(const char *path);
/*
 * Register a file we created: @name relative to the directory @dirfd (kept
 * open by the caller until cleanup_remove()), @path for messages. It is
 * unlinked on a hard exit only while the name still refers to the inode
 * @dev/@ino; else it is left alone and said so.
 */
int cleanup_add_inode(int dirfd, const char *name, const char *path, dev_t dev,
		      ino_t ino);
void cleanup_remove(int handle);
/* Register a child process to SIGKILL on a hard exit; handle or -1. */
int cleanup_add_pid(pid_t pid);
void cleanup_remove_pid(int handle);
/*
 * Kill every registered process, then unlink every registered path (a
 * directory is removed if empty), from the last slot down so that files
 * registered after their directory go first. Async-signal-safe.
 */
void cleanup_all(void);

#endif
