/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the doctor_*.c files share: the reading context that notes every
 * file doctor needed but could not read, the collectors, and the helpers
 * that add findings. Not for use outside src/diag.
 */
#ifndef IOLAB_CMD_DOCTOR_DOCTOR_IMPL_H
#define IOLAB_CMD_DOCTOR_DOCTOR_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "doctor_diag.h"

struct dr_ctx {
	const struct fsview *v;
	struct doctor_report *r;
};

/*
 * Reads through the view. With @needed, a failure is listed in
 * r->unreadable (the file should exist on any Linux system of this kind);
 * otherwise absence is a fact, not a problem.
 */
ssize_t dr_read(struct dr_ctx *c, const char *path, char *buf, size_t len,
		bool needed);
/* A number, or DR_UNKNOWN. */
int64_t dr_num(struct dr_ctx *c, const char *path, bool needed);
/* A whole file (free it), or NULL. */
char *dr_slurp(struct dr_ctx *c, const char *path, bool needed);
void dr_note_unreadable(struct dr_ctx *c, const char *path, int errnum);

/*
 * Facts that are not files (CPUID, the process list, ...): on the live
 * system the caller measures and dr_fact_save() stores them in a capture
 * under FSV_FACTS; in a tree dr_fact() reads them back (NULL if absent).
 */
char *dr_fact(struct dr_ctx *c, const char *name);
void dr_fact_save(struct dr_ctx *c, const char *name, const char *text);
/* "key value" lines of a fact: the value of @key, or NULL. */
const char *dr_kv(const char *text, const char *key, char *buf, size_t len);

void dr_collect_system(struct dr_ctx *c);
void dr_collect_virt(struct dr_ctx *c);
void dr_collect_disks(struct dr_ctx *c, const struct doctor_opts *o);
/* A disk's bus, controller and kind, given what runs the system. */
void dr_classify_disk(struct dr_disk *d, const struct dr_virt *virt);
/*
 * After the disks: devices only a VM has (virtio, QEMU's) where CPUID and
 * DMI said bare metal, and the machine the fixes are for (virt->vmm).
 */
void dr_virt_devices(struct dr_ctx *c);
void dr_collect_mounts(struct dr_ctx *c);
void dr_collect_guest(struct dr_ctx *c);
/* Probe each disk (live), or read the probes a capture recorded (tree). */
bool dr_probe_disks(struct dr_ctx *c, const struct doctor_opts *o,
		    struct err *err);
void dr_replay_probes(struct dr_ctx *c);
/* --observe: the disks' counters over @ns, as findings (live only). */
bool dr_observe(struct doctor_report *r, uint64_t ns, bool progress,
		struct err *err);
/* The latency a disk of this class should stay under, and the bounds. */
void dr_class_bounds(enum dr_class cls, uint64_t *good_ns, uint64_t *warn_ns,
		     uint64_t *crit_ns);
enum dr_class dr_disk_class(const struct dr_disk *d);

/* @fstab, @cmdline: /etc/fstab and /proc/cmdline, or NULL. */
void dr_rules(struct doctor_report *r, const char *fstab, const char *cmdline);
void dr_rules_disk(struct doctor_report *r, struct dr_disk *d);

/* A new finding; @disk may be NULL. The message is formatted. */
struct dr_finding *dr_add(struct doctor_report *r, enum dr_sev sev,
			  const char *id, const char *disk, const char *fmt,
			  ...) __attribute__((format(printf, 5, 6)));
void dr_why(struct dr_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void dr_fix_summary(struct dr_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void dr_fix_cmd(struct dr_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void dr_fix_host(struct dr_finding *f, enum dr_host h, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void dr_fix_other(struct dr_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The setting the commands added since @first change: @key as in struct
 * dr_knob, @shown for people, @via the tuned profile that brings it ("" if
 * the finding names it itself).
 */
void dr_fix_knob(struct dr_finding *f, const char *key, const char *shown,
		 const char *via, size_t first);
/*
 * Merge the findings' fixes (doctor_merge.c): one value per setting, the
 * losers told why, r->fix_plan filled. After sort_findings().
 */
void dr_merge_fixes(struct doctor_report *r);

/* Distribution-specific command lines (doctor_fix.c). */
void dr_cmd_install(struct dr_finding *f, const struct dr_distro *d,
		    const char *pkg);
void dr_cmd_enable(struct dr_finding *f, const struct dr_distro *d,
		   const char *service);
/* Put the virtio drivers into the initramfs before a bus change. */
void dr_cmd_initramfs_virtio(struct dr_finding *f, const struct dr_distro *d);
/* Persist a /sys/block queue attribute for one disk with a udev rule. */
void dr_cmd_queue_attr(struct dr_finding *f, const struct dr_disk *d,
		       const char *attr, const char *value);
/* The knob key of a sysctl (struct dr_knob): pairs the kernel keeps as
   one limit share one. */
const char *dr_sysctl_key(const char *sysctl, char *buf, size_t len);
/* Set and persist a sysctl. */
void dr_cmd_sysctl(struct dr_finding *f, const char *key, const char *value);
/* The host-side steps to move a disk to a virtio bus (all four tools). */
void dr_host_virtio_bus(struct dr_finding *f, const struct doctor_report *r,
			const struct dr_disk *d);

#endif
