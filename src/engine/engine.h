/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one engine interface the runner sees. An engine moves requests
 * (struct io_slot, owned by the runner) to the kernel and hands them back
 * completed. Engines mirror QEMU's aio= backends; see design.md section 3.
 *
 * Hot-path calls (queue, submit, reap) return 0 or a count, -errno on
 * failure; they never print or allocate. What each does, per engine, is
 * said at the calls below; a slot's res carries a request's own failure.
 */
#ifndef IOLAB_ENGINE_ENGINE_H
#define IOLAB_ENGINE_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

struct err;

enum io_op {
	IO_READ = 0,
	IO_WRITE = 1,
	IO_FLUSH = 2, /* fdatasync: a guest flush */
};

/* One queue entry. The runner owns these; engines only read them. */
struct io_slot {
	void *buf;
	uint64_t off;
	uint64_t t_start_ns; /* when due: slot freed, or intended start */
	uint32_t len;
	uint16_t idx; /* index of the slot (= registered buffer) */
	uint8_t op; /* enum io_op */
	int64_t res; /* set by the engine: bytes done or -errno */
};

enum engine_kind {
	ENGINE_IO_URING,
	ENGINE_NATIVE,
	ENGINE_THREADS,
	ENGINE_SYNC,
	ENGINE_NULL,
	ENGINE_COUNT,
};

/* What an engine needs to set up one lane. */
struct engine_setup {
	int fd;
	unsigned int depth; /* slots in flight at most */
	void *buf_base; /* depth * buf_stride bytes, for registration */
	uint64_t buf_stride;
	bool direct; /* fd opened with O_DIRECT */
};

struct engine;

/*
 * What an engine is, declared in its ops (fio's ioengine flags): the
 * runner, the job checks and the commands ask these, never the kind.
 */
enum engine_flag {
	/* Completes every request at once without touching the target: no
	 * file is opened, no buffer mapped, no data read or written. */
	ENGINE_NO_IO = 1u << 0,
	/* Blocking calls inline: one request in flight per thread, so a
	 * queue depth above 1 means nothing. */
	ENGINE_ONE_AT_A_TIME = 1u << 1,
	/* A blocking worker per outstanding request (QEMU's pool): a job
	 * runs threads x qd lanes of depth 1. */
	ENGINE_THREAD_PER_IO = 1u << 2,
	/* Asynchronous only with O_DIRECT; buffered, each submit blocks
	 * until done, and QEMU refuses it without cache.direct=on. */
	ENGINE_NEEDS_DIRECT = 1u << 3,
};

struct engine_ops {
	const char *name;
	unsigned int flags; /* enum engine_flag */
	/* QEMU's aio= value for this engine, NULL if QEMU has none. */
	const char *qemu_aio;
	/* True if usable on this kernel; else @err says why and what to use. */
	bool (*probe)(struct err *err);
	struct engine *(*init)(const struct engine_setup *s, struct err *err);
	/*
	 * The request cycle. A slot the runner queues is the engine's until
	 * reap hands it back, exactly once, with res set; at most @depth slots
	 * (struct engine_setup) are queued or in flight at a time, and their
	 * completions come back in any order.
	 *
	 * queue: prepare one request. 0, or -errno with the slot left
	 * untouched (io_uring: -EBUSY, no free SQE); it goes no further than
	 * the engine until submit. null completes it here; native does a
	 * flush here, blocking, on kernels without AIO fsync.
	 */
	int (*queue)(struct engine *e, struct io_slot *s);
	/*
	 * submit: offer the requests queued and not yet accepted, oldest
	 * first. Returns how many it accepted: those are in flight and
	 * complete without another submit. The rest stay queued, first in
	 * line for the next submit, and are not in flight: reap will not
	 * return them before a later submit accepts them. native may accept
	 * fewer than queued (io_submit takes a prefix) or none (-EAGAIN:
	 * the kernel is short of resources for now). -errno: the call
	 * failed (native: io_submit refused the first request offered, or
	 * the context), reported as the engine's failure; none of the queued
	 * ones was accepted, and those accepted before still complete.
	 *
	 * What "accepted" does differs: sync and threads do the I/O here,
	 * blocking, one request after another; native hands them to the
	 * kernel (io_submit); io_uring only counts its prepared SQEs, which go
	 * to the kernel in the io_uring_enter of the next reap (one system
	 * call for both); null completed them at queue.
	 */
	int (*submit)(struct engine *e);
	/*
	 * reap: collect up to @max completed slots into @done. Waits for at
	 * least one for up to @wait_ns (ENGINE_WAIT_FOREVER to block, 0 to
	 * poll); sync, threads and null never wait, as what they accepted is
	 * already complete. Returns the count, 0 on timeout or when a signal
	 * cut the wait short (also with ENGINE_WAIT_FOREVER), or -errno: a
	 * failure of the call (io_uring's enter, io_getevents), after which
	 * the engine may hold completions it cannot return; only exit is
	 * safe then. io_uring submits its accepted SQEs here first; an enter
	 * refused for now (-EAGAIN, -EBUSY, -EINTR) keeps them for the next.
	 */
	int (*reap)(struct engine *e, struct io_slot **done, unsigned int max,
		    uint64_t wait_ns);
	/* Short description of the fast paths in use, for the report. */
	const char *(*features)(const struct engine *e);
	void (*exit)(struct engine *e);
};

#define ENGINE_WAIT_FOREVER UINT64_MAX

/* The engine of a kind, or NULL if this build lacks it (or its library). */
const struct engine_ops *engine_get(enum engine_kind kind);
/* Name as used on the command line ("io_uring", "native", ...). */
const char *engine_name(enum engine_kind kind);
/* Parse a name; -1 if unknown. */
int engine_parse(const char *name);
/* True if a lane of @kind needs I/O buffers: every engine that moves data. */
bool engine_uses_buffers(enum engine_kind kind);
/*
 * True if @kind declares every flag of @flags (enum engine_flag). Known
 * for every kind, built or not: QEMU's rules do not depend on our build.
 */
bool engine_has(enum engine_kind kind, unsigned int flags);
/* QEMU's aio= name of @kind ("threads", ...), NULL if QEMU has none. */
const char *engine_qemu_aio(enum engine_kind kind);
/* The kind whose QEMU aio= name is @aio; -1 if QEMU has no such engine. */
int engine_qemu_parse(const char *aio);
/*
 * QEMU's engines, in QEMU's order (its default aio=threads first): the
 * one list matrix, lab and advise use. Returns the count, at most
 * ENGINE_COUNT.
 */
unsigned int engine_qemu_kinds(const enum engine_kind **kinds);
/* The best engine usable here, in QEMU's order: io_uring, native, threads. */
enum engine_kind engine_best(void);

/* NULL-terminated list of the names, for option tables. */
extern const char *const engine_names[];

#endif
