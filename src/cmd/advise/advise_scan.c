// SPDX-License-Identifier: GPL-2.0-or-later
/* Running QEMU processes; see advise_scan.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "advise_qemu.h"
#include "advise_scan.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

/* libvirt command lines with JSON -blockdev run to tens of KiB. */
#define CMDLINE_MAX (4u << 20)

char *adv_read_cmdline(const char *root, const char *pid, size_t *len)
{
	char path[512], *buf;
	size_t n = 0;
	ssize_t got;
	int fd;

	snprintf(path, sizeof(path), "%s/%s/cmdline", root, pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = xmalloc(CMDLINE_MAX + 1);
	while (n < CMDLINE_MAX &&
	       (got = read(fd, buf + n, CMDLINE_MAX - n)) > 0)
		n += (size_t)got;
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static bool scan_one(struct adv_report *r, const struct adv_ctx *ctx,
		     const char *pid, size_t *found)
{
	size_t len = 0, argc = 0;
	char *buf = adv_read_cmdline(ctx->proc_root, pid, &len);
	char **argv, **where, origin[64], hint[64], cwd[600];
	struct adv_ctx pctx = *ctx;
	struct err err = { 0 };

	if (!buf || !len || !adv_qemu_is_program(buf)) {
		free(buf);
		return true;
	}
	for (size_t i = 0; i < len; i++)
		argc += buf[i] == '\0';
	if (buf[len - 1] != '\0')
		argc++;
	argv = xcalloc(argc + 1, sizeof(char *));
	where = xcalloc(argc + 1, sizeof(char *));
	argc = 0;
	for (size_t i = 0; i < len; i += strlen(buf + i) + 1) {
		argv[argc] = buf + i;
		where[argc] = xasprintf("pid %s argv[%zu]", pid, argc);
		argc++;
	}
	snprintf(origin, sizeof(origin), "process:%s", pid);
	snprintf(hint, sizeof(hint), "pid %s", pid);
	/* The process's relative paths are relative to its own cwd. */
	snprintf(cwd, sizeof(cwd), "%s/%s/cwd", ctx->proc_root, pid);
	pctx.cwd = cwd;
	if (adv_qemu_read_argv(r, ADV_SRC_PROCESS, origin, hint, (int)argc - 1,
			       argv + 1, where + 1, false, &pctx, &err))
		(*found)++;
	else
		warn_add(&r->warnings, "advise-process-unreadable",
			 "process %s: %s", pid, err.msg);
	for (size_t i = 0; i < argc; i++)
		free(where[i]);
	free(where);
	free(argv);
	free(buf);
	return true;
}

static int cmp_pid(const void *a, const void *b)
{
	long x = atol(*(char *const *)a), y = atol(*(char *const *)b);

	return (x > y) - (x < y);
}

bool adv_scan_processes(struct adv_report *r, const struct adv_ctx *ctx,
			size_t *found, struct err *err)
{
	DIR *d = opendir(ctx->proc_root);
	struct dirent *e;
	char **pids = NULL;
	size_t n = 0;

	*found = 0;
	if (!d)
		return err_set(err, EXIT_ENV, errno,
			       "cannot list %s to find QEMU processes: %s",
			       ctx->proc_root, strerror(errno));
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pids = xrealloc(pids, (n + 1) * sizeof(*pids));
		pids[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	/* Ascending pid order: stable output from run to run. */
	qsort(pids, n, sizeof(*pids), cmp_pid);
	for (size_t i = 0; i < n; i++) {
		scan_one(r, ctx, pids[i], found);
		free(pids[i]);
	}
	free(pids);
	return true;
}
