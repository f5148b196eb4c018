// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The mapping pieces several commands' adapters share; see adapt.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/result.h"
#include "adapt.h"
#include "json_read.h"
#include "../util/err.h"
#include "../util/parse.h"
#include "../util/xmem.h"

/* iolab writes a handful; more is a crafted file (warn_add is linear). */
#define ADAPT_MAX_WARNINGS 256

void adapt_warnings(struct rdoc *d, const struct jr_node *warnings)
{
	size_t n = jr_len(warnings);

	if (n > ADAPT_MAX_WARNINGS) {
		warn_add(&d->warns, "warnings-cut",
			 "the input has %zu warnings; the first %d are shown",
			 n, ADAPT_MAX_WARNINGS);
		n = ADAPT_MAX_WARNINGS;
	}
	for (size_t i = 0; i < n; i++) {
		const struct jr_node *w = jr_at(warnings, i);
		const char *id = jr_str(w, "id"), *msg = jr_str(w, "message");

		if (msg)
			warn_add(&d->warns, id ? id : "warning", "%s", msg);
	}
}

const char *adapt_size(const struct jr_node *n, const char *path, char *buf,
		       size_t len)
{
	double v;

	if (!jr_num(n, path, &v) || v < 0)
		return NULL;
	return fmt_size((uint64_t)v, buf, len);
}

static void set_scalar(struct rdoc *d, enum rset_kind kind,
		       const struct jr_node *n, const char *path,
		       const char *key, const char *label)
{
	char buf[64];

	rdoc_set(d, kind, key, label, jr_scalar(n, path, buf, sizeof(buf)));
}

void adapt_environment(struct rdoc *d, const struct jr_node *env)
{
	bool b;

	if (!env)
		return;
	set_scalar(d, RS_ENV, env, "target", "target", "target");
	set_scalar(d, RS_ENV, env, "target_type", "target_type", "target type");
	/* The size measured is the options' (region) size; not repeated. */
	set_scalar(d, RS_ENV, env, "fs_type", "fs_type", "filesystem");
	set_scalar(d, RS_ENV, env, "device", "device", "device");
	set_scalar(d, RS_ENV, env, "driver", "driver", "driver");
	set_scalar(d, RS_ENV, env, "model", "model", "model");
	if (jr_bool(env, "rotational", &b))
		rdoc_set(d, RS_ENV, "rotational", "rotational",
			 b ? "yes" : "no");
	set_scalar(d, RS_ENV, env, "logical_block_size", "logical_block_size",
		   "logical block size");
	if (jr_bool(env, "ram_backed", &b))
		rdoc_set(d, RS_ENV, "ram_backed", "RAM-backed",
			 b ? "yes" : "no");
	set_scalar(d, RS_ENV, env, "kernel", "kernel", "kernel");
	set_scalar(d, RS_ENV, env, "clock", "clock", "clock");
	if (jr_bool(env, "virtualized", &b))
		rdoc_set(d, RS_ENV, "virtualized", "virtualized",
			 b ? "yes" : "no");
}

void adapt_job_settings(struct rdoc *d, const struct jr_node *spec)
{
	char buf[64];
	const char *rw = jr_str(spec, "rw");
	double v;
	bool b;

	if (!spec)
		return;
	rdoc_set(d, RS_WORKLOAD, "rw", "pattern", rw);
	if (rw && (!strcmp(rw, "rw") || !strcmp(rw, "randrw")))
		set_scalar(d, RS_WORKLOAD, spec, "mix_read_pct", "mix",
			   "read share %");
	rdoc_set(d, RS_WORKLOAD, "bs", "block size",
		 adapt_size(spec, "bs_bytes", buf, sizeof(buf)));
	set_scalar(d, RS_WORKLOAD, spec, "qd", "qd", "queue depth");
	set_scalar(d, RS_WORKLOAD, spec, "threads", "threads", "threads");
	set_scalar(d, RS_WORKLOAD, spec, "engine", "engine", "engine");
	set_scalar(d, RS_WORKLOAD, spec, "cache", "cache", "cache");
	if (jr_num(spec, "flush_every", &v) && v > 0)
		set_scalar(d, RS_WORKLOAD, spec, "flush_every", "flush_every",
			   "flush every N writes");
	if (jr_num(spec, "rate_iops", &v) && v > 0)
		set_scalar(d, RS_WORKLOAD, spec, "rate_iops", "rate_iops",
			   "paced at IOPS");
	set_scalar(d, RS_WORKLOAD, spec, "pattern", "data", "data written");
	if (jr_bool(spec, "warm_cache", &b) && b)
		rdoc_set(d, RS_WORKLOAD, "warm_cache", "warm cache", "yes");
	if (jr_bool(spec, "force", &b) && b)
		rdoc_set(d, RS_WORKLOAD, "force", "forced", "yes");
	if (jr_num(spec, "runtime_s", &v) && v > 0) {
		snprintf(buf, sizeof(buf), "%g s", v);
		rdoc_set(d, RS_WORKLOAD, "runtime", "runtime", buf);
	}
	if (jr_num(spec, "ramp_s", &v) && v > 0) {
		snprintf(buf, sizeof(buf), "%g s", v);
		rdoc_set(d, RS_WORKLOAD, "ramp", "warm-up", buf);
	}
	if (jr_num(spec, "ios", &v) && v > 0)
		set_scalar(d, RS_WORKLOAD, spec, "ios", "ios", "I/O count");
	rdoc_set(d, RS_WORKLOAD, "size", "region size",
		 adapt_size(spec, "size_bytes", buf, sizeof(buf)));
}

bool adapt_list_has(const struct jr_node *list, const char *s)
{
	for (size_t i = 0; i < jr_len(list); i++) {
		const char *x = jr_str(jr_at(list, i), "");

		if (x && !strcmp(x, s))
			return true;
	}
	return false;
}

void adapt_list_setting(struct rdoc *d, const struct jr_node *o,
			const char *path, const char *key, const char *label)
{
	const struct jr_node *l = jr_get(o, path);
	char buf[256] = "";
	size_t len = 0;

	if (jr_str(o, path)) {
		rdoc_set(d, RS_WORKLOAD, key, label, jr_str(o, path));
		return;
	}
	for (size_t i = 0; i < jr_len(l) && len < sizeof(buf); i++) {
		const char *x = jr_str(jr_at(l, i), "");

		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					i ? ", " : "", x ? x : "?");
	}
	rdoc_set(d, RS_WORKLOAD, key, label, buf);
}

bool adapt_page_cache(const struct jr_node *dir)
{
	bool b;

	return (jr_bool(dir, "page_cache_reads", &b) && b) ||
	       (jr_bool(dir, "page_cache", &b) && b);
}

void adapt_dir_warnings(struct rdoc *d, const char *test, const char *dir,
			const struct jr_node *n)
{
	const struct jr_node *w = jr_get(n, "warnings");
	bool b;

	for (size_t i = 0; i < jr_len(w); i++) {
		const char *id = jr_str(jr_at(w, i), "id");
		const char *msg = jr_str(jr_at(w, i), "message");
		char key[160];

		if (!msg)
			continue;
		/* One per test and direction: the ids repeat across tests. */
		snprintf(key, sizeof(key), "%s/%s/%s", test, dir,
			 id ? id : "warning");
		warn_add(&d->warns, key, "%s %s: %s", test, dir, msg);
	}
	if (jr_bool(n, "partial", &b) && b)
		d->partial = true;
}

void adapt_stopped(struct rdoc *d, const struct jr_node *root)
{
	const char *by = jr_str(root, "stopped_by");
	const char *e = jr_str(root, "error");

	if (by)
		warn_add(&d->warns, "stopped",
			 "stopped early (%s): later tests have no figures",
			 !strcmp(by, "SIGINT") ? "Ctrl-C" : by);
	if (e)
		warn_add(&d->warns, "error", "%s", e);
}

bool adapt_percentile(const struct jr_node *lat, double p, double *ns)
{
	const struct jr_node *ps = jr_get(lat, "percentiles");

	for (size_t i = 0; i < jr_len(ps); i++) {
		double pi;

		if (jr_num(jr_at(ps, i), "p", &pi) && fabs(pi - p) < 1e-9)
			return jr_num(jr_at(ps, i), "ns", ns);
	}
	return false;
}

double adapt_stat(const struct jr_node *n, const char *path, const char *which)
{
	const struct jr_node *v = jr_get(n, path);
	double x;

	if (jr_is_object(v))
		return jr_numd(v, which, NAN);
	return jr_num(v, "", &x) ? x : NAN;
}

double adapt_headline(const struct jr_node *dir, const char *path)
{
	double v = adapt_stat(dir, path, "headline");

	return isnan(v) ? adapt_stat(dir, path, "max") : v;
}

const char *adapt_test_name(const struct jr_node *t, char *buf, size_t len)
{
	const char *name = jr_str(t, "name");
	double bs, qd, th;

	if (name)
		return name;
	if (jr_num(t, "bs_bytes", &bs) && jr_num(t, "qd", &qd) &&
	    jr_num(t, "threads", &th)) {
		const char *rw = jr_str(t, "rw");
		bool seq = rw && !strncmp(rw, "seq", 3);

		if (bs >= 1048576 && fmod(bs, 1048576) == 0)
			snprintf(buf, len, "%s%.0fM Q%.0fT%.0f",
				 seq ? "SEQ" : "RND", bs / 1048576, qd, th);
		else
			snprintf(buf, len, "%s%.0fK Q%.0fT%.0f",
				 seq ? "SEQ" : "RND", bs / 1024, qd, th);
		return buf;
	}
	return "test";
}

/* More samples than any real run has seconds is a crafted file. */
#define ADAPT_MAX_SAMPLES 100000

/* A timeseries point covers a full second: its span, else elapsed_s. */
static bool full_second(const struct jr_node *job, const struct jr_node *p,
			size_t i)
{
	double span, el;

	if (jr_num(p, "span_s", &span))
		return span >= 0.999;
	if (jr_num(job, "elapsed_s", &el))
		return el - (double)i >= 0.999;
	return true;
}

void adapt_seconds_samples(struct rdoc *d, const struct jr_node *job,
			   const char *const *dirs, const char *iops_key,
			   const char *mbps_key)
{
	const struct jr_node *ts = jr_get(job, "timeseries");
	size_t n = jr_len(ts), m = 0;
	double *io, *mb;
	char f[32];

	if (n > ADAPT_MAX_SAMPLES)
		n = ADAPT_MAX_SAMPLES;
	if (n < 2)
		return;
	io = xcalloc(n, sizeof(double));
	mb = xcalloc(n, sizeof(double));
	for (size_t i = 0; i < n; i++) {
		const struct jr_node *p = jr_at(ts, i);

		if (!full_second(job, p, i))
			continue;
		io[m] = mb[m] = 0;
		for (size_t k = 0; dirs[k]; k++) {
			snprintf(f, sizeof(f), "%s_iops", dirs[k]);
			io[m] += jr_numd(p, f, NAN);
			snprintf(f, sizeof(f), "%s_mbps", dirs[k]);
			mb[m] += jr_numd(p, f, NAN);
		}
		m++;
	}
	if (iops_key)
		rdoc_fig_samples(d, iops_key, RSP_SECONDS, io, m);
	if (mbps_key)
		rdoc_fig_samples(d, mbps_key, RSP_SECONDS, mb, m);
	free(io);
	free(mb);
}

/* A run's mean latency over its directions, weighted by their I/Os. */
static double run_lat_mean(const struct jr_node *run)
{
	double sum = 0, ios = 0;

	for (int k = 0; k < 2; k++) {
		const struct jr_node *dr = jr_get(run, k ? "write" : "read");
		double n = jr_numd(dr, "ios", 0),
		       m = jr_numd(dr, "lat_ns.mean", NAN);

		if (n > 0 && isfinite(m)) {
			sum += n * m;
			ios += n;
		}
	}
	return ios > 0 ? sum / ios : NAN;
}

void adapt_test_dir_samples(struct rdoc *d, const char *key_prefix,
			    const struct jr_node *dir)
{
	static const char *const rw[] = { "read", "write", NULL };
	const struct jr_node *runs = jr_get(dir, "runs");
	size_t n = jr_len(runs), m = 0;
	double *mb, *io, *lat, *p99;
	char k1[256], k2[256], k3[256];
	bool one_dir = true;

	if (n > ADAPT_MAX_SAMPLES)
		n = ADAPT_MAX_SAMPLES;
	if (!n)
		return;
	mb = xcalloc(n, sizeof(double));
	io = xcalloc(n, sizeof(double));
	lat = xcalloc(n, sizeof(double));
	p99 = xcalloc(n, sizeof(double));
	for (size_t i = 0; i < n; i++) {
		const struct jr_node *r = jr_at(runs, i);
		const struct jr_node *rd = jr_get(r, "read"),
				     *wr = jr_get(r, "write");
		bool partial;

		if (!jr_is_object(r) ||
		    (jr_bool(r, "partial", &partial) && partial))
			continue;
		mb[m] = jr_numd(rd, "mbps", 0) + jr_numd(wr, "mbps", 0);
		io[m] = jr_numd(rd, "iops", 0) + jr_numd(wr, "iops", 0);
		lat[m] = run_lat_mean(r);
		/* A p99 of two directions together is not in the runs. */
		one_dir &= !(jr_is_object(rd) && jr_is_object(wr));
		if (!adapt_percentile(jr_get(jr_is_object(rd) ? rd : wr,
					     "lat_ns"),
				      99, &p99[m]))
			p99[m] = NAN;
		m++;
	}
	if (m == 1) {
		/* One run: its own seconds are all the noise there is. */
		for (size_t i = 0; i < n; i++) {
			const struct jr_node *r = jr_at(runs, i);
			bool partial;

			if (!jr_is_object(r) ||
			    (jr_bool(r, "partial", &partial) && partial))
				continue;
			snprintf(k1, sizeof(k1), "%s/iops", key_prefix);
			snprintf(k2, sizeof(k2), "%s/mbps", key_prefix);
			snprintf(k3, sizeof(k3), "%s/mbps_mean", key_prefix);
			adapt_seconds_samples(d, r, rw, k1, k2);
			adapt_seconds_samples(d, r, rw, NULL, k3);
		}
	} else {
		snprintf(k1, sizeof(k1), "%s/mbps", key_prefix);
		rdoc_fig_samples(d, k1, RSP_RUNS, mb, m);
		snprintf(k1, sizeof(k1), "%s/mbps_mean", key_prefix);
		rdoc_fig_samples(d, k1, RSP_RUNS, mb, m);
		snprintf(k1, sizeof(k1), "%s/iops", key_prefix);
		rdoc_fig_samples(d, k1, RSP_RUNS, io, m);
		snprintf(k1, sizeof(k1), "%s/lat_mean", key_prefix);
		rdoc_fig_samples(d, k1, RSP_RUNS, lat, m);
		if (one_dir) {
			snprintf(k1, sizeof(k1), "%s/lat_p99", key_prefix);
			rdoc_fig_samples(d, k1, RSP_RUNS, p99, m);
		}
	}
	free(mb);
	free(io);
	free(lat);
	free(p99);
}

void adapt_dir_mbps_samples(struct rdoc *d, const char *key,
			    const struct jr_node *dir)
{
	static const char *const rw[] = { "read", "write", NULL };
	const struct jr_node *runs = jr_get(dir, "runs"), *one = NULL;
	size_t n = jr_len(runs), m = 0;
	double *mb;

	if (n > ADAPT_MAX_SAMPLES)
		n = ADAPT_MAX_SAMPLES;
	if (!n)
		return;
	mb = xcalloc(n, sizeof(double));
	for (size_t i = 0; i < n; i++) {
		const struct jr_node *r = jr_at(runs, i);
		bool partial;

		if (!jr_is_object(r) ||
		    (jr_bool(r, "partial", &partial) && partial))
			continue;
		mb[m++] = jr_numd(r, "read.mbps", 0) +
			  jr_numd(r, "write.mbps", 0);
		one = r;
	}
	if (m == 1)
		adapt_seconds_samples(d, one, rw, NULL, key);
	else
		rdoc_fig_samples(d, key, RSP_RUNS, mb, m);
	free(mb);
}

const char *adapt_target(const struct jr_node *env, char *buf, size_t len)
{
	const char *drv = jr_str(env, "driver");

	snprintf(buf, len, "%s (%s%s%s)",
		 jr_str(env, "target") ? jr_str(env, "target") : "?",
		 jr_str(env, "device") ? jr_str(env, "device") : "?",
		 drv ? ", " : "", drv ? drv : "");
	return buf;
}
