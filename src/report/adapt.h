/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the commands' adapters (cmd/adapters.h) share when they map a JSON
 * document to the neutral model (rdoc.h): environment, warnings, the
 * tests[] of mark that matrix and lab embed, the engine x cache cells.
 *
 * An adapter fills @d from @root and returns false with @err set
 * (EXIT_USAGE) when a field it cannot do without is missing. Fields it can
 * do without are skipped, so a document with extra or fewer optional
 * fields still reads.
 */
#ifndef IOLAB_REPORT_ADAPT_H
#define IOLAB_REPORT_ADAPT_H

#include <stdbool.h>
#include <stddef.h>

#include "rdoc.h"

struct err;
struct jr_node;

/* "warnings":[{"id","message"}] into d->warns. */
void adapt_warnings(struct rdoc *d, const struct jr_node *warnings);
/* The "environment" object run and the suites write (jenvironment()). */
void adapt_environment(struct rdoc *d, const struct jr_node *env);
/* "TARGET (DEVICE, DRIVER)" of an "environment", "?" for what it lacks:
 * where a document's title says it ran. */
const char *adapt_target(const struct jr_node *env, char *buf, size_t len);
/* Workload settings from a jjob_spec()-like object (rw, bs_bytes ...). */
void adapt_job_settings(struct rdoc *d, const struct jr_node *spec);
/* "4 KiB" from a byte count at @path, or NULL. */
const char *adapt_size(const struct jr_node *n, const char *path, char *buf,
		       size_t len);
/* A JSON array of strings has @s. */
bool adapt_list_has(const struct jr_node *list, const char *s);
/* A list of strings (or a string) at @path as "a, b, c". */
void adapt_list_setting(struct rdoc *d, const struct jr_node *o,
			const char *path, const char *key, const char *label);
/* A mark direction's reads came from the page cache. */
bool adapt_page_cache(const struct jr_node *dir);
/* A mark direction's "warnings" and "partial" into the document. */
void adapt_dir_warnings(struct rdoc *d, const char *test, const char *dir,
			const struct jr_node *n);
/* "stopped_by" and "error" of mark, matrix and lab as warnings. */
void adapt_stopped(struct rdoc *d, const struct jr_node *root);
/* mark's "options" as settings (matrix and lab share most of them). */
void adapt_mark_settings(struct rdoc *d, const struct jr_node *o);
/* The latency (ns) at percentile @p in a "percentiles":[{"p","ns"}]. */
bool adapt_percentile(const struct jr_node *lat, double p, double *ns);

/*
 * The samples behind a mark-shaped direction's figures (mark_figs.c's
 * "mbps", "mbps_mean", "iops", "lat_mean", "lat_p99" under @key_prefix,
 * "SEQ1M Q8T1/read"): the value of each complete run, as mark scores them
 * (read + write summed); with a single run, that run's full seconds for
 * MB/s and IOPS.
 */
void adapt_test_dir_samples(struct rdoc *d, const char *key_prefix,
			    const struct jr_node *dir);
/*
 * The noise behind a job's throughput (a run-shaped object with
 * "timeseries"): the per-second values of its full seconds (a last
 * second cut short is left out), "<dir>_iops" and "<dir>_mbps" summed
 * over @dirs ("read", "write"), as samples of the figures @iops_key and
 * @mbps_key (NULL: none) of @d.
 */
void adapt_seconds_samples(struct rdoc *d, const struct jr_node *job,
			   const char *const *dirs, const char *iops_key,
			   const char *mbps_key);
/*
 * The MB/s samples of a mark-shaped direction as figure @key's: each
 * complete run's, or the seconds of its one run (matrix and lab cells).
 */
void adapt_dir_mbps_samples(struct rdoc *d, const char *key,
			    const struct jr_node *dir);
/* A "max" of a {max,mean,min,stddev} object, or a plain number. */
double adapt_stat(const struct jr_node *n, const char *path, const char *which);
/* A mark direction's headline of @path ("mbps", "iops"): its "headline",
 * or "max" in documents from before the precision procedure. */
double adapt_headline(const struct jr_node *dir, const char *path);
/* A test's display name: "name", or "RND4K Q1T1" made from its fields. */
const char *adapt_test_name(const struct jr_node *t, char *buf, size_t len);

/* One engine x cache cell of matrix or lab. */
struct adapt_cell {
	const char *engine, *cache; /* matrix: engine; lab: aio */
	const char *status; /* "ok", "refused", "failed" */
	const char *reason; /* why refused or failed */
	const struct jr_node *tests; /* mark-shaped "tests" */
	const char *risk; /* on host power loss, or NULL for ours */
	bool forced; /* measured with --force although QEMU refuses it */
};

/*
 * The matrix tables: one heat map of MB/s per direction, rows engine x
 * cache, columns tests, refused and failed cells marked with the reason as
 * a footnote, buffered reads served from the page cache flagged, and what
 * each cache mode risks on host power loss. Adds one MB/s figure per cell,
 * test and direction, keyed under @key_prefix.
 */
void adapt_cells(struct rdoc *d, const char *section, const char *title_prefix,
		 const char *key_prefix, const char *engine_head,
		 const struct adapt_cell *cells, size_t n);
/* The matrix's and lab's closing recommendation, as the summary. */
void adapt_recommendation(struct rdoc *d, const struct jr_node *rec);

/* A doctor/advise finding's structured "fix" onto the last finding. */
void adapt_fix(struct rdoc *d, const struct jr_node *fix);
/* Findings counted per severity as figures ("critical 2 -> 0"). */
void adapt_finding_counts(struct rdoc *d, const char *const *severities);

#endif
