/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `iolab probe`: what its files share. One worker thread per target reads
 * one block at a time (QD1, O_DIRECT, read-only) at a jittered low rate and
 * counts into a fixed histogram; the main thread refreshes doctor's report
 * now and then and writes the exposition (stdout, a textfile, or /metrics
 * through the HTTP thread). Every shared field is guarded by probe.mu, so a
 * worker stuck in a read never holds anything the scrape needs.
 */
#ifndef IOLAB_CMD_PROBE_PROBE_IMPL_H
#define IOLAB_CMD_PROBE_PROBE_IMPL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../doctor/doctor_diag.h"

struct err;

/* Bucket upper bounds: 16 us << k, k = 0 .. PROBE_NBUCKETS - 1 (~33.6 s). */
#define PROBE_NBUCKETS 22
#define PROBE_BUCKET0_NS 16000ull

/* What one target's worker has counted; copied out under probe.mu. */
struct probe_counts {
	uint64_t buckets[PROBE_NBUCKETS]; /* not cumulative; beyond: +Inf */
	uint64_t count, sum_ns;
	uint64_t errors; /* failed opens and reads */
	uint64_t zero_reads; /* blocks read back all zero */
	int up; /* the last probe: 1 ok, 0 failed, -1 none yet */
	uint64_t outstanding_since_ns; /* a read in flight since, or 0 */
	uint64_t cycles; /* probes done, failed or not */
	char last_error[192];
};

struct probe_target {
	char *path; /* as given: the `target` label */
	pthread_t thread;
	bool started;
	uint64_t seed;
	struct probe_counts c; /* guarded by probe.mu */
};

struct probe {
	pthread_mutex_t mu;
	pthread_cond_t wake; /* CLOCK_MONOTONIC; signalled on stop */
	bool stop; /* guarded by mu */
	struct probe_target *t;
	size_t nt;
	uint64_t interval_ns, bs;
	uint64_t max_cycles; /* per target; 0 = until stopped */
	/* doctor's last report, swapped in whole under mu */
	struct doctor_report dr;
	bool dr_valid;
	double dr_unix_s; /* when it was collected */
	const char *version;
};

/* probe_worker.c */
bool probe_start(struct probe *p, struct err *err);
/*
 * Ask the workers to stop and join them; false if one stayed stuck in a
 * read, which then still uses @p (leave it allocated until exit).
 */
bool probe_stop(struct probe *p);
/* Index of the bucket @ns falls in, PROBE_NBUCKETS beyond the last. */
size_t probe_bucket(uint64_t ns);

/* probe_prom.c: the whole exposition into @f. */
void probe_render(struct probe *p, FILE *f);
/* The exposition in a new NUL-terminated buffer; its length in *@len. */
char *probe_render_buf(struct probe *p, size_t *len);

/* probe_expo.c: a label value from 256 bytes at most, escaped, in quotes. */
void prom_label_value(FILE *f, const char *s);
/* The HELP and TYPE lines of a family. */
void prom_family(FILE *f, const char *name, const char *type, const char *help);

/* probe_diskstats.c: /proc/diskstats of the whole disks into @f. */
void probe_diskstats(FILE *f);

/* probe_textfile.c */
struct probe_textfile {
	int dirfd;
	const char *dir;
};
bool probe_textfile_open(struct probe_textfile *tf, const char *dir,
			 struct err *err);
/* Replace DIR/iolab.prom with @len bytes at once (temp file + rename). */
bool probe_textfile_write(struct probe_textfile *tf, const char *buf,
			  size_t len, struct err *err);
void probe_textfile_close(struct probe_textfile *tf);

/* probe_http.c: GET /metrics on @addr ("HOST:PORT", "[V6]:PORT", ":PORT"). */
struct probe_http;
struct probe_http *probe_http_start(struct probe *p, const char *addr,
				    struct err *err);
unsigned probe_http_port(const struct probe_http *h);
void probe_http_stop(struct probe_http *h);

#endif
