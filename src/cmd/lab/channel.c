// SPDX-License-Identifier: GPL-2.0-or-later
/* The guest-to-host message channel; see channel.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "channel.h"
#include "../../util/xmem.h"

void chan_parser_init(struct chan_parser *p)
{
	memset(p, 0, sizeof(*p));
}

void chan_parser_free(struct chan_parser *p)
{
	free(p->buf);
	free(p->data_ev.data);
	memset(p, 0, sizeof(*p));
}

void chan_feed(struct chan_parser *p, const char *data, size_t len)
{
	if (p->len + len + 1 > p->cap) {
		p->cap = (p->len + len + 1) * 2;
		p->buf = xrealloc(p->buf, p->cap);
	}
	memcpy(p->buf + p->len, data, len);
	p->len += len;
	p->buf[p->len] = '\0';
}

static void consume(struct chan_parser *p, size_t n)
{
	memmove(p->buf, p->buf + n, p->len - n);
	p->len -= n;
	p->buf[p->len] = '\0';
}

static bool parse_line(struct chan_parser *p, char *line, struct chan_event *ev)
{
	static const struct {
		const char *word;
		enum chan_type type;
	} words[] = {
		{ "HELLO", CHAN_HELLO },       { "LOG", CHAN_LOG },
		{ "START", CHAN_START },       { "DISK", CHAN_DISK },
		{ "PROGRESS", CHAN_PROGRESS }, { "DATA", CHAN_DATA },
		{ "FAIL", CHAN_FAIL },	       { "END", CHAN_END },
	};
	char *rest = NULL, *word = line + 6;
	size_t wl;

	if (strncmp(line, "IOLAB-", 6))
		return false;
	wl = strcspn(word, " ");
	rest = word[wl] ? word + wl + 1 : word + wl;
	memset(ev, 0, sizeof(*ev));
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (strlen(words[i].word) != wl ||
		    strncmp(word, words[i].word, wl))
			continue;
		ev->type = words[i].type;
		switch (ev->type) {
		case CHAN_HELLO:
			if (sscanf(rest, "%llu %500s", &ev->n1, ev->text) < 1)
				return false;
			return true;
		case CHAN_START:
			return sscanf(rest, "%llu", &ev->n1) == 1;
		case CHAN_DISK:
			return sscanf(rest, "%500s %llu %31s", ev->text,
				      &ev->n1, ev->serial) >= 2;
		case CHAN_PROGRESS: {
			int off = 0;

			if (sscanf(rest, "%llu %llu %n", &ev->n1, &ev->n2,
				   &off) < 2)
				return false;
			snprintf(ev->text, sizeof(ev->text), "%s", rest + off);
			return true;
		}
		case CHAN_DATA: {
			unsigned long long len;

			if (sscanf(rest, "%15s %d %llu", ev->kind, &ev->code,
				   &len) != 3 ||
			    len > CHAN_MAX_DATA)
				return false;
			ev->len = (size_t)len;
			p->in_data = true;
			p->data_ev = *ev;
			return false; /* complete once the bytes are in */
		}
		default:
			snprintf(ev->text, sizeof(ev->text), "%s", rest);
			return true;
		}
	}
	return false;
}

bool chan_next(struct chan_parser *p, struct chan_event *ev)
{
	for (;;) {
		char *nl;

		if (p->in_data) {
			size_t need = p->data_ev.len;

			/* The bytes, then the newline after them. */
			if (p->len < need + 1)
				return false;
			*ev = p->data_ev;
			ev->data = xmalloc(need + 1);
			memcpy(ev->data, p->buf, need);
			ev->data[need] = '\0';
			consume(p, need + (p->buf[need] == '\n' ? 1 : 0));
			p->in_data = false;
			memset(&p->data_ev, 0, sizeof(p->data_ev));
			return true;
		}
		nl = p->len ? memchr(p->buf, '\n', p->len) : NULL;
		if (!nl)
			return false;
		*nl = '\0';
		if (nl > p->buf && nl[-1] == '\r')
			nl[-1] = '\0';
		{
			size_t n = (size_t)(nl - p->buf) + 1;
			bool got = parse_line(p, p->buf, ev);

			consume(p, n);
			if (got)
				return true;
		}
	}
}

static bool write_all(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t w = write(fd, s, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		s += w;
		len -= (size_t)w;
	}
	return true;
}

bool chan_send(int fd, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	memcpy(line, "IOLAB-", 6);
	va_start(ap, fmt);
	n = vsnprintf(line + 6, sizeof(line) - 7, fmt, ap);
	va_end(ap);
	if (n < 0)
		return false;
	n += 6;
	if ((size_t)n > sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	/* A message is one line: newlines inside it become spaces. */
	for (int i = 6; i < n; i++)
		if (line[i] == '\n' || line[i] == '\r')
			line[i] = ' ';
	line[n++] = '\n';
	return write_all(fd, line, (size_t)n);
}

bool chan_send_data(int fd, const char *kind, int code, const char *data,
		    size_t len)
{
	return chan_send(fd, "DATA %s %d %zu", kind, code, len) &&
	       write_all(fd, data, len) && write_all(fd, "\n", 1);
}
