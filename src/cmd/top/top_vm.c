// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The host's side of top: which QEMU processes run, where their QMP
 * sockets are (from their command lines), and the per-disk rates from
 * two query-blockstats replies.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "top_report.h"
#include "top_vm.h"
#include "../advise/advise_qemu.h"
#include "../advise/advise_scan.h"
#include "../../util/term.h"
#include "../../util/xmem.h"

#define CHARDEVS_MAX 32

/* "-opt" or "--opt": the option's name, else NULL. */
static const char *opt_name(const char *a)
{
	if (a[0] != '-')
		return NULL;
	return a[1] == '-' ? a + 2 : a + 1;
}

/* The value of key @k in "a=1,k=v,..." into @out; false if absent. */
static bool kv_get(const char *s, const char *k, char *out, size_t len)
{
	size_t kl = strlen(k);

	while (*s) {
		const char *end = strchr(s, ',');
		size_t n = end ? (size_t)(end - s) : strlen(s);

		if (n > kl && !strncmp(s, k, kl) && s[kl] == '=') {
			snprintf(out, len, "%.*s", (int)(n - kl - 1),
				 s + kl + 1);
			return true;
		}
		if (!end)
			break;
		s = end + 1;
	}
	return false;
}

bool top_qmp_path(int argc, char *const *argv, char *path, size_t len)
{
	char ids[CHARDEVS_MAX][64], paths[CHARDEVS_MAX][108], mon[64];
	int nc = 0;

	for (int i = 0; i + 1 < argc; i++) {
		const char *o = opt_name(argv[i]), *v = argv[i + 1];

		if (!o)
			continue;
		if ((!strcmp(o, "qmp") || !strcmp(o, "qmp-pretty")) &&
		    !strncmp(v, "unix:", 5)) {
			size_t n = strcspn(v + 5, ",");

			if (n && n < len) {
				snprintf(path, len, "%.*s", (int)n, v + 5);
				return true;
			}
		}
		if (!strcmp(o, "chardev") && !strncmp(v, "socket,", 7) &&
		    nc < CHARDEVS_MAX &&
		    kv_get(v, "id", ids[nc], sizeof(ids[nc])) &&
		    kv_get(v, "path", paths[nc], sizeof(paths[nc])))
			nc++;
	}
	for (int i = 0; i + 1 < argc; i++) {
		const char *o = opt_name(argv[i]);
		char mode[32];

		if (!o || strcmp(o, "mon") ||
		    !kv_get(argv[i + 1], "chardev", mon, sizeof(mon)) ||
		    !kv_get(argv[i + 1], "mode", mode, sizeof(mode)) ||
		    strcmp(mode, "control"))
			continue;
		for (int j = 0; j < nc; j++)
			if (!strcmp(ids[j], mon) && strlen(paths[j]) < len) {
				snprintf(path, len, "%s", paths[j]);
				return true;
			}
	}
	return false;
}

bool top_vm_name(int argc, char *const *argv, char *name, size_t len)
{
	for (int i = 0; i + 1 < argc; i++) {
		const char *o = opt_name(argv[i]), *v = argv[i + 1];
		char buf[TOP_NAME_MAX];

		if (!o || strcmp(o, "name"))
			continue;
		if (!kv_get(v, "guest", buf, sizeof(buf)))
			snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(v, ","),
				 v);
		term_sanitize(name, len, buf, 0);
		return true;
	}
	return false;
}

/* A QEMU process: its name, owner and QMP socket into @vm. */
static bool read_vm(const char *root, const char *pid, struct top_vm *vm)
{
	size_t len = 0, argc = 0;
	char *buf = adv_read_cmdline(root, pid, &len), **argv, path[512];
	struct stat st;

	if (!buf || !len || !adv_qemu_is_program(buf)) {
		free(buf);
		return false;
	}
	for (size_t i = 0; i < len; i += strlen(buf + i) + 1)
		argc++;
	argv = xcalloc(argc + 1, sizeof(*argv));
	argc = 0;
	for (size_t i = 0; i < len; i += strlen(buf + i) + 1)
		argv[argc++] = buf + i;
	memset(vm, 0, sizeof(*vm));
	vm->pid = (pid_t)atol(pid);
	snprintf(path, sizeof(path), "%s/%s", root, pid);
	vm->uid = stat(path, &st) ? (uid_t)-1 : st.st_uid;
	if (!top_vm_name((int)argc - 1, argv + 1, vm->name, sizeof(vm->name)))
		snprintf(vm->name, sizeof(vm->name), "pid %s", pid);
	if (!top_qmp_path((int)argc - 1, argv + 1, vm->qmp, sizeof(vm->qmp)))
		snprintf(
			vm->why, sizeof(vm->why),
			"no QMP socket on its command line (libvirt keeps the monitor: virsh domblkstat)");
	top_vm_advise(vm->pid, (int)argc, argv, &vm->cfg, &vm->ncfg);
	free(argv);
	free(buf);
	return true;
}

void top_vms_scan(const char *proc_root, struct top_vm **vms, size_t *n)
{
	DIR *d = opendir(proc_root);
	struct dirent *e;

	for (size_t i = 0; i < *n; i++)
		(*vms)[i].seen = false;
	while (d && (e = readdir(d))) {
		char comm[64], path[512];
		struct top_vm vm;
		size_t i;
		int fd;
		ssize_t r;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		for (i = 0; i < *n; i++)
			if ((*vms)[i].pid == (pid_t)atol(e->d_name))
				break;
		if (i < *n) {
			(*vms)[i].seen = true;
			continue;
		}
		/* Only a process called qemu* or kvm is worth its cmdline. */
		snprintf(path, sizeof(path), "%s/%s/comm", proc_root,
			 e->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		r = read(fd, comm, sizeof(comm) - 1);
		close(fd);
		comm[r > 0 ? r : 0] = '\0';
		if (strncmp(comm, "qemu", 4) && strncmp(comm, "kvm", 3))
			continue;
		if (!read_vm(proc_root, e->d_name, &vm))
			continue;
		vm.seen = true;
		*vms = xrealloc(*vms, (*n + 1) * sizeof(**vms));
		(*vms)[(*n)++] = vm;
	}
	if (d)
		closedir(d);
	/* Drop what has gone, keep the order of the rest. */
	for (size_t i = 0, j = 0, m = *n; i < m; i++) {
		if ((*vms)[i].seen || (*vms)[i].lv_only) {
			(*vms)[j++] = (*vms)[i];
		} else {
			top_vm_release(&(*vms)[i]);
			(*n)--;
		}
	}
}

void top_vm_release(struct top_vm *vm)
{
	top_vmstats_free(&vm->prev);
	top_vmstats_free(&vm->cur);
	free(vm->cfg);
	vm->cfg = NULL;
	vm->ncfg = 0;
}

void top_vm_shift(struct top_vm *vm)
{
	top_vmstats_free(&vm->prev);
	vm->prev = vm->cur;
	vm->have_prev = vm->prev.d != NULL;
	vm->cur = (struct top_vmstats){ 0 };
	vm->why[0] = '\0';
}

void top_vms_sample(struct top_vm *vms, size_t n, unsigned timeout_ms)
{
	for (size_t i = 0; i < n; i++) {
		struct top_vm *vm = &vms[i];

		/* libvirt's VMs are top_lv_sample's. */
		if (!vm->qmp[0] || vm->libvirt)
			continue;
		top_vm_shift(vm);
		if (!top_qmp_blockstats(vm->qmp, vm->uid, timeout_ms, &vm->cur,
					vm->why, sizeof(vm->why)))
			vm->have_prev = false;
	}
}

void top_vms_free(struct top_vm *vms, size_t n)
{
	for (size_t i = 0; i < n; i++)
		top_vm_release(&vms[i]);
	free(vms);
}

static double per_s(uint64_t n, double s)
{
	return s > 0 ? (double)n / s : 0;
}

void top_vmrate_of(const struct top_vmdisk *prev, const struct top_vmdisk *cur,
		   double secs, struct top_vmrate *r)
{
	uint64_t ro, wo, fo;

	memset(r, 0, sizeof(*r));
	memcpy(r->name, cur->name, sizeof(r->name));
	r->state = TOP_NEW;
	if (!prev)
		return;
	/* QEMU's counters are 64-bit: going back means a new block node. */
	if (cur->rd_ops < prev->rd_ops || cur->wr_ops < prev->wr_ops ||
	    cur->fl_ops < prev->fl_ops || cur->rd_bytes < prev->rd_bytes ||
	    cur->wr_bytes < prev->wr_bytes || cur->rd_ns < prev->rd_ns ||
	    cur->wr_ns < prev->wr_ns || cur->fl_ns < prev->fl_ns) {
		r->state = TOP_RESET;
		return;
	}
	r->state = TOP_OK;
	ro = cur->rd_ops - prev->rd_ops;
	wo = cur->wr_ops - prev->wr_ops;
	fo = cur->fl_ops - prev->fl_ops;
	r->r_s = per_s(ro, secs);
	r->w_s = per_s(wo, secs);
	r->f_s = per_s(fo, secs);
	r->rmb_s = per_s(cur->rd_bytes - prev->rd_bytes, secs) / 1e6;
	r->wmb_s = per_s(cur->wr_bytes - prev->wr_bytes, secs) / 1e6;
	r->r_await_ms =
		ro ? (double)(cur->rd_ns - prev->rd_ns) / 1e6 / (double)ro : 0;
	r->w_await_ms =
		wo ? (double)(cur->wr_ns - prev->wr_ns) / 1e6 / (double)wo : 0;
	r->f_await_ms =
		fo ? (double)(cur->fl_ns - prev->fl_ns) / 1e6 / (double)fo : 0;
}

void top_vm_disk_rate(const struct top_vm *vm, size_t i, struct top_vmrate *r)
{
	const struct top_vmdisk *cur = &vm->cur.d[i], *prev = NULL;
	double secs = (double)(vm->cur.t_ns - vm->prev.t_ns) / 1e9;

	for (size_t j = 0; vm->have_prev && j < vm->prev.n && !prev; j++)
		if (!strcmp(vm->prev.d[j].name, cur->name))
			prev = &vm->prev.d[j];
	top_vmrate_of(prev, cur, secs, r);
	/* libvirt's older call counts no times and no flushes: unknown. */
	if (vm->cur.no_times || (prev && vm->prev.no_times))
		r->r_await_ms = r->w_await_ms = r->f_await_ms = NAN;
	if (vm->cur.no_flush || (prev && vm->prev.no_flush))
		r->f_s = r->f_await_ms = NAN;
}

const char *top_vm_source(const struct top_vm *vm)
{
	if (vm->libvirt)
		return "libvirt";
	return vm->qmp[0] ? "qmp" : NULL;
}
