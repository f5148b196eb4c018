// SPDX-License-Identifier: GPL-2.0-or-later
/* Shared JSON building blocks; see json_util.h. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "json_util.h"
#include "../core/plausible.h"
#include "../core/target.h"
#include "../util/clock.h"
#include "../util/err.h"

/* When and where the document was written: a copied file keeps both,
 * which its mtime does not. */
static void jdoc_when_where(json_t *doc)
{
	char when[32] = "", host[256] = "";
	time_t now = time(NULL);
	json_t *h;
	struct tm tm;

	if (gmtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(doc, "time_utc",
			    when[0] ? json_string(when) : json_null());
	if (gethostname(host, sizeof(host) - 1))
		host[0] = '\0';
	/* jansson refuses invalid UTF-8 (NULL): a host name is not trusted. */
	h = host[0] ? json_string(host) : NULL;
	json_object_set_new(doc, "host", h ? h : json_null());
}

json_t *jdoc_new(const char *command, int argc, char *const *argv)
{
	json_t *doc = json_object(), *av = json_array();

	json_object_set_new(doc, "schema_version",
			    json_integer(IOLAB_SCHEMA_VERSION));
	json_object_set_new(doc, "tool",
			    json_pack("{s:s, s:s}", "name", "iolab", "version",
				      IOLAB_VERSION));
	jdoc_when_where(doc);
	json_object_set_new(doc, "command", json_string(command));
	for (int i = 0; i < argc; i++)
		json_array_append_new(av, json_string(argv[i]));
	json_object_set_new(doc, "argv", av);
	return doc;
}

void jset_real(json_t *o, const char *key, double v, int digits)
{
	double scale = pow(10, digits);

	/* A figure that could not be computed is not 0: null says so. */
	if (!isfinite(v)) {
		json_object_set_new(o, key, json_null());
		return;
	}
	json_object_set_new(o, key, json_real(round(v * scale) / scale));
}

json_t *jlat(const struct hist *h, const double *ps, int n)
{
	uint64_t vals[JOB_MAX_PERCENTILES];
	json_t *o, *arr;

	if (!h->count)
		return json_null();
	o = json_object();
	arr = json_array();
	json_object_set_new(o, "min", json_integer((json_int_t)h->min));
	jset_real(o, "mean", hist_mean(h), 1);
	json_object_set_new(o, "max", json_integer((json_int_t)h->max));
	jset_real(o, "stddev", hist_stddev(h), 1);
	if (n > JOB_MAX_PERCENTILES)
		n = JOB_MAX_PERCENTILES;
	hist_percentiles(h, ps, n, vals);
	for (int i = 0; i < n; i++)
		json_array_append_new(arr,
				      json_pack("{s:f, s:I}", "p", ps[i], "ns",
						(json_int_t)vals[i]));
	json_object_set_new(o, "percentiles", arr);
	return o;
}

json_t *jwarnings(const struct warnings *w)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < w->n; i++)
		json_array_append_new(arr,
				      json_pack("{s:s, s:s}", "id", w->v[i].id,
						"message", w->v[i].msg));
	return arr;
}

static json_t *jstr_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

void jtarget_options(json_t *opts, const struct target *t)
{
	json_object_set_new(opts, "target", json_string(t->path));
	json_object_set_new(opts, "size_bytes",
			    json_integer((json_int_t)t->region_len));
	json_object_set_new(opts, "offset_bytes",
			    json_integer((json_int_t)t->region_off));
	json_object_set_new(opts, "keep", json_boolean(t->keep));
}

json_t *jstopped_by(int stop_signal, bool io_error)
{
	return stop_signal == SIGINT  ? json_string("SIGINT") :
	       stop_signal == SIGTERM ? json_string("SIGTERM") :
	       stop_signal	      ? json_string("signal") :
	       io_error		      ? json_string("io-error") :
					json_null();
}

json_t *jenvironment(const struct target *t)
{
	const struct target_env *e = &t->env;
	json_t *o = json_object();

	json_object_set_new(o, "kernel", jstr_or_null(e->kernel));
	json_object_set_new(o, "virtualized",
			    json_boolean(plausible_virtualized()));
	json_object_set_new(o, "target", json_string(t->path));
	json_object_set_new(o, "target_type",
			    json_string(t->is_bdev ? "block" : "file"));
	json_object_set_new(o, "created", json_boolean(t->created));
	json_object_set_new(o, "target_size_bytes",
			    json_integer((json_int_t)t->size));
	json_object_set_new(o, "region_offset_bytes",
			    json_integer((json_int_t)t->region_off));
	json_object_set_new(o, "region_bytes",
			    json_integer((json_int_t)t->region_len));
	json_object_set_new(o, "fs_type", jstr_or_null(e->fs_type));
	json_object_set_new(o, "device", jstr_or_null(e->device));
	json_object_set_new(o, "partition", jstr_or_null(e->partition));
	json_object_set_new(o, "driver", jstr_or_null(e->driver));
	json_object_set_new(o, "model", jstr_or_null(e->model));
	json_object_set_new(o, "rotational",
			    e->rotational < 0 ? json_null() :
						json_boolean(e->rotational));
	json_object_set_new(o, "logical_block_size",
			    json_integer(t->logical_block_size));
	json_object_set_new(o, "ram_backed", json_boolean(e->ram_backed));
	json_object_set_new(o, "clock",
			    json_string(clock_source_name(clock_setup(-1))));
	return o;
}

json_t *jjob_spec(const struct job_spec *j)
{
	json_t *o = json_object(), *ps = json_array();

	json_object_set_new(o, "rw", json_string(rw_name(j->rw)));
	json_object_set_new(o, "mix_read_pct", json_integer(j->mix_read_pct));
	json_object_set_new(o, "bs_bytes", json_integer((json_int_t)j->bs));
	json_object_set_new(o, "qd", json_integer(j->qd));
	json_object_set_new(o, "submit_batch",
			    json_integer(job_submit_batch(j)));
	json_object_set_new(o, "threads", json_integer(j->threads));
	jset_real(o, "runtime_s", (double)j->runtime_ns / 1e9, 3);
	jset_real(o, "ramp_s", (double)j->ramp_ns / 1e9, 3);
	json_object_set_new(o, "ios", json_integer((json_int_t)j->ios));
	json_object_set_new(o, "engine", json_string(engine_name(j->engine)));
	json_object_set_new(o, "cache", json_string(cache_name(j->cache)));
	json_object_set_new(o, "direct", json_boolean(cache_direct(j->cache)));
	json_object_set_new(o, "dsync", json_boolean(cache_dsync(j->cache)));
	json_object_set_new(o, "flush_every",
			    json_integer((json_int_t)j->flush_every));
	json_object_set_new(o, "rate_iops",
			    json_integer((json_int_t)j->rate_iops));
	json_object_set_new(o, "pattern",
			    json_string(j->pattern == PATTERN_ZERO ? "zero" :
								     "random"));
	json_object_set_new(o, "seed", json_integer((json_int_t)j->seed));
	json_object_set_new(o, "warm_cache", json_boolean(j->warm_cache));
	json_object_set_new(o, "force", json_boolean(j->force));
	json_object_set_new(o, "cpus", jstr_or_null(j->cpus));
	for (int i = 0; i < j->npercentiles; i++)
		json_array_append_new(ps, json_real(j->percentiles[i]));
	json_object_set_new(o, "percentiles", ps);
	return o;
}

static json_t *jdir(const struct run_result *r, int d)
{
	const struct job_spec *j = &r->spec;
	json_t *o = json_object();

	json_object_set_new(o, "ios", json_integer((json_int_t)r->dir[d].ios));
	json_object_set_new(o, "bytes",
			    json_integer((json_int_t)r->dir[d].bytes));
	jset_real(o, "iops", result_dir_fig(r, d, result_iops(r, d)), 1);
	jset_real(o, "mbps", result_dir_fig(r, d, result_mbps(r, d)), 3);
	jset_real(o, "mibps", result_dir_fig(r, d, result_mibps(r, d)), 3);
	json_object_set_new(o, "lat_ns",
			    jlat(&r->dir[d].lat, j->percentiles,
				 j->npercentiles));
	return o;
}

json_t *jrun_result(const struct run_result *r)
{
	const struct job_spec *j = &r->spec;
	json_t *o = json_object(), *ts = json_array(), *fl, *cpu, *errs;

	json_object_set_new(o, "engine", json_string(engine_name(j->engine)));
	json_object_set_new(o, "engine_features",
			    json_string(r->engine_features));
	json_object_set_new(o, "cache", json_string(cache_name(j->cache)));
	json_object_set_new(o, "rw", json_string(rw_name(j->rw)));
	json_object_set_new(o, "bs_bytes", json_integer((json_int_t)j->bs));
	json_object_set_new(o, "qd", json_integer(j->qd));
	json_object_set_new(o, "threads", json_integer(j->threads));
	json_object_set_new(o, "workers", json_integer(r->lanes));
	jset_real(o, "elapsed_s", r->elapsed_s, 6);
	json_object_set_new(o, "partial", json_boolean(r->partial));
	json_object_set_new(o, "read",
			    rw_reads(j) ? jdir(r, DIR_READ) : json_null());
	json_object_set_new(o, "write",
			    rw_writes(j) ? jdir(r, DIR_WRITE) : json_null());
	fl = json_object();
	json_object_set_new(fl, "count",
			    json_integer((json_int_t)r->dir[DIR_FLUSH].ios));
	json_object_set_new(fl, "skipped",
			    json_integer((json_int_t)r->flush_skipped));
	json_object_set_new(fl, "lat_ns",
			    jlat(&r->dir[DIR_FLUSH].lat, j->percentiles,
				 j->npercentiles));
	json_object_set_new(o, "flush", fl);
	cpu = json_object();
	jset_real(cpu, "user_s", r->user_s, 3);
	jset_real(cpu, "sys_s", r->sys_s, 3);
	jset_real(cpu, "us_per_io", result_cpu_fig(r), 3);
	json_object_set_new(o, "cpu", cpu);
	jset_real(o, "submit_wait_ns_mean", result_wait_fig(r), 1);
	errs = json_object();
	json_object_set_new(errs, "count", json_integer((json_int_t)r->errors));
	if (r->errors)
		json_object_set_new(
			errs, "first",
			json_pack("{s:s, s:I, s:i, s:s}", "op",
				  result_dir_name(r->first_err_op), "offset",
				  (json_int_t)r->first_err_off, "errno",
				  r->first_errno, "message",
				  r->first_errno ? strerror(r->first_errno) :
						   "short transfer"));
	json_object_set_new(o, "errors", errs);
	json_object_set_new(o, "ramp_ios",
			    json_integer((json_int_t)r->ramp_ios));
	for (uint32_t s = 0; s < r->nts; s++) {
		json_t *p = json_object();
		double win = result_window_s(r), span = 1.0;

		/* The last second of a stopped or --ios run is cut short:
		 * say by how much, and give rates over that span. */
		if (s + 1 == r->nts && win - s < 1.0 && win > s)
			span = win - (double)s;
		json_object_set_new(p, "t_s", json_integer(s + 1));
		jset_real(p, "span_s", span, 6);
		json_object_set_new(p, "read_iops",
				    json_integer((json_int_t)llround(
					    r->ts[s].ios[0] / span)));
		json_object_set_new(p, "write_iops",
				    json_integer((json_int_t)llround(
					    r->ts[s].ios[1] / span)));
		jset_real(p, "read_mbps",
			  (double)r->ts[s].ios[0] * (double)j->bs / 1e6 / span,
			  3);
		jset_real(p, "write_mbps",
			  (double)r->ts[s].ios[1] * (double)j->bs / 1e6 / span,
			  3);
		json_array_append_new(ts, p);
	}
	json_object_set_new(o, "timeseries", ts);
	return o;
}

bool jdoc_write(json_t *doc, FILE *f, struct err *err)
{
	int rc = json_dumpf(doc, f,
			    JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				    JSON_REAL_PRECISION(12));

	json_decref(doc);
	if (rc || fputc('\n', f) == EOF || fflush(f))
		return err_set(err, EXIT_ENV, errno,
			       "cannot write the JSON report: %s",
			       strerror(errno));
	return true;
}
