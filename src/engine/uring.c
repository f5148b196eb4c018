// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The io_uring engine (QEMU aio=io_uring), through liburing. Submission and
 * the wait for completions share one io_uring_enter; buffers and the file
 * are registered when the kernel allows it, with a plain fallback. A build
 * without liburing keeps only the declaration at the end.
 */
#include "config.h"

#include "engine_impl.h"

#if HAVE_LIBURING
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <liburing.h>

#include "../util/err.h"
#include "../util/xmem.h"

struct uring_engine {
	struct engine base;
	struct io_uring ring;
	int fd; /* the fd, or 0: its index among registered files */
	unsigned int sqe_flags; /* IOSQE_FIXED_FILE when registered */
	bool fixed_bufs;
	unsigned int pending; /* prepared, not yet submitted */
	unsigned int queued; /* prepared since the last submit call */
	char features[96];
};

static bool uring_probe(struct err *err)
{
	struct io_uring ring;
	int rc = io_uring_queue_init(2, &ring, 0);
	FILE *f;
	int disabled = 0;

	if (!rc) {
		io_uring_queue_exit(&ring);
		return true;
	}
	f = fopen("/proc/sys/kernel/io_uring_disabled", "r");
	if (f) {
		if (fscanf(f, "%d", &disabled) != 1)
			disabled = 0;
		fclose(f);
	}
	if (disabled)
		err_set(err, EXIT_ENV, -rc,
			"io_uring is disabled by kernel.io_uring_disabled=%d; use --engine native or threads, or run 'sysctl kernel.io_uring_disabled=0'",
			disabled);
	else
		err_set(err, EXIT_ENV, -rc,
			"io_uring is not available here (%s); use --engine native or threads",
			strerror(-rc));
	return false;
}

static int uring_setup(struct io_uring *ring, unsigned int entries)
{
	/*
	 * One thread submits and reaps each ring: let the kernel skip the
	 * cross-thread task-work signalling (5.19+/6.0+), else plain setup.
	 */
	static const unsigned int tries[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	int rc = -EINVAL;

	for (unsigned int i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		struct io_uring_params p;

		memset(&p, 0, sizeof(p));
		p.flags = tries[i];
		rc = io_uring_queue_init_params(entries, ring, &p);
		if (rc != -EINVAL)
			return rc ? rc : (int)tries[i];
	}
	return rc;
}

static struct engine *uring_init(const struct engine_setup *s, struct err *err)
{
	struct uring_engine *ue = xcalloc(1, sizeof(*ue));
	int flags, rc;

	ue->base.ops = &uring_engine_ops;
	flags = uring_setup(&ue->ring, s->depth);
	if (flags < 0) {
		err_set(err, EXIT_ENV, -flags,
			"cannot set up an io_uring of %u entries: %s; use --engine native or threads",
			s->depth, strerror(-flags));
		free(ue);
		return NULL;
	}
	ue->fd = s->fd;
	rc = io_uring_register_files(&ue->ring, &s->fd, 1);
	if (!rc) {
		ue->fd = 0;
		ue->sqe_flags = IOSQE_FIXED_FILE;
	}
	if (s->buf_base && s->buf_stride <= (1u << 30)) {
		struct iovec *iov = xcalloc(s->depth, sizeof(*iov));

		for (unsigned int i = 0; i < s->depth; i++) {
			iov[i].iov_base =
				(char *)s->buf_base + i * s->buf_stride;
			iov[i].iov_len = s->buf_stride;
		}
		/* Fails with ENOMEM under a low RLIMIT_MEMLOCK: fall back. */
		ue->fixed_bufs =
			!io_uring_register_buffers(&ue->ring, iov, s->depth);
		free(iov);
	}
	snprintf(
		ue->features, sizeof(ue->features), "%s%s%s",
		ue->fixed_bufs ? "fixed buffers" : "plain buffers",
		ue->sqe_flags ? ", registered file" : "",
		(flags & IORING_SETUP_DEFER_TASKRUN) ? ", deferred task run" :
		(flags & IORING_SETUP_COOP_TASKRUN) ? ", cooperative task run" :
						      "");
	return &ue->base;
}

static int uring_queue(struct engine *e, struct io_slot *s)
{
	struct uring_engine *ue = container_of(e, struct uring_engine, base);
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ue->ring);

	if (!sqe)
		return -EBUSY;
	switch (s->op) {
	case IO_READ:
		if (ue->fixed_bufs)
			io_uring_prep_read_fixed(sqe, ue->fd, s->buf, s->len,
						 s->off, s->idx);
		else
			io_uring_prep_read(sqe, ue->fd, s->buf, s->len, s->off);
		break;
	case IO_WRITE:
		if (ue->fixed_bufs)
			io_uring_prep_write_fixed(sqe, ue->fd, s->buf, s->len,
						  s->off, s->idx);
		else
			io_uring_prep_write(sqe, ue->fd, s->buf, s->len,
					    s->off);
		break;
	default:
		io_uring_prep_fsync(sqe, ue->fd, IORING_FSYNC_DATASYNC);
		break;
	}
	sqe->flags |= (unsigned char)ue->sqe_flags;
	io_uring_sqe_set_data(sqe, s);
	ue->pending++;
	ue->queued++;
	return 0;
}

/*
 * Submission is folded into the reap's io_uring_enter: every prepared SQE
 * is accepted, and goes to the kernel there.
 */
static int uring_submit(struct engine *e)
{
	struct uring_engine *ue = container_of(e, struct uring_engine, base);
	unsigned int n = ue->queued;

	ue->queued = 0;
	return (int)n;
}

static int uring_reap(struct engine *e, struct io_slot **done, unsigned int max,
		      uint64_t wait_ns)
{
	struct uring_engine *ue = container_of(e, struct uring_engine, base);
	struct io_uring_cqe *cqe;
	unsigned int head, n = 0;
	int rc = 0;

	if (!io_uring_cq_ready(&ue->ring)) {
		if (wait_ns == ENGINE_WAIT_FOREVER) {
			rc = io_uring_submit_and_wait(&ue->ring, 1);
		} else if (wait_ns == 0) {
			/* Also runs deferred task work, so completions show. */
			rc = io_uring_submit_and_get_events(&ue->ring);
		} else {
			struct __kernel_timespec ts = {
				.tv_sec = (long long)(wait_ns / 1000000000ull),
				.tv_nsec = (long long)(wait_ns % 1000000000ull),
			};

			rc = io_uring_submit_and_wait_timeout(&ue->ring, &cqe,
							      1, &ts, NULL);
			if (rc == -ETIME)
				rc = 0;
		}
	} else if (ue->pending) {
		rc = io_uring_submit(&ue->ring);
	}
	/* Busy rings keep their SQEs and go in with the next enter. */
	if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
		return rc;
	ue->pending = 0;
	io_uring_for_each_cqe(&ue->ring, head, cqe)
	{
		struct io_slot *s;

		if (n == max)
			break;
		s = io_uring_cqe_get_data(cqe);
		s->res = cqe->res;
		done[n++] = s;
	}
	io_uring_cq_advance(&ue->ring, n);
	return (int)n;
}

static const char *uring_features(const struct engine *e)
{
	return container_of(e, struct uring_engine, base)->features;
}

static void uring_exit(struct engine *e)
{
	struct uring_engine *ue = container_of(e, struct uring_engine, base);

	io_uring_queue_exit(&ue->ring);
	free(ue);
}

#endif /* HAVE_LIBURING */

const struct engine_ops uring_engine_ops = {
	.name = "io_uring",
	.flags = 0,
	.qemu_aio = "io_uring",
#if HAVE_LIBURING
	.probe = uring_probe,
	.init = uring_init,
	.queue = uring_queue,
	.submit = uring_submit,
	.reap = uring_reap,
	.features = uring_features,
	.exit = uring_exit,
#endif
};
