/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The options of a fio job (run_fio_job.c reads the file): each applied to
 * what the job asks for, fio's defaults first, then translated into the
 * `iolab run` options that measure the same thing; one iolab cannot honour
 * is refused by name, with what to do.
 */
#ifndef IOLAB_CMD_RUN_RUN_FIO_OPTS_H
#define IOLAB_CMD_RUN_RUN_FIO_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "run_fio_job.h"

struct err;

/* What a job asks for once its [global] and own options are applied. */
struct fset {
	const char *rw; /* iolab's name */
	uint64_t bs;
	unsigned int iodepth, numjobs, batch, loops;
	int direct; /* fio's default 0: the page cache */
	const char *engine; /* iolab's name; fio's default psync is sync */
	uint64_t size, offset, io_size, number_ios;
	uint64_t runtime_ns, ramp_ns, rate_iops, fdatasync, seed;
	int mix; /* share of reads, -1 when not given */
	bool time_based, stonewall, zero_buffers, invalidate, norandommap;
	bool seed_set;
	const char *filename, *directory, *cpus;
	char percentiles[256];
};

/* fio's defaults, which are not all iolab's (rw=read, psync, direct=0). */
void fio_opt_defaults(struct fset *s);
/* Apply one option (@val NULL for a bare "time_based"); false with @err
 * naming it and what to do. @s keeps pointers into @val. */
bool fio_opt_apply(struct fset *s, const char *key, const char *val,
		   struct err *err);
/* @s as the run options of @j, the @idx-th job of its file (from 0). */
bool fio_opt_translate(struct fio_job *j, const struct fset *s, int idx,
		       struct err *err);

#endif
