// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One lab guest; see vm.h. QEMU gets two socketpair ends as its serial
 * ports (-chardev socket,fd=N), so nothing is written to the filesystem,
 * and runs in its own process group so that a terminal's Ctrl-C reaches
 * only iolab, which then kills it and cleans up.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"
#include "vm.h"
#include "../../util/clock.h"
#include "../../util/err.h"
#include "../../util/sig.h"
#include "../../util/xmem.h"

#define VM_CONSOLE_TAIL (16u << 10)
#define VM_STDERR_MAX (64u << 10)
/* After the guest said END, QEMU should exit at once (ACPI power-off). */
#define VM_POWEROFF_NS (15ull * 1000000000ull)

struct vm_buf {
	char *p;
	size_t len, cap, max;
	bool tail; /* keep the last max bytes (else the first) */
};

static void buf_add(struct vm_buf *b, const char *s, size_t n)
{
	if (b->tail && n >= b->max) {
		s += n - b->max;
		n = b->max;
	}
	if (b->tail && b->len + n > b->max) {
		size_t drop = b->len + n - b->max;

		memmove(b->p, b->p + drop, b->len - drop);
		b->len -= drop;
	}
	if (!b->tail && b->len + n > b->max)
		n = b->max - b->len;
	if (b->len + n + 1 > b->cap) {
		b->cap = b->len + n + 1 > 4096 ? (b->len + n + 1) * 2 : 4096;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static char *buf_take(struct vm_buf *b)
{
	char *p = b->p ? b->p : xstrdup("");

	b->p = NULL;
	b->len = b->cap = 0;
	return p;
}

struct vm_state {
	struct vm_outcome *o;
	struct chan_parser parser;
	struct vm_buf console, errbuf, log;
	struct vm_buf part_log[LAB_MAX_DISKS];
	int cur; /* the disk the guest is on; -1 before its first START */
	uint64_t t0, last_msg;
	vm_event_fn fn;
	void *ctx;
};

/* The disk a message is about: the current one, if any. */
static struct vm_part *cur_part(struct vm_state *s)
{
	return s->cur >= 0 ? &s->o->parts[s->cur] : NULL;
}

static void handle_event(struct vm_state *s, struct chan_event *ev)
{
	struct vm_outcome *o = s->o;
	struct vm_part *pt;
	double now_s;

	s->last_msg = clock_ns();
	now_s = (double)(s->last_msg - s->t0) / 1e9;
	pt = cur_part(s);
	switch (ev->type) {
	case CHAN_HELLO:
		o->booted = true;
		o->boot_s = now_s;
		snprintf(o->guest_version, sizeof(o->guest_version), "%s",
			 ev->text);
		break;
	case CHAN_START:
		/* Only forward, only to a disk this guest has. */
		if (ev->n1 >= o->nparts || (int)ev->n1 <= s->cur)
			break;
		if (pt)
			pt->end_s = now_s;
		s->cur = (int)ev->n1;
		pt = cur_part(s);
		pt->started = true;
		pt->start_s = now_s;
		break;
	case CHAN_DISK:
		if (pt) {
			snprintf(pt->disk, sizeof(pt->disk), "%s", ev->text);
			snprintf(pt->serial, sizeof(pt->serial), "%s",
				 ev->serial);
		}
		break;
	case CHAN_FAIL:
		if (pt)
			snprintf(pt->fail, sizeof(pt->fail), "%s", ev->text);
		else
			snprintf(o->fail, sizeof(o->fail), "%s", ev->text);
		break;
	case CHAN_END:
		o->finished = true;
		if (pt)
			pt->end_s = now_s;
		break;
	case CHAN_LOG: {
		struct vm_buf *b = pt ? &s->part_log[s->cur] : &s->log;

		buf_add(b, ev->text, strlen(ev->text));
		buf_add(b, "\n", 1);
		break;
	}
	case CHAN_DATA:
		if (!pt)
			break;
		if (!strcmp(ev->kind, "suite") && !pt->suite) {
			pt->suite = ev->data;
			pt->suite_code = ev->code;
			ev->data = NULL;
		} else if (!strcmp(ev->kind, "doctor") && !pt->doctor) {
			pt->doctor = ev->data;
			pt->doctor_code = ev->code;
			ev->data = NULL;
		}
		break;
	default:
		break;
	}
	if (s->fn)
		s->fn(ev, s->ctx);
	free(ev->data);
	ev->data = NULL;
}

/* Read what is there; false at end of file. */
static bool pump(struct vm_state *s, int fd, int which)
{
	char buf[16384];
	ssize_t n = read(fd, buf, sizeof(buf));
	struct chan_event ev;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (n == 0)
		return false;
	if (which == 0) {
		buf_add(&s->console, buf, (size_t)n);
	} else if (which == 2) {
		buf_add(&s->errbuf, buf, (size_t)n);
	} else {
		chan_feed(&s->parser, buf, (size_t)n);
		while (chan_next(&s->parser, &ev))
			handle_event(s, &ev);
	}
	return true;
}

static void set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

bool vm_run(struct qemu_cell *c, const struct vm_limits *l, vm_event_fn fn,
	    void *ctx, struct vm_outcome *o, struct err *err)
{
	struct vm_state s = {
		.o = o,
		.console = { .max = VM_CONSOLE_TAIL, .tail = true },
		.errbuf = { .max = VM_STDERR_MAX },
		.log = { .max = VM_CONSOLE_TAIL, .tail = true },
		.fn = fn,
		.ctx = ctx,
		.cur = -1,
	};
	int con[2], chan[2], pass[3 + LAB_MAX_DISKS], fds[3];
	bool open_fd[3] = { true, true, true };
	struct proc_spec ps = { 0 };
	struct proc p;
	char **argv;
	uint64_t end_seen = 0, last_tick = 0;
	int status = -1;

	memset(o, 0, sizeof(*o));
	o->nparts = c->ndisks < LAB_MAX_DISKS ? c->ndisks : LAB_MAX_DISKS;
	for (unsigned int k = 0; k < LAB_MAX_DISKS; k++)
		s.part_log[k] =
			(struct vm_buf){ .max = VM_CONSOLE_TAIL, .tail = true };
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, con))
		return err_set(err, EXIT_ENV, errno,
			       "cannot create a socket pair: %s",
			       strerror(errno));
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, chan)) {
		close(con[0]);
		close(con[1]);
		return err_set(err, EXIT_ENV, errno,
			       "cannot create a socket pair: %s",
			       strerror(errno));
	}
	c->console_fd = pass[0] = con[1];
	c->channel_fd = pass[1] = chan[1];
	argv = qemu_argv_build(c);
	ps.argv = argv;
	ps.pass_fds = pass;
	ps.npass = 2;
	for (unsigned int k = 0; k < o->nparts; k++)
		if (c->disks[k].image_fd > 2)
			pass[ps.npass++] = c->disks[k].image_fd;
	if (c->initrd_fd > 2)
		pass[ps.npass++] = c->initrd_fd;
	ps.capture_err = true;
	ps.own_group = true;
	chan_parser_init(&s.parser);
	s.t0 = s.last_msg = clock_ns();
	if (!proc_spawn(&ps, &p, err)) {
		qemu_argv_free(argv);
		close(con[0]);
		close(con[1]);
		close(chan[0]);
		close(chan[1]);
		chan_parser_free(&s.parser);
		return false;
	}
	qemu_argv_free(argv);
	close(con[1]);
	close(chan[1]);
	fds[0] = con[0];
	fds[1] = chan[0];
	fds[2] = p.err_fd;
	for (int i = 0; i < 3; i++)
		set_nonblock(fds[i]);
	o->end = VM_EXITED;
	for (;;) {
		struct pollfd pf[3];
		uint64_t now = clock_ns();
		int st;
		pid_t w;

		for (int i = 0; i < 3; i++) {
			pf[i].fd = open_fd[i] ? fds[i] : -1;
			pf[i].events = POLLIN;
			pf[i].revents = 0;
		}
		if (poll(pf, 3, 100) < 0 && errno != EINTR)
			break;
		for (int i = 0; i < 3; i++)
			if (open_fd[i] &&
			    (pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				open_fd[i] = pump(&s, fds[i], i);
		w = waitpid(p.pid, &st, WNOHANG);
		if (w == p.pid) {
			status = WIFSIGNALED(st) ? 128 + WTERMSIG(st) :
						   WEXITSTATUS(st);
			p.pid = -1;
			break;
		}
		now = clock_ns();
		if (fn && now - last_tick > 1000000000ull) {
			last_tick = now;
			fn(NULL, ctx);
		}
		if (o->finished && !end_seen)
			end_seen = now;
		if (sig_pending())
			o->end = VM_INTERRUPTED;
		else if (!o->booted && now - s.t0 > l->boot_ns)
			o->end = VM_BOOT_TIMEOUT;
		else if (o->booted && !o->finished &&
			 now - s.last_msg > l->idle_ns)
			o->end = VM_IDLE_TIMEOUT;
		else if (now - s.t0 > l->total_ns ||
			 (end_seen && now - end_seen > VM_POWEROFF_NS))
			o->end = VM_TOTAL_TIMEOUT;
		if (o->end != VM_EXITED) {
			status = proc_kill(&p);
			break;
		}
	}
	/* QEMU is gone: take what is still in the sockets and the pipe. */
	for (int i = 0; i < 3; i++)
		while (open_fd[i] && pump(&s, fds[i], i))
			;
	if (p.pid > 0) /* poll failed: do not leave QEMU behind */
		status = proc_kill(&p);
	else
		proc_wait(&p); /* closes stderr, unregisters the pid */
	close(con[0]);
	close(chan[0]);
	/* Killed after END: the guest had finished; count it as exited. */
	if (o->end == VM_TOTAL_TIMEOUT && o->finished)
		o->end = VM_EXITED;
	o->exit_status = status;
	o->elapsed_s = (double)(clock_ns() - s.t0) / 1e9;
	o->qemu_stderr = buf_take(&s.errbuf);
	o->console_tail = buf_take(&s.console);
	o->guest_log = buf_take(&s.log);
	for (unsigned int k = 0; k < o->nparts; k++)
		o->parts[k].log = buf_take(&s.part_log[k]);
	for (unsigned int k = o->nparts; k < LAB_MAX_DISKS; k++)
		free(s.part_log[k].p);
	chan_parser_free(&s.parser);
	return true;
}

void vm_outcome_free(struct vm_outcome *o)
{
	free(o->qemu_stderr);
	free(o->console_tail);
	free(o->guest_log);
	for (unsigned int k = 0; k < o->nparts; k++) {
		free(o->parts[k].log);
		free(o->parts[k].suite);
		free(o->parts[k].doctor);
	}
	memset(o, 0, sizeof(*o));
}
