/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the engine files only: the base object each engine embeds, and
 * the engine tables the registry lists. The runner never includes this.
 */
#ifndef IOLAB_ENGINE_ENGINE_IMPL_H
#define IOLAB_ENGINE_ENGINE_IMPL_H

#include <stddef.h>

#include "engine.h"

struct engine {
	const struct engine_ops *ops;
};

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr)-offsetof(type, member)))

extern const struct engine_ops uring_engine_ops;
extern const struct engine_ops aio_engine_ops;
extern const struct engine_ops threads_engine_ops;
extern const struct engine_ops sync_engine_ops;
extern const struct engine_ops null_engine_ops;

/* The blocking calls behind sync and threads. */
struct engine *sync_init(const struct engine_setup *s, struct err *err);
int sync_queue(struct engine *e, struct io_slot *s);
int sync_submit(struct engine *e);
int sync_reap(struct engine *e, struct io_slot **done, unsigned int max,
	      uint64_t wait_ns);
const char *sync_features(const struct engine *e);
void sync_exit(struct engine *e);

#endif
