// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sync engine: blocking pread/pwrite/fdatasync inline, one request at
 * a time (fio's psync). The threads engine runs the same calls, one lane
 * per pool worker.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine_impl.h"
#include "../util/xmem.h"

struct sync_engine {
	struct engine base;
	int fd;
	unsigned int nqueued, ndone;
	struct io_slot **queued, **done;
};

static bool sync_probe(struct err *err)
{
	(void)err;
	return true;
}

struct engine *sync_init(const struct engine_setup *s, struct err *err)
{
	struct sync_engine *se = xcalloc(1, sizeof(*se));

	(void)err;
	se->base.ops = &sync_engine_ops;
	se->fd = s->fd;
	se->queued = xcalloc(s->depth, sizeof(*se->queued));
	se->done = xcalloc(s->depth, sizeof(*se->done));
	return &se->base;
}

int sync_queue(struct engine *e, struct io_slot *s)
{
	struct sync_engine *se = container_of(e, struct sync_engine, base);

	se->queued[se->nqueued++] = s;
	return 0;
}

static int64_t sync_do(int fd, const struct io_slot *s)
{
	ssize_t r;

	do {
		switch (s->op) {
		case IO_READ:
			r = pread(fd, s->buf, s->len, (off_t)s->off);
			break;
		case IO_WRITE:
			r = pwrite(fd, s->buf, s->len, (off_t)s->off);
			break;
		default:
			r = fdatasync(fd);
			break;
		}
	} while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

int sync_submit(struct engine *e)
{
	struct sync_engine *se = container_of(e, struct sync_engine, base);
	unsigned int n = se->nqueued;

	for (unsigned int i = 0; i < n; i++) {
		struct io_slot *s = se->queued[i];

		s->res = sync_do(se->fd, s);
		se->done[se->ndone++] = s;
	}
	se->nqueued = 0;
	return (int)n;
}

int sync_reap(struct engine *e, struct io_slot **done, unsigned int max,
	      uint64_t wait_ns)
{
	struct sync_engine *se = container_of(e, struct sync_engine, base);
	unsigned int n = se->ndone < max ? se->ndone : max;

	(void)wait_ns;
	for (unsigned int i = 0; i < n; i++)
		done[i] = se->done[se->ndone - n + i];
	se->ndone -= n;
	return (int)n;
}

const char *sync_features(const struct engine *e)
{
	(void)e;
	return "pread/pwrite";
}

void sync_exit(struct engine *e)
{
	struct sync_engine *se = container_of(e, struct sync_engine, base);

	free(se->queued);
	free(se->done);
	free(se);
}

const struct engine_ops sync_engine_ops = {
	.name = "sync",
	.flags = ENGINE_ONE_AT_A_TIME,
	.qemu_aio = NULL, /* fio's psync; QEMU has no inline engine */
	.probe = sync_probe,
	.init = sync_init,
	.queue = sync_queue,
	.submit = sync_submit,
	.reap = sync_reap,
	.features = sync_features,
	.exit = sync_exit,
};
