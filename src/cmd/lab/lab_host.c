// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lab's orchestration; see lab.h. Preflight first (QEMU, qemu-img,
 * kernel and modules, the static iolab, room for the image), so that a
 * lab that cannot run says so in one line before booting anything; then
 * the cells, a QEMU per group of cells sharing a bus and a format (each
 * with an image of its own), group by group so that only one group's
 * images exist at a time. A cell that QEMU should refuse (aio=native
 * on a buffered cache) gets a QEMU of its own, which refuses at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "image.h"
#include "initramfs.h"
#include "kernel.h"
#include "kmod.h"
#include "lab_host.h"
#include "proc.h"
#include "static_bin.h"
#include "vm.h"
#include "../../core/target.h"
#include "lab_report.h"
#include "../../util/clock.h"
#include "../../util/err.h"
#include "../../util/parse.h"
#include "../../util/sig.h"
#include "../../util/term.h"
#include "../../util/xmem.h"

#define NS 1000000000ull
/* Rough speeds for the first estimate, refined by what cells measure. */
#define EST_BOOT_TCG_NS (8 * NS)
#define EST_BOOT_KVM_NS (3 * NS)
#define EST_FILL_BPS (200ull << 20)

void lab_opts_defaults(struct lab_opts *o)
{
	const enum engine_kind *aios;

	memset(o, 0, sizeof(*o));
	o->buses[o->nbus++] = BUS_VIRTIO_BLK;
	o->formats[o->nformat++] = FMT_RAW;
	o->naio = engine_qemu_kinds(&aios);
	memcpy(o->aios, aios, o->naio * sizeof(o->aios[0]));
	for (int c = 0; c < CACHE_COUNT; c++)
		o->caches[o->ncache++] = (enum cache_mode)c;
	o->disk_bytes = 1ull << 30;
	lab_suite_defaults(&o->suite);
	o->qemu = "qemu-system-x86_64";
	o->accel = ACCEL_AUTO;
	o->memory_bytes = 512ull << 20;
	o->smp = 1;
	o->boot_timeout_ns = 120 * NS;
	o->kvm_probe_ns = 20 * NS;
}

/* A group of cells sharing one QEMU (a single cell: its own). */
struct lab_group {
	struct lab_cell *cells[LAB_MAX_DISKS];
	struct lab_image images[LAB_MAX_DISKS];
	/* Reported as its disk's part ended, before the guest did. */
	bool early[LAB_MAX_DISKS];
	enum lab_status early_status[LAB_MAX_DISKS];
	unsigned int n;
};

/* Everything the cells share, set up once. */
struct lab_ctx {
	const struct lab_opts *o;
	struct lab_report *r;
	char qemu_img[PATH_MAX];
	char initrd[PATH_MAX];
	int initrd_cleanup;
	int initrd_fd; /* held open: QEMU reads it as /proc/self/fd/N */
	char initrd_fdpath[32];
	struct lab_kernel kernel;
	char image_dir[PATH_MAX];
	bool disk_is_file;
	enum lab_accel accel; /* now: KVM (maybe unconfirmed) or TCG */
	bool kvm_confirmed;
	unsigned int max_share; /* disks the room left allows in one guest */
	unsigned int nguests; /* QEMUs started so far */
	/* For the estimate: measured work of ok cells (without a boot),
	 * boots of guests, and how many guests are planned to boot. */
	double ok_s, boot_sum;
	unsigned int nok, nboot, boots_planned;
	/* Progress of the current cell. */
	struct lab_group *group; /* the group running, for START */
	struct vm_outcome *cur_v; /* what its guest has sent so far */
	int cur_part; /* the disk it is on; -1 before the first START */
	uint64_t part_t0; /* when it turned to that disk */
	size_t done, done_refused; /* cells reported */
	unsigned int nrefuse; /* cells QEMU should refuse */
	unsigned int group_no; /* cell_no of its first cell */
	unsigned int cell_no, ncells;
	char cell_label[96];
	char state[160]; /* what the guest last said */
	uint64_t cell_t0;
};

static bool find_qemu(struct lab_ctx *x, struct err *err)
{
	const struct lab_opts *o = x->o;
	char *argv[] = { (char *)o->qemu, (char *)"--version", NULL };
	char *out = NULL, *line, *v;
	int rc = proc_run(argv, &out, NULL, NULL, 60 * NS, err);

	if (rc < 0) {
		free(out);
		err_prefix(err, "QEMU");
		return false;
	}
	line = out;
	line[strcspn(line, "\n")] = '\0';
	v = strstr(line, "version ");
	if (rc != 0 || !v) {
		err_set(err, EXIT_ENV, 0,
			"%s --version did not print a QEMU version (exit %d); give --qemu the path of qemu-system-x86_64",
			o->qemu, rc);
		free(out);
		return false;
	}
	snprintf(x->r->qemu_version, sizeof(x->r->qemu_version), "%s", v + 8);
	snprintf(x->r->qemu, sizeof(x->r->qemu), "%s", o->qemu);
	free(out);
	/* qemu-img from the same place as the QEMU we were given. */
	if (strchr(o->qemu, '/')) {
		char d[PATH_MAX];

		snprintf(d, sizeof(d), "%s", o->qemu);
		snprintf(x->qemu_img, sizeof(x->qemu_img), "%s/qemu-img",
			 dirname(d));
		if (!access(x->qemu_img, X_OK))
			return true;
	}
	snprintf(x->qemu_img, sizeof(x->qemu_img), "qemu-img");
	return true;
}

static bool check_qemu_img(struct lab_ctx *x, struct err *err)
{
	char *argv[] = { x->qemu_img, (char *)"--version", NULL };
	int rc = proc_run(argv, NULL, NULL, NULL, 60 * NS, err);

	if (rc < 0) {
		err_prefix(err,
			   "qemu-img (Debian: apt-get install qemu-utils)");
		return false;
	}
	return true;
}

static bool kvm_usable(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* Where the images go, and whether there is room. */
static bool plan_disk(struct lab_ctx *x, struct err *err)
{
	const struct lab_opts *o = x->o;
	const char *disk = o->disk ? o->disk : ".";
	struct statvfs vfs;
	struct stat st;
	char a[32], b[32];

	if (!stat(disk, &st) && S_ISDIR(st.st_mode)) {
		snprintf(x->image_dir, sizeof(x->image_dir), "%s", disk);
	} else if (!stat(disk, &st)) {
		return err_set(
			err, EXIT_USAGE, 0,
			"--disk %s exists: iolab lab creates its own disk image and removes it; give a new file name or a directory",
			disk);
	} else {
		char d[PATH_MAX];

		snprintf(d, sizeof(d), "%s", disk);
		snprintf(x->image_dir, sizeof(x->image_dir), "%s", dirname(d));
		x->disk_is_file = true;
		if (stat(x->image_dir, &st) || !S_ISDIR(st.st_mode))
			return err_set(err, EXIT_USAGE, ENOENT,
				       "--disk %s: directory %s does not exist",
				       disk, x->image_dir);
	}
	{
		/* Absolute, so that QEMU's messages name the real file. */
		char real[PATH_MAX];

		if (realpath(x->image_dir, real))
			snprintf(x->image_dir, sizeof(x->image_dir), "%s",
				 real);
	}
	if (access(x->image_dir, W_OK))
		return err_set(err, EXIT_ENV, errno,
			       "cannot create the disk image in %s: %s",
			       x->image_dir, strerror(errno));
	if (!statvfs(x->image_dir, &vfs) &&
	    (uint64_t)vfs.f_bavail * vfs.f_frsize < o->disk_bytes + (64u << 20))
		return err_set(
			err, EXIT_ENV, ENOSPC,
			"not enough room in %s for a %s disk image (%s free); use a smaller --disk-size or another --disk directory",
			x->image_dir, fmt_size(o->disk_bytes, a, sizeof(a)),
			fmt_size((uint64_t)vfs.f_bavail * vfs.f_frsize, b,
				 sizeof(b)));
	snprintf(x->r->image_dir, sizeof(x->r->image_dir), "%s", x->image_dir);
	target_fs_type(x->image_dir, x->r->image_fs, sizeof(x->r->image_fs));
	if (target_fs_in_ram(x->image_dir)) {
		warn_add(
			&x->r->warnings, "image-in-ram",
			"the disk image is on tmpfs (%s): every cache mode reads and writes host RAM; give --disk a directory on the storage you mean to test",
			x->image_dir);
	}
	return true;
}

/* Image @k of @n of a guest's disks, all of format @f. */
static void image_path(const struct lab_ctx *x, enum lab_format f,
		       unsigned int k, unsigned int n, char *out, size_t len)
{
	const struct lab_opts *o = x->o;
	char base[PATH_MAX], sfx[16] = "";

	if (n > 1)
		snprintf(sfx, sizeof(sfx), "-%u", k);
	snprintf(base, sizeof(base), "%s", o->disk ? o->disk : "");
	if (x->disk_is_file && o->nformat == 1)
		snprintf(out, len, "%s/%s%s", x->image_dir, basename(base),
			 sfx);
	else if (x->disk_is_file)
		snprintf(out, len, "%s/%s%s.%s", x->image_dir, basename(base),
			 sfx, lab_format_names[f]);
	else
		snprintf(out, len, "%s/iolab-lab-%d%s.%s", x->image_dir,
			 (int)getpid(), sfx, lab_format_names[f]);
}

static bool build_initrd(struct lab_ctx *x, struct err *err)
{
	const struct lab_opts *o = x->o;
	struct initramfs_spec spec = { 0 };
	struct kmod_list lists[BUS_COUNT];
	struct kmod_index ix;
	char init_path[PATH_MAX], *suite_line, *conf;
	const char *tmp = getenv("TMPDIR");
	bool ok = true;
	int fd;

	if (!static_bin_find(o->iolab_static, init_path, sizeof(init_path),
			     err))
		return false;
	if (!kmod_index_load(&ix, x->kernel.moddir, err))
		return false;
	memset(lists, 0, sizeof(lists));
	for (unsigned int i = 0; ok && i < o->nbus; i++) {
		const char *const *names = lab_bus_modules(o->buses[i]);
		size_t n = 0;

		while (names[n])
			n++;
		ok = kmod_resolve(&ix, names, n, &lists[o->buses[i]], err);
		spec.mods[o->buses[i]] = &lists[o->buses[i]];
	}
	snprintf(x->initrd, sizeof(x->initrd), "%s/iolab-lab-XXXXXX.cpio",
		 tmp && *tmp ? tmp : "/tmp");
	fd = ok ? mkostemps(x->initrd, 5, O_CLOEXEC) : -1;
	if (ok && fd < 0)
		ok = err_set(err, EXIT_ENV, errno,
			     "cannot create the guest initramfs in %s: %s",
			     tmp && *tmp ? tmp : "/tmp", strerror(errno));
	if (fd >= 0)
		x->initrd_cleanup = cleanup_add(x->initrd);
	suite_line = lab_suite_conf(&o->suite);
	conf = xasprintf("protocol=%d\ndisk_bytes=%llu\nfill=1\ndoctor=%d\n%s",
			 CHAN_PROTOCOL, (unsigned long long)o->disk_bytes,
			 o->doctor ? 1 : 0, suite_line);
	spec.init_path = init_path;
	spec.ix = &ix;
	spec.conf = conf;
	if (ok)
		ok = initramfs_write(fd, &spec, err);
	/* Kept at >= 3 (a child's 0-2 are replaced) for QEMU to read. */
	if (fd >= 0 && fd < 3) {
		int hi = fcntl(fd, F_DUPFD_CLOEXEC, 3);

		close(fd);
		fd = hi;
		if (fd < 0 && ok)
			ok = err_set(err, EXIT_ENV, errno,
				     "cannot hold %s open: %s", x->initrd,
				     strerror(errno));
	}
	x->initrd_fd = fd;
	snprintf(x->initrd_fdpath, sizeof(x->initrd_fdpath), "/proc/self/fd/%d",
		 fd);
	free(suite_line);
	free(conf);
	for (int b = 0; b < BUS_COUNT; b++)
		kmod_list_free(&lists[b]);
	kmod_index_free(&ix);
	return ok;
}

static void remove_initrd(struct lab_ctx *x)
{
	if (x->initrd_fd >= 0)
		close(x->initrd_fd);
	x->initrd_fd = -1;
	if (!x->initrd[0])
		return;
	unlink(x->initrd);
	cleanup_remove(x->initrd_cleanup);
	x->initrd[0] = '\0';
}

/*
 * Time left, for the estimate: a boot per guest still to start, a cell's
 * work (fill and suite) per cell, half a second per refusal; measured
 * times once there are some.
 */
static uint64_t time_left_ns(const struct lab_ctx *x, size_t boots,
			     size_t cells, size_t refused)
{
	const struct lab_opts *o = x->o;
	uint64_t boot = x->accel == ACCEL_KVM ? EST_BOOT_KVM_NS :
						EST_BOOT_TCG_NS;
	uint64_t work = o->disk_bytes * NS / EST_FILL_BPS +
			lab_suite_estimate_ns(&o->suite);

	if (x->nboot)
		boot = (uint64_t)(x->boot_sum / x->nboot * 1e9);
	if (x->nok)
		work = (uint64_t)(x->ok_s / x->nok * 1e9);
	return boots * boot + cells * work + refused * (NS / 2);
}

static void print_done(struct lab_ctx *x, const struct lab_cell *c,
		       size_t left_refused, size_t left);

/*
 * A shared guest's disk is done when the guest turns to the next one (or
 * ends): report its cell now, not when the whole guest has ended. What
 * decides the cell (its result, its serial, a FAIL) has arrived; the
 * final classification after the guest ends only adds QEMU's stderr.
 */
static void part_ended(struct lab_ctx *x, const struct chan_event *ev)
{
	struct lab_group *g = x->group;
	const struct vm_part *pt;
	struct lab_cell t;
	char want[32];
	int k = x->cur_part;
	uint64_t now = clock_ns();
	double part_s = (double)(now - x->part_t0) / 1e9;

	if (ev->type == CHAN_START && (int)ev->n1 > k) {
		x->cur_part = (int)ev->n1;
		x->part_t0 = now;
	}
	if (!g || !x->cur_v || g->n < 2 || k < 0 || (unsigned int)k >= g->n ||
	    g->early[k] || (ev->type == CHAN_START && (int)ev->n1 <= k))
		return;
	pt = &x->cur_v->parts[k];
	t = *g->cells[k];
	snprintf(want, sizeof(want), "%s-%d", LAB_DISK_SERIAL, k);
	t.status = pt->suite && !pt->suite_code && !strcmp(pt->serial, want) ?
			   LAB_OK :
			   LAB_FAILED;
	t.reason = t.status == LAB_OK ? NULL :
		   pt->fail[0]	      ? (char *)pt->fail :
		   pt->suite	      ? (char *)"see the report" :
					(char *)"no result";
	t.boot_s = x->cur_v->boot_s;
	t.cell_s = part_s;
	t.guest = x->nguests + 1;
	t.guest_cells = g->n;
	g->early[k] = true;
	g->early_status[k] = t.status;
	image_discard(&g->images[k]);
	x->done++;
	if (t.status == LAB_OK) {
		x->ok_s += t.cell_s;
		x->nok++;
	}
	x->cell_no = x->group_no + (unsigned int)k;
	lab_cell_words(&t, true, x->cell_label, sizeof(x->cell_label));
	print_done(x, &t, x->nrefuse - x->done_refused, x->ncells - x->done);
}

static void on_event(const struct chan_event *ev, void *ctx)
{
	struct lab_ctx *x = ctx;
	char t[32], line[512];
	struct winsize ws;
	int n;

	if (ev && (ev->type == CHAN_START || ev->type == CHAN_END))
		part_ended(x, ev);
	if (ev && ev->type == CHAN_START && x->group && ev->n1 < x->group->n) {
		x->cell_no = x->group_no + (unsigned int)ev->n1;
		lab_cell_words(x->group->cells[ev->n1], true, x->cell_label,
			       sizeof(x->cell_label));
		x->cell_t0 = clock_ns();
		snprintf(x->state, sizeof(x->state), "its disk next");
	}
	if (!x->o->progress)
		return;
	if (!ev || ev->type == CHAN_START)
		; /* a tick: the same state, a new time */
	else if (ev->type == CHAN_PROGRESS && !strncmp(ev->text, "filling", 7))
		snprintf(x->state, sizeof(x->state), "%s (%llu of %llu MiB)",
			 ev->text, ev->n1, ev->n2);
	else if (ev->type == CHAN_PROGRESS && !ev->n2)
		snprintf(x->state, sizeof(x->state), "%s", ev->text);
	else if (ev->type == CHAN_PROGRESS)
		snprintf(x->state, sizeof(x->state), "%s (%llu/%llu)", ev->text,
			 ev->n1 + 1 > ev->n2 ? ev->n2 : ev->n1 + 1, ev->n2);
	else if (ev->type == CHAN_HELLO)
		snprintf(x->state, sizeof(x->state), "booted");
	else if (ev->type == CHAN_DISK)
		snprintf(x->state, sizeof(x->state), "disk %s found", ev->text);
	else
		return;
	/* One line: cut to the terminal's width, or it scrolls. */
	n = snprintf(line, sizeof(line), "[%2u/%u] %s: %s, %s", x->cell_no,
		     x->ncells, x->cell_label, x->state,
		     lab_fmt_secs((double)(clock_ns() - x->cell_t0) / 1e9, t,
				  sizeof(t)));
	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 1 && n > 0 &&
	    (size_t)n >= ws.ws_col)
		line[ws.ws_col - 1] = '\0';
	fprintf(stderr, "\r%s\033[K", line);
}

static char *trim_dup(const char *s)
{
	char *d = xstrdup(s ? s : "");
	size_t n = strlen(d);

	while (n && (d[n - 1] == '\n' || d[n - 1] == '\r' || d[n - 1] == ' '))
		d[--n] = '\0';
	return d;
}

/* What a finished vm_run means for the cell on its disk @k. */
static void classify(struct lab_cell *c, const struct vm_outcome *v,
		     unsigned int k, const struct lab_opts *o)
{
	const struct vm_part *pt = &v->parts[k];
	struct err err = { 0 };
	char a[32], want[32];

	snprintf(want, sizeof(want), "%s-%u", LAB_DISK_SERIAL, k);
	c->boot_s = v->boot_s;
	c->guest_cells = v->nparts;
	if (v->nparts > 1 && pt->started) {
		c->elapsed_s = pt->end_s ? pt->end_s : v->elapsed_s;
		c->cell_s = c->elapsed_s - pt->start_s;
	} else {
		c->elapsed_s = c->cell_s = v->elapsed_s;
	}
	if ((v->guest_log && v->guest_log[0]) || (pt->log && pt->log[0]))
		c->guest_log = xasprintf("%s%s",
					 v->guest_log ? v->guest_log : "",
					 pt->log ? pt->log : "");
	if (c->guest_log) {
		char *t = trim_dup(c->guest_log);

		free(c->guest_log);
		c->guest_log = t;
	}
	snprintf(c->disk, sizeof(c->disk), "%s", pt->disk);
	snprintf(c->disk_serial, sizeof(c->disk_serial), "%s", pt->serial);
	if (v->end == VM_EXITED && !v->booted && v->exit_status != 0 &&
	    v->qemu_stderr[0]) {
		c->status = LAB_REFUSED;
		c->reason = trim_dup(v->qemu_stderr);
		return;
	}
	c->status = LAB_FAILED;
	if (v->qemu_stderr[0])
		c->qemu_stderr = trim_dup(v->qemu_stderr);
	if (pt->fail[0])
		c->reason = xasprintf("the guest gave up: %s", pt->fail);
	else if (pt->suite && v->nparts > 1 && strcmp(pt->serial, want))
		/* A guest's own word, checked: the figures must be this disk's. */
		c->reason = xasprintf(
			"the guest measured the disk with serial '%s', not this cell's %s",
			pt->serial, want);
	else if (v->fail[0])
		c->reason = xasprintf("the guest gave up: %s", v->fail);
	else if (pt->suite)
		; /* its result came in, whatever happened after */
	else if (v->end == VM_BOOT_TIMEOUT)
		c->reason = xasprintf(
			"the guest did not boot within %s (watchdog)",
			fmt_duration(o->boot_timeout_ns, a, sizeof(a)));
	else if (v->end == VM_IDLE_TIMEOUT)
		c->reason = xasprintf(
			"the guest fell silent for too long (watchdog); QEMU was killed");
	else if (v->end == VM_TOTAL_TIMEOUT)
		c->reason = xasprintf(
			"no result within the cell's time limit (watchdog; --cell-timeout); QEMU was killed");
	else if (!v->booted)
		c->reason = xasprintf(
			"QEMU exited with status %d before the guest started%s%s",
			v->exit_status, v->qemu_stderr[0] ? ": " : "",
			v->qemu_stderr);
	else
		c->reason = xasprintf(
			"QEMU exited with status %d before the guest sent a result%s%s",
			v->exit_status, v->qemu_stderr[0] ? ": " : "",
			v->qemu_stderr);
	if (c->reason) {
		char *t = trim_dup(c->reason);

		free(c->reason);
		c->reason = t;
		c->console_tail = xstrdup(v->console_tail);
		return;
	}
	c->result = xstrdup(pt->suite);
	if (!lab_cell_parse(c, &err)) {
		c->reason = xstrdup(err.msg);
		c->console_tail = xstrdup(v->console_tail);
		return;
	}
	if (pt->suite_code != 0) {
		c->reason = xasprintf(
			"the suite stopped early (exit %d); the figures are partial",
			pt->suite_code);
		c->console_tail = xstrdup(v->console_tail);
		return;
	}
	if (pt->doctor)
		c->doctor = xstrdup(pt->doctor);
	c->status = LAB_OK;
}

static void run_once(struct lab_ctx *x, struct lab_group *g,
		     enum lab_accel accel, uint64_t boot_ns,
		     struct vm_outcome *v, struct err *err)
{
	const struct lab_opts *o = x->o;
	char *append = xasprintf(
		"console=ttyS0 panic=-1 loglevel=4 rdinit=/init iolab.bus=%s iolab.disks=%u",
		lab_bus_names[g->cells[0]->bus], g->n);
	struct qemu_cell q = {
		.qemu = o->qemu,
		.kernel = x->kernel.path,
		.initrd = x->initrd_fdpath,
		.initrd_fd = x->initrd_fd,
		.append = append,
		.accel = accel,
		.memory_bytes = o->memory_bytes,
		.smp = o->smp,
		.format = g->cells[0]->format,
		.bus = g->cells[0]->bus,
		.ndisks = g->n,
	};
	uint64_t step = lab_suite_step_ns(&o->suite);
	/* Each cell's own share of the time limit, as if it were alone. */
	uint64_t per_cell = 600 * NS + 5 * o->disk_bytes * NS / EST_FILL_BPS +
			    2 * lab_suite_estimate_max_ns(&o->suite);
	struct vm_limits l = {
		.boot_ns = boot_ns,
		.idle_ns = 180 * NS + 4 * step,
		.total_ns = o->cell_timeout_ns ? o->cell_timeout_ns * g->n :
						 boot_ns + per_cell * g->n,
	};

	for (unsigned int k = 0; k < g->n; k++) {
		q.disks[k] = (struct qemu_disk){
			.image = g->images[k].fdpath,
			.image_fd = g->images[k].fd,
			.aio = g->cells[k]->aio,
			.cache = g->cells[k]->cache,
		};
		image_drop_cache(&g->images[k]);
	}
	x->cur_v = v;
	x->cur_part = -1;
	for (unsigned int k = 0; k < g->n; k++)
		g->early[k] = false;
	if (!vm_run(&q, &l, on_event, x, v, err)) {
		/* QEMU could not even be executed: a cell cannot fix that. */
		memset(v, 0, sizeof(*v));
		v->end = VM_INTERRUPTED;
	}
	x->cur_v = NULL;
	free(append);
}

/*
 * One group, with --accel auto's fallback: while KVM is unconfirmed a
 * guest that does not boot within kvm_probe_ns, or a QEMU that fails
 * under KVM but not under TCG, switches the lab to TCG for good.
 * @v gets what happened; false if interrupted or QEMU cannot run.
 */
static bool run_group(struct lab_ctx *x, struct lab_group *g,
		      struct vm_outcome *v, struct err *err)
{
	const struct lab_opts *o = x->o;
	bool probing = x->accel == ACCEL_KVM && o->accel == ACCEL_AUTO &&
		       !x->kvm_confirmed;
	uint64_t boot_ns = probing && o->kvm_probe_ns < o->boot_timeout_ns ?
				   o->kvm_probe_ns :
				   o->boot_timeout_ns;
	enum lab_accel used = x->accel;
	char a[32];

	run_once(x, g, x->accel, boot_ns, v, err);
	if (err->msg[0])
		return false;
	if (probing && v->end != VM_INTERRUPTED &&
	    (v->end == VM_BOOT_TIMEOUT ||
	     (!v->booted && v->exit_status != 0))) {
		struct vm_outcome t;
		bool kvm_timeout = v->end == VM_BOOT_TIMEOUT;
		char *kvm_err = trim_dup(v->qemu_stderr);

		run_once(x, g, ACCEL_TCG, o->boot_timeout_ns, &t, err);
		if (err->msg[0]) {
			free(kvm_err);
			vm_outcome_free(v);
			return false;
		}
		if (kvm_timeout || t.booted) {
			x->accel = ACCEL_TCG;
			x->r->accel = ACCEL_TCG;
			kvm_err[strcspn(kvm_err, "\n")] = '\0';
			if (kvm_timeout)
				snprintf(
					x->r->accel_note,
					sizeof(x->r->accel_note),
					"KVM was tried first: the guest did not boot within %s, so the lab fell back to TCG",
					fmt_duration(boot_ns, a, sizeof(a)));
			else
				snprintf(
					x->r->accel_note,
					sizeof(x->r->accel_note),
					"KVM was tried first and QEMU failed (%.200s), so the lab fell back to TCG",
					kvm_err);
			if (o->progress)
				fprintf(stderr, "\r\033[K");
			fprintf(stderr, "iolab lab: %s\n", x->r->accel_note);
		}
		free(kvm_err);
		vm_outcome_free(v);
		*v = t;
		used = ACCEL_TCG;
	} else if (probing && v->booted) {
		x->kvm_confirmed = true;
	}
	for (unsigned int k = 0; k < g->n; k++)
		g->cells[k]->accel = used;
	if (v->end == VM_INTERRUPTED) {
		vm_outcome_free(v);
		return false;
	}
	return true;
}

static void print_start(struct lab_ctx *x, size_t ncells, unsigned int nrefuse)
{
	uint64_t total =
		time_left_ns(x, x->boots_planned, ncells - nrefuse, nrefuse);
	char a[32];

	fprintf(stderr,
		"iolab lab: %zu cell%s (%u of them QEMU should refuse) in %u guest%s, about %s under %s\n",
		ncells, ncells == 1 ? "" : "s", nrefuse, x->boots_planned,
		x->boots_planned == 1 ? "" : "s",
		lab_fmt_secs((double)total / 1e9, a, sizeof(a)),
		x->accel == ACCEL_KVM ? "KVM" : "TCG");
}

static void print_done(struct lab_ctx *x, const struct lab_cell *c,
		       size_t left_refused, size_t left)
{
	uint64_t eta = 0;
	/* The guest running, if it has booted, has no boot left. */
	unsigned int booted = x->nboot + (x->cur_v && x->cur_v->booted ? 1 : 0);
	char a[32];

	eta = time_left_ns(
		x, x->boots_planned > booted ? x->boots_planned - booted : 0,
		left - left_refused, left_refused);
	if (x->o->progress)
		fprintf(stderr, "\r\033[K");
	if (x->o->quiet)
		return;
	fprintf(stderr, "[%2u/%u] %s: ", x->cell_no, x->ncells, x->cell_label);
	if (c->status == LAB_OK && c->guest_cells > 1)
		fprintf(stderr,
			"ok (guest %u of %u cells, boot %.1f s, %.0f s its own)",
			c->guest, c->guest_cells, c->boot_s, c->cell_s);
	else if (c->status == LAB_OK)
		fprintf(stderr, "ok (boot %.1f s, %.0f s in all)", c->boot_s,
			c->elapsed_s);
	else if (c->status == LAB_REFUSED)
		fprintf(stderr, "refused by QEMU");
	else
		fprintf(stderr, "failed: %.160s", term_safe(c->reason));
	if (left)
		fprintf(stderr, "; %zu to go, about %s", left,
			lab_fmt_secs((double)eta / 1e9, a, sizeof(a)));
	fprintf(stderr, "\n");
}

/*
 * A buffered cache mode reads through the host's page cache, and each
 * guest has just written its whole disk: unless the image is larger than
 * the host's free memory, those reads measure host RAM. Say so.
 */
static void note_page_cache(const struct lab_opts *o, struct lab_report *r)
{
	struct sysinfo si;
	char a[32], b[32];
	bool buffered = false;

	for (size_t i = 0; i < r->ncells; i++)
		buffered |= r->cells[i].status == LAB_OK &&
			    !cache_direct(r->cells[i].cache);
	if (!buffered || sysinfo(&si))
		return;
	if (o->disk_bytes < (uint64_t)si.totalram * si.mem_unit)
		warn_add(
			&r->warnings, "lab-page-cache-reads",
			"reads with cache=writethrough, writeback or unsafe come from the host's page cache: each guest wrote its whole %s disk just before, and the host has %s of RAM; they measure host memory, not the storage (use a --disk-size above the host's RAM to see the storage)",
			fmt_size(o->disk_bytes, a, sizeof(a)),
			fmt_size((uint64_t)si.totalram * si.mem_unit, b,
				 sizeof(b)));
}

/* Cells in report order: bus, format, aio, cache. */
static void make_cells(const struct lab_opts *o, struct lab_report *r)
{
	size_t n = (size_t)o->nbus * o->nformat * o->naio * o->ncache, k = 0;

	r->cells = xcalloc(n, sizeof(*r->cells));
	for (unsigned int b = 0; b < o->nbus; b++)
		for (unsigned int f = 0; f < o->nformat; f++)
			for (unsigned int a = 0; a < o->naio; a++)
				for (unsigned int c = 0; c < o->ncache; c++) {
					struct lab_cell *cl = &r->cells[k++];

					cl->bus = o->buses[b];
					cl->format = o->formats[f];
					cl->aio = o->aios[a];
					cl->cache = o->caches[c];
				}
	r->ncells = n;
}

/* Cells of a guest: how many images of disk_bytes fit in the room left. */
static unsigned int room_for(const struct lab_ctx *x)
{
	const struct lab_opts *o = x->o;
	struct statvfs vfs;
	uint64_t room, n;

	if (statvfs(x->image_dir, &vfs))
		return 1;
	room = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (room < (64u << 20) + o->disk_bytes)
		return 1;
	n = (room - (64u << 20)) / o->disk_bytes;
	return n < 1 ? 1 : n > LAB_MAX_DISKS ? LAB_MAX_DISKS : (unsigned int)n;
}

/*
 * The group the first cell not run yet from @i on starts, with the cells
 * after it that may share its guest: same bus and format, not expected
 * to be refused, room left. Returns where to look next.
 */
static size_t next_group(const struct lab_ctx *x, const bool *ran, size_t i,
			 struct lab_group *g)
{
	const struct lab_opts *o = x->o;
	struct lab_report *r = x->r;
	struct lab_cell *first;
	unsigned int max;

	while (i < r->ncells && ran[i])
		i++;
	if (i >= r->ncells)
		return i;
	first = &r->cells[i];
	g->cells[g->n++] = first;
	if (o->guest_per_cell ||
	    job_qemu_refuses(first->aio, first->cache, NULL))
		return i + 1;
	max = lab_bus_max_disks(first->bus);
	if (max > x->max_share)
		max = x->max_share;
	for (size_t j = i + 1; j < r->ncells && g->n < max; j++) {
		struct lab_cell *c = &r->cells[j];

		if (!ran[j] && c->bus == first->bus &&
		    c->format == first->format &&
		    !job_qemu_refuses(c->aio, c->cache, NULL))
			g->cells[g->n++] = c;
	}
	return i + 1;
}

static void images_remove(struct lab_group *g, unsigned int n)
{
	for (unsigned int k = 0; k < n; k++)
		image_remove(&g->images[k]);
}

static void group_done(struct lab_ctx *x, struct lab_group *g, bool *ran)
{
	struct lab_report *r = x->r;

	x->nguests++;
	r->nguests = x->nguests;
	if (g->n && g->cells[0]->boot_s > 0) {
		x->boot_sum += g->cells[0]->boot_s;
		x->nboot++;
	}
	for (unsigned int k = 0; k < g->n; k++) {
		struct lab_cell *c = g->cells[k];

		c->guest = x->nguests;
		ran[c - r->cells] = true;
		if (g->early[k] && g->early_status[k] == c->status)
			continue; /* reported as it ended */
		if (g->early[k]) /* said otherwise as it ended: correct */
			x->done--;
		x->done++;
		x->done_refused += job_qemu_refuses(c->aio, c->cache, NULL);
		if (c->status == LAB_OK) {
			x->ok_s += g->n > 1 ? c->cell_s :
					      c->elapsed_s - c->boot_s;
			x->nok++;
		}
		x->cell_no = x->group_no + k;
		lab_cell_words(c, true, x->cell_label, sizeof(x->cell_label));
		print_done(x, c, x->nrefuse - x->done_refused,
			   r->ncells - x->done);
	}
}

/*
 * Create the group's images, run its guest, classify its cells, remove
 * the images. A shared guest that QEMU refused as a whole (a refusal the
 * lab did not expect) is run again a cell at a time, so that each cell
 * gets QEMU's verdict on itself.
 */
static bool run_images(struct lab_ctx *x, struct lab_group *g, bool *ran,
		       struct err *err)
{
	const struct lab_opts *o = x->o;
	struct vm_outcome v;
	bool ok = true;

	for (unsigned int k = 0; k < g->n; k++) {
		char path[PATH_MAX + 64];

		image_path(x, g->cells[0]->format, k, g->n, path, sizeof(path));
		if (!image_create(&g->images[k], x->qemu_img, path,
				  g->cells[0]->format, o->disk_bytes, err)) {
			images_remove(g, k);
			return false;
		}
	}
	x->group = g;
	x->group_no = (unsigned int)(x->done + 1);
	x->cell_no = x->group_no;
	lab_cell_words(g->cells[0], true, x->cell_label, sizeof(x->cell_label));
	x->cell_t0 = clock_ns();
	snprintf(x->state, sizeof(x->state), "booting");
	if (!run_group(x, g, &v, err)) {
		x->group = NULL;
		images_remove(g, g->n);
		return false;
	}
	x->group = NULL;
	images_remove(g, g->n);
	if (g->n > 1 && v.end == VM_EXITED && !v.booted && v.exit_status != 0) {
		vm_outcome_free(&v);
		for (unsigned int k = 0; ok && k < g->n; k++) {
			struct lab_group one = { .cells = { g->cells[k] },
						 .n = 1 };

			ok = run_images(x, &one, ran, err);
		}
		return ok;
	}
	for (unsigned int k = 0; k < g->n; k++)
		classify(g->cells[k], &v, k, o);
	vm_outcome_free(&v);
	group_done(x, g, ran);
	return true;
}

bool lab_run(const struct lab_opts *o, struct lab_report *r, struct err *err)
{
	struct lab_ctx x = {
		.o = o, .r = r, .initrd_cleanup = -1, .initrd_fd = -1
	};
	uint64_t t0 = clock_ns();
	bool *ran, ok = true;
	size_t total, keep = 0;

	if (!find_qemu(&x, err) || !check_qemu_img(&x, err))
		return false;
	if (!kernel_find(&x.kernel, o->kernel, "/boot", "/lib/modules", err))
		return false;
	snprintf(r->kernel, sizeof(r->kernel), "%s", x.kernel.path);
	snprintf(r->kernel_release, sizeof(r->kernel_release), "%s",
		 x.kernel.release);
	r->disk_bytes = o->disk_bytes;
	r->memory_bytes = o->memory_bytes;
	r->smp = o->smp;
	if (!plan_disk(&x, err))
		return false;
	if (o->accel == ACCEL_TCG) {
		x.accel = ACCEL_TCG;
	} else if (kvm_usable()) {
		x.accel = ACCEL_KVM;
	} else if (o->accel == ACCEL_KVM) {
		return err_set(
			err, EXIT_ENV, errno,
			"--accel kvm: cannot open /dev/kvm (%s); use --accel tcg or auto",
			strerror(errno));
	} else {
		x.accel = ACCEL_TCG;
		snprintf(r->accel_note, sizeof(r->accel_note),
			 "no usable /dev/kvm, so the lab runs under TCG");
	}
	r->accel = x.accel;
	if (!build_initrd(&x, err)) {
		remove_initrd(&x);
		return false;
	}
	make_cells(o, r);
	total = r->ncells;
	ran = xcalloc(total, sizeof(bool));
	for (size_t i = 0; i < total; i++)
		x.nrefuse += job_qemu_refuses(r->cells[i].aio,
					      r->cells[i].cache, NULL);
	x.ncells = (unsigned int)total;
	r->guest_per_cell = o->guest_per_cell;
	x.max_share = room_for(&x);
	/* The guests that will boot: the groups of the cells not refused. */
	for (size_t i = 0; i < total;) {
		struct lab_group g = { .n = 0 };

		i = next_group(&x, ran, i, &g);
		for (unsigned int k = 0; k < g.n; k++)
			ran[g.cells[k] - r->cells] = true;
		x.boots_planned += g.n &&
				   !job_qemu_refuses(g.cells[0]->aio,
						     g.cells[0]->cache, NULL);
	}
	memset(ran, 0, total * sizeof(bool));
	print_start(&x, total, x.nrefuse);
	for (size_t i = 0; ok && i < total;) {
		struct lab_group g = { .n = 0 };

		if (sig_pending()) {
			ok = false;
			break;
		}
		i = next_group(&x, ran, i, &g);
		if (!g.n)
			continue;
		ok = run_images(&x, &g, ran, err);
	}
	remove_initrd(&x);
	if (o->progress)
		fprintf(stderr, "\r\033[K");
	/* Keep the cells that ran, in report order. */
	for (size_t i = 0; i < total; i++) {
		if (ran[i]) {
			r->cells[keep++] = r->cells[i];
		} else {
			free(r->cells[i].reason);
			free(r->cells[i].qemu_stderr);
			free(r->cells[i].console_tail);
			free(r->cells[i].guest_log);
			free(r->cells[i].result);
			free(r->cells[i].doctor);
		}
	}
	r->ncells = keep;
	free(ran);
	note_page_cache(o, r);
	r->elapsed_s = (double)(clock_ns() - t0) / 1e9;
	if (sig_pending()) {
		r->partial = true;
		r->stop_signal = sig_pending();
		return true;
	}
	return ok;
}
