// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading untrusted input files with limits; see infile.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "infile.h"
#include "xmem.h"

const char *infile_limit_text(size_t max, char *buf, size_t len)
{
	if (max >= (1u << 20) && !(max % (1u << 20)))
		snprintf(buf, len, "%zu MiB", max >> 20);
	else if (max >= 1024 && !(max % 1024))
		snprintf(buf, len, "%zu KiB", max >> 10);
	else
		snprintf(buf, len, "%zu bytes", max);
	return buf;
}

char *infile_read(const char *path, const char *what, size_t max, size_t *len,
		  struct err *err)
{
	bool is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "standard input" : path;
	char lim[32], *buf;
	struct stat st;
	size_t n = 0, cap;
	int fd;

	infile_limit_text(max, lim, sizeof(lim));
	/* O_NONBLOCK: a FIFO must not hang the open; it is refused below. */
	fd = is_stdin ?
		     STDIN_FILENO :
		     open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		err_set(err, EXIT_ENV, errno, "cannot read %s %s: %s", what,
			path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st)) {
		err_set(err, EXIT_ENV, errno, "cannot read %s %s: %s", what,
			name, strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		err_set(err, EXIT_ENV, EISDIR,
			"%s %s is a directory; give the file itself", what,
			name);
		goto fail;
	}
	if (!is_stdin && !S_ISREG(st.st_mode)) {
		err_set(err, EXIT_ENV, 0,
			"%s %s is not a regular file; give a file (or - for standard input)",
			what, name);
		goto fail;
	}
	if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max) {
		err_set(err, EXIT_ENV, EFBIG,
			"%s %s is larger than %s, the limit for this input; give the file itself",
			what, name, lim);
		goto fail;
	}
	if (!is_stdin) {
		int fl = fcntl(fd, F_GETFL);

		if (fl >= 0)
			fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	}
	/* Room for the file as it is now; a file that grows or a pipe
	   gets more, never beyond the limit. */
	cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536;
	if (cap > max + 1)
		cap = max + 1;
	buf = xmalloc(cap + 1);
	for (;;) {
		ssize_t got;

		if (n == cap) {
			cap = cap > (max + 1) / 2 ? max + 1 : 2 * cap;
			buf = xrealloc(buf, cap + 1);
		}
		got = read(fd, buf + n, cap - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err_set(err, EXIT_ENV, errno, "cannot read %s %s: %s",
				what, name, strerror(errno));
			free(buf);
			goto fail;
		}
		if (!got)
			break;
		n += (size_t)got;
		if (n > max) {
			err_set(err, EXIT_ENV, EFBIG,
				"%s %s is larger than %s, the limit for this input; give the file itself",
				what, name, lim);
			free(buf);
			goto fail;
		}
	}
	if (!is_stdin)
		close(fd);
	if (!n) {
		free(buf);
		err_set(err, EXIT_ENV, 0,
			"%s %s is empty; give a file with content", what, name);
		return NULL;
	}
	if (memchr(buf, '\0', n)) {
		free(buf);
		err_set(err, EXIT_ENV, 0,
			"%s %s holds NUL bytes: binary data, not a text file; give the text file itself",
			what, name);
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
fail:
	if (!is_stdin)
		close(fd);
	return NULL;
}
