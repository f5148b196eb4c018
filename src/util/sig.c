// SPDX-License-Identifier: GPL-2.0-or-later
/* Signal handling and emergency file cleanup; see sig.h. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sig.h"

#define CLEANUP_MAX 16

static volatile sig_atomic_t stop_signo;
static char cleanup_paths[CLEANUP_MAX][PATH_MAX];
static volatile sig_atomic_t cleanup_used[CLEANUP_MAX];
static volatile pid_t cleanup_pids[CLEANUP_MAX];

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
			if (unlink(cleanup_paths[i]) && errno == EISDIR)
				rmdir(cleanup_paths[i]);
			cleanup_used[i] = 0;
		}
	}
}

static void on_signal(int signo)
{
	static const char msg[] =
		"\niolab: interrupted again; removing test files and exiting\n";

	if (stop_signo) {
		cleanup_all();
		if (write(2, msg, sizeof(msg) - 1) < 0)
			_exit(128 + signo);
		_exit(128 + signo);
	}
	__atomic_store_n(&stop_signo, signo, __ATOMIC_RELAXED);
}

void sig_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static void on_signal_exit(int signo)
{
	cleanup_all();
	_exit(128 + signo);
}

void sig_install_exit(void)
{
	/* Every signal whose default action ends the process, but SIGPIPE. */
	static const int sigs[] = {
		SIGHUP,	 SIGINT,    SIGTERM, SIGQUIT, SIGUSR1, SIGUSR2,
		SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
#ifdef SIGPOLL
		SIGPOLL,
#endif
	};
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal_exit;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!sigaction(sigs[i], NULL, &old) &&
		    old.sa_handler == SIG_DFL)
			sigaction(sigs[i], &sa, NULL);
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

int cleanup_add(const char *path)
{
	for (int i = 0; i < CLEANUP_MAX; i++) {
		if (!cleanup_used[i]) {
			snprintf(cleanup_paths[i], sizeof(cleanup_paths[i]),
				 "%s", path);
			cleanup_used[i] = 1;
			return i;
		}
	}
	return -1;
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
