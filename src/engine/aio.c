// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The native engine (QEMU aio=native): Linux AIO through libaio. Events are
 * taken from the completion ring the kernel maps into our address space
 * when it has any (no syscall), and io_getevents() only to wait. Flushes go
 * as IO_CMD_FDSYNC where the kernel takes it (4.18+), else inline, as
 * QEMU's thread-pool fallback does. A build without libaio keeps only the
 * declaration at the end.
 */
#include "config.h"

#include "engine_impl.h"

#if HAVE_LIBAIO
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libaio.h>

#include "../util/err.h"
#include "../util/xmem.h"

/* The kernel's ring header (fs/aio.c, struct aio_ring), stable ABI. */
struct aio_uring {
	unsigned int id, nr, head, tail;
	unsigned int magic, compat_features, incompat_features, header_length;
	struct io_event events[];
};

#define AIO_RING_MAGIC 0xa10a10a1

struct aio_engine {
	struct engine base;
	io_context_t ctx;
	int fd;
	bool user_reap; /* the ring header is ours to read */
	bool fdsync_ok; /* kernel accepts IO_CMD_FDSYNC */
	unsigned int depth;
	unsigned int npending, ninline;
	unsigned int inline_new; /* done at queue, not yet counted by submit */
	struct iocb *iocbs; /* one per slot, by slot index */
	struct iocb **pending;
	struct io_slot **inline_done;
	struct io_event *events;
	char features[64];
};

static bool aio_probe(struct err *err)
{
	io_context_t ctx = 0;
	int rc = io_setup(1, &ctx);

	if (rc) {
		err_set(err, EXIT_ENV, -rc,
			"Linux AIO is not available (%s); check /proc/sys/fs/aio-max-nr, or use --engine io_uring or threads",
			strerror(-rc));
		return false;
	}
	io_destroy(ctx);
	return true;
}

static struct engine *aio_init(const struct engine_setup *s, struct err *err)
{
	struct aio_engine *ae = xcalloc(1, sizeof(*ae));
	struct aio_uring *ring;
	int rc;

	ae->base.ops = &aio_engine_ops;
	rc = io_setup((int)s->depth, &ae->ctx);
	if (rc) {
		err_set(err, EXIT_ENV, -rc,
			rc == -EAGAIN ?
				"io_setup(%u) failed: the system-wide AIO limit is reached; raise fs.aio-max-nr (sysctl) or lower --qd" :
				"io_setup(%u) failed: %s; use --engine io_uring or threads",
			s->depth, strerror(-rc));
		free(ae);
		return NULL;
	}
	ae->fd = s->fd;
	ae->depth = s->depth;
	ae->fdsync_ok = true;
	ae->iocbs = xcalloc(s->depth, sizeof(*ae->iocbs));
	ae->pending = xcalloc(s->depth, sizeof(*ae->pending));
	ae->inline_done = xcalloc(s->depth, sizeof(*ae->inline_done));
	ae->events = xcalloc(s->depth, sizeof(*ae->events));
	ring = (struct aio_uring *)ae->ctx;
	ae->user_reap = ring->magic == AIO_RING_MAGIC &&
			ring->incompat_features == 0;
	strcpy(ae->features,
	       ae->user_reap ? "user-space reaping" : "io_getevents reaping");
	return &ae->base;
}

static int aio_queue(struct engine *e, struct io_slot *s)
{
	struct aio_engine *ae = container_of(e, struct aio_engine, base);
	struct iocb *cb = &ae->iocbs[s->idx];

	switch (s->op) {
	case IO_READ:
		io_prep_pread(cb, ae->fd, s->buf, s->len, (long long)s->off);
		break;
	case IO_WRITE:
		io_prep_pwrite(cb, ae->fd, s->buf, s->len, (long long)s->off);
		break;
	default:
		if (!ae->fdsync_ok) {
			int r = fdatasync(ae->fd);

			s->res = r < 0 ? -errno : 0;
			ae->inline_done[ae->ninline++] = s;
			ae->inline_new++;
			return 0;
		}
		io_prep_fdsync(cb, ae->fd);
		break;
	}
	cb->data = s;
	ae->pending[ae->npending++] = cb;
	return 0;
}

/*
 * Accepted: what io_submit took, and the flushes done inline at queue
 * (reap returns them, so they count as in flight). A failure with such
 * flushes to count reports them now; the failure comes back at the next
 * call, as the requests it refused are still pending.
 */
static int aio_submit(struct engine *e)
{
	struct aio_engine *ae = container_of(e, struct aio_engine, base);
	int done_inline = (int)ae->inline_new;
	int rc;

	ae->inline_new = 0;
	if (!ae->npending)
		return done_inline;
	rc = io_submit(ae->ctx, (long)ae->npending, ae->pending);
	if (rc == -EINVAL && ae->pending[0]->aio_lio_opcode == IO_CMD_FDSYNC) {
		/* Old kernel without AIO fsync: do it inline from now on. */
		struct io_slot *s = ae->pending[0]->data;
		int r = fdatasync(ae->fd);

		ae->fdsync_ok = false;
		s->res = r < 0 ? -errno : 0;
		ae->inline_done[ae->ninline++] = s;
		rc = 1;
	} else if (rc == -EAGAIN) {
		return done_inline;
	} else if (rc < 0) {
		return done_inline ? done_inline : rc;
	}
	ae->npending -= (unsigned int)rc;
	memmove(ae->pending, ae->pending + rc,
		ae->npending * sizeof(*ae->pending));
	return rc + done_inline;
}

/* Take events straight from the mapped ring; the only consumer is us. */
static unsigned int aio_ring_take(struct aio_engine *ae, struct io_slot **done,
				  unsigned int max)
{
	struct aio_uring *ring = (struct aio_uring *)ae->ctx;
	unsigned int head = ring->head, n = 0;
	unsigned int tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);

	while (head != tail && n < max) {
		struct io_event *ev = &ring->events[head];
		struct io_slot *s = ev->data;

		s->res = (int64_t)ev->res;
		done[n++] = s;
		head = head + 1 == ring->nr ? 0 : head + 1;
	}
	if (n)
		__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	return n;
}

static int aio_reap(struct engine *e, struct io_slot **done, unsigned int max,
		    uint64_t wait_ns)
{
	struct aio_engine *ae = container_of(e, struct aio_engine, base);
	struct timespec ts, *tsp = NULL;
	unsigned int n = 0;
	int rc;

	while (ae->ninline && n < max)
		done[n++] = ae->inline_done[--ae->ninline];
	if (ae->user_reap) {
		n += aio_ring_take(ae, done + n, max - n);
		if (n || wait_ns == 0)
			return (int)n;
	}
	if (n)
		wait_ns = 0;
	if (wait_ns != ENGINE_WAIT_FOREVER) {
		ts.tv_sec = (time_t)(wait_ns / 1000000000ull);
		ts.tv_nsec = (long)(wait_ns % 1000000000ull);
		tsp = &ts;
	}
	rc = io_getevents(ae->ctx, n ? 0 : 1, (long)(max - n), ae->events, tsp);
	if (rc < 0)
		return rc == -EINTR ? (int)n : rc;
	for (int i = 0; i < rc; i++) {
		struct io_slot *s = ae->events[i].data;

		s->res = (int64_t)ae->events[i].res;
		done[n++] = s;
	}
	return (int)n;
}

static const char *aio_features(const struct engine *e)
{
	return container_of(e, struct aio_engine, base)->features;
}

static void aio_exit(struct engine *e)
{
	struct aio_engine *ae = container_of(e, struct aio_engine, base);

	io_destroy(ae->ctx);
	free(ae->iocbs);
	free(ae->pending);
	free(ae->inline_done);
	free(ae->events);
	free(ae);
}

#endif /* HAVE_LIBAIO */

const struct engine_ops aio_engine_ops = {
	.name = "native",
	/* Linux AIO is asynchronous only with O_DIRECT (io_submit blocks
	 * on buffered files): why QEMU refuses it without cache.direct. */
	.flags = ENGINE_NEEDS_DIRECT,
	.qemu_aio = "native",
#if HAVE_LIBAIO
	.probe = aio_probe,
	.init = aio_init,
	.queue = aio_queue,
	.submit = aio_submit,
	.reap = aio_reap,
	.features = aio_features,
	.exit = aio_exit,
#endif
};
