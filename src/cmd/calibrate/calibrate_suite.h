/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `iolab calibrate`: Oracle CALIBRATE_IO's figures from three measured
 * phases on one prepared, read-only target:
 *   small   random --block-size reads, latency-capped -> max_iops, latency
 *   large   random 1 MiB reads, no cap                -> max_mbps
 *   single  random 1 MiB reads, one thread at QD1     -> max_pmbps
 * each a calibrate_search over the load, measured with the core's runner,
 * all within one time budget. Then the knee and a one-sentence reading.
 */
#ifndef IOLAB_CMD_CALIBRATE_CALIBRATE_SUITE_H
#define IOLAB_CMD_CALIBRATE_CALIBRATE_SUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "calibrate_search.h"
#include "../../core/job.h"
#include "../../util/warn.h"

struct err;
struct fsview;
struct target;
struct target_env;

/* --disks N allows this many reads in flight per disk. */
#define CAL_SMALL_PER_DISK 32 /* a SATA NCQ queue */
#define CAL_LARGE_PER_DISK 8 /* CrystalDiskMark's SEQ1M Q8 */
#define CAL_LARGE_MAX_LOAD 64 /* 64 MiB of buffers at most */
#define CAL_MAX_DISKS_DEFAULT 32 /* a default never allows more than 1024 */
#define CAL_LARGE_BS (1u << 20)
#define CAL_KNEE_FRACTION 0.8

struct cal_opts {
	unsigned int disks; /* 0 = from the device */
	double max_latency_ms;
	enum cal_stat stat;
	uint64_t bs;
	uint64_t budget_ns;
	/* How closely a point's windows must agree to be trusted (0: the
	 * search's 10 %); a point whose windows do not is re-measured (up
	 * to 3, their median) and marked noisy if they still disagree. */
	double precision;
	uint64_t start_ns; /* clock_ns() when the budget began */
	enum engine_kind engine;
	enum cache_mode cache;
	bool progress;
};

enum cal_phase_id {
	CAL_PHASE_SMALL,
	CAL_PHASE_LARGE,
	CAL_PHASE_SINGLE,
	CAL_PHASES,
};

struct cal_phase {
	bool ran;
	uint64_t bs;
	struct cal_search_params p;
	struct cal_search s;
	double seconds; /* wall time, warm-ups and overheads included */
	double window_s, warmup_s; /* the per-window times it settled on */
};

struct cal_knee {
	bool valid;
	double fraction; /* of max_iops */
	double iops; /* fraction x max_iops */
	double load; /* load that gives it, interpolated on the curve */
	double mean_ns; /* mean latency there, interpolated */
	double qd1_mean_ns; /* latency of a lone request */
	/* Little's law: max_iops x QD1 latency, the number of requests the
	 * device serves at once without queueing (its parallelism). */
	double parallelism;
	/* max_iops x actual latency: requests in flight at max_iops. */
	double in_flight;
};

struct cal_result {
	char engine_features[96]; /* as the runner reported them */
	unsigned int disks;
	char disks_source[192];
	unsigned int max_small_load, max_large_load;
	struct cal_phase ph[CAL_PHASES];
	bool cap_met; /* some load met --max-latency */
	double max_iops, actual_latency_ms;
	double max_mbps, max_pmbps;
	struct cal_knee knee;
	char classification[640];
	double budget_s, used_s; /* used: from start_ns to the end */
	bool cut_short; /* the budget cut a phase short */
	int stop_signal; /* interrupted */
	bool io_error; /* a read failed; io_error_msg says which */
	char io_error_msg[256];
	struct warnings warnings;
};

/*
 * Calibrate @t (prepared, read-only) per @o into @r. Returns false with
 * @err set when nothing could be measured (bad job, engine missing);
 * otherwise true, with r->stop_signal / r->io_error set if it ended early.
 */
bool calibrate_run(const struct cal_opts *o, const struct target *t,
		   struct cal_result *r, struct err *err);
void calibrate_free(struct cal_result *r);

/*
 * Most small reads in flight for @disks (0 = from the device, at most
 * CAL_MAX_DISKS_DEFAULT) on @engine; with the 1 MiB phases' at most
 * CAL_LARGE_MAX_LOAD, it bounds the buffers a calibration maps.
 */
unsigned int calibrate_small_load_bound(unsigned int disks,
					enum engine_kind engine);
/* Bytes of I/O buffers the largest window of a calibration may map. */
uint64_t calibrate_buffer_bound(unsigned int disks, enum engine_kind engine,
				uint64_t bs);

/* The pieces, exposed for tests. */

/*
 * Default --disks for the whole disk @disk ("vda", "md0", "" for none):
 * the leaf members of an md/dm device, else the device's queue capacity
 * (nr_requests x hardware queues) / CAL_SMALL_PER_DISK, in [1, 32].
 * @why gets a phrase saying which.
 */
unsigned int calibrate_default_disks(const struct fsview *v, const char *disk,
				     char *why, size_t len);
/*
 * Split @load into QD x threads for @engine on @ncpus CPUs; returns the
 * load actually run (a multiple of the threads).
 */
unsigned int calibrate_split(unsigned int load, enum engine_kind engine,
			     unsigned int ncpus, unsigned int *qd,
			     unsigned int *threads);
/* The knee on the small-read curve; k->valid false without a max_iops. */
void calibrate_knee(const struct cal_search *small, double fraction,
		    struct cal_knee *k);

/* What calibrate_classify reads. */
struct cal_facts {
	double qd1_mean_ns; /* 0 if QD1 was not measured */
	/* The QD1 point's median latency, and the lowest and highest of its
	 * windows' medians; 0 if unknown (then the mean is read). */
	double qd1_p50_ns, qd1_p50_lo_ns, qd1_p50_hi_ns;
	bool qd1_noisy; /* its windows disagreed beyond the tolerance */
	double qd1_iops;
	double best_iops; /* max_iops, or the best IOPS seen if not met */
	unsigned int best_load;
	unsigned int nloads; /* loads measured */
	double knee_load;
	enum cal_end end;
	bool still_growing; /* the best load gained >= 5 % on the one before */
	bool cap_met;
	double cap_ms;
	unsigned int max_load;
	bool ram_backed, buffered, null_engine, virtualized;
	bool unbacked; /* reads of a region no disk stored were flagged */
	int rotational; /* -1 unknown */
	const char *driver; /* "virtio_blk", "ata_piix", "" */
};
/* One sentence that reads the result, e.g. the controller it suggests. */
void calibrate_classify(const struct cal_facts *f, char *buf, size_t len);

#endif
