// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab top`: its flags, and the loop from the kernel's counters to a
 * frame per interval. It reads /proc and /sys only: no block device is
 * opened, so it adds no load to the disks it watches.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../commands.h"
#include "../opts.h"
#include "top_libvirt.h"
#include "top_report.h"
#include "../../core/blkinfo.h"
#include "../../util/clock.h"
#include "../../util/err.h"
#include "../../util/fsread.h"
#include "../../util/sig.h"
#include "../../util/xmem.h"

#define DISKSTATS "/proc/diskstats"
#define VERDICTS_MAX 256
/* A monitor that does not answer in this time is skipped this sample. */
#define QMP_TIMEOUT_MS 2000
/* Where a QEMU without a QMP socket most likely has its monitor. */
#define LIBVIRT_URI "qemu:///system"

struct top_cli {
	uint64_t interval_ns;
	unsigned count;
	bool batch, json, csv, all, vms;
	const char *libvirt;
};

#define OFF(f) offsetof(struct top_cli, f)

static const struct opt top_table[] = {
	{ .kind = OPT_GROUP, .name = "", .help = "Sampling" },
	{ "interval", 'i', OPT_DURATION, "TIME", OFF(interval_ns),
	  "time between samples (default 1s, at least 100ms)" },
	{ "count", 'n', OPT_UINT, "N", OFF(count),
	  "stop after N samples (default: until Ctrl-C)", NULL, 0, 1e9 },
	{ "all", 0, OPT_FLAG, NULL, OFF(all),
	  "also loop, RAM, zram, CD-ROM and floppy devices" },
	{ "vms", 0, OPT_FLAG, NULL, OFF(vms),
	  "on a host: also each QEMU VM's disks, from QEMU's query-blockstats over its QMP socket (read-only)" },
	{ "libvirt", 0, OPT_STRING, "URI", OFF(libvirt),
	  "as --vms, and libvirt's running domains at URI, from libvirt's block statistics over a read-only connection (--vms alone tries " LIBVIRT_URI
	  " when a QEMU has no QMP socket)" },
	{ .kind = OPT_GROUP, .name = "", .help = "Output" },
	{ "batch", 'b', OPT_FLAG, NULL, OFF(batch),
	  "plain frames one after another, also on a terminal (as top -b)" },
	{ "json", 0, OPT_FLAG, NULL, OFF(json),
	  "one JSON document per sample, one per line" },
	{ "csv", 0, OPT_FLAG, NULL, OFF(csv),
	  "CSV: a header, then one line per disk per sample" },
	{ .kind = OPT_GROUP },
};

static const struct opt_cmd top_cmd = {
	.name = "top",
	.synopsis = "iolab top [OPTIONS] [DISK...]",
	.summary =
		"Show what the disks do now, without adding load: per disk, requests,\n"
		"MB/s, mean latency (await), queue (aqu-sz), busy time and flushes from\n"
		"/proc/diskstats, as iostat -x computes them; iowait, steal and PSI io;\n"
		"and a verdict on what the figures mean. DISK names a device (vda,\n"
		"/dev/sdb, a partition or a loop device); default: every disk.",
	.opts = top_table,
	.footer =
		"Exit: 0 ok (after --count samples), 1 usage, 2 environment,\n"
		"3 cannot write the output, 130/143 interrupted.\n",
	.max_positional = 64,
};

struct top_loop {
	const struct top_cli *o;
	char **disks; /* kernel names */
	int ndisks;
	struct top_sample s;
	struct top_snap prev, cur;
	bool *prev_shown, *cur_shown;
	struct top_vm *vms;
	size_t nvms;
	struct top_lv *lv;
	bool lv_tried; /* the default connection is tried once */
	char lv_why[200]; /* why it failed */
	struct top_sys_snap sprev, scur;
};

/* Devices of @prev that were shown and are not in @cur. */
static void find_gone(struct top_loop *l)
{
	l->s.ngone = 0;
	for (size_t i = 0; i < l->prev.n; i++) {
		const struct top_dev *p = &l->prev.devs[i];
		const struct top_dev *c = top_find_near(&l->cur, p->name, i);

		if (!l->prev_shown[i] ||
		    (c && c->major == p->major && c->minor == p->minor))
			continue;
		memcpy(l->s.gone[l->s.ngone++], p->name, TOP_NAME_MAX);
	}
}

/* Which devices of @s are shown; /sys is asked once per snapshot. */
static bool *shown_of(const struct top_loop *l, const struct top_snap *s)
{
	bool *v = xcalloc(s->n + 1, sizeof(*v));

	for (size_t i = 0; i < s->n; i++)
		v[i] = top_shown(&fsview_host, &s->devs[i], l->disks, l->ndisks,
				 l->o->all);
	return v;
}

static void build_sample(struct top_loop *l)
{
	struct top_sample *s = &l->s;
	double secs = (double)(l->cur.t_ns - l->prev.t_ns) / 1e9;

	s->interval_s = secs;
	s->nrows = 0;
	s->nverdicts = 0;
	s->rows = xrealloc(s->rows, (l->cur.n + 1) * sizeof(*s->rows));
	s->gone = xrealloc(s->gone, (l->prev.n + 1) * sizeof(*s->gone));
	for (size_t i = 0; i < l->cur.n; i++) {
		const struct top_dev *c = &l->cur.devs[i];
		struct top_row *w;

		if (!l->cur_shown[i])
			continue;
		w = &s->rows[s->nrows++];
		top_rate_of(top_find_near(&l->prev, c->name, i), c, secs,
			    &w->rate);
		top_class_of(&fsview_host, c, &w->cls);
		s->nverdicts += top_judge_dev(&w->rate, &w->cls,
					      s->verdicts + s->nverdicts,
					      VERDICTS_MAX - s->nverdicts);
	}
	find_gone(l);
	top_sys_rate_of(&l->sprev, &l->scur, &s->sys);
	s->nverdicts += top_judge_sys(&s->sys, s->verdicts + s->nverdicts,
				      VERDICTS_MAX - s->nverdicts);
	s->truncated = l->cur.truncated;
	s->skipped = l->cur.skipped;
}

/* Each named disk must be there at the start: a typo is not "idle". */
static bool check_disks(struct top_loop *l, struct err *err)
{
	for (int i = 0; i < l->ndisks; i++) {
		bool found = false;

		for (size_t j = 0; j < l->prev.n && !found; j++)
			found = top_shown(&fsview_host, &l->prev.devs[j],
					  l->disks + i, 1, true);
		if (!found)
			return err_set(
				err, EXIT_USAGE, 0,
				"no device %s in " DISKSTATS
				"; name a disk as lsblk lists it (vda, sdb, nvme0n1, loop0)",
				l->disks[i]);
	}
	return true;
}

/*
 * A /dev path ("/dev/mapper/vg-data", "/dev/disk/by-id/...") stands for
 * the kernel's name of the device it leads to ("dm-3"), which is the name
 * in /proc/diskstats. Anything else is taken as a kernel name.
 */
static char **resolve_disks(char **args, int n)
{
	char **v = xcalloc((size_t)n + 1, sizeof(*v));

	for (int i = 0; i < n; i++) {
		char name[TOP_NAME_MAX];

		if (!strncmp(args[i], "/dev/", 5) &&
		    blkinfo_dev_name(&fsview_host, args[i], name, sizeof(name)))
			v[i] = xstrdup(name);
		else
			v[i] = xstrdup(args[i]);
	}
	return v;
}

/*
 * The VMs: QEMU processes with their QMP sockets, then libvirt's domains
 * (a QEMU without a socket is most likely libvirt's: its connection is
 * opened then, once).
 */
static void scan_vms(struct top_loop *l)
{
	bool orphan = false;

	top_vms_scan("/proc", &l->vms, &l->nvms);
	for (size_t i = 0; i < l->nvms; i++)
		orphan |= !l->vms[i].qmp[0] && !l->vms[i].libvirt;
	if (orphan && !l->lv && !l->lv_tried && top_lv_available()) {
		l->lv_tried = true;
		l->lv = top_lv_open(LIBVIRT_URI, l->lv_why, sizeof(l->lv_why));
	}
	if (l->lv)
		top_lv_scan(l->lv, &l->vms, &l->nvms);
	for (size_t i = 0; i < l->nvms; i++) {
		struct top_vm *vm = &l->vms[i];

		if (vm->qmp[0] || vm->libvirt)
			continue;
		if (l->lv)
			snprintf(
				vm->why, sizeof(vm->why),
				"no QMP socket, and no running domain of that name at %s",
				top_lv_uri(l->lv));
		else if (l->lv_why[0])
			snprintf(vm->why, sizeof(vm->why),
				 "no QMP socket, and %s", l->lv_why);
	}
	top_vms_sample(l->vms, l->nvms, QMP_TIMEOUT_MS);
	if (l->lv)
		top_lv_sample(l->lv, l->vms, l->nvms);
}

/* Sleep until @t_ns in slices, so that Ctrl-C ends the wait at once. */
static void wait_until(uint64_t t_ns)
{
	while (!sig_pending() && clock_mono_ns() < t_ns)
		clock_sleep_until(t_ns);
}

int cmd_top(int argc, char **argv)
{
	struct top_cli o = { .interval_ns = 1000000000ull };
	struct top_loop l = { .o = &o };
	struct opt_state st;
	struct err err = { 0 };
	int rc = EXIT_OK, prc;
	bool clear, keys = false;

	prc = opts_parse(&top_cmd, argc, argv, &o, &st, &err);
	if (prc != OPTS_OK) {
		opts_state_free(&st);
		return prc == OPTS_HELP ? EXIT_OK : err_report(&err);
	}
	if (o.interval_ns < 100000000ull) {
		err_set(&err, EXIT_USAGE, 0,
			"--interval must be at least 100ms");
		goto out;
	}
	if (o.json && o.csv) {
		err_set(&err, EXIT_USAGE, 0, "--json and --csv: choose one");
		goto out;
	}
	l.ndisks = st.npositional;
	l.disks = resolve_disks(st.positional, st.npositional);
	l.s.argc = argc + 1;
	l.s.argv = argv - 1;
	l.s.interval_opt_s = (double)o.interval_ns / 1e9;
	l.s.count_opt = o.count;
	l.s.all = o.all;
	l.s.verdicts = xcalloc(VERDICTS_MAX, sizeof(*l.s.verdicts));
	/* Redraw in place only for a person at a terminal. */
	clear = !o.json && !o.csv && !o.batch && isatty(STDOUT_FILENO);
	sig_install();
	/* 'q' leaves the full-screen view, as in top. */
	if (clear)
		keys = top_keys_start();
	if (!top_read(DISKSTATS, &l.prev, &err))
		goto out;
	top_sys_read("", &l.sprev);
	l.prev_shown = shown_of(&l, &l.prev);
	if (o.libvirt) {
		o.vms = true;
		l.lv_tried = true;
		l.lv = top_lv_open(o.libvirt, l.lv_why, sizeof(l.lv_why));
		if (!l.lv) {
			err_set(&err, EXIT_ENV, 0,
				"%s; check the URI: virsh -r -c URI list",
				l.lv_why);
			goto out;
		}
	}
	l.s.vms_on = o.vms;
	l.s.lv_uri = l.lv ? top_lv_uri(l.lv) : NULL;
	if (o.vms)
		scan_vms(&l);
	if (!check_disks(&l, &err))
		goto out;
	for (unsigned i = 1; !o.count || i <= o.count; i++) {
		/*
		 * From the last read, not a fixed grid: a monitor that was
		 * slow to answer (--vms) must not bring samples back to back.
		 */
		if (keys) {
			if (top_keys_wait(l.prev.t_ns + o.interval_ns))
				break;
		} else {
			wait_until(l.prev.t_ns + o.interval_ns);
		}
		if (sig_pending())
			break;
		if (!top_read(DISKSTATS, &l.cur, &err))
			goto out;
		top_sys_read("", &l.scur);
		l.cur_shown = shown_of(&l, &l.cur);
		if (o.vms) {
			scan_vms(&l);
			l.s.lv_uri = l.lv ? top_lv_uri(l.lv) : NULL;
			l.s.vms = l.vms;
			l.s.nvms = l.nvms;
		}
		l.s.index = i;
		build_sample(&l);
		if (o.json) {
			if (!top_json_line(&l.s, stdout, &err))
				goto out;
		} else if (o.csv) {
			if (i == 1)
				top_csv_header(stdout);
			if (!top_csv_rows(&l.s, stdout, &err))
				goto out;
		} else {
			top_text_frame(&l.s, stdout, clear);
			if (fflush(stdout)) {
				err_set(&err, EXIT_IO, errno,
					"cannot write the report to stdout: %s",
					strerror(errno));
				goto out;
			}
		}
		top_snap_free(&l.prev);
		l.prev = l.cur;
		l.cur = (struct top_snap){ 0 };
		free(l.prev_shown);
		l.prev_shown = l.cur_shown;
		l.cur_shown = NULL;
		l.sprev = l.scur;
	}
	if (sig_pending())
		rc = sig_exit_code(sig_pending());
out:
	top_keys_restore();
	/* A reader that stopped reading (| head) ends the watch: no error. */
	if (err.errnum == EPIPE)
		err.msg[0] = '\0';
	if (err.msg[0])
		rc = err_report(&err);
	top_snap_free(&l.prev);
	top_snap_free(&l.cur);
	free(l.prev_shown);
	free(l.cur_shown);
	top_vms_free(l.vms, l.nvms);
	top_lv_close(l.lv);
	for (int i = 0; l.disks && i < l.ndisks; i++)
		free(l.disks[i]);
	free(l.disks);
	free(l.s.rows);
	free(l.s.gone);
	free(l.s.verdicts);
	opts_state_free(&st);
	return rc;
}
