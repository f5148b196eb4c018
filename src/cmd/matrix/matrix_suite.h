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

struct err;
struct target;

struct matrix_spec {
	/* The suite every cell runs; its base engine and cache are set per
	 * cell, base.force measures the cells QEMU refuses. */
	struct mark_spec mark;
	unsigned int nengines, ncaches;
	enum engine_kind engines[ENGINE_COUNT];
	enum cache_mode caches[CACHE_COUNT];
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
	/* Geometric mean of the cell's headline MB/s over every test and
	 * direction, the figure the recommendation ranks by. */
	double score_mbps;
	unsigned int score_n;
	bool page_cache_reads; /* some reads came from the host page cache */
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
	 * power loss (the guest's flushes honoured), the same among cells
	 * whose reads came from the disk, and the fastest of all. Cells QEMU
	 * refuses never qualify. */
	int best_safe, best_safe_disk, best_any;
};

void matrix_spec_defaults(struct matrix_spec *s);
bool matrix_spec_validate(const struct matrix_spec *s, struct err *err);
/* Cells that will be measured, and the time they take. */
unsigned int matrix_cells_to_run(const struct matrix_spec *s);
uint64_t matrix_estimate_ns(const struct matrix_spec *s);
/* Writes survive host power loss once the guest has flushed them. */
bool matrix_cache_keeps_data(enum cache_mode c);

/* False only for setup failures of the matrix itself; a cell that fails
 * is marked failed and the others still run. */
bool matrix_run(const struct matrix_spec *s, const struct target *t,
		struct matrix_result *r, struct err *err);
void matrix_result_free(struct matrix_result *r);

#endif
