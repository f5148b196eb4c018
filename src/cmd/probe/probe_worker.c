// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The probing threads, one per target. Each probe opens the target afresh
 * (read-only, O_DIRECT: a target that vanished or was replaced shows at
 * once), reads one random aligned block with a single pread (QD1) and
 * closes it. Nothing is ever written. Between probes a worker waits on the
 * condition variable, so stopping wakes it at once; a read stuck in the
 * kernel keeps only its own thread, and its age is the stall gauge.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "probe_impl.h"
#include "../../util/clock.h"
#include "../../util/err.h"
#include "../../util/prng.h"

#define PROBE_ALIGN 4096

size_t probe_bucket(uint64_t ns)
{
	size_t i = 0;

	while (i < PROBE_NBUCKETS && ns > (PROBE_BUCKET0_NS << i))
		i++;
	return i;
}

static bool all_zero(const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

/*
 * Open @path for reading only, refusing what is neither a regular file
 * nor a block device (O_NONBLOCK: a FIFO planted at the name must not
 * block the open). The usable size in *@size. -errno on failure.
 */
static int target_open(const char *path, uint64_t bs, uint64_t *size, char *why,
		       size_t len)
{
	struct stat st;
	uint64_t sz = 0;
	int fd, flags;

	fd = open(path,
		  O_RDONLY | O_DIRECT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		/* open() checks O_DIRECT before the file type: say which. */
		if (e == EINVAL && !stat(path, &st) && !S_ISREG(st.st_mode) &&
		    !S_ISBLK(st.st_mode))
			snprintf(
				why, len,
				"%s is neither a regular file nor a block device",
				path);
		else if (e == EINVAL)
			snprintf(
				why, len,
				"cannot open %s with O_DIRECT: its filesystem does not support direct I/O",
				path);
		else
			snprintf(why, len,
				 "cannot open %s read-only with O_DIRECT: %s",
				 path, strerror(e));
		return -e;
	}
	if (fstat(fd, &st)) {
		int e = errno;

		snprintf(why, len, "cannot stat %s: %s", path, strerror(e));
		close(fd);
		return -e;
	}
	if (S_ISREG(st.st_mode)) {
		sz = (uint64_t)st.st_size;
	} else if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &sz)) {
			int e = errno;

			snprintf(why, len, "cannot size %s: %s", path,
				 strerror(e));
			close(fd);
			return -e;
		}
	} else {
		snprintf(why, len,
			 "%s is neither a regular file nor a block device",
			 path);
		close(fd);
		return -EINVAL;
	}
	if (sz < bs) {
		snprintf(why, len, "%s is smaller than one %llu-byte block",
			 path, (unsigned long long)bs);
		close(fd);
		return -ENOSPC;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		(void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	*size = sz;
	return fd;
}

/* One probe of @t, counted under p->mu. */
static void probe_once(struct probe *p, struct probe_target *t, struct prng *r,
		       void *buf)
{
	char why[192] = "";
	uint64_t size = 0, off, t0, lat = 0;
	ssize_t n;
	int fd, e = 0;
	bool zero = false;

	fd = target_open(t->path, p->bs, &size, why, sizeof(why));
	if (fd >= 0) {
		off = prng_below(r, size / p->bs) * p->bs;
		t0 = clock_ns();
		pthread_mutex_lock(&p->mu);
		t->c.outstanding_since_ns = t0;
		pthread_mutex_unlock(&p->mu);
		n = pread(fd, buf, p->bs, (off_t)off);
		lat = clock_ns() - t0;
		e = n < 0 ? errno : 0;
		close(fd);
		if (n < 0)
			snprintf(why, sizeof(why), "read of %s at %llu: %s",
				 t->path, (unsigned long long)off, strerror(e));
		else if ((uint64_t)n != p->bs)
			snprintf(why, sizeof(why),
				 "short read of %s at %llu: %zd of %llu bytes",
				 t->path, (unsigned long long)off, n,
				 (unsigned long long)p->bs);
		else
			zero = all_zero(buf, p->bs);
	}
	pthread_mutex_lock(&p->mu);
	t->c.outstanding_since_ns = 0;
	t->c.cycles++;
	if (why[0]) {
		t->c.errors++;
		t->c.up = 0;
		snprintf(t->c.last_error, sizeof(t->c.last_error), "%s", why);
	} else {
		size_t b = probe_bucket(lat);

		if (b < PROBE_NBUCKETS)
			t->c.buckets[b]++;
		t->c.count++;
		t->c.sum_ns += lat;
		t->c.zero_reads += zero;
		t->c.up = 1;
	}
	pthread_cond_broadcast(&p->wake);
	pthread_mutex_unlock(&p->mu);
}

/* Wait until @t_ns (monotonic) or a stop; true if stopping. */
static bool wait_until(struct probe *p, uint64_t t_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(t_ns / 1000000000ull),
			       .tv_nsec = (long)(t_ns % 1000000000ull) };
	bool stop;

	pthread_mutex_lock(&p->mu);
	while (!p->stop &&
	       pthread_cond_timedwait(&p->wake, &p->mu, &ts) != ETIMEDOUT)
		;
	stop = p->stop;
	pthread_mutex_unlock(&p->mu);
	return stop;
}

struct worker_arg {
	struct probe *p;
	struct probe_target *t;
};

static void *worker(void *arg)
{
	struct worker_arg a = *(struct worker_arg *)arg;
	struct prng r;
	uint64_t next, cycles = 0;
	void *buf;

	free(arg);
	prng_seed(&r, a.t->seed);
	if (posix_memalign(&buf, PROBE_ALIGN, a.p->bs))
		return NULL;
	/*
	 * Start at a random point of the first interval (not in --once), so
	 * that targets, and VMs started together, do not probe in step.
	 */
	next = clock_mono_ns();
	if (!a.p->max_cycles)
		next += prng_below(&r, a.p->interval_ns);
	while (!wait_until(a.p, next)) {
		probe_once(a.p, a.t, &r, buf);
		if (a.p->max_cycles && ++cycles >= a.p->max_cycles)
			break;
		/* Jitter of +-25 %: the mean rate stays 1 / interval. */
		next += a.p->interval_ns * 3 / 4 +
			prng_below(&r, a.p->interval_ns / 2 + 1);
		if (next < clock_mono_ns())
			next = clock_mono_ns(); /* a slow read: do not catch up */
	}
	free(buf);
	return NULL;
}

bool probe_start(struct probe *p, struct err *err)
{
	pthread_condattr_t ca;
	sigset_t all, old;
	int rc = 0;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->wake, &ca);
	pthread_condattr_destroy(&ca);
	/* Signals go to the main thread, which polls for them. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (size_t i = 0; i < p->nt && !rc; i++) {
		struct worker_arg *a = malloc(sizeof(*a));

		if (!a) {
			rc = ENOMEM;
			break;
		}
		a->p = p;
		a->t = &p->t[i];
		p->t[i].c.up = -1;
		rc = pthread_create(&p->t[i].thread, NULL, worker, a);
		if (rc)
			free(a);
		else
			p->t[i].started = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		return err_set(err, EXIT_ENV, rc,
			       "cannot start a probing thread: %s",
			       strerror(rc));
	return true;
}

bool probe_stop(struct probe *p)
{
	struct timespec ts;
	bool all = true;

	pthread_mutex_lock(&p->mu);
	p->stop = true;
	pthread_cond_broadcast(&p->wake);
	pthread_mutex_unlock(&p->mu);
	/* A worker stuck in the kernel gets 2 s, then is left to exit(). */
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 2;
	for (size_t i = 0; i < p->nt; i++) {
		if (!p->t[i].started)
			continue;
		if (pthread_timedjoin_np(p->t[i].thread, NULL, &ts)) {
			pthread_detach(p->t[i].thread);
			all = false;
		}
		p->t[i].started = false;
	}
	return all;
}
