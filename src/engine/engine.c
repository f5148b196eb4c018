// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine registry: an explicit table (greppable, fixed order) rather
 * than constructor registration; the accessors of what each engine
 * declares in its ops; and the fallback policy, in QEMU's order.
 *
 * Every kind has its ops here, even one whose library this build lacks:
 * that file then compiles only the declaration (name, flags, QEMU's name)
 * and no functions, so QEMU's rules still hold for it (matrix marks
 * aio=native refused, lab boots guests with it).
 */
#include "config.h"

#include <string.h>

#include "engine_impl.h"

const char *const engine_names[] = { "io_uring", "native", "threads",
				     "sync",	 "null",   NULL };

static const struct engine_ops *const engines[ENGINE_COUNT] = {
	[ENGINE_IO_URING] = &uring_engine_ops,
	[ENGINE_NATIVE] = &aio_engine_ops,
	[ENGINE_THREADS] = &threads_engine_ops,
	[ENGINE_SYNC] = &sync_engine_ops,
	[ENGINE_NULL] = &null_engine_ops,
};

/* QEMU's aio= values in its documentation's order, the default first. */
static const enum engine_kind qemu_kinds[] = { ENGINE_THREADS, ENGINE_NATIVE,
					       ENGINE_IO_URING };

/* The declaration of a kind, built or not; NULL only for a bad kind. */
static const struct engine_ops *engine_decl(enum engine_kind kind)
{
	return (unsigned int)kind < ENGINE_COUNT ? engines[kind] : NULL;
}

const struct engine_ops *engine_get(enum engine_kind kind)
{
	const struct engine_ops *ops = engine_decl(kind);

	return ops && ops->init ? ops : NULL;
}

bool engine_has(enum engine_kind kind, unsigned int flags)
{
	const struct engine_ops *ops = engine_decl(kind);

	return ops && (ops->flags & flags) == flags;
}

const char *engine_qemu_aio(enum engine_kind kind)
{
	const struct engine_ops *ops = engine_decl(kind);

	return ops ? ops->qemu_aio : NULL;
}

int engine_qemu_parse(const char *aio)
{
	for (unsigned int i = 0; i < ENGINE_COUNT; i++)
		if (engines[i]->qemu_aio && !strcmp(aio, engines[i]->qemu_aio))
			return (int)i;
	return -1;
}

unsigned int engine_qemu_kinds(const enum engine_kind **kinds)
{
	*kinds = qemu_kinds;
	return sizeof(qemu_kinds) / sizeof(qemu_kinds[0]);
}

const char *engine_name(enum engine_kind kind)
{
	return (unsigned int)kind < ENGINE_COUNT ? engine_names[kind] : "?";
}

bool engine_uses_buffers(enum engine_kind kind)
{
	return !engine_has(kind, ENGINE_NO_IO);
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
