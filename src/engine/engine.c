// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine registry: an explicit table (greppable, fixed order) rather
 * than constructor registration; and the fallback policy, in QEMU's order.
 */
#include "config.h"

#include <string.h>

#include "engine_impl.h"

const char *const engine_names[] = { "io_uring", "native", "threads",
				     "sync",	 "null",   NULL };

static const struct engine_ops *const engines[ENGINE_COUNT] = {
#if HAVE_LIBURING
	[ENGINE_IO_URING] = &uring_engine_ops,
#endif
#if HAVE_LIBAIO
	[ENGINE_NATIVE] = &aio_engine_ops,
#endif
	[ENGINE_THREADS] = &threads_engine_ops,
	[ENGINE_SYNC] = &sync_engine_ops,
	[ENGINE_NULL] = &null_engine_ops,
};

const struct engine_ops *engine_get(enum engine_kind kind)
{
	return (unsigned int)kind < ENGINE_COUNT ? engines[kind] : NULL;
}

const char *engine_name(enum engine_kind kind)
{
	return (unsigned int)kind < ENGINE_COUNT ? engine_names[kind] : "?";
}

bool engine_uses_buffers(enum engine_kind kind)
{
	const struct engine_ops *ops = engine_get(kind);

	return !ops || !ops->no_buffers;
}

int engine_parse(const char *name)
{
	for (int i = 0; engine_names[i]; i++)
		if (!strcmp(name, engine_names[i]))
			return i;
	return -1;
}

enum engine_kind engine_best(void)
{
	static const enum engine_kind order[] = { ENGINE_IO_URING,
						  ENGINE_NATIVE };

	for (unsigned int i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const struct engine_ops *ops = engine_get(order[i]);

		if (ops && ops->probe(NULL))
			return order[i];
	}
	return ENGINE_THREADS;
}
