/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `iolab top --vms`, on a host: each running QEMU's disks as QEMU itself
 * counts them (query-blockstats over the VM's QMP socket). Only two QMP
 * commands are sent, qmp_capabilities and query-blockstats, both
 * read-only, and only to a socket that greeted us as QMP and that belongs
 * to the QEMU process's own user.
 */
#ifndef IOLAB_CMD_TOP_TOP_VM_H
#define IOLAB_CMD_TOP_TOP_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "top_stats.h"

/* One block device of a VM, QEMU's cumulative counters. */
struct top_vmdisk {
	char name[TOP_NAME_MAX]; /* the drive id, else the device's qdev id */
	uint64_t rd_ops, wr_ops, fl_ops;
	uint64_t rd_bytes, wr_bytes;
	uint64_t rd_ns, wr_ns, fl_ns; /* total time of the operations */
};

struct top_vmstats {
	uint64_t t_ns;
	size_t n;
	struct top_vmdisk *d;
	/* libvirt's older call (its test driver's) has no times, no flushes. */
	bool no_times, no_flush;
};

/* advise's reading of one disk of the VM's command line. */
struct top_vmcfg {
	char id[TOP_NAME_MAX];
	char setting[160]; /* "virtio-blk, cache=none, aio=native" */
	char findings[240]; /* "warning cache-writeback, info aio-threads" */
};

struct top_vm {
	pid_t pid;
	uid_t uid; /* the process's owner: its socket must be this user's */
	char name[TOP_NAME_MAX]; /* -name, escaped; "pid N" without one */
	char qmp[108]; /* the QMP socket's path, "" if none found */
	char why[200]; /* why there are no figures this sample, or "" */
	bool have_prev, seen;
	/* Figures from libvirt (top_libvirt.c): its monitor is libvirtd's. */
	bool libvirt;
	/* A domain of the connection with no QEMU process here (pid 0). */
	bool lv_only;
	char lvdom[TOP_NAME_MAX]; /* the domain's name, as libvirt has it */
	struct top_vmcfg *cfg; /* advise's view, by disk */
	size_t ncfg;
	struct top_vmstats prev, cur;
};

struct top_vmrate {
	char name[TOP_NAME_MAX];
	enum top_state state;
	double r_s, w_s, f_s, rmb_s, wmb_s;
	double r_await_ms, w_await_ms, f_await_ms;
};

/*
 * The QMP socket of a QEMU command line (@argv without the program):
 * "-qmp unix:PATH", or "-chardev socket,id=X,path=PATH" with
 * "-mon chardev=X,mode=control". False when there is none (libvirt hands
 * QEMU an already open descriptor and keeps the monitor).
 */
bool top_qmp_path(int argc, char *const *argv, char *path, size_t len);
/* The VM's name from -name ("guest=NAME,..." or "NAME,..."), escaped. */
bool top_vm_name(int argc, char *const *argv, char *name, size_t len);
/* query-blockstats' reply into @s (its disks freed with top_vmstats_free). */
bool top_blockstats_parse(const char *text, size_t len, struct top_vmstats *s,
			  char *why, size_t wlen);
/*
 * Ask the QMP socket at @path for the block statistics, within @timeout_ms.
 * Refuses a path that is not a socket of user @owner.
 */
bool top_qmp_blockstats(const char *path, uid_t owner, unsigned timeout_ms,
			struct top_vmstats *s, char *why, size_t wlen);
void top_vmstats_free(struct top_vmstats *s);

/*
 * Find the running QEMU processes under @proc_root and merge them into
 * *@vms (kept across samples: a VM that is gone is dropped; the
 * libvirt-only ones are top_lv_scan's to keep or drop).
 */
void top_vms_scan(const char *proc_root, struct top_vm **vms, size_t *n);
/* Query each VM; its previous figures kept for the rates. */
void top_vms_sample(struct top_vm *vms, size_t n, unsigned timeout_ms);
void top_vms_free(struct top_vm *vms, size_t n);
/* Free one VM's figures and advise's view of it. */
void top_vm_release(struct top_vm *vm);
/* The last figures become the previous ones, before a new query. */
void top_vm_shift(struct top_vm *vm);
/* advise's view of the command line @argv (with the program) of @pid. */
void top_vm_advise(pid_t pid, int argc, char *const *argv,
		   struct top_vmcfg **cfg, size_t *n);
/* advise's view of a libvirt domain XML (@len bytes) named @dom. */
void top_vm_advise_xml(const char *dom, const char *xml, size_t len,
		       struct top_vmcfg **cfg, size_t *n);
/* The disk of advise's view that QMP calls @name, or NULL. */
const struct top_vmcfg *top_vm_cfg_for(const struct top_vm *vm,
				       const char *name);
void top_vmrate_of(const struct top_vmdisk *prev, const struct top_vmdisk *cur,
		   double secs, struct top_vmrate *r);

#endif
