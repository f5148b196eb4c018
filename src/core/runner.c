// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The runner: lanes, the per-lane I/O loop, and the merge. See runner.h.
 *
 * Timing: every lane reads the clock once per loop pass; completions reaped
 * in a pass share that timestamp. A request's latency runs from the moment
 * it was due: in a closed loop, when the completion that freed its slot was
 * reaped (as fio's total latency, so the time a request waits for its turn
 * to be submitted counts, and Little's law holds: QD = IOPS x mean); in a
 * paced (open-loop) run, its intended start, so a stall shows up as latency
 * rather than as fewer requests.
 *
 * Submission: at most job_submit_batch() requests per submit call; while
 * free slots remain the lane reaps without sleeping and submits the next
 * batch, so the queue is refilled in small steps, as a completion-driven
 * application refills it. What submit did not accept stays queued in the
 * engine (engine.h) and is offered again at the next pass; only accepted
 * requests count as in flight.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "plausible.h"
#include "runner.h"
#include "workload.h"
#include "../util/clock.h"
#include "../util/err.h"
#include "../util/parse.h"
#include "../util/sig.h"
#include "../util/xmem.h"

/* Shared by all lanes of a run; written by the main thread before "go". */
struct run_ctl {
	uint64_t t0_ns, measure_ns, end_ns;
	int stop; /* relaxed atomic: a lane failed, or a signal came */
	int abort; /* a lane failed to start: do not run */
	pthread_barrier_t ready, go;
	pthread_mutex_t lock;
	pthread_cond_t done_cond; /* signalled as each lane finishes */
	unsigned int finished; /* protected by lock */
};

struct lane {
	/* set up by the main thread */
	const struct job_spec *j;
	const struct target *t;
	struct run_ctl *ctl;
	const struct engine_ops *ops;
	const struct runner_clock *clk; /* NULL: util/clock.h */
	unsigned int id, nlanes, depth, batch;
	int cpu; /* CPU to pin to, or -1 */
	uint64_t quota; /* I/Os to issue, 0 = unlimited */
	uint64_t interval_ns; /* paced: time between this lane's requests */

	/* owned by the lane thread */
	struct engine *e;
	int fd;
	void *bufs;
	size_t bufs_len;
	struct io_slot *slots;
	/* Free slots in the order they came free: the request due first is
	 * submitted first, and no slot is left behind when completions come
	 * back inside the submit call (native on tmpfs). */
	struct io_slot **free, **done;
	unsigned int free_head, nfree;
	struct workload wl;
	uint64_t next_ns; /* paced: intended start of the next request */
	uint64_t writes_since_flush;
	uint64_t stamp; /* changes every write's data */
	uint64_t next_tick_ns; /* end of the current time-series second */
	uint32_t sec;

	/* results, read by the main thread after join */
	struct dir_stats st[DIR_COUNT];
	uint64_t flush_skipped, ramp_ios, ramp_lat_ns, errors;
	uint64_t wait_ns; /* due to submit call, summed over issued */
	uint64_t issued; /* measured requests submitted */
	int first_errno, first_err_op;
	uint64_t first_err_off;
	int64_t first_err_res;
	const char *failed_call; /* "submit" or "reap" that returned -errno */
	int failed_errno;
	uint32_t nts;
	struct ts_point *ts;
	struct err err;
	int rc;
	uint64_t last_ns; /* time of the last completion */
	char features[96];
	uint64_t progress_ios; /* relaxed atomic, for the progress line */
	unsigned int inflight_pub; /* relaxed atomic, for the stop notice */
	pthread_t tid;
} __attribute__((aligned(64)));

static bool lane_setup(struct lane *l)
{
	const struct job_spec *j = l->j;
	bool writes = rw_writes(j);
	uint64_t stride = (j->bs + 4095) & ~4095ull;
	struct engine_setup es;

	l->fd = -1;
	if (!(l->ops->flags & ENGINE_NO_IO)) {
		l->fd = target_open(l->t, j->cache, writes, &l->err);
		if (l->fd < 0)
			return false;
	}
	/* An engine that never touches the data gets no buffers: its
	 * slots keep buf NULL and lane_prep stamps nothing. */
	if (l->ops->flags & ENGINE_NO_IO)
		stride = 0;
	l->bufs_len = stride * l->depth;
	if (l->bufs_len) {
		l->bufs = mmap(NULL, l->bufs_len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1,
			       0);
		if (l->bufs == MAP_FAILED) {
			l->bufs = NULL;
			return err_set(
				&l->err, EXIT_ENV, errno,
				"cannot allocate %llu bytes of I/O buffers; use a smaller --qd, --threads or --bs",
				(unsigned long long)l->bufs_len);
		}
	}
	if (l->bufs && j->pattern == PATTERN_RANDOM) {
		struct prng r;

		prng_seed(&r, j->seed ^ (0xb0ffull << 32) ^ l->id);
		prng_fill(&r, l->bufs, l->bufs_len);
	}
	l->slots = xcalloc(l->depth, sizeof(*l->slots));
	l->free = xcalloc(l->depth, sizeof(*l->free));
	l->done = xcalloc(l->depth, sizeof(*l->done));
	for (unsigned int i = 0; i < l->depth; i++) {
		l->slots[i].buf = l->bufs ? (char *)l->bufs + i * stride : NULL;
		l->slots[i].len = (uint32_t)j->bs;
		l->slots[i].idx = (uint16_t)i;
		l->free[i] = &l->slots[i];
	}
	l->free_head = 0;
	l->nfree = l->depth;
	for (int d = 0; d < DIR_COUNT; d++)
		hist_init(&l->st[d].lat);
	workload_init(&l->wl, j, l->t->region_off, l->t->region_len, l->id,
		      l->nlanes);
	es = (struct engine_setup){
		.fd = l->fd,
		.depth = l->depth,
		.buf_base = l->bufs,
		.buf_stride = stride,
		.direct = cache_direct(j->cache),
	};
	l->e = l->ops->init(&es, &l->err);
	if (!l->e)
		return false;
	snprintf(l->features, sizeof(l->features), "%s",
		 l->ops->features(l->e));
	return true;
}

static void lane_teardown(struct lane *l)
{
	if (l->e)
		l->ops->exit(l->e);
	if (l->fd >= 0)
		close(l->fd);
	if (l->bufs)
		munmap(l->bufs, l->bufs_len);
	free(l->slots);
	free(l->free);
	free(l->done);
	l->e = NULL;
	l->fd = -1;
	l->bufs = NULL;
	l->slots = NULL;
	l->free = l->done = NULL;
}

static void lane_fail(struct lane *l, int op, uint64_t off, int64_t res)
{
	if (!l->errors++) {
		l->first_err_op = op;
		l->first_err_off = off;
		l->first_err_res = res;
		l->first_errno = res < 0 ? (int)-res : 0;
	}
	__atomic_store_n(&l->ctl->stop, 1, __ATOMIC_RELAXED);
}

/*
 * An engine call failed: the engine, not a request. Not counted as an I/O
 * error of a request (there is no offset to name); the run stops.
 */
static void lane_call_fail(struct lane *l, const char *call, int rc)
{
	if (!l->failed_call) {
		l->failed_call = call;
		l->failed_errno = -rc;
	}
	__atomic_store_n(&l->ctl->stop, 1, __ATOMIC_RELAXED);
}

static inline uint64_t run_now(const struct runner_clock *c)
{
	return __builtin_expect(!c, 1) ? clock_ns() : c->now_ns(c);
}

static void run_sleep_until(const struct runner_clock *c, uint64_t t_ns)
{
	if (c)
		c->sleep_until(c, t_ns);
	else
		clock_sleep_until(t_ns);
}

static inline void lane_complete(struct lane *l, struct io_slot *s,
				 uint64_t now)
{
	int op = s->op;

	if (__builtin_expect(s->res < 0 || (op != IO_FLUSH &&
					    s->res != (int64_t)s->len),
			     0)) {
		lane_fail(l, op, s->off, s->res);
		return;
	}
	/* Warm-up is what started before the measuring did. */
	if (__builtin_expect(s->t_start_ns < l->ctl->measure_ns, 0)) {
		l->ramp_ios++;
		l->ramp_lat_ns += now - s->t_start_ns;
		return;
	}
	hist_record(&l->st[op].lat, now - s->t_start_ns);
	l->st[op].ios++;
	l->st[op].bytes += op == IO_FLUSH ? 0 : s->len;
	if (op != IO_FLUSH) {
		/* The drain after the window (requests in flight at its end)
		 * counts in its last second: never a second of its own. */
		if (__builtin_expect(now >= l->ctl->end_ns, 0))
			now = l->ctl->end_ns - 1;
		while (now >= l->next_tick_ns) {
			l->sec++;
			l->next_tick_ns += 1000000000ull;
		}
		if (l->sec < l->nts)
			l->ts[l->sec].ios[op]++;
	}
}

/* Choose the next request for @s; false if it was a skipped flush. */
static inline void lane_prep(struct lane *l, struct io_slot *s)
{
	const struct job_spec *j = l->j;

	if (j->flush_every && l->writes_since_flush >= j->flush_every) {
		l->writes_since_flush = 0;
		if (!cache_no_flush(j->cache)) {
			s->op = IO_FLUSH;
			s->len = 0;
			return;
		}
		/* cache=unsafe drops the guest's flush, as QEMU does. */
		l->flush_skipped++;
	}
	s->len = (uint32_t)j->bs;
	s->off = workload_next_off(&l->wl);
	if (workload_next_is_read(&l->wl)) {
		s->op = IO_READ;
		return;
	}
	s->op = IO_WRITE;
	l->writes_since_flush++;
	if (j->pattern == PATTERN_RANDOM && s->buf) {
		/* New content per write: a stamp in every 4 KiB. */
		for (uint32_t o = 0; o < s->len; o += 4096)
			*(uint64_t *)((char *)s->buf + o) = ++l->stamp;
	}
}

static inline struct io_slot *free_pop(struct lane *l)
{
	struct io_slot *s = l->free[l->free_head];

	if (++l->free_head == l->depth)
		l->free_head = 0;
	l->nfree--;
	return s;
}

static inline void free_unpop(struct lane *l, struct io_slot *s)
{
	l->free_head = l->free_head ? l->free_head - 1 : l->depth - 1;
	l->free[l->free_head] = s;
	l->nfree++;
}

static inline void free_push(struct lane *l, struct io_slot *s)
{
	unsigned int i = l->free_head + l->nfree;

	l->free[i >= l->depth ? i - l->depth : i] = s;
	l->nfree++;
}

/* Nothing in flight and the engine took none (-EAGAIN): the wait before
 * offering them again. */
#define RESUBMIT_WAIT_NS 100000ull

static void lane_loop(struct lane *l)
{
	const struct engine_ops *ops = l->ops;
	const struct runner_clock *clk = l->clk;
	struct run_ctl *ctl = l->ctl;
	const bool paced = l->interval_ns != 0;
	uint64_t now = run_now(clk), issued = 0;
	/* In flight: accepted by submit, not reaped. Queued: in the engine,
	 * not accepted yet. */
	unsigned int inflight = 0, queued = 0;
	bool issuing = true;

	l->next_tick_ns = ctl->measure_ns + 1000000000ull;
	l->last_ns = now;
	for (unsigned int i = 0; i < l->depth; i++)
		l->slots[i].t_start_ns = now;
	for (;;) {
		if (issuing &&
		    (__atomic_load_n(&ctl->stop, __ATOMIC_RELAXED) ||
		     now >= ctl->end_ns || (l->quota && issued >= l->quota)))
			issuing = false;
		if (issuing && l->nfree) {
			unsigned int n = 0;

			while (l->nfree && n < l->batch &&
			       (!l->quota || issued < l->quota)) {
				struct io_slot *s;

				if (paced && l->next_ns > now)
					break;
				s = free_pop(l);
				lane_prep(l, s);
				/* Closed loop: t_start_ns is when the slot
				 * came free, set at reap. */
				if (paced && s->op != IO_FLUSH) {
					s->t_start_ns = l->next_ns;
					l->next_ns += l->interval_ns;
				} else if (paced) {
					s->t_start_ns = now;
				}
				if (ops->queue(l->e, s)) {
					free_unpop(l, s);
					break;
				}
				/* --ios counts measured I/Os only. */
				if (s->op != IO_FLUSH &&
				    s->t_start_ns >= ctl->measure_ns) {
					issued++;
					if (now > s->t_start_ns)
						l->wait_ns +=
							now - s->t_start_ns;
				}
				n++;
			}
			queued += n;
		}
		/* Also after issuing stopped: what the engine holds must go
		 * in before the lane can drain. */
		if (queued) {
			int rc = ops->submit(l->e);

			if (__builtin_expect(rc < 0, 0)) {
				/* Drain what is in flight; the refused ones
				 * go with the engine. */
				lane_call_fail(l, "submit", rc);
				issuing = false;
				queued = 0;
			} else if (__builtin_expect((unsigned int)rc < queued,
						    0)) {
				inflight += (unsigned int)rc;
				queued -= (unsigned int)rc;
			} else {
				inflight += queued;
				queued = 0;
			}
			__atomic_store_n(&l->inflight_pub, inflight + queued,
					 __ATOMIC_RELAXED);
		}
		if (!inflight) {
			if (queued) {
				run_sleep_until(clk, now + RESUBMIT_WAIT_NS);
				now = run_now(clk);
				continue;
			}
			if (!issuing)
				break;
			if (paced && l->next_ns > now) {
				uint64_t until = l->next_ns < ctl->end_ns ?
							 l->next_ns :
							 ctl->end_ns;

				run_sleep_until(clk, until);
			}
			now = run_now(clk);
			continue;
		}
		{
			uint64_t wait = ENGINE_WAIT_FOREVER;
			int r;

			if (paced && issuing && l->nfree)
				wait = l->next_ns > now ? l->next_ns - now : 0;
			else if (issuing && l->nfree)
				/* A batch is in: take what completed, then the
				 * next batch, without sleeping. */
				wait = 0;
			r = ops->reap(l->e, l->done, l->depth, wait);
			now = run_now(clk);
			if (__builtin_expect(r < 0, 0)) {
				if (r == -EINTR || r == -EAGAIN)
					continue;
				lane_call_fail(l, "reap", r);
				/* An engine that fails to reap cannot drain. */
				break;
			}
			if (r)
				l->last_ns = now;
			for (int i = 0; i < r; i++) {
				lane_complete(l, l->done[i], now);
				l->done[i]->t_start_ns = now;
				free_push(l, l->done[i]);
			}
			inflight -= (unsigned int)r;
			__atomic_store_n(&l->inflight_pub, inflight + queued,
					 __ATOMIC_RELAXED);
			__atomic_store_n(&l->progress_ios,
					 l->st[DIR_READ].ios +
						 l->st[DIR_WRITE].ios,
					 __ATOMIC_RELAXED);
		}
	}
	l->issued = issued;
}

/*
 * Pin the lane to its CPU. A failure (the CPU went offline, or a cpuset
 * took it away since the list was checked) stops the run: figures from an
 * unpinned lane would not be what --cpus asked for.
 */
static bool lane_pin(struct lane *l)
{
	cpu_set_t set;
	int rc;

	if (l->cpu < 0)
		return true;
	CPU_ZERO(&set);
	CPU_SET((size_t)l->cpu, &set);
	rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (rc)
		return err_set(
			&l->err, EXIT_ENV, rc,
			"cannot pin I/O thread %u to CPU %d (--cpus %s); choose CPUs this process may run on (see taskset -p $$)",
			l->id + 1, l->cpu, l->j->cpus);
	return true;
}

static void *lane_main(void *arg)
{
	struct lane *l = arg;
	sigset_t all;

	/* Signals are the main thread's business. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	/* Engines are set up by the thread that uses them (io_uring's
	 * single-issuer rings require it). */
	if (!lane_pin(l) || !lane_setup(l)) {
		l->rc = -1;
		__atomic_store_n(&l->ctl->abort, 1, __ATOMIC_RELAXED);
	}
	pthread_barrier_wait(&l->ctl->ready);
	pthread_barrier_wait(&l->ctl->go);
	if (!l->rc && !__atomic_load_n(&l->ctl->abort, __ATOMIC_RELAXED)) {
		l->next_ns = l->ctl->t0_ns + l->interval_ns * l->id / l->nlanes;
		lane_loop(l);
	}
	lane_teardown(l);
	pthread_mutex_lock(&l->ctl->lock);
	l->ctl->finished++;
	pthread_cond_signal(&l->ctl->done_cond);
	pthread_mutex_unlock(&l->ctl->lock);
	return NULL;
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static void progress_line(const struct runner_opts *o, const struct job_spec *j,
			  struct lane *lanes, unsigned int n, uint64_t now,
			  const struct run_ctl *ctl, uint64_t *last_ios,
			  uint64_t *last_ns, double *last_rate)
{
	const char *label = o->label ? o->label : "iolab";
	uint64_t ios = 0;
	char bs[16], total[32] = "", title[64] = "", line[320];
	struct winsize ws;
	double rate;

	for (unsigned int i = 0; i < n; i++)
		ios += __atomic_load_n(&lanes[i].progress_ios,
				       __ATOMIC_RELAXED);
	/* The rate over the last whole second: steadier than 250 ms. */
	if (now >= *last_ns + 1000000000ull) {
		*last_rate = (double)(ios - *last_ios) * 1e9 /
			     (double)(now - *last_ns);
		*last_ios = ios;
		*last_ns = now;
	}
	rate = *last_rate;
	if (!rate && now > ctl->measure_ns + 100000000ull) /* first second */
		rate = (double)ios * 1e9 / (double)(now - ctl->measure_ns);
	if (now < ctl->measure_ns) {
		*last_ns = ctl->measure_ns; /* rates start with the measuring */
		snprintf(line, sizeof(line), "%s: warming up, %.0f s left",
			 label, (double)(ctl->measure_ns - now) / 1e9);
	} else {
		if (j->runtime_ns)
			snprintf(total, sizeof(total), "/%.0f",
				 (double)j->runtime_ns / 1e9);
		if (!o->label_names_job)
			snprintf(title, sizeof(title), "%s %s QD%u T%u  ",
				 rw_name(j->rw),
				 fmt_size_token(j->bs, bs, sizeof(bs)), j->qd,
				 j->threads);
		snprintf(line, sizeof(line),
			 "%s: %s%.0f%s s  %.0f IOPS  %.1f MB/s", label, title,
			 (double)(now - ctl->measure_ns) / 1e9, total, rate,
			 rate * (double)j->bs / 1e6);
	}
	/* A line that wraps cannot be redrawn in place: cut it instead. */
	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 1 &&
	    strlen(line) >= ws.ws_col)
		line[ws.ws_col - 1] = '\0';
	fprintf(stderr, "\r%s\033[K", line);
}

static void drop_page_cache(const struct job_spec *j, const struct target *t)
{
	int fd;

	if (cache_direct(j->cache) || engine_has(j->engine, ENGINE_NO_IO))
		return;
	fd = target_reopen(t, O_RDONLY, NULL);
	if (fd < 0)
		return;
	/* Dirty pages are not dropped: write them back first. */
	fdatasync(fd);
	if (!j->warm_cache)
		posix_fadvise(fd, (off_t)t->region_off, (off_t)t->region_len,
			      POSIX_FADV_DONTNEED);
	close(fd);
}

static void merge(struct run_result *res, struct lane *lanes, unsigned int n)
{
	for (int d = 0; d < DIR_COUNT; d++)
		hist_init(&res->dir[d].lat);
	for (unsigned int i = 0; i < n; i++) {
		struct lane *l = &lanes[i];

		for (int d = 0; d < DIR_COUNT; d++) {
			res->dir[d].ios += l->st[d].ios;
			res->dir[d].bytes += l->st[d].bytes;
			hist_add(&res->dir[d].lat, &l->st[d].lat);
		}
		res->flush_skipped += l->flush_skipped;
		res->ramp_ios += l->ramp_ios;
		res->ramp_lat_ns += l->ramp_lat_ns;
		res->submit_wait_ns += l->wait_ns;
		res->submit_wait_n += l->issued;
		if (l->errors && !res->errors) {
			res->first_errno = l->first_errno;
			res->first_err_op = l->first_err_op;
			res->first_err_off = l->first_err_off;
			res->first_err_res = l->first_err_res;
		}
		res->errors += l->errors;
		for (uint32_t s = 0; s < res->nts && s < l->nts; s++) {
			res->ts[s].ios[0] += l->ts[s].ios[0];
			res->ts[s].ios[1] += l->ts[s].ios[1];
		}
	}
}

/*
 * Nothing completed while measuring, and no error or signal says why:
 * every figure would be a 0 that was never measured. Refused rather than
 * reported (a --runtime or --time shorter than one I/O, a pace slower than
 * the run, a device that completed nothing after the warm-up).
 */
static bool no_io_check(const struct job_spec *j, const struct runner_opts *o,
			struct run_result *res, struct err *err)
{
	char rt[32] = "", ramp[32];

	if ((o && o->allow_no_io) || res->stop_signal || res->errors ||
	    result_total_ios(res) || res->dir[DIR_FLUSH].ios)
		return true;
	if (j->runtime_ns)
		snprintf(rt, sizeof(rt), " in %s",
			 fmt_duration(j->runtime_ns, ramp, sizeof(ramp)));
	return err_set(
		err, EXIT_ENV, 0,
		"no I/O completed%s of measuring (%llu in the warm-up): nothing was measured, so there are no figures to report; measure for longer (--runtime, --time, --ios) or at a higher --rate-iops, and check the device with iolab doctor",
		rt, (unsigned long long)res->ramp_ios);
}

/*
 * Only the seconds measured: an --ios run sized for an hour may take a few
 * milliseconds; a timed run's drain belongs to its window's last second
 * (result_window_s). An I/O completing exactly on the last boundary opens
 * one more second.
 */
static uint32_t measured_seconds(const struct run_result *res, uint32_t cap)
{
	uint32_t m = (uint32_t)ceil(result_window_s(res) - 1e-9);

	if (m < cap && (res->ts[m].ios[0] || res->ts[m].ios[1]))
		m++;
	return m < cap ? m : cap;
}

/*
 * A second after a stop signal, I/O still in the device (a stuck or very
 * slow one) would make iolab wait without a word: say what it waits for.
 */
static bool stuck_notice(struct lane *lanes, unsigned int n, bool progress)
{
	unsigned long long pending = 0;

	for (unsigned int i = 0; i < n; i++)
		pending += __atomic_load_n(&lanes[i].inflight_pub,
					   __ATOMIC_RELAXED);
	if (!pending)
		return false;
	fprintf(stderr,
		"%siolab: waiting for %llu in-flight I/O to complete before exiting; press Ctrl-C again to leave without waiting\n",
		progress ? "\r\033[K" : "", pending);
	return true;
}

/*
 * A failed submit or reap is the engine's failure, not a request's: say
 * which engine and which call, with its errno, rather than an I/O error
 * at an offset no request had.
 */
static bool engine_call_check(const struct engine_ops *ops,
			      const struct lane *lanes, unsigned int n,
			      struct err *err)
{
	unsigned long long done = 0;
	const struct lane *bad = NULL;

	for (unsigned int i = 0; i < n; i++) {
		const struct lane *l = &lanes[i];

		done += l->ramp_ios + l->st[DIR_READ].ios +
			l->st[DIR_WRITE].ios + l->st[DIR_FLUSH].ios;
		if (l->failed_call && !bad)
			bad = l;
	}
	if (!bad)
		return true;
	return err_set(
		err, EXIT_IO, bad->failed_errno,
		"%s engine: %s failed: %s (errno %d) after %llu I/Os completed; the run stopped there: try another --engine, and check the target with iolab doctor",
		ops->name, bad->failed_call, strerror(bad->failed_errno),
		bad->failed_errno, done);
}

bool runner_run(const struct job_spec *j, const struct target *t,
		const struct runner_opts *o, struct run_result *res,
		struct err *err)
{
	const struct engine_ops *ops = o && o->engine ? o->engine :
							engine_get(j->engine);
	const struct runner_clock *clk = o ? o->clock : NULL;
	unsigned int n = job_lanes(j), depth = job_lane_depth(j);
	uint64_t start_ns, last_ns, last_ios = 0;
	double last_rate = 0;
	struct rusage ru0 = { 0 }, ru1;
	bool ru0_taken = false, ok = true, told = false;
	uint64_t stop_ns = 0;
	struct run_ctl ctl;
	struct lane *lanes;
	int cpus[PARSE_MAX_CPU], ncpus = 0;
	uint32_t nts;

	clock_setup(-1);
	memset(res, 0, sizeof(*res));
	res->spec = *j;
	res->lanes = n;
	if (!ops)
		return err_set(
			err, EXIT_ENV, ENOSYS,
			"this build of iolab has no %s engine; rebuild with its library, or use --engine threads",
			engine_name(j->engine));
	if (!ops->probe(err))
		return false;
	if (!target_check_job(t, j, err))
		return false;
	ncpus = job_cpus(j, cpus, PARSE_MAX_CPU, err);
	if (ncpus < 0)
		return false;
	/* The last guard for a caller that did not check: buffers that do
	 * not fit are refused, not left to the OOM killer. */
	if (!job_check_memory(j, "use a smaller --qd, --threads or --bs", err))
		return false;
	drop_page_cache(j, t);

	nts = j->runtime_ns ? (uint32_t)(j->runtime_ns / 1000000000ull) + 2 :
			      3600;
	res->nts = nts;
	res->ts = xcalloc(nts, sizeof(*res->ts));
	lanes = xaligned(64, n * sizeof(*lanes));
	memset(lanes, 0, n * sizeof(*lanes));
	memset(&ctl, 0, sizeof(ctl));
	ctl.end_ns = UINT64_MAX;
	ctl.measure_ns = UINT64_MAX;
	pthread_barrier_init(&ctl.ready, NULL, n + 1);
	pthread_barrier_init(&ctl.go, NULL, n + 1);
	pthread_mutex_init(&ctl.lock, NULL);
	{
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&ctl.done_cond, &ca);
		pthread_condattr_destroy(&ca);
	}
	for (unsigned int i = 0; i < n; i++) {
		struct lane *l = &lanes[i];

		l->j = j;
		l->t = t;
		l->ctl = &ctl;
		l->ops = ops;
		l->clk = clk;
		l->id = i;
		l->nlanes = n;
		l->depth = depth;
		l->batch = job_submit_batch(j);
		l->cpu = ncpus ? cpus[i % (unsigned int)ncpus] : -1;
		l->fd = -1;
		if (j->ios)
			l->quota = j->ios / n + (i < j->ios % n);
		if (j->rate_iops)
			l->interval_ns = (uint64_t)((double)n * 1e9 /
						    (double)j->rate_iops);
		l->nts = nts;
		l->ts = xcalloc(nts, sizeof(*l->ts));
		if (pthread_create(&l->tid, NULL, lane_main, l)) {
			/* Cannot happen after the barrier sizes were set:
			 * treat as fatal for the whole process. */
			err_set(err, EXIT_ENV, errno,
				"cannot start thread %u of %u", i + 1, n);
			exit(err_report(err));
		}
	}
	pthread_barrier_wait(&ctl.ready);
	start_ns = run_now(clk);
	ctl.t0_ns = start_ns;
	ctl.measure_ns = start_ns + j->ramp_ns;
	if (j->runtime_ns)
		ctl.end_ns = ctl.measure_ns + j->runtime_ns;
	pthread_barrier_wait(&ctl.go);
	last_ns = start_ns;

	/* Watch for signals, show progress, sample CPU at the measure start. */
	pthread_mutex_lock(&ctl.lock);
	while (ctl.finished < n) {
		uint64_t now = run_now(clk), step = 250000000ull, wake;
		struct timespec ts;

		if (stop_ns && !told && now >= stop_ns + 1000000000ull)
			told = stuck_notice(lanes, n, o && o->progress);
		if (!ru0_taken && now >= ctl.measure_ns) {
			getrusage(RUSAGE_SELF, &ru0);
			ru0_taken = true;
		}
		if (sig_pending() && !res->stop_signal) {
			res->stop_signal = sig_pending();
			__atomic_store_n(&ctl.stop, 1, __ATOMIC_RELAXED);
			stop_ns = now;
		}
		/* No progress line over the notice. */
		if (o && o->progress && !ctl.abort && !told)
			progress_line(o, j, lanes, n, now, &ctl, &last_ios,
				      &last_ns, &last_rate);
		if (!ru0_taken && ctl.measure_ns < now + step)
			step = ctl.measure_ns > now ? ctl.measure_ns - now : 0;
		/* The condition variable waits on CLOCK_MONOTONIC, whatever
		 * the run's clock is. */
		wake = clock_mono_ns() + step;
		ts.tv_sec = (time_t)(wake / 1000000000ull);
		ts.tv_nsec = (long)(wake % 1000000000ull);
		pthread_cond_timedwait(&ctl.done_cond, &ctl.lock, &ts);
	}
	pthread_mutex_unlock(&ctl.lock);
	if (o && o->progress && !ctl.abort)
		fprintf(stderr, "\r\033[K");
	for (unsigned int i = 0; i < n; i++)
		pthread_join(lanes[i].tid, NULL);
	getrusage(RUSAGE_SELF, &ru1);
	if (!ru0_taken)
		ru0 = ru1;
	pthread_barrier_destroy(&ctl.ready);
	pthread_barrier_destroy(&ctl.go);
	pthread_mutex_destroy(&ctl.lock);
	pthread_cond_destroy(&ctl.done_cond);

	for (unsigned int i = 0; i < n; i++) {
		if (lanes[i].rc) {
			*err = lanes[i].err;
			ok = false;
			break;
		}
	}
	if (ok)
		ok = engine_call_check(ops, lanes, n, err);
	if (ok) {
		uint64_t measured_end = 0;

		for (unsigned int i = 0; i < n; i++)
			if (lanes[i].last_ns > measured_end)
				measured_end = lanes[i].last_ns;
		merge(res, lanes, n);
		if (measured_end > ctl.measure_ns)
			res->elapsed_s =
				(double)(measured_end - ctl.measure_ns) / 1e9;
		res->user_s = tv_s(ru1.ru_utime) - tv_s(ru0.ru_utime);
		res->sys_s = tv_s(ru1.ru_stime) - tv_s(ru0.ru_stime);
		res->partial = res->stop_signal || res->errors;
		res->nts = measured_seconds(res, nts);
		snprintf(res->engine_features, sizeof(res->engine_features),
			 "%s", lanes[0].features);
		ok = no_io_check(j, o, res, err);
		if (ok)
			plausible_check(res, t);
	}
	for (unsigned int i = 0; i < n; i++)
		free(lanes[i].ts);
	free(lanes);
	if (!ok) {
		/* A run that could not start leaves nothing to free. */
		free(res->ts);
		res->ts = NULL;
		res->nts = 0;
	}
	return ok;
}
