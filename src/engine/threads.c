// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The threads engine: QEMU's default aio=threads, a pool of workers each
 * blocked in one preadv/pwritev/fdatasync. The runner gives every
 * outstanding request its own lane (thread), so a pool of Q workers per
 * job thread keeps Q requests in flight without a hand-off queue: the
 * device sees what QEMU's pool gives it, at the cost of one thread each.
 */
#include "engine_impl.h"

static bool threads_probe(struct err *err)
{
	(void)err;
	return true;
}

const struct engine_ops threads_engine_ops = {
	.name = "threads",
	.flags = ENGINE_THREAD_PER_IO,
	.qemu_aio = "threads",
	.probe = threads_probe,
	.init = sync_init,
	.queue = sync_queue,
	.submit = sync_submit,
	.reap = sync_reap,
	.features = sync_features,
	.exit = sync_exit,
};
