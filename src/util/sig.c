// SPDX-License-Identifier: GPL-2.0-or-later
/* Signal handling and emergency file cleanup; see sig.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sig.h"

#define CLEANUP_MAX 16

static volatile sig_atomic_t stop_signo;
static struct {
	char path[PATH_MAX]; /* for messages, and the unlink when no dirfd */
	char name[PATH_MAX]; /* relative to dirfd */
	int dirfd; /* -1: path is used as is */
	bool check; /* unlink only while name is still dev/ino */
	dev_t dev;
	ino_t ino;
} cleanup_files[CLEANUP_MAX];
static volatile sig_atomic_t cleanup_used[CLEANUP_MAX];
static volatile pid_t cleanup_pids[CLEANUP_MAX];

/* write(2) of a few strings; async-signal-safe, unlike stdio. */
static void say(const char *a, const char *b, const char *c, const char *d)
{
	const char *parts[] = { a, b, c, d };

	for (int i = 0; i < 4; i++)
		if (parts[i] && write(2, parts[i], strlen(parts[i])) < 0)
			return;
}

/* strerror() is not async-signal-safe: name the common causes ourselves. */
static const char *errno_name(int e)
{
	switch (e) {
	case EACCES:
		return "permission denied";
	case EPERM:
		return "operation not permitted";
	case EROFS:
		return "read-only filesystem";
	case EBUSY:
		return "busy";
	case EIO:
		return "I/O error";
	case ENOTDIR:
		return "a directory in its path was replaced";
	default:
		return "unlink failed";
	}
}

static void cleanup_file(int i)
{
	int dfd = cleanup_files[i].dirfd >= 0 ? cleanup_files[i].dirfd :
						AT_FDCWD;
	const char *name = cleanup_files[i].dirfd >= 0 ? cleanup_files[i].name :
							 cleanup_files[i].path;
	const char *path = cleanup_files[i].path;
	struct stat st;
	int e;

	if (cleanup_files[i].check) {
		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
			e = errno;
			if (e != ENOENT) {
				say("\niolab: cannot check ", path, ": ",
				    errno_name(e));
				say("; left it in place, remove it by hand\n",
				    NULL, NULL, NULL);
			}
			return;
		}
		if (st.st_dev != cleanup_files[i].dev ||
		    st.st_ino != cleanup_files[i].ino) {
			say("\niolab: ", path,
			    " is no longer the test file iolab created (it was replaced)",
			    "; left it alone\n");
			return;
		}
	}
	if (!unlinkat(dfd, name, 0))
		return;
	e = errno;
	if (e == EISDIR) {
		/* A directory (the lab's) goes only when empty. */
		if (!unlinkat(dfd, name, AT_REMOVEDIR))
			return;
		e = errno;
	}
	if (e == ENOENT || e == ENOTEMPTY || e == EEXIST)
		return;
	say("\niolab: cannot remove ", path, ": ", errno_name(e));
	say("; it is left behind, remove it by hand\n", NULL, NULL, NULL);
}

void cleanup_all(void)
{
	for (int i = 0; i < CLEANUP_MAX; i++) {
		if (cleanup_pids[i] > 0) {
			kill(cleanup_pids[i], SIGKILL);
			cleanup_pids[i] = 0;
		}
	}
	for (int i = CLEANUP_MAX - 1; i >= 0; i--) {
		if (cleanup_used[i]) {
			cleanup_file(i);
			cleanup_used[i] = 0;
		}
	}
}

static void on_signal(int signo)
{
	static const char msg[] =
		"\niolab: interrupted again; removing test files and exiting\n";

	if (stop_signo) {
		if (write(2, msg, sizeof(msg) - 1) < 0)
			_exit(128 + signo);
		cleanup_all();
		_exit(128 + signo);
	}
	__atomic_store_n(&stop_signo, signo, __ATOMIC_RELAXED);
}

/* Every signal whose default action ends the process. */
static const int stop_signals[] = {
	SIGHUP,	   SIGINT,    SIGTERM, SIGQUIT, SIGUSR1, SIGUSR2,
	SIGALRM,   SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
#ifdef SIGPOLL
	SIGPOLL,
#endif
#ifdef SIGPWR
	SIGPWR,
#endif
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
};
#define NSTOP (sizeof(stop_signals) / sizeof(stop_signals[0]))

void sig_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NSTOP; i++)
		sigaction(stop_signals[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static void on_signal_exit(int signo)
{
	cleanup_all();
	_exit(128 + signo);
}

void sig_install_exit(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal_exit;
	sigemptyset(&sa.sa_mask);
	/* The same signals as sig_install(): every one that would end us. */
	for (size_t i = 0; i < NSTOP; i++)
		sigaddset(&sa.sa_mask, stop_signals[i]);
	for (size_t i = 0; i < NSTOP; i++)
		if (!sigaction(stop_signals[i], NULL, &old) &&
		    old.sa_handler == SIG_DFL)
			sigaction(stop_signals[i], &sa, NULL);
}

int sig_pending(void)
{
	return __atomic_load_n(&stop_signo, __ATOMIC_RELAXED);
}

void sig_raise_stop(int signo)
{
	__atomic_store_n(&stop_signo, signo, __ATOMIC_RELAXED);
}

int sig_exit_code(int signo)
{
	return 128 + signo;
}

int cleanup_add_inode(int dirfd, const char *name, const char *path, dev_t dev,
		      ino_t ino)
{
	for (int i = 0; i < CLEANUP_MAX; i++) {
		if (!cleanup_used[i]) {
			snprintf(cleanup_files[i].path,
				 sizeof(cleanup_files[i].path), "%s", path);
			snprintf(cleanup_files[i].name,
				 sizeof(cleanup_files[i].name), "%s",
				 name ? name : path);
			cleanup_files[i].dirfd = dirfd;
			cleanup_files[i].check = dirfd >= 0 || dev || ino;
			cleanup_files[i].dev = dev;
			cleanup_files[i].ino = ino;
			__atomic_store_n(&cleanup_used[i], 1, __ATOMIC_RELEASE);
			return i;
		}
	}
	return -1;
}

int cleanup_add(const char *path)
{
	return cleanup_add_inode(-1, NULL, path, 0, 0);
}

void cleanup_remove(int handle)
{
	if (handle >= 0 && handle < CLEANUP_MAX)
		cleanup_used[handle] = 0;
}

int cleanup_add_pid(pid_t pid)
{
	for (int i = 0; i < CLEANUP_MAX; i++) {
		if (cleanup_pids[i] <= 0) {
			cleanup_pids[i] = pid;
			return i;
		}
	}
	return -1;
}

void cleanup_remove_pid(int handle)
{
	if (handle >= 0 && handle < CLEANUP_MAX)
		cleanup_pids[handle] = 0;
}
