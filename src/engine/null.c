// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The null engine completes every request at once and touches no disk: it
 * measures the runner's own cost per I/O and drives the end-to-end tests.
 * It never touches the target, so it declares ENGINE_NO_IO: no file is
 * opened and no buffer mapped, and a null run with a queue far larger than
 * memory costs no memory.
 */
#include <stdlib.h>

#include "engine_impl.h"
#include "../util/xmem.h"

struct null_engine {
	struct engine base;
	unsigned int n; /* completed, not yet reaped */
	unsigned int queued; /* since the last submit: what it accepts */
	struct io_slot *done[];
};

static bool null_probe(struct err *err)
{
	(void)err;
	return true;
}

static struct engine *null_init(const struct engine_setup *s, struct err *err)
{
	struct null_engine *ne;

	(void)err;
	ne = xcalloc(1, sizeof(*ne) + s->depth * sizeof(ne->done[0]));
	ne->base.ops = &null_engine_ops;
	return &ne->base;
}

static int null_queue(struct engine *e, struct io_slot *s)
{
	struct null_engine *ne = container_of(e, struct null_engine, base);

	s->res = s->op == IO_FLUSH ? 0 : (int64_t)s->len;
	ne->done[ne->n++] = s;
	ne->queued++;
	return 0;
}

static int null_submit(struct engine *e)
{
	struct null_engine *ne = container_of(e, struct null_engine, base);
	unsigned int n = ne->queued;

	ne->queued = 0;
	return (int)n;
}

static int null_reap(struct engine *e, struct io_slot **done, unsigned int max,
		     uint64_t wait_ns)
{
	struct null_engine *ne = container_of(e, struct null_engine, base);
	unsigned int n = ne->n < max ? ne->n : max;

	(void)wait_ns;
	for (unsigned int i = 0; i < n; i++)
		done[i] = ne->done[ne->n - n + i];
	ne->n -= n;
	return (int)n;
}

static const char *null_features(const struct engine *e)
{
	(void)e;
	return "no I/O";
}

static void null_exit(struct engine *e)
{
	free(container_of(e, struct null_engine, base));
}

const struct engine_ops null_engine_ops = {
	.name = "null",
	.flags = ENGINE_NO_IO,
	.qemu_aio = NULL, /* QEMU's null-co is a driver, not an aio= */
	.probe = null_probe,
	.init = null_init,
	.queue = null_queue,
	.submit = null_submit,
	.reap = null_reap,
	.features = null_features,
	.exit = null_exit,
};
