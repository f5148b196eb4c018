/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `iolab lab` found: one cell per bus x format x aio x cache, each
 * ok (with the guest's suite result, mark's JSON), refused (QEMU's own
 * words) or failed (why); rendered as matrix-style tables or as JSON.
 */
#ifndef IOLAB_CMD_LAB_LAB_REPORT_H
#define IOLAB_CMD_LAB_LAB_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lab_check.h"
#include "qemu_argv.h"
#include "../../util/warn.h"

struct err;
struct lab_opts;

enum lab_status { LAB_OK, LAB_REFUSED, LAB_FAILED };
extern const char *const lab_status_names[]; /* "ok", "refused", "failed" */

#define LAB_MAX_TESTS 16

/* A test's headline figures in one cell (from the suite's JSON). */
struct lab_fig {
	char name[32]; /* "RND4K Q1T1" */
	bool has[2]; /* [read, write] measured */
	double mbps[2]; /* the headline: mean of the runs, or CDM's best */
	double iops[2];
	double lat_mean_ns[2];
	/* What the ranking uses: the MB/s that reached the storage (the
	 * guest's flush counted), its spread (cv, NAN unknown), and whether
	 * the reads were a cache's (the guest's page cache, or latencies
	 * below any disk's: the host's page cache under cache=writeback). */
	double storage_mbps[2];
	double cv[2];
	bool cached_writes[2];
	bool cache_reads[2];
	bool unbacked_reads[2]; /* of a region no disk stored */
	bool imprecise[2]; /* not known to the precision asked */
};

struct lab_cell {
	enum lab_bus bus;
	enum lab_format format;
	enum engine_kind aio;
	enum cache_mode cache;
	enum lab_status status;
	enum lab_accel accel; /* what it ran under */
	char *reason; /* refused: QEMU's stderr verbatim; failed: why */
	char *qemu_stderr; /* ok or failed: what QEMU printed anyway */
	char *console_tail; /* failed: the end of the guest console */
	char *guest_log; /* what the guest logged (LOG lines), or NULL */
	char *result; /* the suite's JSON text, or NULL */
	char *doctor; /* doctor's JSON text, or NULL */
	char disk[32]; /* the guest's name for the disk: "vda" */
	char disk_serial[32]; /* the serial it found it by; "-": by size */
	unsigned int guest; /* the QEMU it ran in: 1, 2 ... (0: none ran) */
	unsigned int guest_cells; /* cells that QEMU carried, this one too */
	/* boot_s: its guest's boot; elapsed_s: its QEMU's start to the end
	 * of this cell; cell_s: this cell's own part of it (its disk found,
	 * filled, measured), the whole QEMU for a guest of one cell. */
	double boot_s, elapsed_s, cell_s;
	unsigned int nfigs;
	struct lab_fig figs[LAB_MAX_TESTS];
	struct lab_check_cell check; /* --check: the guest's verdicts */
};

struct lab_report {
	int argc;
	char *const *argv;
	const struct lab_opts *opts; /* what was asked */
	char qemu[256]; /* the QEMU binary */
	char qemu_version[160]; /* "7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)" */
	enum lab_accel accel; /* KVM or TCG: what the cells ran under */
	char accel_note[320]; /* why (fallback from KVM ...), or "" */
	char kernel[256], kernel_release[128];
	char suite_title[512]; /* what the guests ran, in words */
	char image_dir[256]; /* where the images lived */
	char image_fs[32];
	uint64_t disk_bytes, memory_bytes;
	unsigned int smp;
	bool guest_per_cell; /* --guest-per-cell: no guest was shared */
	unsigned int nguests; /* QEMUs started for the cells */
	size_t ncells;
	struct lab_cell *cells;
	bool partial; /* interrupted: cells missing */
	int stop_signal;
	double elapsed_s;
	struct warnings warnings;
};

/*
 * Read the headline figures of @c->result (mark's JSON shape) into
 * c->figs, or check's verdicts into c->check when it is iolab check's
 * document (--check). False with @err set if it is neither.
 */
bool lab_cell_parse(struct lab_cell *c, struct err *err);

/*
 * The cell with the highest geometric mean of its MB/s figures among ok
 * cells of @bus/@format (any when -1) that are not set aside;
 * @safe_only skips cache=unsafe.
 * Returns the index, or -1. @score gets the mean.
 */
long lab_best(const struct lab_report *r, int bus, int format, bool safe_only,
	      double *score);
/* "aio=native cache=none", after "virtio-blk raw " with @with_bus. */
const char *lab_cell_words(const struct lab_cell *c, bool with_bus, char *buf,
			   size_t len);
/* The geometric mean of a cell's MB/s that reached the storage (0 if
 * none), and its relative uncertainty (mean cv of its figures, NAN when
 * none had a spread). */
double lab_cell_score(const struct lab_cell *c);
double lab_cell_unc(const struct lab_cell *c);
/* A measured cell whose reads came from a cache is not ranked. */
bool lab_cell_set_aside(const struct lab_cell *c);
/* Its writes were acknowledged from a cache (ranked with the flush). */
bool lab_cell_cached_writes(const struct lab_cell *c);

/* What iolab doctor saw inside a cell's guest, about its test disk. */
struct lab_doctor {
	char disk[400]; /* "vda: virtio-blk (paravirtual), driver ..." */
	char write_cache[32]; /* "write back", "write through" or "" */
	unsigned int nfind;
	char find[8][400]; /* "[warning] message" about the test disk */
	char others[400]; /* ids of the findings about the guest itself */
};

/* False if the cell has no (readable) doctor result. */
bool lab_doctor_parse(const struct lab_cell *c, struct lab_doctor *d);

/* A measured or estimated time for people: "850 ms", "42 s", "3 min 5 s". */
const char *lab_fmt_secs(double s, char *buf, size_t len);

void lab_text_print(const struct lab_report *r, FILE *f);
bool lab_json_write(const struct lab_report *r, FILE *f, struct err *err);
/* A line per cell, test and direction; see lab_csv.c. */
bool lab_csv_write(const struct lab_report *r, FILE *f, struct err *err);
void lab_report_free(struct lab_report *r);

#endif
