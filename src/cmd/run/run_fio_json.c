// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab run --output-format json|json+`: the result in fio 3.x's JSON
 * layout (stat.c's show_thread_status_json), for the tools built on it
 * (fio-plot, fio_jsonplus_clat2csv, dashboards). Figures iolab does not
 * measure are absent rather than invented, except where fio itself writes
 * zeros for them (slat_ns of a synchronous engine, short_ios).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../../report/json_util.h"
#include "../../util/err.h"
#include "run_report.h"

/* min, max, mean, stddev, N of @h; fio writes zeros when N is 0. */
static json_t *jfio_lat(const struct hist *h, const struct job_spec *j,
			bool percentiles, bool bins)
{
	json_t *o = json_object();
	bool any = h->count > 0;

	json_object_set_new(o, "min",
			    json_integer(any ? (json_int_t)h->min : 0));
	json_object_set_new(o, "max",
			    json_integer(any ? (json_int_t)h->max : 0));
	json_object_set_new(o, "mean", json_real(any ? hist_mean(h) : 0));
	json_object_set_new(o, "stddev", json_real(any ? hist_stddev(h) : 0));
	json_object_set_new(o, "N", json_integer((json_int_t)h->count));
	if (any && percentiles && j->npercentiles) {
		uint64_t v[JOB_MAX_PERCENTILES];
		json_t *p = json_object();
		char key[32];

		hist_percentiles(h, j->percentiles, j->npercentiles, v);
		for (int i = 0; i < j->npercentiles; i++) {
			/* fio's keys: "99.900000" */
			snprintf(key, sizeof(key), "%f", j->percentiles[i]);
			json_object_set_new(p, key,
					    json_integer((json_int_t)v[i]));
		}
		json_object_set_new(o, "percentile", p);
	}
	if (any && bins) {
		/* json+: each bucket's count under its middle value, as fio
		 * keys its own log-linear buckets. */
		json_t *b = json_object();
		char key[32];

		for (unsigned int i = 0; i < HIST_BUCKETS; i++) {
			uint64_t w;

			if (!h->b[i])
				continue;
			w = hist_bucket_width(i);
			snprintf(key, sizeof(key), "%llu",
				 (unsigned long long)(hist_bucket_low(i) +
						      w / 2));
			json_object_set_new(b, key,
					    json_integer((json_int_t)h->b[i]));
		}
		json_object_set_new(o, "bins", b);
	}
	return o;
}

/* min, max, mean, stddev of the per-second samples of direction @d. */
static void samples(const struct run_result *r, int d, double scale, double *mn,
		    double *mx, double *mean, double *sd, int *n)
{
	double s = 0, ss = 0;

	*mn = *mx = *mean = *sd = 0;
	*n = 0;
	if (d >= 2 || !r->ts)
		return;
	for (uint32_t i = 0; i < r->nts; i++) {
		double v = r->ts[i].ios[d] * scale;

		if (!*n || v < *mn)
			*mn = v;
		if (!*n || v > *mx)
			*mx = v;
		s += v;
		ss += v * v;
		(*n)++;
	}
	if (!*n)
		return;
	*mean = s / *n;
	if (*n > 1)
		*sd = sqrt(fmax(0, (ss - s * s / *n) / (*n - 1)));
}

static json_t *jfio_dir(const struct run_result *r, int d, bool plus)
{
	const struct dir_stats *ds = &r->dir[d];
	json_t *o = json_object();
	double secs = r->elapsed_s > 0 ? r->elapsed_s : 0;
	double bw = secs > 0 ? ds->bytes / secs : 0;
	double mn, mx, mean, sd;
	int n;

	json_object_set_new(o, "io_bytes", json_integer((json_int_t)ds->bytes));
	json_object_set_new(o, "io_kbytes",
			    json_integer((json_int_t)(ds->bytes / 1024)));
	json_object_set_new(o, "bw_bytes", json_integer((json_int_t)bw));
	json_object_set_new(o, "bw", json_integer((json_int_t)(bw / 1024)));
	json_object_set_new(o, "iops",
			    json_real(secs > 0 ? ds->ios / secs : 0));
	json_object_set_new(
		o, "runtime",
		json_integer(ds->ios ? (json_int_t)llround(secs * 1000) : 0));
	json_object_set_new(o, "total_ios", json_integer((json_int_t)ds->ios));
	/* A short transfer stops an iolab run as an error. */
	json_object_set_new(o, "short_ios", json_integer(0));
	json_object_set_new(o, "drop_ios", json_integer(0));
	/* iolab measures no submission latency apart, as fio's synchronous
	 * engines: N is 0. Its one latency is fio's total (lat_ns); clat_ns
	 * carries the same figures, where fio's percentiles and bins are. */
	json_object_set_new(o, "slat_ns",
			    jfio_lat(&(struct hist){ 0 }, NULL, false, false));
	json_object_set_new(o, "clat_ns",
			    jfio_lat(&ds->lat, &r->spec, true, plus));
	json_object_set_new(o, "lat_ns",
			    jfio_lat(&ds->lat, &r->spec, false, false));
	samples(r, d, (double)r->spec.bs / 1024, &mn, &mx, &mean, &sd, &n);
	json_object_set_new(o, "bw_min", json_integer((json_int_t)mn));
	json_object_set_new(o, "bw_max", json_integer((json_int_t)mx));
	/* The job's share of its group's bandwidth: a job is its group. */
	json_object_set_new(o, "bw_agg", json_real(n && ds->ios ? 100.0 : 0));
	json_object_set_new(o, "bw_mean", json_real(mean));
	json_object_set_new(o, "bw_dev", json_real(sd));
	json_object_set_new(o, "bw_samples", json_integer(n));
	samples(r, d, 1, &mn, &mx, &mean, &sd, &n);
	json_object_set_new(o, "iops_min", json_integer((json_int_t)mn));
	json_object_set_new(o, "iops_max", json_integer((json_int_t)mx));
	json_object_set_new(o, "iops_mean", json_real(mean));
	json_object_set_new(o, "iops_stddev", json_real(sd));
	json_object_set_new(o, "iops_samples", json_integer(n));
	return o;
}

/* fio's latency_ns/us/ms maps: the share of I/Os per range, each key the
 * range's upper end (exclusive), as io_u_mark_lat_*() count them. */
static void jfio_lat_ranges(json_t *job, const struct run_result *r)
{
	static const unsigned int lim[] = { 2,	 4,   10,  20,	 50,  100,
					    250, 500, 750, 1000, 2000 };
	static const char *const names[] = { "latency_ns", "latency_us",
					     "latency_ms" };
	double cnt[3][12] = { { 0 } };
	uint64_t total = 0;

	for (int d = 0; d < 2; d++) {
		const struct hist *h = &r->dir[d].lat;

		total += h->count;
		for (unsigned int i = 0; i < HIST_BUCKETS; i++) {
			uint64_t v =
				hist_bucket_low(i) + hist_bucket_width(i) / 2;
			int u = v < 1000 ? 0 : v < 1000000 ? 1 : 2;
			double x = u == 0 ? (double)v :
				   u == 1 ? v / 1e3 :
					    v / 1e6;
			int k = 0;

			if (!h->b[i])
				continue;
			while (k < 11 && x >= lim[k])
				k++;
			cnt[u][k] += (double)h->b[i];
		}
	}
	for (int u = 0; u < 3; u++) {
		json_t *o = json_object();
		int nk = u == 2 ? 11 : 10;
		char key[16];

		for (int k = 0; k < nk; k++) {
			snprintf(key, sizeof(key), "%u", lim[k]);
			json_object_set_new(
				o, key,
				json_real(total ? 100.0 * cnt[u][k] / total :
						  0));
		}
		if (u == 2)
			json_object_set_new(
				o, ">=2000",
				json_real(total ? 100.0 * cnt[u][11] / total :
						  0));
		json_object_set_new(job, names[u], o);
	}
}

json_t *fio_json_job(const char *name, int groupid, json_t *job_options,
		     const struct run_result *r, bool plus)
{
	json_t *job = json_object(), *sync = json_object();
	double secs = r->elapsed_s > 0 ? r->elapsed_s : 0;

	json_object_set_new(job, "jobname", json_string(name));
	json_object_set_new(job, "groupid", json_integer(groupid));
	json_object_set_new(
		job, "error",
		json_integer(r->errors ? (r->first_errno ? r->first_errno : 5) :
					 0));
	json_object_set_new(job, "eta", json_integer(0));
	json_object_set_new(job, "elapsed",
			    json_integer((json_int_t)ceil(secs)));
	json_object_set_new(job, "job options", job_options);
	json_object_set_new(job, "read", jfio_dir(r, DIR_READ, plus));
	json_object_set_new(job, "write", jfio_dir(r, DIR_WRITE, plus));
	/* iolab does not trim: fio's zeros for a direction not run. */
	json_object_set_new(job, "trim",
			    jfio_dir(&(struct run_result){ .spec = r->spec },
				     DIR_READ, false));
	json_object_set_new(sync, "total_ios",
			    json_integer((json_int_t)r->dir[DIR_FLUSH].ios));
	json_object_set_new(sync, "lat_ns",
			    jfio_lat(&r->dir[DIR_FLUSH].lat, &r->spec, false,
				     false));
	json_object_set_new(job, "sync", sync);
	json_object_set_new(job, "job_runtime",
			    json_integer((json_int_t)llround(secs * 1000)));
	json_object_set_new(job, "usr_cpu",
			    json_real(secs > 0 ? 100 * r->user_s / secs : 0));
	json_object_set_new(job, "sys_cpu",
			    json_real(secs > 0 ? 100 * r->sys_s / secs : 0));
	jfio_lat_ranges(job, r);
	return job;
}

static json_t *jstr(const char *s)
{
	json_t *v = json_string(s);

	/* jansson refuses invalid UTF-8: a file name is not trusted. */
	return v ? v : json_string("?");
}

json_t *fio_json_spec_options(const struct job_spec *j, const char *target)
{
	json_t *o = json_object();
	char buf[64];

	json_object_set_new(o, "name", json_string("iolab"));
	if (target)
		json_object_set_new(o, "filename", jstr(target));
	json_object_set_new(o, "rw", json_string(rw_name(j->rw)));
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)j->bs);
	json_object_set_new(o, "bs", json_string(buf));
	snprintf(buf, sizeof(buf), "%u", j->qd);
	json_object_set_new(o, "iodepth", json_string(buf));
	snprintf(buf, sizeof(buf), "%u", j->threads);
	json_object_set_new(o, "numjobs", json_string(buf));
	/* fio's names for iolab's engines; threads has none. */
	json_object_set_new(
		o, "ioengine",
		json_string(
			j->engine == ENGINE_NATIVE  ? "libaio" :
			j->engine == ENGINE_SYNC    ? "psync" :
			j->engine == ENGINE_THREADS ? "iolab-threads" :
						      engine_names[j->engine]));
	json_object_set_new(o, "direct",
			    json_string(cache_direct(j->cache) ? "1" : "0"));
	if (j->rw == RW_RW || j->rw == RW_RANDRW) {
		snprintf(buf, sizeof(buf), "%u", j->mix_read_pct);
		json_object_set_new(o, "rwmixread", json_string(buf));
	}
	if (j->runtime_ns) {
		snprintf(buf, sizeof(buf), "%llums",
			 (unsigned long long)(j->runtime_ns / 1000000));
		/* fio echoes no time_based: it has no value. */
		json_object_set_new(o, "runtime", json_string(buf));
	}
	return o;
}

bool fio_json_write(json_t *jobs, json_t *global_options, FILE *f,
		    struct err *err)
{
	json_t *doc = json_object();
	struct timespec now;
	char when[64] = "";
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &now);
	if (localtime_r(&now.tv_sec, &tm))
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	/* Not fio: a reader that checks says so; the layout is fio 3.x's. */
	json_object_set_new(doc, "fio version",
			    json_string("iolab-" IOLAB_VERSION));
	json_object_set_new(doc, "timestamp", json_integer(now.tv_sec));
	json_object_set_new(doc, "timestamp_ms",
			    json_integer((json_int_t)now.tv_sec * 1000 +
					 now.tv_nsec / 1000000));
	json_object_set_new(doc, "time", json_string(when));
	if (global_options)
		json_object_set_new(doc, "global options", global_options);
	json_object_set_new(doc, "jobs", jobs);
	/* iolab samples no disk statistics around a run: fio's empty list,
	 * as it writes for a file on a filesystem without a disk. */
	json_object_set_new(doc, "disk_util", json_array());
	return jdoc_write(doc, f, err);
}
