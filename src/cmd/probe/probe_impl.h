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

/* The operations timed, the `op` label; write and flush only with --write. */
enum probe_op { PROBE_READ, PROBE_WRITE, PROBE_FLUSH, PROBE_NOPS };
extern const char *const probe_op_name[PROBE_NOPS];

struct probe_hist {
	uint64_t buckets[PROBE_NBUCKETS]; /* not cumulative; beyond: +Inf */
	uint64_t count, sum_ns;
	uint64_t errors; /* failed opens, reads, writes, flushes */
};

/* What one target's worker has counted; copied out under probe.mu. */
struct probe_counts {
	struct probe_hist op[PROBE_NOPS];
	uint64_t zero_reads; /* blocks read back all zero */
	int up; /* the last probe: 1 ok, 0 failed, -1 none yet */
	uint64_t outstanding_since_ns; /* an I/O in flight since, or 0 */
	uint64_t cycles; /* probes done, failed or not */
	char last_error[192];
};

struct probe_target {
	char *path; /* as given: the `target` label */
	pthread_t thread;
	bool started;
	/*
	 * A file probe created itself (probe_ownfile.c): the only kind --write
	 * ever writes to, and only while it is still that inode.
	 */
	bool owned, write;
	uint64_t dev, ino;
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
	/* --probe-only: no build info, disk counters or doctor families */
	bool probe_only;
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

/* probe_ownfile.c: the probe's own files, PROBE_FILE_SIZE of random data. */
#define PROBE_FILE_NAME "iolab-probe.dat"
#define PROBE_FILE_SIZE (16ull << 20)
/*
 * Create DIR/iolab-probe.dat for @t (path, owned, dev, ino set), exclusively
 * and never through a link; a leftover of a killed probe (our magic, our
 * uid, one link, the size) is replaced, anything else refused.
 */
bool probe_file_create(struct probe_target *t, const char *dir,
		       struct err *err);
/* Remove it, if the name is still the inode created; t->path stays. */
void probe_file_remove(struct probe_target *t);
/* Directories for the default targets, one per local filesystem. */
size_t probe_default_dirs(char ***out, size_t max);

/* probe_prom.c: the whole exposition into @f. */
void probe_render(struct probe *p, FILE *f);
/* The exposition in a new NUL-terminated buffer; its length in *@len. */
char *probe_render_buf(struct probe *p, size_t *len);

/* probe_expo.c: a label value from 256 bytes at most, escaped, in quotes. */
void prom_label_value(FILE *f, const char *s);
/* The HELP and TYPE lines of a family. */
void prom_family(FILE *f, const char *name, const char *type, const char *help);

/*
 * probe_from.c: --from FILE, a calibrate or mark --json result as gauges,
 * in a new buffer (length in *@len); NULL and @err if refused.
 */
char *probe_from_render(const char *path, size_t *len, struct err *err);

/* probe_diskstats.c: /proc/diskstats of the whole disks into @f. */
void probe_diskstats(FILE *f);

/* probe_textfile.c */
struct probe_textfile {
	int dirfd;
	const char *dir, *name; /* name: iolab.prom or --textfile-name */
};
bool probe_textfile_open(struct probe_textfile *tf, const char *dir,
			 const char *name, struct err *err);
/* Replace DIR/NAME with @len bytes at once (temp file + rename). */
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
