/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `iolab matrix`: one mark suite under every engine x cache mode on one
 * target, the second story of design.md done by a program. A cell QEMU
 * would refuse (aio=native without cache.direct=on) is marked refused with
 * QEMU's reason instead of being measured, unless forced; cells that could
 * not run are marked failed with the reason. The result also names the
 * fastest setting that keeps data on host power loss and the fastest one
 * overall. Nothing here prints but the mark progress line.
 */
#ifndef IOLAB_CMD_MATRIX_MATRIX_SUITE_H
#define IOLAB_CMD_MATRIX_MATRIX_SUITE_H

#include <stdbool.h>
#include <stdint.h>

#include "../mark/mark_suite.h"
#include "../../util/margin.h"

struct check_profile;
struct check_result;
struct err;
struct target;

struct matrix_spec {
	/* The suite every cell runs; its base engine and cache are set per
	 * cell, base.force measures the cells QEMU refuses. */
	struct mark_spec mark;
	unsigned int nengines, ncaches;
	enum engine_kind engines[ENGINE_COUNT];
	enum cache_mode caches[CACHE_COUNT];
	/* --check: every cell runs this profile of iolab check, each step
	 * for check_runtime_ns, instead of the suite. */
	const struct check_profile *check;
	uint64_t check_runtime_ns;
};

enum matrix_status {
	MATRIX_NOT_RUN, /* stopped (Ctrl-C) before its turn */
	MATRIX_OK,
	MATRIX_REFUSED, /* QEMU refuses the setting; not measured */
	MATRIX_FAILED, /* could not start, or an I/O error */
};
extern const char *const matrix_status_names[]; /* "not-run", "ok", ... */

struct matrix_cell {
	enum engine_kind engine;
	enum cache_mode cache;
	enum matrix_status status;
	bool qemu_refuses; /* QEMU refuses it (measured only with force) */
	char reason[512]; /* why refused or failed */
	bool measured; /* mark holds a result (maybe partial) */
	struct mark_result mark;
	/* Geometric mean over every test and direction of the MB/s that
	 * reached the storage (the best run's, its cache flush counted), the
	 * figure the recommendation ranks by. */
	double score_mbps;
	unsigned int score_n;
	/* Its relative uncertainty: the mean coefficient of variation of
	 * those figures (over runs, or one run's seconds), taken as fully
	 * correlated since a disk's slow spell slows every test; NAN when
	 * no figure had a spread to tell. */
	double score_unc;
	bool page_cache_reads; /* some reads came from the host page cache */
	bool cached_writes; /* some writes were a cache's: flush counted */
	bool unbacked_reads; /* some reads were of a region no disk stored */
	struct check_result *check; /* --check: the profile's result */
};

struct matrix_result {
	struct matrix_spec spec;
	unsigned int ncells; /* engine-major: engines[i] x caches[j] */
	struct matrix_cell *cells;
	bool partial;
	int stop_signal;
	double elapsed_s;
	struct warnings warnings; /* about the whole target */
	/* Indexes into cells, or -1: the fastest cell that keeps data on host
	 * power loss (the guest's flushes honoured) and the runner-up among
	 * those, and the fastest of all. Only ranked cells qualify
	 * (matrix_cell_ranked). */
	int best_safe, next_safe, best_any;
	/* The cells were measured minutes apart and a VM's disk drifts on
	 * that scale, beyond any figure's interval: before a lead is called,
	 * the leader (index again, else -1) is measured once more (score
	 * again_mbps); matrix_drift_unc() turns the two into an uncertainty
	 * that counts in every margin. */
	int again;
	double again_mbps;
};

/* A matrix has many figures (96 by default): each gets at most this long
 * (mark's is 20 s), so that the default matrix takes minutes, not a
 * quarter of an hour, on a noisy disk; its ranking carries the interval
 * each figure reached. */
#define MATRIX_MAX_NS 3500000000ull

void matrix_spec_defaults(struct matrix_spec *s);
bool matrix_spec_validate(const struct matrix_spec *s, struct err *err);
/* Cells that will be measured, and the time they take. */
unsigned int matrix_cells_to_run(const struct matrix_spec *s);
uint64_t matrix_estimate_ns(const struct matrix_spec *s);
/* The longest it may take: every test at its --max-time. */
uint64_t matrix_estimate_max_ns(const struct matrix_spec *s);
/* Writes survive host power loss once the guest has flushed them. */
bool matrix_cache_keeps_data(enum cache_mode c);

/* Measured to the end, not refused, and its figures reached the storage:
 * a cell the recommendation may rank. */
bool matrix_cell_ranked(const struct matrix_cell *c);
/* Why a measured cell is set aside from the ranking (its reads came from
 * the host page cache), or NULL. */
const char *matrix_cell_set_aside(const struct matrix_cell *c);

/* The lead of cell @a over cell @b of @r against both cells' noise and
 * the drift measured between cells (see margin.h). */
struct margin matrix_margin(const struct matrix_result *r,
			    const struct matrix_cell *a,
			    const struct matrix_cell *b);

/* "aio=X cache=Y" of @c, into @buf. */
const char *matrix_cell_words(const struct matrix_cell *c, char *buf,
			      size_t len);
/* The settings ("aio=X cache=Y") of the cells @pick(cell, @arg) selects,
 * comma-separated into @buf; returns how many. */
int matrix_list_cells(const struct matrix_result *r,
		      bool (*pick)(const struct matrix_cell *, const void *),
		      const void *arg, char *buf, size_t len);

/* The leader was measured again (matrix_result.again). */
bool matrix_measured_again(const struct matrix_result *r);
/* The relative uncertainty the drift between cells puts on every score,
 * |ln(again / first)| / sqrt 2 (one measured difference of two), or NAN
 * when the leader was not measured again. */
double matrix_drift_unc(const struct matrix_result *r);

/* Set best_safe, next_safe and best_any from the cells' scores. */
void matrix_rank(struct matrix_result *r);

/* False only for setup failures of the matrix itself; a cell that fails
 * is marked failed and the others still run. */
bool matrix_run(const struct matrix_spec *s, const struct target *t,
		struct matrix_result *r, struct err *err);
void matrix_result_free(struct matrix_result *r);

#endif
