// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The guest's side of the hypervisor: the QEMU guest agent's port and
 * process (reference/qemu.md 5.3), the virtio drivers of the running
 * kernel, io_uring and AIO limits, dirty-page limits and tuned.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doctor_impl.h"
#include "../../util/fsread.h"

#define AGENT_PORT "org.qemu.guest_agent.0"
#define PF_KTHREAD_FLAG 0x00200000u

static const struct {
	const char *name;
	const char *dir; /* under /lib/modules/R/kernel/ */
} modules[DR_NMODS] = {
	{ "virtio_pci", "drivers/virtio" },
	{ "virtio_blk", "drivers/block" },
	{ "virtio_scsi", "drivers/scsi" },
	{ "virtio_console", "drivers/char" },
	{ "nvme", "drivers/nvme/host" },
};

static void agent_port(struct dr_ctx *c, struct dr_guest *g)
{
	char **names, path[PATH_MAX], name[128];
	int n;

	if (fsv_exists(c->v, "/dev/virtio-ports/" AGENT_PORT)) {
		g->agent_port = true;
		snprintf(g->agent_port_path, sizeof(g->agent_port_path),
			 "/dev/virtio-ports/" AGENT_PORT);
		return;
	}
	/* Without udev there is no /dev/virtio-ports link; sysfs has it. */
	n = fsv_list(c->v, "/sys/class/virtio-ports", "", &names);
	for (int i = 0; i < n && !g->agent_port; i++) {
		snprintf(path, sizeof(path), "/sys/class/virtio-ports/%s/name",
			 names[i]);
		if (dr_read(c, path, name, sizeof(name), false) > 0 &&
		    !strcmp(name, AGENT_PORT)) {
			g->agent_port = true;
			snprintf(g->agent_port_path, sizeof(g->agent_port_path),
				 "/dev/%s", names[i]);
		}
	}
	fsv_list_free(names);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Distinct names of user-space processes, one per line, sorted. */
static char *procs_live(void)
{
	struct strv names = { 0 };
	size_t total = 1, off = 0;
	struct dirent *de;
	char *out;
	DIR *d = opendir("/proc");

	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		char path[64], stat[1024], *open_p, *close_p;
		unsigned int flags = 0;
		ssize_t n;
		int fd;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, stat, sizeof(stat) - 1);
		close(fd);
		if (n <= 0)
			continue;
		stat[n] = '\0';
		open_p = strchr(stat, '(');
		close_p = strrchr(stat, ')');
		if (!open_p || !close_p || close_p < open_p)
			continue;
		/* fields after comm: state ppid pgrp session tty tpgid flags */
		if (sscanf(close_p + 1, " %*c %*d %*d %*d %*d %*d %u",
			   &flags) != 1 ||
		    (flags & PF_KTHREAD_FLAG))
			continue;
		*close_p = '\0';
		for (char *p = open_p + 1; *p; p++)
			if (*p == '\n' || !isprint((unsigned char)*p))
				*p = '?';
		strv_add_unique(&names, open_p + 1);
	}
	closedir(d);
	for (size_t i = 0; i < names.n; i++)
		total += strlen(names.v[i]) + 1;
	qsort(names.v, names.n, sizeof(*names.v), cmp_str);
	out = malloc(total);
	if (out) {
		for (size_t i = 0; i < names.n; i++)
			off += (size_t)sprintf(out + off, "%s\n", names.v[i]);
		out[off] = '\0';
	}
	strv_free(&names);
	return out;
}

static void processes(struct dr_ctx *c, struct dr_guest *g)
{
	char *text;

	if (fsv_live(c->v)) {
		text = procs_live();
		if (text)
			dr_fact_save(c, "processes", text);
	} else {
		text = dr_fact(c, "processes");
	}
	if (!text)
		return;
	g->procs_known = true;
	for (char *p = text; *p;) {
		char *eol = strchrnul(p, '\n'), save = *eol;

		*eol = '\0';
		if (*p)
			strv_add_unique(&g->procs, p);
		*eol = save;
		p = *eol ? eol + 1 : eol;
	}
	free(text);
}

static bool builtin_listed(const char *builtin, const char *name)
{
	char needle[64];

	snprintf(needle, sizeof(needle), "/%s.ko\n", name);
	return builtin && strstr(builtin, needle);
}

static void kernel_modules(struct dr_ctx *c, struct dr_guest *g)
{
	const char *rel = c->r->sys.kernel;
	static const char *const ext[] = { "", ".xz", ".zst", ".gz" };
	char path[PATH_MAX], *builtin = NULL;
	bool have_dir = false;

	if (rel[0]) {
		snprintf(path, sizeof(path), "/lib/modules/%s", rel);
		have_dir = fsv_is_dir(c->v, path);
		snprintf(path, sizeof(path), "/lib/modules/%s/modules.builtin",
			 rel);
		if (have_dir)
			builtin = dr_slurp(c, path, false);
	}
	for (int i = 0; i < DR_NMODS; i++) {
		struct dr_module *m = &g->mods[i];

		m->name = modules[i].name;
		m->state = DR_MOD_UNKNOWN;
		snprintf(path, sizeof(path), "/sys/module/%s", m->name);
		if (fsv_is_dir(c->v, path)) {
			/* Loadable modules have initstate; built-ins not. */
			snprintf(path, sizeof(path), "/sys/module/%s/initstate",
				 m->name);
			m->state = fsv_exists(c->v, path) ? DR_MOD_LOADED :
							    DR_MOD_BUILTIN;
			continue;
		}
		if (builtin_listed(builtin, m->name)) {
			m->state = DR_MOD_BUILTIN;
			continue;
		}
		if (!have_dir)
			continue;
		m->state = DR_MOD_MISSING;
		for (size_t e = 0; e < sizeof(ext) / sizeof(ext[0]); e++) {
			snprintf(path, sizeof(path),
				 "/lib/modules/%s/kernel/%s/%s.ko%s", rel,
				 modules[i].dir, m->name, ext[e]);
			if (fsv_exists(c->v, path)) {
				m->state = DR_MOD_AVAILABLE;
				break;
			}
		}
	}
	free(builtin);
}

static void sysctls(struct dr_ctx *c, struct dr_guest *g)
{
	g->io_uring_disabled =
		dr_num(c, "/proc/sys/kernel/io_uring_disabled", false);
	g->aio_max_nr = dr_num(c, "/proc/sys/fs/aio-max-nr", true);
	g->aio_nr = dr_num(c, "/proc/sys/fs/aio-nr", true);
	g->dirty_ratio = dr_num(c, "/proc/sys/vm/dirty_ratio", true);
	g->dirty_background_ratio =
		dr_num(c, "/proc/sys/vm/dirty_background_ratio", true);
	g->dirty_bytes = dr_num(c, "/proc/sys/vm/dirty_bytes", true);
	g->dirty_background_bytes =
		dr_num(c, "/proc/sys/vm/dirty_background_bytes", true);
	g->dirty_expire_cs =
		dr_num(c, "/proc/sys/vm/dirty_expire_centisecs", true);
	g->swappiness = dr_num(c, "/proc/sys/vm/swappiness", true);
}

void dr_collect_guest(struct dr_ctx *c)
{
	static const char *const agent_bins[] = { "/usr/bin/qemu-ga",
						  "/usr/sbin/qemu-ga",
						  "/usr/local/bin/qemu-ga" };
	struct dr_guest *g = &c->r->guest;

	agent_port(c, g);
	processes(c, g);
	g->agent_running = g->procs_known ? strv_has(&g->procs, "qemu-ga") :
					    DR_UNKNOWN;
	for (size_t i = 0; i < sizeof(agent_bins) / sizeof(agent_bins[0]); i++)
		if (fsv_exists(c->v, agent_bins[i]))
			g->agent_installed = 1;
	kernel_modules(c, g);
	sysctls(c, g);
	if (dr_read(c, "/etc/tuned/active_profile", g->tuned_profile,
		    sizeof(g->tuned_profile), false) >= 0)
		g->tuned_installed = true;
	if (fsv_exists(c->v, "/usr/sbin/tuned") ||
	    fsv_exists(c->v, "/usr/bin/tuned"))
		g->tuned_installed = true;
}
