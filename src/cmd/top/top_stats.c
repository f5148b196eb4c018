// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading /proc/diskstats: bounded, and defensive about every line. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "top_stats.h"
#include "../../util/clock.h"
#include "../../util/err.h"
#include "../../util/term.h"
#include "../../util/xmem.h"

/* Next white-space separated word of [*p, end); false at the line's end. */
static bool word(const char **p, const char *end, const char **w, size_t *n)
{
	const char *s = *p;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s >= end)
		return false;
	*w = s;
	while (s < end && *s != ' ' && *s != '\t')
		s++;
	*n = (size_t)(s - *w);
	*p = s;
	return true;
}

static bool number(const char *w, size_t n, uint64_t *v)
{
	uint64_t x = 0;

	if (!n || n > 20)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned dig;

		if (w[i] < '0' || w[i] > '9')
			return false;
		dig = (unsigned)(w[i] - '0');
		if (x > (UINT64_MAX - dig) / 10)
			return false;
		x = x * 10 + dig;
	}
	*v = x;
	return true;
}

static bool parse_line(const char *p, const char *end, struct top_dev *d)
{
	const char *w;
	size_t n;
	uint64_t v;
	char raw[TOP_NAME_MAX];

	memset(d, 0, sizeof(*d));
	if (!word(&p, end, &w, &n) || !number(w, n, &v) || v > 0xfffff)
		return false;
	d->major = (unsigned)v;
	if (!word(&p, end, &w, &n) || !number(w, n, &v) || v > 0xfffff)
		return false;
	d->minor = (unsigned)v;
	if (!word(&p, end, &w, &n) || n >= sizeof(raw))
		return false;
	memcpy(raw, w, n);
	raw[n] = '\0';
	if (strlen(raw) != n) /* a NUL inside the name */
		return false;
	d->name_clean = !term_unsafe(raw, 0) && !strchr(raw, '/') &&
			strcmp(raw, ".") && strcmp(raw, "..");
	term_sanitize(d->name, sizeof(d->name), raw, 0);
	while (d->nfields < TF_COUNT && word(&p, end, &w, &n)) {
		if (!number(w, n, &d->f[d->nfields]))
			return false;
		d->nfields++;
	}
	/* Before 2.6.25 partitions had 4 fields; every kernel since has 11+. */
	if (d->nfields < TF_RQ_TICKS + 1)
		return false;
	/* Only the three layouts the kernel ever printed. */
	if (d->nfields > 11 && d->nfields < 15)
		d->nfields = 11;
	else if (d->nfields == 16)
		d->nfields = 15;
	return true;
}

void top_parse(const char *buf, size_t len, struct top_snap *s)
{
	const char *p = buf, *end = buf + len;
	size_t cap = 0;

	s->n = 0;
	s->devs = NULL;
	s->truncated = false;
	s->skipped = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		struct top_dev d;

		if (le > p) {
			if (!parse_line(p, le, &d)) {
				s->skipped++;
			} else if (s->n >= TOP_DEVS_MAX) {
				s->truncated = true;
				break;
			} else {
				if (s->n == cap) {
					cap = cap ? cap * 2 : 32;
					s->devs = xrealloc(s->devs,
							   cap * sizeof(d));
				}
				s->devs[s->n++] = d;
			}
		}
		p = nl ? nl + 1 : end;
	}
}

bool top_read(const char *path, struct top_snap *s, struct err *err)
{
	char *buf = xmalloc(TOP_READ_MAX + 1);
	size_t len = 0;
	bool more = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0) {
		free(buf);
		return err_set(err, EXIT_ENV, errno,
			       "cannot read %s: %s; top needs procfs mounted",
			       path, strerror(errno));
	}
	for (;;) {
		ssize_t r = read(fd, buf + len, TOP_READ_MAX + 1 - len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			close(fd);
			free(buf);
			return err_set(err, EXIT_ENV, e, "cannot read %s: %s",
				       path, strerror(e));
		}
		if (!r)
			break;
		len += (size_t)r;
		if (len > TOP_READ_MAX) {
			more = true;
			len = TOP_READ_MAX;
			break;
		}
	}
	s->t_ns = clock_mono_ns();
	close(fd);
	/* A cut line at the bound is not a device. */
	if (more) {
		while (len && buf[len - 1] != '\n')
			len--;
	}
	top_parse(buf, len, s);
	s->truncated |= more;
	free(buf);
	return true;
}

void top_snap_free(struct top_snap *s)
{
	free(s->devs);
	s->devs = NULL;
	s->n = 0;
}

const struct top_dev *top_find_near(const struct top_snap *s, const char *name,
				    size_t hint)
{
	if (hint < s->n && !strcmp(s->devs[hint].name, name))
		return &s->devs[hint];
	return top_find(s, name);
}

const struct top_dev *top_find(const struct top_snap *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->devs[i].name, name))
			return &s->devs[i];
	return NULL;
}
