// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A minimal, read-only QMP client: connect, check the greeting, leave
 * capabilities negotiation, query-blockstats, close. Bounded in time and
 * size; everything the peer sends is untrusted.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "top_vm.h"
#include "../../util/clock.h"
#include "../../util/xmem.h"

/* A greeting or a short reply; the statistics of many disks. */
#define SHORT_MAX (64u << 10)
#define STATS_MAX (4u << 20)

struct conn {
	int fd;
	uint64_t deadline_ns;
	char *buf;
	size_t len, cap;
};

static int wait_fd(struct conn *c, short ev)
{
	uint64_t now = clock_mono_ns();
	struct pollfd p = { .fd = c->fd, .events = ev };
	int rc;

	if (now >= c->deadline_ns)
		return -ETIMEDOUT;
	rc = poll(&p, 1, (int)((c->deadline_ns - now) / 1000000 + 1));
	if (rc < 0)
		return -errno;
	return rc ? 0 : -ETIMEDOUT;
}

static int send_all(struct conn *c, const char *s)
{
	size_t n = strlen(s), off = 0;

	while (off < n) {
		ssize_t w;
		int rc = wait_fd(c, POLLOUT);

		if (rc)
			return rc;
		w = send(c->fd, s + off, n - off, MSG_NOSIGNAL);
		if (w < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		if (w > 0)
			off += (size_t)w;
	}
	return 0;
}

/*
 * The next message that is not an event, NUL-terminated in c->buf (QMP
 * ends each message with a newline). Returns its length or -errno.
 */
static ssize_t next_reply(struct conn *c, size_t max)
{
	for (;;) {
		char *nl = c->len ? memchr(c->buf, '\n', c->len) : NULL;
		ssize_t r;
		int rc;

		if (nl) {
			size_t n = (size_t)(nl - c->buf);

			*nl = '\0';
			if (!strstr(c->buf, "\"event\"") ||
			    strstr(c->buf, "\"return\"") ||
			    strstr(c->buf, "\"error\"")) {
				/* Keep what follows for the next call. */
				return (ssize_t)n;
			}
			memmove(c->buf, nl + 1, c->len - n - 1);
			c->len -= n + 1;
			continue;
		}
		if (c->len >= max)
			return -EMSGSIZE;
		if (c->cap < max + 1) {
			c->cap = max + 1;
			c->buf = xrealloc(c->buf, c->cap);
		}
		rc = wait_fd(c, POLLIN);
		if (rc)
			return rc;
		r = recv(c->fd, c->buf + c->len, max - c->len, 0);
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			return -ECONNRESET;
		c->len += (size_t)r;
	}
}

/* Drop the message just returned by next_reply(). */
static void consume(struct conn *c, size_t n)
{
	memmove(c->buf, c->buf + n + 1, c->len - n - 1);
	c->len -= n + 1;
}

static bool fail(char *why, size_t wlen, const char *what, int rc)
{
	snprintf(why, wlen, "%s: %s", what,
		 rc == -ETIMEDOUT ?
			 "no answer in time (another client on the monitor?)" :
			 strerror(-rc));
	return false;
}

bool top_qmp_blockstats(const char *path, uid_t owner, unsigned timeout_ms,
			struct top_vmstats *s, char *why, size_t wlen)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct conn c = { .fd = -1 };
	struct stat st;
	ssize_t n;
	bool ok = false;

	if (strlen(path) >= sizeof(a.sun_path)) {
		snprintf(why, wlen, "QMP socket path too long");
		return false;
	}
	/* Only the QEMU process's own socket: never a socket someone else
	   named on a command line to make us talk to it. */
	if (lstat(path, &st) || !S_ISSOCK(st.st_mode) || st.st_uid != owner) {
		snprintf(
			why, wlen,
			"the QMP socket on its command line is not a socket of the VM's user");
		return false;
	}
	memcpy(a.sun_path, path, strlen(path) + 1);
	c.fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (c.fd < 0)
		return fail(why, wlen, "socket", -errno);
	c.deadline_ns = clock_mono_ns() + (uint64_t)timeout_ms * 1000000ull;
	if (connect(c.fd, (struct sockaddr *)&a, sizeof(a)) &&
	    errno != EINPROGRESS && errno != EAGAIN) {
		fail(why, wlen, "cannot connect to the QMP socket", -errno);
		goto out;
	}
	n = next_reply(&c, SHORT_MAX);
	if (n < 0) {
		fail(why, wlen, "no QMP greeting", (int)n);
		goto out;
	}
	/* Say nothing to a peer that is not QMP. */
	if (strncmp(c.buf, "{\"QMP\"", 6) && strncmp(c.buf, "{ \"QMP\"", 7)) {
		snprintf(why, wlen, "the socket did not greet as QMP");
		goto out;
	}
	consume(&c, (size_t)n);
	n = send_all(&c, "{\"execute\":\"qmp_capabilities\"}\n");
	if (!n)
		n = next_reply(&c, SHORT_MAX);
	if (n < 0) {
		fail(why, wlen, "qmp_capabilities", (int)n);
		goto out;
	}
	consume(&c, (size_t)n);
	n = send_all(&c, "{\"execute\":\"query-blockstats\"}\n");
	if (!n)
		n = next_reply(&c, STATS_MAX);
	if (n < 0) {
		fail(why, wlen, "query-blockstats", (int)n);
		goto out;
	}
	s->t_ns = clock_mono_ns();
	ok = top_blockstats_parse(c.buf, (size_t)n, s, why, wlen);
out:
	close(c.fd);
	free(c.buf);
	return ok;
}
