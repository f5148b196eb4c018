// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --probe: a short read-only QD1 random 4 KiB read run per disk through the
 * measuring core (O_DIRECT, the sync engine: one pread at a time, as a
 * database's single-block read), judged against what that kind of disk
 * does. The device is opened read-only; nothing is ever written.
 *
 * A capture keeps each result as the fact probe/<disk>, and the live
 * report is built from that same text, so a replay shows the same figures.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doctor_impl.h"
#include "../../core/job.h"
#include "../../core/runner.h"
#include "../../core/target.h"
#include "../../util/err.h"
#include "../../util/fsread.h"
#include "../../util/sig.h"

#define PROBE_RAMP_NS 200000000ull /* settle queues and caches first */

void dr_class_bounds(enum dr_class cls, uint64_t *good_ns, uint64_t *warn_ns,
		     uint64_t *crit_ns)
{
	/*
	 * Median 4 KiB random read at QD1. NVMe: tens of us; SATA SSD: ~100
	 * us; a 7200 rpm disk: 4 ms rotation + seek, 8-12 ms. A virtual disk
	 * on SSD-backed storage answers well under 1 ms; HDD-backed storage
	 * around 10 ms; beyond that no real disk is that slow.
	 */
	static const uint64_t b[][3] = {
		[DR_CLASS_VIRTUAL] = { 1000000, 2000000, 10000000 },
		[DR_CLASS_NVME] = { 200000, 1000000, 5000000 },
		[DR_CLASS_SSD] = { 500000, 2000000, 10000000 },
		[DR_CLASS_HDD] = { 15000000, 25000000, 50000000 },
	};

	*good_ns = b[cls][0];
	*warn_ns = b[cls][1];
	*crit_ns = b[cls][2];
}

enum dr_class dr_disk_class(const struct dr_disk *d)
{
	if (d->kind != DR_KIND_NATIVE)
		return DR_CLASS_VIRTUAL;
	if (!strcmp(d->bus, "nvme"))
		return DR_CLASS_NVME;
	if (d->bi.rotational == 0)
		return DR_CLASS_SSD;
	if (d->bi.rotational == 1)
		return DR_CLASS_HDD;
	return DR_CLASS_VIRTUAL;
}

/* The fact text <-> struct dr_probe. */
static void probe_format(const struct dr_probe *p, char *out, size_t len)
{
	snprintf(out, len,
		 "engine %s\nbs %llu\nios %llu\nerrors %llu\nruntime_s %.6f\n"
		 "iops %.3f\nmean_ns %.1f\nmin_ns %llu\np50_ns %llu\n"
		 "p99_ns %llu\nmax_ns %llu\ncached %d\nerror %s\n",
		 p->engine, (unsigned long long)p->bs,
		 (unsigned long long)p->ios, (unsigned long long)p->errors,
		 p->runtime_s, p->iops, p->mean_ns,
		 (unsigned long long)p->min_ns, (unsigned long long)p->p50_ns,
		 (unsigned long long)p->p99_ns, (unsigned long long)p->max_ns,
		 p->cached, p->error);
}

static void probe_parse(const char *t, struct dr_probe *p)
{
	char b[256];

	memset(p, 0, sizeof(*p));
	p->done = true;
#define U(k, f)                        \
	if (dr_kv(t, k, b, sizeof(b))) \
	p->f = strtoull(b, NULL, 10)
#define D(k, f)                        \
	if (dr_kv(t, k, b, sizeof(b))) \
	p->f = strtod(b, NULL)
	U("bs", bs);
	U("ios", ios);
	U("errors", errors);
	U("min_ns", min_ns);
	U("p50_ns", p50_ns);
	U("p99_ns", p99_ns);
	U("max_ns", max_ns);
	D("runtime_s", runtime_s);
	D("iops", iops);
	D("mean_ns", mean_ns);
#undef U
#undef D
	if (dr_kv(t, "engine", b, sizeof(b)))
		snprintf(p->engine, sizeof(p->engine), "%s", b);
	if (dr_kv(t, "cached", b, sizeof(b)))
		p->cached = atoi(b) != 0;
	if (dr_kv(t, "error", b, sizeof(b)))
		snprintf(p->error, sizeof(p->error), "%s", b);
}

static const char *skip_reason(const struct dr_disk *d)
{
	if (d->kind == DR_KIND_MEMORY)
		return "not probed: memory, not a disk";
	if (d->kind == DR_KIND_STACKED)
		return "not probed: stacked on other disks, which are probed";
	if (d->size_bytes <= 0)
		return "not probed: no medium (size 0)";
	if (!strncmp(d->name, "sr", 2) || !strncmp(d->name, "fd", 2))
		return "not probed: removable media";
	return NULL;
}

/* Measure one disk into @p; false if interrupted. */
static bool probe_one(const struct dr_disk *d, const struct doctor_opts *o,
		      struct dr_probe *p)
{
	struct target_req req = { 0 };
	struct runner_opts ro = { 0 };
	struct warnings w = { 0 };
	struct target t = { 0 };
	struct run_result res;
	struct job_spec j;
	struct err err = { 0 };
	char path[96], label[96];
	bool ok = true;

	snprintf(path, sizeof(path), "/dev/%s", d->name);
	snprintf(label, sizeof(label), "iolab doctor: probing %s", d->name);
	job_defaults(&j);
	j.rw = RW_RANDREAD;
	j.bs = d->bi.logical_block_size > 4096 ? d->bi.logical_block_size :
						 4096;
	j.qd = 1;
	j.threads = 1;
	j.engine = ENGINE_SYNC;
	j.cache = CACHE_NONE;
	j.runtime_ns = o->probe_ns;
	j.ramp_ns = PROBE_RAMP_NS;
	snprintf(p->engine, sizeof(p->engine), "%s", engine_name(j.engine));
	p->bs = j.bs;
	req.path = path;
	req.need_write = false; /* read-only open; a probe never writes */
	ro.label = label;
	ro.progress = o->progress;
	if (!target_prepare(&t, &req, &w, &err) ||
	    !target_check_job(&t, &j, &err)) {
		bool denied = err.errnum == EACCES || err.errnum == EPERM;

		snprintf(
			p->error, sizeof(p->error), "%s%s", err.msg,
			!denied ?
				"" :
			geteuid() ?
				"; run iolab doctor --probe as root" :
				"; a security policy (device cgroup, SELinux, AppArmor, a sandbox) denies even root");
		goto out;
	}
	if (!runner_run(&j, &t, &ro, &res, &err)) {
		snprintf(p->error, sizeof(p->error), "%s", err.msg);
		goto out;
	}
	p->ios = res.dir[DIR_READ].ios;
	p->errors = res.errors;
	p->runtime_s = res.elapsed_s;
	p->iops = result_iops(&res, DIR_READ);
	if (res.dir[DIR_READ].lat.count) {
		const struct hist *h = &res.dir[DIR_READ].lat;

		p->mean_ns = hist_mean(h);
		p->min_ns = h->min;
		p->p50_ns = hist_percentile(h, 50);
		p->p99_ns = hist_percentile(h, 99);
		p->max_ns = h->max;
	}
	p->cached = warn_has(&res.warnings, "below-disk-latency");
	if (res.errors)
		snprintf(p->error, sizeof(p->error),
			 "%llu read errors (first: %s)",
			 (unsigned long long)res.errors,
			 res.first_errno ? strerror(res.first_errno) :
					   "short read");
	if (res.stop_signal) {
		snprintf(p->error, sizeof(p->error), "interrupted");
		ok = false;
	}
	result_free(&res);
out:
	target_release(&t);
	warnings_free(&w);
	return ok;
}

bool dr_probe_disks(struct dr_ctx *c, const struct doctor_opts *o,
		    struct err *err)
{
	struct doctor_report *r = c->r;

	for (size_t i = 0; i < r->ndisks; i++) {
		struct dr_disk *d = &r->disks[i];
		struct dr_probe p = { 0 };
		const char *why = skip_reason(d);
		char text[1024], name[96];
		bool ok = true;

		if (why)
			snprintf(p.error, sizeof(p.error), "%s", why);
		else if (sig_pending())
			snprintf(p.error, sizeof(p.error),
				 "not probed: interrupted");
		else
			ok = probe_one(d, o, &p);
		p.cls = dr_disk_class(d);
		probe_format(&p, text, sizeof(text));
		snprintf(name, sizeof(name), "probe/%s", d->name);
		dr_fact_save(c, name, text);
		probe_parse(text, &d->probe);
		d->probe.cls = p.cls;
		if (!ok && !err->msg[0])
			err_set(err, sig_exit_code(sig_pending()), 0,
				"interrupted while probing %s", d->name);
	}
	return !err->msg[0];
}

void dr_replay_probes(struct dr_ctx *c)
{
	struct doctor_report *r = c->r;

	for (size_t i = 0; i < r->ndisks; i++) {
		struct dr_disk *d = &r->disks[i];
		char name[96], *text;

		snprintf(name, sizeof(name), "probe/%s", d->name);
		text = dr_fact(c, name);
		if (!text)
			continue;
		probe_parse(text, &d->probe);
		d->probe.cls = dr_disk_class(d);
		free(text);
	}
}
