// SPDX-License-Identifier: GPL-2.0-or-later
/* Child processes from argv arrays; see proc.h. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"
#include "../../util/clock.h"
#include "../../util/err.h"
#include "../../util/sig.h"
#include "../../util/xmem.h"

/* Only async-signal-safe calls between fork and exec. */
static void child_exec(const struct proc_spec *s, int out_w, int err_w,
		       int report_w)
{
	int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	int e;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (s->own_group)
		setpgid(0, 0);
	/* Undo the parent's handlers: QEMU must die of SIGTERM/SIGINT. */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (null_fd < 0 || dup2(null_fd, 0) < 0 ||
	    dup2(out_w >= 0 ? out_w : null_fd, 1) < 0 ||
	    (err_w >= 0 && dup2(err_w, 2) < 0))
		goto fail;
	for (int i = 0; i < s->npass; i++) {
		int fl = fcntl(s->pass_fds[i], F_GETFD);

		if (fl < 0 || fcntl(s->pass_fds[i], F_SETFD, fl & ~FD_CLOEXEC))
			goto fail;
	}
	execvp(s->argv[0], s->argv);
fail:
	e = errno;
	if (write(report_w, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

bool proc_spawn(const struct proc_spec *s, struct proc *p, struct err *err)
{
	int out[2] = { -1, -1 }, errp[2] = { -1, -1 }, rep[2];
	ssize_t n;
	int e = 0;

	p->pid = -1;
	p->out_fd = p->err_fd = -1;
	p->cleanup_handle = -1;
	if (pipe2(rep, O_CLOEXEC) ||
	    (s->capture_out && pipe2(out, O_CLOEXEC)) ||
	    (s->capture_err && pipe2(errp, O_CLOEXEC)))
		return err_set(err, EXIT_ENV, errno, "cannot create a pipe: %s",
			       strerror(errno));
	fflush(NULL);
	p->pid = fork();
	if (p->pid < 0) {
		e = errno;
		goto fail;
	}
	if (p->pid == 0)
		child_exec(s, out[1], errp[1], rep[1]);
	p->cleanup_handle = cleanup_add_pid(p->pid);
	close(rep[1]);
	if (out[1] >= 0)
		close(out[1]);
	if (errp[1] >= 0)
		close(errp[1]);
	p->out_fd = out[0];
	p->err_fd = errp[0];
	/* The report pipe closes on exec; bytes on it are exec's errno. */
	do
		n = read(rep[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(rep[0]);
	if (n == (ssize_t)sizeof(e)) {
		proc_wait(p);
		return err_set(
			err, EXIT_ENV, e,
			e == ENOENT ?
				"%s: not found; install it or give its path" :
				"cannot run %s: %s",
			s->argv[0], strerror(e));
	}
	return true;
fail:
	for (int i = 0; i < 2; i++) {
		if (out[i] >= 0)
			close(out[i]);
		if (errp[i] >= 0)
			close(errp[i]);
		close(rep[i]);
	}
	return err_set(err, EXIT_ENV, e, "cannot start %s: %s", s->argv[0],
		       strerror(e));
}

int proc_wait(struct proc *p)
{
	int st = 0, rc = -1;

	if (p->out_fd >= 0)
		close(p->out_fd);
	if (p->err_fd >= 0)
		close(p->err_fd);
	p->out_fd = p->err_fd = -1;
	if (p->pid > 0) {
		while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR)
			;
		rc = WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
	}
	/* Reaped (here or by the caller): never kill that pid again. */
	cleanup_remove_pid(p->cleanup_handle);
	p->cleanup_handle = -1;
	p->pid = -1;
	return rc;
}

int proc_kill(struct proc *p)
{
	if (p->pid > 0)
		kill(p->pid, SIGKILL);
	return proc_wait(p);
}

struct capture {
	char *buf;
	size_t len, cap;
};

static bool capture_read(int fd, struct capture *c)
{
	char tmp[8192];
	ssize_t n = read(fd, tmp, sizeof(tmp));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	if (c->len + (size_t)n + 1 > c->cap) {
		c->cap = (c->len + (size_t)n + 1) * 2;
		c->buf = xrealloc(c->buf, c->cap);
	}
	memcpy(c->buf + c->len, tmp, (size_t)n);
	c->len += (size_t)n;
	c->buf[c->len] = '\0';
	return true;
}

int proc_run(char *const *argv, char **out, size_t *out_len, char **errout,
	     uint64_t timeout_ns, struct err *err)
{
	return proc_run_fds(argv, NULL, 0, out, out_len, errout, timeout_ns,
			    err);
}

int proc_run_fds(char *const *argv, const int *pass_fds, int npass, char **out,
		 size_t *out_len, char **errout, uint64_t timeout_ns,
		 struct err *err)
{
	struct proc_spec s = { .argv = argv,
			       .pass_fds = pass_fds,
			       .npass = npass,
			       .capture_out = true,
			       .capture_err = true };
	struct capture c[2] = { { 0 } };
	uint64_t deadline = timeout_ns ? clock_ns() + timeout_ns : 0;
	struct proc p;
	bool open_fd[2] = { true, true };
	int rc;

	if (!proc_spawn(&s, &p, err))
		return -1;
	while (open_fd[0] || open_fd[1]) {
		struct pollfd pf[2] = { { p.out_fd, POLLIN, 0 },
					{ p.err_fd, POLLIN, 0 } };
		int t = 200;

		pf[0].fd = open_fd[0] ? p.out_fd : -1;
		pf[1].fd = open_fd[1] ? p.err_fd : -1;
		if (deadline && clock_ns() > deadline) {
			char *line = proc_argv_str(argv);

			proc_kill(&p);
			err_set(err, EXIT_ENV, ETIMEDOUT,
				"%s did not finish within %llu s", line,
				(unsigned long long)(timeout_ns /
						     1000000000ull));
			free(line);
			free(c[0].buf);
			free(c[1].buf);
			return -1;
		}
		if (poll(pf, 2, t) < 0 && errno != EINTR)
			break;
		for (int i = 0; i < 2; i++)
			if (open_fd[i] && (pf[i].revents & (POLLIN | POLLHUP)))
				open_fd[i] = capture_read(pf[i].fd, &c[i]);
	}
	rc = proc_wait(&p);
	for (int i = 0; i < 2; i++)
		if (!c[i].buf)
			c[i].buf = xstrdup("");
	if (out)
		*out = c[0].buf;
	else
		free(c[0].buf);
	if (out_len)
		*out_len = c[0].len;
	if (errout)
		*errout = c[1].buf;
	else
		free(c[1].buf);
	return rc;
}

char *proc_argv_str(char *const *argv)
{
	size_t len = 1;
	char *s;

	for (int i = 0; argv[i]; i++)
		len += strlen(argv[i]) + 1;
	s = xmalloc(len);
	s[0] = '\0';
	for (int i = 0; argv[i]; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}
