// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The runner (core/runner.c) against a fake engine and a clock the test
 * controls, through runner_opts.engine and runner_opts.clock. The fake
 * engine completes each request a set time after submit accepted it, on
 * the fake clock, which moves only when the runner waits (a reap with a
 * timeout, a sleep): a run is a deterministic simulation, so the figures
 * are checked exactly. It can accept fewer requests than offered, fail
 * submit or reap, fail one request, and it checks the engine contract of
 * engine.h: a slot is queued only when free, reaped only once accepted,
 * and the runner never waits for nothing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/job.h"
#include "core/result.h"
#include "core/runner.h"
#include "core/target.h"
#include "engine/engine.h"
#include "util/err.h"
#include "util/warn.h"

#define MS 1000000ull
#define FAKE_MAX 64
/* Far from 0, so a time mistaken for a duration shows. */
#define T_START (1000ull * 1000 * MS)

/* --- the clock ---------------------------------------------------------- */

/* Read by the runner's main thread too: atomic, moved by the lane only. */
static uint64_t fake_now;
static unsigned long fake_sleeps;

static uint64_t fake_clock_now(const struct runner_clock *c)
{
	(void)c;
	return __atomic_load_n(&fake_now, __ATOMIC_RELAXED);
}

static void fake_advance(uint64_t t_ns)
{
	/* No run here lasts an hour: a lane that sleeps on without end
	 * (waiting for requests it never offers again) stops the test. */
	if (t_ns > T_START + 3600 * 1000 * MS) {
		fprintf(stderr, "test_runner: the run never ends\n");
		abort();
	}
	if (t_ns > fake_clock_now(NULL))
		__atomic_store_n(&fake_now, t_ns, __ATOMIC_RELAXED);
}

static void fake_clock_sleep(const struct runner_clock *c, uint64_t t_ns)
{
	(void)c;
	fake_sleeps++;
	fake_advance(t_ns);
}

static const struct runner_clock fake_clock = {
	.now_ns = fake_clock_now,
	.sleep_until = fake_clock_sleep,
};

/* --- the engine ----------------------------------------------------------- */

/* What the test asks of the engine, and what the engine saw. */
static struct {
	uint64_t lat_ns; /* service time of every request... */
	uint64_t stall_k, stall_ns; /* ...but request stall_k (from 1) */
	unsigned int accept_max; /* most accepted per submit, 0 = all */
	unsigned int refuse_every; /* every Nth submit accepts none */
	unsigned int submit_fail_at, reap_fail_at; /* the Nth call fails */
	int call_errno;
	uint64_t fail_k; /* request fail_k (from 1) fails with -EIO */

	unsigned long submits, reaps, accepted, reaped;
	unsigned long violations; /* the runner broke the contract */
	uint64_t fail_off; /* offset of the failed request */
	unsigned int left_queued, left_inflight; /* at exit */
} fk;

enum { SLOT_FREE, SLOT_QUEUED, SLOT_INFLIGHT };

/* The runner sees struct engine as opaque: this file completes it. */
struct engine {
	unsigned int depth;
	unsigned char state[FAKE_MAX];
	struct io_slot *queued[FAKE_MAX]; /* oldest first */
	unsigned int nq;
	struct io_slot *fl[FAKE_MAX];
	uint64_t fl_done_ns[FAKE_MAX];
	unsigned int nfl;
};

static bool fake_probe(struct err *err)
{
	(void)err;
	return true;
}

static struct engine *fake_init(const struct engine_setup *s, struct err *err)
{
	struct engine *e;

	if (s->depth > FAKE_MAX) {
		err_set(err, EXIT_ENV, 0, "fake engine: depth %u", s->depth);
		return NULL;
	}
	e = calloc(1, sizeof(*e));
	e->depth = s->depth;
	return e;
}

static int fake_queue(struct engine *e, struct io_slot *s)
{
	if (s->idx >= e->depth || e->state[s->idx] != SLOT_FREE) {
		fk.violations++;
		return -EINVAL;
	}
	e->state[s->idx] = SLOT_QUEUED;
	e->queued[e->nq++] = s;
	return 0;
}

static int fake_submit(struct engine *e)
{
	unsigned int n = e->nq;

	fk.submits++;
	if (fk.submit_fail_at && fk.submits == fk.submit_fail_at)
		return -fk.call_errno;
	if (fk.refuse_every && fk.submits % fk.refuse_every == 0)
		return 0;
	if (fk.accept_max && n > fk.accept_max)
		n = fk.accept_max;
	for (unsigned int i = 0; i < n; i++) {
		struct io_slot *s = e->queued[i];
		uint64_t k = ++fk.accepted;

		e->state[s->idx] = SLOT_INFLIGHT;
		s->res = s->op == IO_FLUSH ? 0 : (int64_t)s->len;
		if (k == fk.fail_k) {
			s->res = -EIO;
			fk.fail_off = s->off;
		}
		e->fl[e->nfl] = s;
		e->fl_done_ns[e->nfl++] =
			fake_clock_now(NULL) +
			(k == fk.stall_k ? fk.stall_ns : fk.lat_ns);
	}
	e->nq -= n;
	memmove(e->queued, e->queued + n, e->nq * sizeof(e->queued[0]));
	return (int)n;
}

static int fake_reap(struct engine *e, struct io_slot **done, unsigned int max,
		     uint64_t wait_ns)
{
	unsigned int n = 0;
	uint64_t first = UINT64_MAX;

	fk.reaps++;
	if (fk.reap_fail_at && fk.reaps == fk.reap_fail_at)
		return -fk.call_errno;
	if (!e->nfl && wait_ns == ENGINE_WAIT_FOREVER) {
		/* It would block for ever: the runner lost count. */
		fk.violations++;
		return -EDEADLK;
	}
	if (fk.reaps > 10000000) /* a runner spinning without end */
		return -ELOOP;
	for (unsigned int i = 0; i < e->nfl; i++)
		if (e->fl_done_ns[i] < first)
			first = e->fl_done_ns[i];
	/* A wait moves the clock to the first completion or the timeout. */
	if (e->nfl && first > fake_clock_now(NULL) && wait_ns) {
		uint64_t until = fake_clock_now(NULL) + wait_ns;

		fake_advance(wait_ns == ENGINE_WAIT_FOREVER || first < until ?
				     first :
				     until);
	}
	for (unsigned int i = 0; i < e->nfl && n < max;) {
		if (e->fl_done_ns[i] > fake_clock_now(NULL)) {
			i++;
			continue;
		}
		done[n++] = e->fl[i];
		e->state[e->fl[i]->idx] = SLOT_FREE;
		e->nfl--;
		e->fl[i] = e->fl[e->nfl];
		e->fl_done_ns[i] = e->fl_done_ns[e->nfl];
	}
	fk.reaped += n;
	return (int)n;
}

static const char *fake_features(const struct engine *e)
{
	(void)e;
	return "fake";
}

static void fake_exit(struct engine *e)
{
	fk.left_queued = e->nq;
	fk.left_inflight = e->nfl;
	free(e);
}

static const struct engine_ops fake_ops = {
	.name = "fake",
	/* It moves no data: no file opened, no buffer mapped. */
	.flags = ENGINE_NO_IO,
	.probe = fake_probe,
	.init = fake_init,
	.queue = fake_queue,
	.submit = fake_submit,
	.reap = fake_reap,
	.features = fake_features,
	.exit = fake_exit,
};

/* --- the harness -------------------------------------------------------- */

static struct target tgt;
static char dir[64];

static int group_setup(void **state)
{
	struct target_req req = { .size = 1 << 20, .fill = PATTERN_ZERO };
	struct warnings w = { 0 };
	struct err err;
	static char path[96];

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/iolab-test-runner-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/target", dir);
	req.path = path;
	if (!target_prepare(&tgt, &req, &w, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	warnings_free(&w);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	target_release(&tgt);
	rmdir(dir);
	return 0;
}

static int reset(void **state)
{
	(void)state;
	memset(&fk, 0, sizeof(fk));
	fk.lat_ns = 1 * MS;
	fk.call_errno = EIO;
	fake_now = T_START;
	fake_sleeps = 0;
	return 0;
}

/* A random-read job of the null kind: one lane of depth qd. */
static struct job_spec job(unsigned int qd, uint64_t ramp_ns,
			   uint64_t runtime_ns)
{
	struct job_spec j;

	job_defaults(&j);
	j.engine = ENGINE_NULL;
	j.cache = CACHE_WRITEBACK;
	j.qd = qd;
	j.ramp_ns = ramp_ns;
	j.runtime_ns = runtime_ns;
	return j;
}

static bool run(const struct job_spec *j, struct run_result *res,
		struct err *err)
{
	struct runner_opts o = {
		.label = "test",
		.engine = &fake_ops,
		.clock = &fake_clock,
	};

	memset(err, 0, sizeof(*err));
	return runner_run(j, &tgt, &o, res, err);
}

static uint64_t ts_sum(const struct run_result *r)
{
	uint64_t n = 0;

	for (uint32_t s = 0; s < r->nts; s++)
		n += r->ts[s].ios[0] + r->ts[s].ios[1];
	return n;
}

/* --- the tests ------------------------------------------------------------ */

/*
 * QD1, 1 ms per request, 1 s of warm-up then 2 s measured: request k
 * starts at k ms. The first 1000 are warm-up, excluded from every figure;
 * the next 2000 are measured, each 1 ms from due to done.
 */
static void test_ramp_excluded(void **state)
{
	struct job_spec j = job(1, 1000 * MS, 2000 * MS);
	struct run_result res;
	struct err err;
	const struct hist *h = &res.dir[DIR_READ].lat;

	(void)state;
	assert_true(run(&j, &res, &err));
	assert_int_equal(res.ramp_ios, 1000);
	assert_int_equal(res.ramp_lat_ns, 1000 * MS);
	assert_int_equal(res.dir[DIR_READ].ios, 2000);
	assert_int_equal(res.dir[DIR_READ].bytes, 2000 * 4096);
	assert_int_equal(res.dir[DIR_WRITE].ios, 0);
	assert_int_equal(h->count, 2000);
	assert_int_equal(h->min, 1 * MS);
	assert_int_equal(h->max, 1 * MS);
	assert_true(res.elapsed_s > 2.0 - 1e-9 && res.elapsed_s < 2.0 + 1e-9);
	assert_true(result_iops(&res, DIR_READ) > 999.999 &&
		    result_iops(&res, DIR_READ) < 1000.001);
	/* The time series covers the measured seconds only. */
	assert_int_equal(ts_sum(&res), 2000);
	assert_int_equal(res.errors, 0);
	assert_false(res.partial);
	assert_int_equal(res.submit_wait_n, 2000);
	assert_int_equal(fk.violations, 0);
	assert_int_equal(fk.accepted, 3000);
	assert_int_equal(fk.reaped, 3000);
	assert_int_equal(fk.left_queued + fk.left_inflight, 0);
	result_free(&res);
}

/*
 * QD4 fills the queue one request per submit (the batch at QD4), all due
 * at the same moment: 4 complete per ms, and each waited 1 ms. Little's
 * law holds: 4000 IOPS x 1 ms = QD 4.
 */
static void test_split_qd4(void **state)
{
	struct job_spec j = job(4, 500 * MS, 1000 * MS);
	struct run_result res;
	struct err err;

	(void)state;
	assert_true(run(&j, &res, &err));
	assert_int_equal(res.ramp_ios, 2000);
	assert_int_equal(res.dir[DIR_READ].ios, 4000);
	assert_int_equal(res.dir[DIR_READ].lat.min, 1 * MS);
	assert_int_equal(res.dir[DIR_READ].lat.max, 1 * MS);
	assert_true(res.elapsed_s > 1.0 - 1e-9 && res.elapsed_s < 1.0 + 1e-9);
	assert_int_equal(fk.violations, 0);
	assert_int_equal(fk.left_queued + fk.left_inflight, 0);
	result_free(&res);
}

/* --ios stops after exactly that many measured requests. */
static void test_ios_quota(void **state)
{
	struct job_spec j = job(8, 0, 0);
	struct run_result res;
	struct err err;

	(void)state;
	j.ios = 777;
	assert_true(run(&j, &res, &err));
	assert_int_equal(res.dir[DIR_READ].ios, 777);
	assert_int_equal(fk.accepted, 777);
	assert_int_equal(fk.violations, 0);
	result_free(&res);
}

/*
 * Paced at 1000 IOPS, QD1, 0.1 ms per request, but request 101 stalls for
 * 10 ms. Latency runs from each request's intended start, so the ten
 * requests due during the stall show it (9.1 ms down to 1.0 ms) instead of
 * vanishing: the sum is 989 x 0.1 + 10 + (9.1 + 8.2 + ... + 1.0) ms.
 */
static void test_paced_stall(void **state)
{
	struct job_spec j = job(1, 0, 1000 * MS);
	struct run_result res;
	struct err err;
	const struct hist *h = &res.dir[DIR_READ].lat;

	(void)state;
	j.rate_iops = 1000;
	fk.lat_ns = MS / 10;
	fk.stall_k = 101;
	fk.stall_ns = 10 * MS;
	assert_true(run(&j, &res, &err));
	assert_int_equal(res.dir[DIR_READ].ios, 1000);
	assert_int_equal(h->min, MS / 10);
	assert_int_equal(h->max, 10 * MS);
	assert_int_equal(h->sum, 989 * (MS / 10) + 10 * MS + 505 * (MS / 10));
	/* Idle between requests: the lane slept to each intended start. */
	assert_true(fake_sleeps >= 900);
	assert_int_equal(fk.violations, 0);
	result_free(&res);
}

/* The same pace without a stall: exactly the rate, 0.1 ms each. */
static void test_paced_rate(void **state)
{
	struct job_spec j = job(4, 0, 2000 * MS);
	struct run_result res;
	struct err err;

	(void)state;
	j.rate_iops = 500;
	fk.lat_ns = MS / 10;
	assert_true(run(&j, &res, &err));
	assert_int_equal(res.dir[DIR_READ].ios, 1000);
	assert_int_equal(res.dir[DIR_READ].lat.max, MS / 10);
	assert_int_equal(fk.violations, 0);
	result_free(&res);
}

/*
 * An engine that takes one request per submit, and none at every third
 * call: nothing is lost, nothing is reaped before it was accepted, and
 * the lane does not wait for requests that are not in flight.
 */
static void test_partial_submit(void **state)
{
	struct job_spec j = job(8, 0, 0);
	struct run_result res;
	struct err err;

	(void)state;
	j.ios = 500;
	j.submit_batch = 4;
	fk.accept_max = 1;
	fk.refuse_every = 3;
	assert_true(run(&j, &res, &err));
	assert_int_equal(res.dir[DIR_READ].ios, 500);
	assert_int_equal(res.errors, 0);
	assert_int_equal(fk.accepted, 500);
	assert_int_equal(fk.reaped, 500);
	assert_int_equal(fk.violations, 0);
	assert_int_equal(fk.left_queued + fk.left_inflight, 0);
	result_free(&res);
}

/* QD1 and a submit that takes nothing: the lane waits, offers it again. */
static void test_refused_nothing_in_flight(void **state)
{
	struct job_spec j = job(1, 0, 0);
	struct run_result res;
	struct err err;

	(void)state;
	j.ios = 100;
	fk.refuse_every = 2;
	assert_true(run(&j, &res, &err));
	assert_int_equal(res.dir[DIR_READ].ios, 100);
	assert_true(fake_sleeps >= 50);
	assert_int_equal(fk.violations, 0);
	assert_int_equal(fk.left_queued + fk.left_inflight, 0);
	result_free(&res);
}

/* A failed submit is the engine's failure, named, with exit code 3. */
static void test_submit_fails(void **state)
{
	struct job_spec j = job(4, 0, 1000 * MS);
	struct run_result res;
	struct err err;

	(void)state;
	fk.submit_fail_at = 10;
	fk.call_errno = EINVAL;
	assert_false(run(&j, &res, &err));
	assert_int_equal(err.exit_code, EXIT_IO);
	assert_int_equal(err.errnum, EINVAL);
	assert_non_null(strstr(err.msg, "fake engine: submit failed"));
	assert_non_null(strstr(err.msg, strerror(EINVAL)));
	assert_null(strstr(err.msg, "offset"));
	/* What it had accepted was drained before the lane ended. */
	assert_int_equal(fk.left_inflight, 0);
	assert_int_equal(fk.violations, 0);
	result_free(&res);
}

static void test_reap_fails(void **state)
{
	struct job_spec j = job(4, 0, 1000 * MS);
	struct run_result res;
	struct err err;

	(void)state;
	fk.reap_fail_at = 20;
	fk.call_errno = EBADF;
	assert_false(run(&j, &res, &err));
	assert_int_equal(err.exit_code, EXIT_IO);
	assert_int_equal(err.errnum, EBADF);
	assert_non_null(strstr(err.msg, "fake engine: reap failed"));
	assert_non_null(strstr(err.msg, strerror(EBADF)));
	assert_int_equal(fk.violations, 0);
	result_free(&res);
}

/* A request that fails is the request's: its direction and offset. */
static void test_request_fails(void **state)
{
	struct job_spec j = job(4, 0, 1000 * MS);
	struct run_result res;
	struct err err;

	(void)state;
	fk.fail_k = 57;
	assert_true(run(&j, &res, &err));
	assert_int_equal(res.errors, 1);
	assert_true(res.partial);
	assert_int_equal(res.first_err_op, IO_READ);
	assert_int_equal(res.first_errno, EIO);
	assert_int_equal(res.first_err_off, fk.fail_off);
	assert_int_equal(fk.left_queued + fk.left_inflight, 0);
	assert_int_equal(fk.violations, 0);
	result_free(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_ramp_excluded, reset),
		cmocka_unit_test_setup(test_split_qd4, reset),
		cmocka_unit_test_setup(test_ios_quota, reset),
		cmocka_unit_test_setup(test_paced_stall, reset),
		cmocka_unit_test_setup(test_paced_rate, reset),
		cmocka_unit_test_setup(test_partial_submit, reset),
		cmocka_unit_test_setup(test_refused_nothing_in_flight, reset),
		cmocka_unit_test_setup(test_submit_fails, reset),
		cmocka_unit_test_setup(test_reap_fails, reset),
		cmocka_unit_test_setup(test_request_fails, reset),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
