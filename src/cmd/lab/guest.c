// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lab guest's init (PID 1); see guest.h. Everything it learns goes to
 * the host over the channel: a guest that cannot continue says why
 * (IOLAB-FAIL) before powering off, so that the host reports the reason
 * instead of a timeout. The suite runs in a child process: PID 1 must not
 * die (the kernel panics), whatever the suite does.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/module.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "channel.h"
#include "guest.h"
#include "initramfs.h"
#include "kmod.h"
#include "lab_suite.h"
#include "qemu_argv.h"
#include "../../util/clock.h"
#include "../../util/err.h"
#include "../../util/prng.h"
#include "../../util/xmem.h"

#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE 4
#endif

#define GUEST_DISK_WAIT_NS (120ull * 1000000000ull)
#define GUEST_FILL_CHUNK (1u << 20)
#define GUEST_SUITE_OUT "/tmp/suite.json"
#define GUEST_DOCTOR_OUT "/tmp/doctor.json"

struct guest {
	int chan;
	char bus[32];
	uint64_t disk_bytes;
	bool fill;
	bool doctor;
	char *suite_line;
	char *modules; /* "path path ..." for our bus */
	unsigned int ndisks; /* iolab.disks=N: cells sharing this guest */
	unsigned int disk_no; /* the one being measured */
	char dev[64]; /* its node: /dev/vda */
	char serial[32]; /* what it was found by; "-": by its size */
};

bool lab_guest_is_init(int argc, char **argv)
{
	return getpid() == 1 && argc >= 1 && !strcmp(argv[0], "/init") &&
	       !access(GUEST_CONF, R_OK);
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	fputs("iolab-guest: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static __attribute__((noreturn)) void power_off(struct guest *g)
{
	if (g->chan >= 0) {
		chan_send(g->chan, "END");
		tcdrain(g->chan);
	}
	sync();
	reboot(RB_POWER_OFF);
	/* Only reached if power-off failed: panic ends QEMU (-no-reboot). */
	for (;;)
		pause();
}

/* Say why on the console and as FAIL on the channel (when open). */
static __attribute__((format(printf, 2, 0))) void
vfail(struct guest *g, const char *fmt, va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	say("%s", msg);
	if (g->chan >= 0)
		chan_send(g->chan, "FAIL %s", msg);
}

static __attribute__((noreturn, format(printf, 2, 3))) void
give_up(struct guest *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(g, fmt, ap);
	va_end(ap);
	power_off(g);
}

/*
 * This disk's cell cannot go on: say why (FAIL after its START is about
 * it alone) and let the guest turn to the next disk.
 */
static __attribute__((format(printf, 2, 3))) bool
disk_fail(struct guest *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(g, fmt, ap);
	va_end(ap);
	return false;
}

static void mount_basics(void)
{
	static const struct {
		const char *src, *dir, *type;
	} m[] = {
		{ "devtmpfs", "/dev", "devtmpfs" },
		{ "proc", "/proc", "proc" },
		{ "sysfs", "/sys", "sysfs" },
	};

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		mkdir(m[i].dir, 0755);
		if (mount(m[i].src, m[i].dir, m[i].type, 0, NULL) &&
		    errno != EBUSY)
			say("cannot mount %s: %s", m[i].dir, strerror(errno));
	}
}

/* ttyS1 in raw mode: no newline translation, no flow control. */
static int open_channel(void)
{
	struct termios tio;
	int fd = open("/dev/ttyS1", O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (!tcgetattr(fd, &tio)) {
		cfmakeraw(&tio);
		tio.c_cflag |= CLOCAL;
		tio.c_cflag &= ~(tcflag_t)CRTSCTS;
		tio.c_iflag &= ~(tcflag_t)(IXON | IXOFF);
		cfsetspeed(&tio, B115200);
		tcsetattr(fd, TCSANOW, &tio);
	}
	return fd;
}

static void cmdline_bus(struct guest *g)
{
	char buf[4096], *p;
	FILE *f = fopen("/proc/cmdline", "re");

	g->ndisks = 1;
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f)) {
		if ((p = strstr(buf, "iolab.bus=")))
			sscanf(p + 10, "%31s", g->bus);
		if ((p = strstr(buf, "iolab.disks=")))
			g->ndisks = (unsigned int)strtoul(p + 12, NULL, 10);
	}
	fclose(f);
	if (g->ndisks < 1 || g->ndisks > LAB_MAX_DISKS)
		give_up(g, "iolab.disks=%u: between 1 and %u", g->ndisks,
			LAB_MAX_DISKS);
}

static void read_conf(struct guest *g)
{
	char *line = NULL, key[64];
	size_t cap = 0;
	FILE *f = fopen(GUEST_CONF, "re");

	if (!f)
		give_up(g, "cannot read %s: %s", GUEST_CONF, strerror(errno));
	snprintf(key, sizeof(key), "modules.%s=", g->bus);
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "disk_bytes=", 11))
			g->disk_bytes = strtoull(line + 11, NULL, 10);
		else if (!strncmp(line, "fill=", 5))
			g->fill = line[5] == '1';
		else if (!strncmp(line, "doctor=", 7))
			g->doctor = line[7] == '1';
		else if (!strncmp(line, "suite=", 6))
			g->suite_line = xstrdup(line + 6);
		else if (!strncmp(line, key, strlen(key)))
			g->modules = xstrdup(line + strlen(key));
	}
	free(line);
	fclose(f);
	if (!g->bus[0] || !g->modules)
		give_up(g, "no modules listed for bus '%s' in %s", g->bus,
			GUEST_CONF);
	if (!g->disk_bytes || !g->suite_line)
		give_up(g, "%s lacks disk_bytes or suite", GUEST_CONF);
}

static void load_modules(struct guest *g)
{
	char *save = NULL;

	for (char *p = strtok_r(g->modules, " ", &save); p;
	     p = strtok_r(NULL, " ", &save)) {
		int fd = open(p, O_RDONLY | O_CLOEXEC);
		int flags = kmod_compression(p) ? MODULE_INIT_COMPRESSED_FILE :
						  0;

		if (fd < 0)
			give_up(g, "cannot open module %s: %s", p,
				strerror(errno));
		if (syscall(SYS_finit_module, fd, "", flags) &&
		    errno != EEXIST) {
			int e = errno;

			close(fd);
			if (flags && (e == EINVAL || e == EOPNOTSUPP))
				give_up(g,
					"cannot load compressed module %s: this kernel cannot decompress modules; install xz/zstd/gzip on the host so that iolab unpacks them",
					p);
			give_up(g, "cannot load module %s: %s", p, strerror(e));
		}
		close(fd);
	}
}

static bool skip_disk(const char *name)
{
	static const char *const prefixes[] = { "loop", "ram", "zram", "sr",
						"fd",	"dm-", "md",   "nbd" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/*
 * A disk's serial number: virtio-blk's own attribute, NVMe's
 * controller's, else SCSI's (and libata's) VPD page 0x80: a 4-byte
 * header, then the serial, maybe padded with spaces.
 */
static bool read_serial(const char *name, char *out, size_t len)
{
	static const char *const files[] = { "serial", "device/serial" };
	unsigned char raw[256];
	char path[300];
	size_t n = 0;
	int fd;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		ssize_t r;

		snprintf(path, sizeof(path), "/sys/block/%s/%s", name,
			 files[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		r = read(fd, raw, sizeof(raw) - 1);
		close(fd);
		if (r > 0) {
			n = (size_t)r;
			break;
		}
	}
	if (!n) {
		ssize_t r;

		snprintf(path, sizeof(path), "/sys/block/%s/device/vpd_pg80",
			 name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return false;
		r = read(fd, raw, sizeof(raw) - 1);
		close(fd);
		if (r < 4 || (size_t)r < 4u + raw[3])
			return false;
		n = raw[3];
		memmove(raw, raw + 4, n);
	}
	raw[n] = '\0';
	{
		char *p = (char *)raw;
		size_t l;

		while (*p == ' ')
			p++;
		l = strcspn(p, "\n");
		while (l && p[l - 1] == ' ')
			l--;
		if (l >= len)
			return false;
		memcpy(out, p, l);
		out[l] = '\0';
	}
	return true;
}

static bool disk_size_is(const char *name, uint64_t bytes)
{
	char path[300], buf[64];
	bool same = false;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/block/%s/size", name);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f))
		same = strtoull(buf, NULL, 10) * 512 == bytes;
	fclose(f);
	return same;
}

/*
 * The test disk of this cell: the whole disk of the size the host gave
 * it, carrying the serial the host gave this cell's disk (several cells
 * share a guest: the order the kernel found the disks in says nothing).
 * A guest of one disk whose serial cannot be read takes the one disk of
 * that size, as it always did.
 */
static bool find_disk_once(struct guest *g)
{
	struct dirent *d;
	DIR *dir = opendir("/sys/block");
	char want[32], got[64], by_size[64] = "";
	unsigned int nsize = 0;
	bool found = false;

	if (!dir)
		return false;
	if (g->ndisks > 1)
		snprintf(want, sizeof(want), "%s-%u", LAB_DISK_SERIAL,
			 g->disk_no);
	else
		snprintf(want, sizeof(want), "%s", LAB_DISK_SERIAL);
	while (!found && (d = readdir(dir))) {
		if (d->d_name[0] == '.' || skip_disk(d->d_name) ||
		    !disk_size_is(d->d_name, g->disk_bytes))
			continue;
		if (read_serial(d->d_name, got, sizeof(got))) {
			if (!strcmp(got, want)) {
				snprintf(g->dev, sizeof(g->dev), "/dev/%s",
					 d->d_name);
				snprintf(g->serial, sizeof(g->serial), "%s",
					 want);
				found = true;
			}
			continue;
		}
		nsize++;
		snprintf(by_size, sizeof(by_size), "%s", d->d_name);
	}
	closedir(dir);
	if (!found && g->ndisks == 1 && nsize == 1) {
		snprintf(g->dev, sizeof(g->dev), "/dev/%s", by_size);
		snprintf(g->serial, sizeof(g->serial), "-");
		found = true;
	}
	return found;
}

static bool find_disk(struct guest *g)
{
	uint64_t deadline = clock_ns() + GUEST_DISK_WAIT_NS;

	/* SCSI and ATA scan asynchronously after the module loads. */
	while (!find_disk_once(g)) {
		if (clock_ns() > deadline)
			return disk_fail(
				g,
				"no %llu-byte disk with serial %s%s%u appeared on %s within %llu s",
				(unsigned long long)g->disk_bytes,
				LAB_DISK_SERIAL, g->ndisks > 1 ? "-" : "",
				g->disk_no, g->bus,
				GUEST_DISK_WAIT_NS / 1000000000ull);
		usleep(50000);
	}
	/* devtmpfs creates the node a moment after sysfs shows the disk. */
	while (access(g->dev, F_OK)) {
		if (clock_ns() > deadline)
			return disk_fail(g, "%s did not appear", g->dev);
		usleep(20000);
	}
	chan_send(g->chan, "DISK %s %llu %s", g->dev + 5,
		  (unsigned long long)g->disk_bytes, g->serial);
	return true;
}

/*
 * Write incompressible data over the whole disk before anything is
 * timed (design.md section 4, rule 1): no read is of a hole or of
 * zeros, and every qcow2 cluster is allocated.
 */
static bool fill_disk(struct guest *g)
{
	void *buf;
	struct prng rng;
	uint64_t done = 0, last = 0, total = g->disk_bytes;
	int fd = open(g->dev, O_WRONLY | O_DIRECT | O_EXCL | O_CLOEXEC);

	if (fd < 0)
		return disk_fail(g, "cannot open %s: %s", g->dev,
				 strerror(errno));
	buf = xaligned(4096, GUEST_FILL_CHUNK);
	prng_seed(&rng, clock_ns());
	while (done < total) {
		size_t n = total - done < GUEST_FILL_CHUNK ?
				   (size_t)(total - done) :
				   GUEST_FILL_CHUNK;
		ssize_t w;

		prng_fill(&rng, buf, GUEST_FILL_CHUNK);
		w = pwrite(fd, buf, n, (off_t)done);
		if (w <= 0) {
			int e = w < 0 ? errno : EIO;

			close(fd);
			free(buf);
			return disk_fail(g, "cannot fill %s at %llu: %s",
					 g->dev, (unsigned long long)done,
					 strerror(e));
		}
		done += (uint64_t)w;
		if (clock_ns() - last > 1000000000ull) {
			last = clock_ns();
			chan_send(g->chan, "PROGRESS %llu %llu filling %s",
				  (unsigned long long)(done >> 20),
				  (unsigned long long)(total >> 20), g->dev);
		}
	}
	free(buf);
	if (fsync(fd)) {
		int e = errno;

		close(fd);
		return disk_fail(g, "cannot sync %s: %s", g->dev, strerror(e));
	}
	close(fd);
	return true;
}

/* In the child: run the suite, write its JSON; exit as lab_suite_run. */
static __attribute__((noreturn)) void suite_child(struct guest *g)
{
	struct lab_suite s;
	struct err err = { 0 };
	int rc;

	if (!lab_suite_from_conf(&s, g->suite_line, &err)) {
		say("%s", err.msg);
		_exit(EXIT_USAGE);
	}
	rc = lab_suite_run(&s, g->dev, GUEST_SUITE_OUT, &err);
	if (rc != EXIT_OK && err.msg[0])
		say("suite: %s", err.msg);
	_exit(rc);
}

/*
 * In the child: `iolab doctor --json` through our own binary, as a user
 * would run it in this guest (PID 1 is only the init; the exec'd process
 * is not, so it runs the normal CLI).
 */
static __attribute__((noreturn)) void doctor_child(struct guest *g)
{
	char *argv[] = { (char *)"iolab",
			 (char *)"doctor",
			 (char *)"--json",
			 (char *)"--no-progress",
			 (char *)"-o",
			 (char *)GUEST_DOCTOR_OUT,
			 NULL };

	(void)g;
	execv("/init", argv);
	say("cannot run /init doctor: %s", strerror(errno));
	_exit(EXIT_ENV);
}

static char *slurp(const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*len = 0;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st)) {
		close(fd);
		return NULL;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	n = read(fd, buf, (size_t)st.st_size);
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

/*
 * A child's stderr, relayed: a line ending in '\n' is a message (to the
 * console and, as LOG, to the host); a segment ending in '\r' is a live
 * progress line (the runner's and mark's), sent as PROGRESS at most once
 * a second, which also tells the host's watchdog the guest is alive.
 */
struct relay {
	char buf[1024];
	size_t len;
	char last[512]; /* the latest progress text not sent yet */
	uint64_t sent_ns;
};

static void relay_flush(struct guest *g, struct relay *r, bool force)
{
	if (!r->last[0] || (!force && clock_ns() - r->sent_ns < 1000000000ull))
		return;
	chan_send(g->chan, "PROGRESS 0 0 %s", r->last);
	r->last[0] = '\0';
	r->sent_ns = clock_ns();
}

static void relay_segment(struct guest *g, struct relay *r, char *seg,
			  bool line)
{
	char *esc;

	/* Drop the terminal's "erase to end of line". */
	while ((esc = strstr(seg, "\033[K")))
		memmove(esc, esc + 3, strlen(esc + 3) + 1);
	if (!seg[0])
		return;
	if (line) {
		fprintf(stderr, "%s\n", seg);
		chan_send(g->chan, "LOG %s", seg);
	} else {
		snprintf(r->last, sizeof(r->last), "%s", seg);
	}
}

/* Read what is there; returns read(2)'s result. */
static ssize_t relay_read(struct guest *g, struct relay *r, int fd)
{
	ssize_t n = read(fd, r->buf + r->len, sizeof(r->buf) - 1 - r->len);
	size_t start = 0;

	if (n <= 0)
		return n;
	r->len += (size_t)n;
	for (size_t i = 0; i < r->len; i++) {
		if (r->buf[i] != '\n' && r->buf[i] != '\r')
			continue;
		{
			bool line = r->buf[i] == '\n';

			r->buf[i] = '\0';
			relay_segment(g, r, r->buf + start, line);
		}
		start = i + 1;
	}
	memmove(r->buf, r->buf + start, r->len - start);
	r->len -= start;
	if (r->len == sizeof(r->buf) - 1) { /* no end in sight: cut */
		r->buf[r->len] = '\0';
		relay_segment(g, r, r->buf, true);
		r->len = 0;
	}
	return n;
}

/*
 * Run @fn in a child, relaying its stderr; send what it wrote to @out as
 * DATA @kind. Without a result, a @required step fails this disk's cell
 * (false); another is only noted.
 */
static bool run_child(struct guest *g, const char *kind,
		      void (*fn)(struct guest *g), const char *out,
		      bool required)
{
	struct relay rl = { .len = 0 };
	int st = 0, code, pipefd[2];
	size_t len;
	char *data;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		give_up(g, "cannot create a pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		give_up(g, "cannot fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(pipefd[1], 2);
		fn(g);
	}
	close(pipefd[1]);
	for (;;) {
		struct pollfd pf = { .fd = pipefd[0], .events = POLLIN };
		pid_t w;

		if (poll(&pf, 1, 250) > 0) {
			if (pf.revents & POLLIN)
				relay_read(g, &rl, pipefd[0]);
			else if (pf.revents & (POLLHUP | POLLERR))
				pf.fd = -1;
		}
		relay_flush(g, &rl, false);
		w = waitpid(pid, &st, WNOHANG);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
	}
	/* What it wrote last: every writer is gone, so this ends at EOF. */
	while (relay_read(g, &rl, pipefd[0]) > 0)
		;
	rl.last[0] = '\0'; /* a live line of a finished child is stale */
	close(pipefd[0]);
	code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	data = slurp(out, &len);
	/* The next disk's step must not find this one's result. */
	unlink(out);
	if (!data && required)
		return disk_fail(g, "%s produced no result (exit %d)%s", kind,
				 code,
				 WIFSIGNALED(st) ? ", killed by a signal" : "");
	if (!data) {
		chan_send(g->chan, "LOG %s produced no result (exit %d)", kind,
			  code);
		return true;
	}
	chan_send_data(g->chan, kind, code, data, len);
	free(data);
	return true;
}

int lab_guest_main(int argc, char **argv)
{
	struct guest g = { .chan = -1 };

	(void)argc;
	(void)argv;
	mount_basics();
	g.chan = open_channel();
	if (g.chan < 0) {
		say("cannot open the result channel /dev/ttyS1: %s",
		    strerror(errno));
		power_off(&g);
	}
	chan_send(g.chan, "HELLO %d %s", CHAN_PROTOCOL, IOLAB_VERSION);
	cmdline_bus(&g);
	read_conf(&g);
	load_modules(&g);
	/* One disk after the other: one cell at a time, as in its own guest. */
	for (g.disk_no = 0; g.disk_no < g.ndisks; g.disk_no++) {
		chan_send(g.chan, "START %u", g.disk_no);
		if (!find_disk(&g))
			continue;
		/* Before the suite: what the guest sees does not depend on it. */
		if (g.doctor)
			run_child(&g, "doctor", doctor_child, GUEST_DOCTOR_OUT,
				  false);
		if (g.fill && !fill_disk(&g))
			continue;
		run_child(&g, "suite", suite_child, GUEST_SUITE_OUT, true);
	}
	power_off(&g);
}
