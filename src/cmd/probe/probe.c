// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab probe`: its flags, the targets, and the loop that publishes. */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../commands.h"
#include "../opts.h"
#include "probe_impl.h"
#include "../../util/clock.h"
#include "../../util/err.h"
#include "../../util/fsread.h"
#include "../../util/sig.h"
#include "../../util/xmem.h"

/* --once waits this long for the reads; one still in flight is a stall. */
#define ONCE_WAIT_NS 10000000000ull
#define MAX_TARGETS 64

struct probe_cli {
	uint64_t interval_ns, bs, textfile_ns, doctor_ns;
	bool once, no_doctor, write, disks, probe_only;
	const char *textfile, *listen, *dir, *textfile_name, *from;
	int npos; /* TARGETs given; the first one in first */
	const char *first;
};

#define OFF(f) offsetof(struct probe_cli, f)

static const struct opt probe_table[] = {
	{ .kind = OPT_GROUP, .name = "", .help = "Probing" },
	{ "interval", 'i', OPT_DURATION, "TIME", OFF(interval_ns),
	  "mean time between two reads of a target, jittered +-25% (default 1s, at least 100ms)" },
	{ "bs", 'b', OPT_SIZE, "SIZE", OFF(bs),
	  "size of each read, a multiple of 4 KiB (default 4k)" },
	{ "dir", 0, OPT_STRING, "DIR", OFF(dir),
	  "create the probe's own file DIR/" PROBE_FILE_NAME
	  " (16 MiB) instead of one beside each local filesystem" },
	{ "disks", 0, OPT_FLAG, NULL, OFF(disks),
	  "probe every whole disk of /sys/block instead, read-only" },
	{ "write", 'w', OPT_FLAG, NULL, OFF(write),
	  "also an O_DSYNC write and an fdatasync, only of probe's own files" },
	{ "doctor-interval", 0, OPT_DURATION, "TIME", OFF(doctor_ns),
	  "how often doctor's rules refresh iolab_disk_info and iolab_finding (default 10m)" },
	{ "no-doctor", 0, OPT_FLAG, NULL, OFF(no_doctor),
	  "leave out iolab_disk_info and iolab_finding" },
	{ .kind = OPT_GROUP,
	  .name = "",
	  .help = "Output (Prometheus text format)" },
	{ "once", 0, OPT_FLAG, NULL, OFF(once),
	  "one read of each target, print the metrics (or write --textfile) and exit" },
	{ "textfile", 0, OPT_STRING, "DIR", OFF(textfile),
	  "replace DIR/iolab.prom atomically, for node_exporter's textfile collector" },
	{ "textfile-name", 0, OPT_STRING, "NAME", OFF(textfile_name),
	  "the file in DIR instead of iolab.prom (a NAME.prom per probe)" },
	{ "probe-only", 0, OPT_FLAG, NULL, OFF(probe_only),
	  "only the iolab_probe_* series: for a probe beside another one" },
	{ "textfile-interval", 0, OPT_DURATION, "TIME", OFF(textfile_ns),
	  "how often to rewrite the textfile (default 15s)" },
	{ "listen", 'l', OPT_STRING, "ADDR:PORT", OFF(listen),
	  "serve GET /metrics over HTTP; :PORT binds 127.0.0.1 (port 0: any free one)" },
	{ "from", 0, OPT_STRING, "FILE", OFF(from),
	  "no probing: a saved calibrate or mark --json result as gauges, on stdout or into --textfile once" },
	{ .kind = OPT_GROUP },
};

static const struct opt_cmd probe_cmd = {
	.name = "probe",
	.synopsis = "iolab probe [OPTIONS] [TARGET...]",
	.summary =
		"Watch disk latency continuously, for Prometheus: a QD1 O_DIRECT read of\n"
		"one random block of each TARGET (a block device or a file, read-only;\n"
		"default: a 16 MiB file probe creates beside each mounted local filesystem\n"
		"and removes on exit) at a low jittered rate, as a latency histogram; the\n"
		"kernel's disk counters; doctor's disk facts and findings as labels.",
	.opts = probe_table,
	.footer =
		"Exit: 0 ok, 1 usage (also a --from FILE that is not a calibrate or mark\n"
		"result), 2 environment (cannot listen, no disk, cannot make its file, an\n"
		"unreadable --from FILE), 3 cannot write --textfile, 130/143 interrupted.\n",
	.max_positional = MAX_TARGETS,
};

/* --disks: whole disks worth probing: not loop, RAM, optical, floppy or stacked. */
static size_t disk_targets(char ***out)
{
	static const char *const skip[] = { "loop", "ram", "zram", "sr",
					    "fd",   "dm-", "md",   "nbd" };
	char **names = NULL, **t;
	size_t n = 0;
	int nn = fsv_list(&fsview_host, "/sys/block", "", &names);

	t = xcalloc(MAX_TARGETS, sizeof(*t));
	for (int i = 0; i < nn && n < MAX_TARGETS; i++) {
		char path[320];
		uint64_t sectors = 0;
		bool skipped = false;

		for (size_t k = 0; k < sizeof(skip) / sizeof(skip[0]); k++)
			skipped |= !strncmp(names[i], skip[k], strlen(skip[k]));
		snprintf(path, sizeof(path), "/sys/block/%s/size", names[i]);
		if (skipped || fsv_read_u64(&fsview_host, path, &sectors) ||
		    !sectors)
			continue;
		t[n++] = xasprintf("/dev/%s", names[i]);
	}
	if (nn > 0)
		fsv_list_free(names);
	*out = t;
	return n;
}

/*
 * The probe's own files: in --dir DIR, or by default (no TARGET) one
 * beside each mounted local filesystem, skipping with a note those it
 * cannot create (not root, a full disk) as long as one is made.
 */
static bool own_files(struct probe *p, const struct probe_cli *o,
		      struct err *err)
{
	char **dirs = NULL;
	size_t nd, made = 0;

	if (o->dir) {
		if (!probe_file_create(&p->t[p->nt], o->dir, err))
			return false;
		p->t[p->nt++].write = o->write;
		return true;
	}
	if (o->disks || o->npos)
		return true;
	nd = probe_default_dirs(&dirs, MAX_TARGETS);
	for (size_t i = 0; i < nd; i++) {
		struct err e = { 0 };

		if (probe_file_create(&p->t[p->nt], dirs[i], &e)) {
			p->t[p->nt++].write = o->write;
			made++;
		} else {
			fprintf(stderr, "iolab: probe: skipping %s: %s\n",
				dirs[i], e.msg);
		}
		free(dirs[i]);
	}
	free(dirs);
	if (!made)
		return err_set(
			err, EXIT_ENV, 0,
			"could not create a probe file on any local filesystem (%zu found); name the files or devices to probe, or use --dir DIR or --disks",
			nd);
	return true;
}

static bool check_opts(struct probe_cli *o, struct err *err)
{
	if (o->interval_ns < 100000000ull)
		return err_set(
			err, EXIT_USAGE, 0,
			"--interval must be at least 100ms: the probe is meant to be light");
	if (!o->bs || o->bs % 4096 || o->bs > (1u << 20))
		return err_set(
			err, EXIT_USAGE, 0,
			"--bs must be a multiple of 4 KiB, at most 1 MiB (O_DIRECT alignment)");
	if (o->textfile_ns < 1000000000ull)
		return err_set(err, EXIT_USAGE, 0,
			       "--textfile-interval must be at least 1s");
	if (!o->no_doctor && o->doctor_ns < 10000000000ull)
		return err_set(err, EXIT_USAGE, 0,
			       "--doctor-interval must be at least 10s");
	if (o->from &&
	    (o->once || o->listen || o->disks || o->dir || o->write || o->npos))
		return err_set(
			err, EXIT_USAGE, 0,
			"--from FILE only turns a saved result into gauges, once: give no TARGET and none of --once, --listen, --disks, --dir, --write with it");
	if (o->textfile_name && !o->textfile)
		return err_set(
			err, EXIT_USAGE, 0,
			"--textfile-name names a file in --textfile DIR: give both");
	if (o->from)
		return true;
	if (o->once && o->listen)
		return err_set(
			err, EXIT_USAGE, 0,
			"--once prints or writes one exposition and exits; --listen serves until stopped: give one");
	if (o->disks && (o->dir || o->npos))
		return err_set(
			err, EXIT_USAGE, 0,
			"--disks probes every whole disk: give no TARGET and no --dir with it");
	/* The one rule for writing: only into what probe created itself. */
	if (o->write && (o->disks || o->npos))
		return err_set(
			err, EXIT_USAGE, 0,
			"--write writes only to a file probe created itself, never to an existing file or a block device: %s%s (leave %s out; probe's own files are the default targets, or --dir DIR)",
			o->disks ? "--disks probes block devices" : o->first,
			o->disks ? "" : " is not one",
			o->disks ? "--disks" : "the TARGETs");
	if (!o->once && !o->textfile && !o->listen)
		return err_set(
			err, EXIT_USAGE, 0,
			"say where the metrics go: --once (stdout), --textfile DIR or --listen ADDR:PORT");
	return true;
}

/* --from FILE: the result's gauges, once, where --textfile says or stdout. */
static bool from_file(const struct probe_cli *o, struct probe_textfile *tf,
		      struct err *err)
{
	size_t len = 0;
	char *buf = probe_from_render(o->from, &len, err);
	bool ok;

	if (!buf)
		return false;
	if (o->textfile)
		ok = probe_textfile_write(tf, buf, len, err);
	else
		ok = (fwrite(buf, 1, len, stdout) == len && !fflush(stdout)) ||
		     err_set(err, EXIT_IO, errno,
			     "cannot write the metrics: %s", strerror(errno));
	free(buf);
	return ok;
}

static void refresh_doctor(struct probe *p)
{
	struct doctor_opts dopts = { 0 };
	struct doctor_report r, old;
	struct err err = { 0 };
	bool had;

	/* Without its --probe, doctor only reads sysfs and /proc. */
	if (!doctor_collect(&fsview_host, &dopts, &r, &err)) {
		fprintf(stderr, "iolab: doctor: %s\n", err.msg);
		return;
	}
	pthread_mutex_lock(&p->mu);
	old = p->dr;
	had = p->dr_valid;
	p->dr = r;
	p->dr_valid = true;
	p->dr_unix_s = (double)time(NULL);
	pthread_mutex_unlock(&p->mu);
	if (had)
		doctor_free(&old);
}

/* --once: until each target was probed once, or ONCE_WAIT_NS passed. */
static void wait_once(struct probe *p)
{
	uint64_t end = clock_mono_ns() + ONCE_WAIT_NS;
	struct timespec ts = { .tv_sec = (time_t)(end / 1000000000ull),
			       .tv_nsec = (long)(end % 1000000000ull) };

	pthread_mutex_lock(&p->mu);
	for (;;) {
		size_t done = 0;

		for (size_t i = 0; i < p->nt; i++)
			done += p->t[i].c.cycles > 0;
		if (done == p->nt || sig_pending() ||
		    pthread_cond_timedwait(&p->wake, &p->mu, &ts) == ETIMEDOUT)
			break;
	}
	for (size_t i = 0; i < p->nt; i++)
		if (p->t[i].c.up == 0)
			fprintf(stderr, "iolab: probe: %s\n",
				p->t[i].c.last_error);
		else if (p->t[i].c.outstanding_since_ns)
			fprintf(stderr,
				"iolab: probe: %s: its I/O has not completed after %llu s\n",
				p->t[i].path, ONCE_WAIT_NS / 1000000000ull);
	pthread_mutex_unlock(&p->mu);
}

static bool publish(struct probe *p, struct probe_textfile *tf, FILE *out,
		    struct err *err)
{
	size_t len = 0;
	char *buf;
	bool ok;

	if (!tf) {
		probe_render(p, out);
		return !fflush(out) ||
		       err_set(err, EXIT_IO, errno,
			       "cannot write the metrics: %s", strerror(errno));
	}
	buf = probe_render_buf(p, &len);
	if (!buf)
		return err_set(err, EXIT_IO, ENOMEM,
			       "cannot render the metrics: out of memory");
	ok = probe_textfile_write(tf, buf, len, err);
	free(buf);
	return ok;
}

/* Until a signal: doctor now and then, the textfile every interval. */
static int serve(struct probe *p, const struct probe_cli *o,
		 struct probe_textfile *tf)
{
	uint64_t now = clock_mono_ns(), next_dr = now,
		 next_tf = now + o->interval_ns + o->interval_ns / 2;
	bool failing = false;

	while (!sig_pending()) {
		uint64_t wake = UINT64_MAX;
		struct timespec ts;

		now = clock_mono_ns();
		if (!o->no_doctor && now >= next_dr) {
			refresh_doctor(p);
			next_dr = now + o->doctor_ns;
		}
		if (tf && now >= next_tf) {
			struct err err = { 0 };
			bool ok = publish(p, tf, NULL, &err);

			/* A full disk must not end the watch: say it once. */
			if (!ok && !failing)
				fprintf(stderr, "iolab: %s; retrying\n",
					err.msg);
			else if (ok && failing)
				fprintf(stderr, "iolab: %s/%s written again\n",
					tf->dir, tf->name);
			failing = !ok;
			next_tf = now + o->textfile_ns;
		}
		if (!o->no_doctor)
			wake = next_dr;
		if (tf && next_tf < wake)
			wake = next_tf;
		if (wake == UINT64_MAX)
			wake = now + 3600000000000ull;
		ts.tv_sec = (time_t)(wake / 1000000000ull);
		ts.tv_nsec = (long)(wake % 1000000000ull);
		/* A signal interrupts the sleep (workers block them all). */
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	/* Stale figures must not outlive the probe in node_exporter. */
	if (tf)
		(void)unlinkat(tf->dirfd, tf->name, 0);
	return sig_exit_code(sig_pending());
}

int cmd_probe(int argc, char **argv)
{
	struct probe_cli o = { .interval_ns = 1000000000ull,
			       .bs = 4096,
			       .textfile_ns = 15000000000ull,
			       .doctor_ns = 600000000000ull };
	struct probe p = { .mu = PTHREAD_MUTEX_INITIALIZER,
			   .version = IOLAB_VERSION };
	struct probe_textfile tf = { .dirfd = -1 };
	struct probe_http *http = NULL;
	struct opt_state st;
	struct err err = { 0 };
	char **paths = NULL;
	size_t npaths = 0;
	bool owned = false;
	int rc = EXIT_OK, prc;

	prc = opts_parse(&probe_cmd, argc, argv, &o, &st, &err);
	if (prc != OPTS_OK) {
		opts_state_free(&st);
		return prc == OPTS_HELP ? EXIT_OK : err_report(&err);
	}
	o.no_doctor |= o.probe_only; /* its families are left out anyway */
	o.npos = st.npositional;
	o.first = st.npositional ? st.positional[0] : NULL;
	if (!check_opts(&o, &err))
		goto out;
	if (o.disks) {
		npaths = disk_targets(&paths);
		owned = true;
		if (!npaths) {
			err_set(&err, EXIT_ENV, 0,
				"no disk found in /sys/block to probe; name the devices or files to probe");
			goto out;
		}
	} else if (st.npositional) {
		paths = st.positional;
		npaths = (size_t)st.npositional;
	}
	if (o.textfile &&
	    !probe_textfile_open(
		    &tf, o.textfile,
		    o.textfile_name ? o.textfile_name : "iolab.prom", &err))
		goto out;
	if (o.from) {
		(void)from_file(&o, &tf, &err);
		goto out;
	}
	p.t = xcalloc(npaths + MAX_TARGETS, sizeof(*p.t));
	for (size_t i = 0; i < npaths; i++)
		p.t[p.nt++].path = paths[i];
	if (!own_files(&p, &o, &err))
		goto out_files;
	sig_install();
	p.interval_ns = o.interval_ns;
	p.probe_only = o.probe_only;
	p.bs = o.bs;
	p.max_cycles = o.once ? 1 : 0;
	for (size_t i = 0; i < p.nt; i++)
		p.t[i].seed = (uint64_t)time(NULL) ^
			      ((uint64_t)getpid() << 20) ^
			      (i * 0x9e3779b97f4a7c15ull);
	if (!probe_start(&p, &err))
		goto out_stop;
	if (o.listen) {
		http = probe_http_start(&p, o.listen, &err);
		if (!http)
			goto out_stop;
		fprintf(stderr, "iolab: probe: serving /metrics on port %u\n",
			probe_http_port(http));
	}
	if (o.once) {
		if (!o.no_doctor)
			refresh_doctor(&p);
		wait_once(&p);
		if (!publish(&p, o.textfile ? &tf : NULL, stdout, &err))
			goto out_stop;
		if (sig_pending())
			rc = sig_exit_code(sig_pending());
	} else {
		rc = serve(&p, &o, o.textfile ? &tf : NULL);
	}
out_stop:
	probe_http_stop(http);
	if (probe_stop(&p)) {
		if (p.dr_valid)
			doctor_free(&p.dr);
	} else {
		/*
		 * A worker is stuck in the kernel and still uses @p, which
		 * lives in this frame: end the process here, never return.
		 * It lingers, pipes included, until the device answers, so
		 * close them first: cron or a shell reading the complete
		 * output is not held too.
		 */
		for (size_t i = 0; i < p.nt; i++)
			probe_file_remove(&p.t[i]);
		if (err.msg[0])
			rc = err_report(&err);
		fflush(stdout);
		fflush(stderr);
		close(STDOUT_FILENO);
		close(STDERR_FILENO);
		_exit(rc);
	}
out_files:
	for (size_t i = 0; i < p.nt; i++)
		if (p.t[i].owned) {
			probe_file_remove(&p.t[i]);
			free(p.t[i].path);
		}
	free(p.t);
out:
	probe_textfile_close(&tf);
	if (owned) {
		for (size_t i = 0; i < npaths; i++)
			free(paths[i]);
		free(paths);
	}
	opts_state_free(&st);
	if (err.msg[0])
		rc = err_report(&err);
	return rc;
}
