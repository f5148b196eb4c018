// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine contract, driven through engine_ops as the runner drives it
 * (queue, submit, reap) on a temporary file, for every engine this build
 * has, buffered and with O_DIRECT: written data reads back the same (and
 * is in the file, read beside the engine), a flush succeeds, a read at the
 * end of the file is short, a read past it returns 0, a request the
 * kernel refuses comes back as an error, never as success, and reap never
 * returns more than asked nor a slot twice. Then the declared flags
 * against what each engine really does. An engine the kernel lacks (its
 * probe fails) or a file system without O_DIRECT is skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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
#include "engine/engine.h"
#include "util/err.h"

#define BS 4096u
#define DEPTH 8u
#define NOT_SET INT64_MIN /* a res no engine returns */
#define WAIT_NS 100000000ull /* one reap's wait; bounded rounds below */
#define MAX_ROUNDS 300

struct param {
	enum engine_kind kind;
	bool direct;
};

struct rig {
	const struct engine_ops *ops;
	struct engine *e;
	int fd; /* the engine's descriptor */
	char path[PATH_MAX];
	unsigned char *bufs; /* DEPTH * BS, aligned for O_DIRECT */
	struct io_slot slots[DEPTH];
};

/* A byte per offset and seed: blocks differ, seeds differ. */
static unsigned char pat(uint64_t off, unsigned int seed)
{
	return (unsigned char)(((off / 7) * 2654435761u >> 13) ^ (off % 251) ^
			       (seed * 97u));
}

static void fill(unsigned char *p, uint64_t off, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = pat(off + i, seed);
}

static bool holds(const unsigned char *p, uint64_t off, size_t len,
		  unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != pat(off + i, seed))
			return false;
	return true;
}

/* The engine of @kind if built and usable here, else skip the test. */
static const struct engine_ops *usable(enum engine_kind kind)
{
	const struct engine_ops *ops = engine_get(kind);
	struct err err = { 0 };

	if (!ops) {
		print_message("%s: not in this build\n", engine_name(kind));
		skip();
	}
	if (!ops->probe(&err)) {
		print_message("%s: %s\n", engine_name(kind), err.msg);
		skip();
	}
	return ops;
}

/*
 * A file of @bytes holding pattern @seed, and the engine of @p on it,
 * opened with @flags (O_RDWR, O_RDONLY or O_WRONLY).
 */
static void rig_open(struct rig *r, const struct param *p, int flags,
		     uint64_t bytes, unsigned int seed)
{
	const char *dir = getenv("TMPDIR");
	struct engine_setup es = { 0 };
	struct err err = { 0 };
	unsigned char *data;
	int fd;

	memset(r, 0, sizeof(*r));
	r->ops = usable(p->kind);
	snprintf(r->path, sizeof(r->path), "%s/iolab-engine-XXXXXX",
		 dir && *dir ? dir : "/tmp");
	fd = mkstemp(r->path);
	assert_true(fd >= 0);
	data = malloc(bytes ? bytes : 1);
	assert_non_null(data);
	fill(data, 0, bytes, seed);
	assert_int_equal(pwrite(fd, data, bytes, 0), (ssize_t)bytes);
	free(data);
	close(fd);
	r->fd = open(r->path, flags | O_CLOEXEC | (p->direct ? O_DIRECT : 0));
	if (r->fd < 0 && p->direct && errno == EINVAL) {
		unlink(r->path);
		print_message("%s: no O_DIRECT here\n", r->path);
		skip();
	}
	assert_true(r->fd >= 0);
	assert_int_equal(posix_memalign((void **)&r->bufs, BS, DEPTH * BS), 0);
	memset(r->bufs, 0, DEPTH * BS);
	es.fd = r->fd;
	es.depth = DEPTH;
	es.buf_base = r->bufs;
	es.buf_stride = BS;
	es.direct = p->direct;
	r->e = r->ops->init(&es, &err);
	if (!r->e)
		fail_msg("%s init: %s", r->ops->name, err.msg);
}

static void rig_close(struct rig *r)
{
	r->ops->exit(r->e);
	close(r->fd);
	unlink(r->path);
	free(r->bufs);
}

/* The file's bytes at @off, read beside the engine (no O_DIRECT). */
static void file_read(const struct rig *r, void *buf, uint64_t off, size_t len)
{
	int fd = open(r->path, O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, buf, len, (off_t)off), (ssize_t)len);
	close(fd);
}

static struct io_slot *slot(struct rig *r, unsigned int i, enum io_op op,
			    uint64_t off, uint32_t len)
{
	struct io_slot *s = &r->slots[i];

	s->buf = r->bufs + (size_t)i * BS;
	s->off = off;
	s->len = len;
	s->idx = (uint16_t)i;
	s->op = (uint8_t)op;
	s->res = NOT_SET;
	return s;
}

/*
 * Queue slots 0..@n-1, then submit and reap (at most @max a call) until
 * every one is back. Returns 0, or the -errno a call failed with; a slot
 * back twice, one not queued, a reap above @max, or submits that accept
 * other than the @n queued in all (engine.h) fail the test.
 */
static int run_slots(struct rig *r, unsigned int n, unsigned int max)
{
	bool back[DEPTH] = { false };
	unsigned int got = 0, accepted = 0;
	int rc;

	for (unsigned int i = 0; i < n; i++) {
		rc = r->ops->queue(r->e, &r->slots[i]);
		if (rc)
			return rc;
	}
	for (int round = 0; got < n && round < MAX_ROUNDS; round++) {
		struct io_slot *done[DEPTH];

		rc = r->ops->submit(r->e);
		if (rc < 0)
			return rc;
		accepted += (unsigned int)rc;
		assert_true(accepted <= n);
		rc = r->ops->reap(r->e, done, max, WAIT_NS);
		if (rc < 0)
			return rc;
		assert_true((unsigned int)rc <= max);
		for (int k = 0; k < rc; k++) {
			ptrdiff_t i = done[k] - r->slots;

			assert_true(i >= 0 && i < (ptrdiff_t)n);
			assert_false(back[i]);
			assert_true(done[k]->res != NOT_SET);
			back[i] = true;
			got++;
		}
	}
	assert_int_equal(got, n);
	assert_int_equal(accepted, n);
	return 0;
}

/* One request; its result, or the -errno submit or reap failed with. */
static int64_t one(struct rig *r, enum io_op op, uint64_t off, uint32_t len)
{
	int rc;

	slot(r, 0, op, off, len);
	rc = run_slots(r, 1, 1);
	return rc < 0 ? rc : r->slots[0].res;
}

/*
 * Write DEPTH scattered blocks in one batch, flush, read them back in one
 * batch; reap takes 3 at most so slots come back over several calls.
 */
static void test_write_read_verify(void **state)
{
	const struct param *p = *state;
	unsigned char got[BS];
	struct rig r;

	rig_open(&r, p, O_RDWR, 4 * DEPTH * BS, 1);
	for (unsigned int i = 0; i < DEPTH; i++) {
		struct io_slot *s = slot(&r, i, IO_WRITE, 3ull * i * BS, BS);

		fill(s->buf, s->off, BS, 2);
	}
	assert_int_equal(run_slots(&r, DEPTH, 3), 0);
	for (unsigned int i = 0; i < DEPTH; i++)
		assert_int_equal(r.slots[i].res, BS);
	assert_int_equal(one(&r, IO_FLUSH, 0, 0), 0);

	/* In the file, read beside the engine: written blocks and the ones
	 * between them untouched. */
	for (unsigned int b = 0; b < 4 * DEPTH; b++) {
		bool written = b % 3 == 0 && b / 3 < DEPTH;

		file_read(&r, got, (uint64_t)b * BS, BS);
		assert_true(holds(got, (uint64_t)b * BS, BS, written ? 2 : 1));
	}

	memset(r.bufs, 0, DEPTH * BS);
	for (unsigned int i = 0; i < DEPTH; i++)
		slot(&r, i, IO_READ, 3ull * i * BS, BS);
	assert_int_equal(run_slots(&r, DEPTH, 3), 0);
	for (unsigned int i = 0; i < DEPTH; i++) {
		assert_int_equal(r.slots[i].res, BS);
		assert_true(holds(r.slots[i].buf, r.slots[i].off, BS, 2));
	}
	rig_close(&r);
}

/* The last block holds 100 bytes: a read of it is short, past it is 0. */
static void test_short_read_at_eof(void **state)
{
	const struct param *p = *state;
	struct rig r;

	rig_open(&r, p, O_RDONLY, 3 * BS + 100, 5);
	assert_int_equal(one(&r, IO_READ, 2 * BS, BS), BS);
	assert_true(holds(r.slots[0].buf, 2 * BS, BS, 5));
	memset(r.bufs, 0, BS);
	assert_int_equal(one(&r, IO_READ, 3 * BS, BS), 100);
	assert_true(holds(r.slots[0].buf, 3 * BS, 100, 5));
	assert_int_equal(one(&r, IO_READ, 4 * BS, BS), 0);
	rig_close(&r);
}

/* A flush on its own, with nothing written, succeeds. */
static void test_flush(void **state)
{
	struct rig r;

	rig_open(&r, *state, O_RDWR, BS, 1);
	assert_int_equal(one(&r, IO_FLUSH, 0, 0), 0);
	rig_close(&r);
}

/*
 * A read on a write-only descriptor and a write on a read-only one fail
 * with EBADF, whether the engine says so from submit, from reap or in the
 * slot: never as bytes done. The file keeps its data.
 */
static void test_error_is_an_error(void **state)
{
	const struct param *p = *state;
	unsigned char got[BS];
	struct rig r;

	rig_open(&r, p, O_WRONLY, 2 * BS, 3);
	assert_int_equal(one(&r, IO_READ, 0, BS), -EBADF);
	rig_close(&r);

	rig_open(&r, p, O_RDONLY, 2 * BS, 3);
	fill(r.bufs, 0, BS, 4);
	assert_int_equal(one(&r, IO_WRITE, 0, BS), -EBADF);
	file_read(&r, got, 0, BS);
	assert_true(holds(got, 0, BS, 3));
	rig_close(&r);
}

/*
 * ENGINE_NO_IO: a write leaves the file as it was and a read leaves the
 * buffer as it was, yet both complete with their length; and it runs as
 * the runner sets it up, with no descriptor and no buffers. Every other
 * engine changes the file.
 */
static void test_flag_no_io(void **state)
{
	const struct param *p = *state;
	bool no_io = engine_has(p->kind, ENGINE_NO_IO);
	unsigned char got[BS];
	struct rig r;

	rig_open(&r, p, O_RDWR, 2 * BS, 1);
	fill(r.bufs, 0, BS, 2);
	assert_int_equal(one(&r, IO_WRITE, 0, BS), BS);
	assert_int_equal(one(&r, IO_FLUSH, 0, 0), 0);
	file_read(&r, got, 0, BS);
	assert_true(holds(got, 0, BS, no_io ? 1 : 2));
	memset(r.bufs, 0, BS);
	assert_int_equal(one(&r, IO_READ, BS, BS), BS);
	if (no_io)
		for (unsigned int i = 0; i < BS; i++)
			assert_int_equal(r.bufs[i], 0);
	else
		assert_true(holds(r.bufs, BS, BS, 1));
	rig_close(&r);

	if (no_io) {
		struct engine_setup es = { .fd = -1, .depth = DEPTH };
		struct err err = { 0 };

		memset(&r, 0, sizeof(r));
		r.ops = engine_get(p->kind);
		r.e = r.ops->init(&es, &err);
		assert_non_null(r.e);
		for (unsigned int i = 0; i < DEPTH; i++)
			slot(&r, i, i % 2 ? IO_READ : IO_WRITE,
			     (uint64_t)i * BS, BS)
				->buf = NULL;
		assert_int_equal(run_slots(&r, DEPTH, DEPTH), 0);
		for (unsigned int i = 0; i < DEPTH; i++)
			assert_int_equal(r.slots[i].res, BS);
		r.ops->exit(r.e);
	}
}

/*
 * ENGINE_ONE_AT_A_TIME and ENGINE_THREAD_PER_IO say a lane is one blocking
 * call: each request is done when submit returns (in the file already),
 * and reap hands it back without waiting. ENGINE_NEEDS_DIRECT says the
 * same of a buffered file (io_submit blocks on it), which is why QEMU
 * refuses it without cache.direct=on.
 */
static bool declares_blocking(const struct param *p)
{
	return engine_has(p->kind, ENGINE_ONE_AT_A_TIME) ||
	       engine_has(p->kind, ENGINE_THREAD_PER_IO) ||
	       (engine_has(p->kind, ENGINE_NEEDS_DIRECT) && !p->direct);
}

static void test_flag_blocking(void **state)
{
	const struct param *p = *state;
	struct io_slot *done[DEPTH];
	unsigned char got[BS];
	struct rig r;
	int n = 0;

	assert_true(declares_blocking(p));
	rig_open(&r, p, O_RDWR, 4 * BS, 1);
	for (unsigned int i = 0; i < 4; i++) {
		fill(slot(&r, i, IO_WRITE, (uint64_t)i * BS, BS)->buf,
		     (uint64_t)i * BS, BS, 6);
		assert_int_equal(r.ops->queue(r.e, &r.slots[i]), 0);
	}
	assert_int_equal(r.ops->submit(r.e), 4);
	for (unsigned int i = 0; i < 4; i++) {
		file_read(&r, got, (uint64_t)i * BS, BS);
		assert_true(holds(got, (uint64_t)i * BS, BS, 6));
	}
	while (n < 4) {
		int rc = r.ops->reap(r.e, done, DEPTH, 0);

		assert_true(rc > 0);
		n += rc;
	}
	assert_int_equal(n, 4);
	rig_close(&r);
}

/*
 * What the job makes of the flags: a one-at-a-time engine takes no queue
 * depth, a thread-per-I/O engine runs threads x qd lanes of depth 1, and
 * QEMU refuses a needs-direct engine on a buffered cache mode.
 */
static void test_flags_shape_the_job(void **state)
{
	(void)state;
	for (int k = 0; k < ENGINE_COUNT; k++) {
		struct job_spec j;
		struct err err = { 0 };

		job_defaults(&j);
		j.engine = (enum engine_kind)k;
		j.qd = 4;
		j.threads = 2;
		j.runtime_ns = 1000000000ull;
		assert_int_equal(job_validate(&j, &err),
				 !engine_has(k, ENGINE_ONE_AT_A_TIME));
		if (engine_has(k, ENGINE_THREAD_PER_IO)) {
			assert_int_equal(job_lanes(&j), 8);
			assert_int_equal(job_lane_depth(&j), 1);
		} else {
			assert_int_equal(job_lanes(&j), 2);
			assert_int_equal(job_lane_depth(&j), 4);
		}
		assert_int_equal(job_qemu_refuses(k, CACHE_WRITEBACK, &err),
				 engine_has(k, ENGINE_NEEDS_DIRECT));
		assert_false(job_qemu_refuses(k, CACHE_NONE, &err));
		assert_int_equal(engine_uses_buffers(k),
				 !engine_has(k, ENGINE_NO_IO));
	}
	assert_false(engine_has(ENGINE_COUNT, 0));
	assert_null(engine_qemu_aio(ENGINE_COUNT));
}

/*
 * QEMU's names: every engine with one is in engine_qemu_kinds() exactly
 * once and parses back to itself; QEMU's default (threads) comes first;
 * the others have none.
 */
static void test_qemu_names(void **state)
{
	const enum engine_kind *kinds;
	unsigned int n = engine_qemu_kinds(&kinds);

	(void)state;
	assert_true(n > 0 && n <= ENGINE_COUNT);
	assert_int_equal(kinds[0], ENGINE_THREADS);
	for (int k = 0; k < ENGINE_COUNT; k++) {
		const char *aio = engine_qemu_aio(k);
		unsigned int listed = 0;

		for (unsigned int i = 0; i < n; i++)
			listed += kinds[i] == (enum engine_kind)k;
		assert_int_equal(listed, aio != NULL);
		if (aio)
			assert_int_equal(engine_qemu_parse(aio), k);
	}
	assert_null(engine_qemu_aio(ENGINE_SYNC));
	assert_null(engine_qemu_aio(ENGINE_NULL));
	assert_int_equal(engine_qemu_parse("sync"), -1);
	assert_int_equal(engine_qemu_parse("null"), -1);
	assert_int_equal(engine_qemu_parse("default"), -1);
	assert_string_equal(engine_qemu_aio(ENGINE_NATIVE), "native");
}

#define MAX_TESTS 64

static struct param params[ENGINE_COUNT][2];
static char names[MAX_TESTS][48];
static struct CMUnitTest tests[MAX_TESTS];
static size_t ntests;

static void add(const char *what, CMUnitTestFunction fn, struct param *p)
{
	if (ntests + 3 > MAX_TESTS)
		abort(); /* room for this and the two last */
	snprintf(names[ntests], sizeof(names[0]), "%s/%s%s", what,
		 engine_name(p->kind), p->direct ? "/direct" : "");
	tests[ntests].name = names[ntests];
	tests[ntests].test_func = fn;
	tests[ntests].initial_state = p;
	ntests++;
}

int main(void)
{
	for (int k = 0; k < ENGINE_COUNT; k++) {
		for (int d = 0; d < 2; d++) {
			struct param *p = &params[k][d];

			p->kind = (enum engine_kind)k;
			p->direct = d;
			/* null reads and writes nothing: its contract is
			 * test_flag_no_io's, and O_DIRECT means nothing. */
			if (engine_has(p->kind, ENGINE_NO_IO)) {
				if (!d)
					add("no_io", test_flag_no_io, p);
				continue;
			}
			add("write_read", test_write_read_verify, p);
			add("short_read", test_short_read_at_eof, p);
			add("flush", test_flush, p);
			add("error", test_error_is_an_error, p);
			add("no_io", test_flag_no_io, p);
			if (declares_blocking(p))
				add("blocking", test_flag_blocking, p);
		}
	}
	tests[ntests].name = "flags_shape_the_job";
	tests[ntests++].test_func = test_flags_shape_the_job;
	tests[ntests].name = "qemu_names";
	tests[ntests++].test_func = test_qemu_names;
	return _cmocka_run_group_tests("engine_contract", tests, ntests, NULL,
				       NULL);
}
