// SPDX-License-Identifier: GPL-2.0-or-later
/* iolab's own test files, recognised by a mark, never by a guess. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "owned.h"

#define OWNED_STATE_MAX (64u << 10) /* the kept list read, at most */

/*
 * The mark names the inode and the size: a copy (cp --preserve=xattr) is
 * another inode, a file grown or cut since is another file, and so is
 * anyone else's file, as only its owner can set a user.* attribute and
 * we also ask for our own uid.
 */
static void mark_text(const struct stat *st, char *buf, size_t len)
{
	snprintf(buf, len, "iolab test file 1 dev=%llu ino=%llu size=%lld",
		 (unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
		 (long long)st->st_size);
}

static bool state_path(char *buf, size_t len, bool make)
{
	const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	char dir[4096];

	if (xdg && xdg[0] == '/')
		snprintf(dir, sizeof(dir), "%s/iolab", xdg);
	else if (home && home[0] == '/')
		snprintf(dir, sizeof(dir), "%s/.local/state/iolab", home);
	else
		return false;
	if (make) {
		char *p = dir;

		/* mkdir -p, each level 0700: the list is the user's own. */
		while ((p = strchr(p + 1, '/'))) {
			*p = '\0';
			if (mkdir(dir, 0700) && errno != EEXIST)
				return false;
			*p = '/';
		}
		if (mkdir(dir, 0700) && errno != EEXIST)
			return false;
	}
	return (size_t)snprintf(buf, len, "%s/kept", dir) < len;
}

static bool state_add(const char *text)
{
	char path[4200];
	int fd;
	bool ok;

	if (!state_path(path, sizeof(path), true))
		return false;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return false;
	ok = dprintf(fd, "%s\n", text) > 0;
	close(fd);
	return ok;
}

static bool state_has(const char *text)
{
	char path[4200], *buf, *line, *save;
	struct stat st;
	ssize_t n;
	bool found = false;
	int fd;

	if (!state_path(path, sizeof(path), false))
		return false;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	/* Only a list of our own is believed: ours, not writable by others. */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022)) {
		close(fd);
		return false;
	}
	buf = malloc(OWNED_STATE_MAX + 1);
	n = buf ? read(fd, buf, OWNED_STATE_MAX) : -1;
	close(fd);
	if (n < 0) {
		free(buf);
		return false;
	}
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save))
		found = !strcmp(line, text);
	free(buf);
	return found;
}

bool owned_mark(int fd, const struct stat *st, bool keep)
{
	char text[128];

	mark_text(st, text, sizeof(text));
	if (!fsetxattr(fd, OWNED_XATTR, text, strlen(text), 0))
		return true;
	return keep && state_add(text);
}

bool owned_check(int fd, const struct stat *st)
{
	char text[128], got[128], proc[64];
	ssize_t n;

	if (!S_ISREG(st->st_mode) || st->st_uid != geteuid() ||
	    st->st_nlink != 1)
		return false;
	mark_text(st, text, sizeof(text));
	/* Through /proc: fgetxattr refuses the O_PATH descriptor we hold. */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = getxattr(proc, OWNED_XATTR, got, sizeof(got) - 1);
	if (n >= 0) {
		got[n] = '\0';
		return !strcmp(got, text);
	}
	/* ENODATA: the filesystem has xattrs, so we would have set ours. */
	if (errno != ENOTSUP)
		return false;
	return state_has(text);
}
