// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --listen: GET /metrics over HTTP through libmicrohttpd, in its own
 * polling thread, so a probe stuck in a read never delays a scrape. Bound
 * to loopback unless an address is given; a handful of connections with
 * short timeouts and a small memory budget, since anyone who can reach
 * the port can open one; only GET and HEAD.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "probe_impl.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

/* "HOST:PORT", "[V6]:PORT", ":PORT" or "PORT" (loopback); numeric only. */
static bool parse_addr(const char *s, struct sockaddr_storage *ss,
		       struct err *err)
{
	struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
	char host[64] = "127.0.0.1";
	const char *port = s, *colon = strrchr(s, ':');
	unsigned long n;
	char *end;

	memset(ss, 0, sizeof(*ss));
	if (colon) {
		size_t hl = (size_t)(colon - s);

		if (hl && s[0] == '[' && s[hl - 1] == ']') {
			s++;
			hl -= 2;
		}
		if (hl >= sizeof(host))
			goto bad;
		if (hl) {
			memcpy(host, s, hl);
			host[hl] = '\0';
		}
		port = colon + 1;
	}
	errno = 0;
	n = strtoul(port, &end, 10);
	if (!*port || *end || errno || n > 65535)
		goto bad;
	if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons((uint16_t)n);
		return true;
	}
	if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons((uint16_t)n);
		return true;
	}
bad:
	return err_set(
		err, EXIT_USAGE, 0,
		"--listen %s: give ADDR:PORT with a numeric address (127.0.0.1:9810, [::1]:9810) or :PORT for loopback",
		s);
}

#if HAVE_MICROHTTPD
#include <microhttpd.h>

struct probe_http {
	struct MHD_Daemon *d;
	unsigned port;
};

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status,
			     const char *text)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(
		strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result rc;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", "text/plain; charset=utf-8");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, "Allow", "GET, HEAD");
	rc = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c,
			      const char *url, const char *method,
			      const char *version, const char *upload,
			      size_t *upload_len, void **req)
{
	struct MHD_Response *r;
	enum MHD_Result rc;
	size_t len = 0;
	char *body;

	(void)version;
	(void)upload;
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED,
			     "only GET and HEAD\n");
	/* A body on a GET is not read: answer on the first call. */
	*upload_len = 0;
	(void)req;
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND,
			     "iolab probe: the metrics are at /metrics\n");
	body = probe_render_buf(cls, &len);
	if (!body)
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR,
			     "out of memory\n");
	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type",
				"text/plain; version=0.0.4; charset=utf-8");
	rc = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return rc;
}

struct probe_http *probe_http_start(struct probe *p, const char *addr,
				    struct err *err)
{
	struct sockaddr_storage ss;
	const union MHD_DaemonInfo *info;
	struct probe_http *h;
	sigset_t all, old;

	if (!parse_addr(addr, &ss, err))
		return NULL;
	h = xcalloc(1, sizeof(*h));
	/* The server's thread inherits this mask: signals go to main. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	h->d = MHD_start_daemon(
		MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO |
			(ss.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
		0, NULL, NULL, handle, p, MHD_OPTION_SOCK_ADDR,
		(struct sockaddr *)&ss, MHD_OPTION_CONNECTION_LIMIT,
		(unsigned)16, MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)8,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)10,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768,
		MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!h->d) {
		free(h);
		err_set(err, EXIT_ENV, errno,
			"cannot listen on %s: %s; pick a free port or address",
			addr, errno ? strerror(errno) : "libmicrohttpd failed");
		return NULL;
	}
	info = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
	h->port = info ? info->port : 0;
	return h;
}

unsigned probe_http_port(const struct probe_http *h)
{
	return h->port;
}

void probe_http_stop(struct probe_http *h)
{
	if (!h)
		return;
	MHD_stop_daemon(h->d);
	free(h);
}

#else /* !HAVE_MICROHTTPD */

struct probe_http *probe_http_start(struct probe *p, const char *addr,
				    struct err *err)
{
	struct sockaddr_storage ss;

	(void)p;
	if (parse_addr(addr, &ss, err))
		err_set(err, EXIT_ENV, 0,
			"--listen: this iolab was built without libmicrohttpd; use --textfile, or rebuild with libmicrohttpd-dev installed");
	return NULL;
}

unsigned probe_http_port(const struct probe_http *h)
{
	(void)h;
	return 0;
}

void probe_http_stop(struct probe_http *h)
{
	(void)h;
}

#endif
