// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QEMU command lines: the option table (which options take a value, so
 * that an unknown one is caught rather than misread) and the collection of
 * the options that matter for disks. Resolution into disks is in
 * advise_qemu_resolve.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "advise_qemu.h"
#include "advise_qemu_int.h"
#include "advise_qjson.h"
#include "advise_qopts.h"
#include "advise_shell.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

enum qopt_kind {
	Q_IGNORE, /* accepted, not needed for disks */
	Q_MACHINE,
	Q_SMP,
	Q_NAME,
	Q_DRIVE,
	Q_BLOCKDEV,
	Q_DEVICE,
	Q_OBJECT,
	Q_GLOBAL,
	Q_SET,
	Q_HD, /* -hda..-hdd */
	Q_CDROM,
	Q_SNAPSHOT,
	Q_CPU,
	Q_RTC,
	Q_READCONFIG,
};

struct qopt {
	const char *name;
	bool arg;
	enum qopt_kind kind;
};

/*
 * QEMU's system-emulator options (qemu-options.hx, 2.x to 10.x, plus
 * Proxmox's -id): whether each takes a value is what matters, so that a
 * value is never read as an option or the other way round.
 */
static const struct qopt qopts_table[] = {
	{ "D", true },
	{ "L", true },
	{ "M", true, Q_MACHINE },
	{ "S", false },
	{ "accel", true },
	{ "acpitable", true },
	{ "action", true },
	{ "add-fd", true },
	{ "alt-grab", false },
	{ "append", true },
	{ "async-teardown", false },
	{ "audio", true },
	{ "audio-help", false },
	{ "audiodev", true },
	{ "balloon", true },
	{ "bios", true },
	{ "blockdev", true, Q_BLOCKDEV },
	{ "boot", true },
	{ "bt", true },
	{ "cdrom", true, Q_CDROM },
	{ "chardev", true },
	{ "chroot", true },
	{ "clock", true },
	{ "compat", true },
	{ "cpu", true, Q_CPU },
	{ "ctrl-grab", false },
	{ "curses", false },
	{ "d", true },
	{ "daemonize", false },
	{ "debugcon", true },
	{ "device", true, Q_DEVICE },
	{ "dfilter", true },
	{ "display", true },
	{ "drive", true, Q_DRIVE },
	{ "dtb", true },
	{ "dump-vmstate", true },
	{ "echr", true },
	{ "enable-fips", false },
	{ "enable-kvm", false },
	{ "enable-sync-profile", false },
	{ "fda", true },
	{ "fdb", true },
	{ "fsdev", true },
	{ "full-screen", false },
	{ "fw_cfg", true },
	{ "g", true },
	{ "gdb", true },
	{ "global", true, Q_GLOBAL },
	{ "h", false },
	{ "hda", true, Q_HD },
	{ "hdb", true, Q_HD },
	{ "hdc", true, Q_HD },
	{ "hdd", true, Q_HD },
	{ "help", false },
	{ "icount", true },
	{ "id", true },
	{ "incoming", true },
	{ "initrd", true },
	{ "iscsi", true },
	{ "k", true },
	{ "kernel", true },
	{ "kvm-shadow-memory", true },
	{ "loadvm", true },
	{ "localtime", false },
	{ "m", true },
	{ "machine", true, Q_MACHINE },
	{ "mem-path", true },
	{ "mem-prealloc", false },
	{ "mon", true },
	{ "monitor", true },
	{ "msg", true },
	{ "mtdblock", true },
	{ "name", true, Q_NAME },
	{ "net", true },
	{ "netdev", true },
	{ "nic", true },
	{ "no-acpi", false },
	{ "no-fd-bootchk", false },
	{ "no-frame", false },
	{ "no-hpet", false },
	{ "no-kvm", false },
	{ "no-kvm-irqchip", false },
	{ "no-kvm-pit", false },
	{ "no-kvm-pit-reinjection", false },
	{ "no-quit", false },
	{ "no-reboot", false },
	{ "no-shutdown", false },
	{ "no-user-config", false },
	{ "nodefaults", false },
	{ "nodefconfig", false },
	{ "nographic", false },
	{ "numa", true },
	{ "object", true, Q_OBJECT },
	{ "old-param", false },
	{ "only-migratable", false },
	{ "option-rom", true },
	{ "overcommit", true },
	{ "parallel", true },
	{ "pcidevice", true },
	{ "pflash", true },
	{ "pidfile", true },
	{ "plugin", true },
	{ "portrait", false },
	{ "preconfig", false },
	{ "prom-env", true },
	{ "qmp", true },
	{ "qmp-pretty", true },
	{ "qtest", true },
	{ "qtest-log", true },
	{ "readconfig", true, Q_READCONFIG },
	{ "rotate", true },
	{ "rtc", true, Q_RTC },
	{ "rtc-td-hack", false },
	{ "run-with", true },
	{ "runas", true },
	{ "s", false },
	{ "sandbox", true },
	{ "sd", true },
	{ "sdl", false },
	{ "seed", true },
	{ "semihosting", false },
	{ "semihosting-config", true },
	{ "serial", true },
	{ "set", true, Q_SET },
	{ "singlestep", false },
	{ "smbios", true },
	{ "smp", true, Q_SMP },
	{ "snapshot", false, Q_SNAPSHOT },
	{ "soundhw", true },
	{ "spice", true },
	{ "startdate", true },
	{ "tb-size", true },
	{ "tdf", false },
	{ "tpmdev", true },
	{ "trace", true },
	{ "usb", false },
	{ "usbdevice", true },
	{ "uuid", true },
	{ "version", false },
	{ "vga", true },
	{ "virtfs", true },
	{ "virtfs_synth", false },
	{ "virtioconsole", true },
	{ "vnc", true },
	{ "watchdog", true },
	{ "watchdog-action", true },
	{ "win2k-hack", false },
	{ "writeconfig", true },
	{ "xen-attach", false },
	{ "xen-domid", true },
	{ "xen-domid-restrict", false },
};

static const struct qopt *qopt_find(const char *name)
{
	for (size_t i = 0; i < sizeof(qopts_table) / sizeof(qopts_table[0]);
	     i++)
		if (!strcmp(qopts_table[i].name, name))
			return &qopts_table[i];
	return NULL;
}

bool adv_qemu_is_program(const char *prog)
{
	const char *base = strrchr(prog, '/');

	base = base ? base + 1 : prog;
	/* "qemu-system-x86_64:" starts QEMU's error lines in logs: not it */
	if (!strncmp(base, "qemu-system-", 12))
		return base[12] &&
		       strspn(base + 12,
			      "abcdefghijklmnopqrstuvwxyz"
			      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") ==
			       strlen(base + 12);
	return !strcmp(base, "qemu-kvm") || !strcmp(base, "kvm");
}

static void push_index(int **v, size_t *n, int idx)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = idx;
}

/* Parse an option value into a new item, in the JSON or key=value form. */
static int add_item(struct qcollect *c, const char *opt, const char *val,
		    const char *implied, bool json_ok, const char *where,
		    struct err *err)
{
	char what[256];
	bool json = json_ok && qopts_is_json(val);
	int idx = adv_vm_add_item(
		c->vm, json ? ADV_SYN_QEMU_JSON : ADV_SYN_QEMU_KV, opt, where);
	struct kvl *kv = &c->vm->items[idx].kv;

	snprintf(what, sizeof(what), "%s: %s", where, opt);
	if (json ? !qjson_flatten(val, what, kv, err) :
		   !qopts_parse(val, implied, what, kv, err))
		return -1;
	return idx;
}

static unsigned smp_count(const struct kvl *kv)
{
	static const char *const parts[] = { "sockets", "dies",	   "clusters",
					     "cores",	"threads", "books",
					     "drawers" };
	const char *cpus = kvl_get(kv, "cpus");
	unsigned long n = 1;
	bool any = false;

	if (cpus && *cpus)
		return (unsigned)strtoul(cpus, NULL, 10);
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		const char *v = kvl_get(kv, parts[i]);

		if (v && *v) {
			unsigned long x = strtoul(v, NULL, 10);

			if (x && n * x <= 65536)
				n *= x;
			any = true;
		}
	}
	return any ? (unsigned)n : 1;
}

static bool add_global(struct qcollect *c, const char *val, const char *where,
		       struct err *err)
{
	struct qglobal g = { 0 };
	const char *eq = strchr(val, '='), *dot;

	if (strstr(val, "driver=") == val) {
		struct kvl kv = { 0 };
		char what[256];

		snprintf(what, sizeof(what), "%s: -global", where);
		if (!qopts_parse(val, NULL, what, &kv, err)) {
			kvl_free(&kv);
			return false;
		}
		if (kvl_get(&kv, "driver") && kvl_get(&kv, "property")) {
			g.driver = xstrdup(kvl_get(&kv, "driver"));
			g.prop = xstrdup(kvl_get(&kv, "property"));
			g.value = xstrdup(kvl_get(&kv, "value") ?
						  kvl_get(&kv, "value") :
						  "");
		}
		kvl_free(&kv);
	} else if (eq && (dot = memchr(val, '.', (size_t)(eq - val)))) {
		g.driver = xasprintf("%.*s", (int)(dot - val), val);
		g.prop = xasprintf("%.*s", (int)(eq - dot - 1), dot + 1);
		g.value = xstrdup(eq + 1);
	}
	if (!g.driver)
		return qemu_problem(
			c, err, "advise-bad-global",
			"%s: -global %s: expected DRIVER.PROPERTY=VALUE", where,
			val);
	c->globals = xrealloc(c->globals, (c->nglobals + 1) * sizeof(g));
	c->globals[c->nglobals++] = g;
	return true;
}

/* -set device.ID.prop=value / -set drive.ID.prop=value */
static bool apply_set(struct qcollect *c, const char *val, const char *where,
		      struct err *err)
{
	const char *eq = strchr(val, '=');
	char group[64], id[256], prop[256];
	int *list;
	size_t n;

	if (!eq ||
	    sscanf(val, "%63[^.].%255[^.].%255[^=]", group, id, prop) != 3)
		return qemu_problem(
			c, err, "advise-bad-set",
			"%s: -set %s: expected GROUP.ID.PROPERTY=VALUE", where,
			val);
	if (!strcmp(group, "device")) {
		list = c->devices;
		n = c->ndevices;
	} else if (!strcmp(group, "drive")) {
		list = c->drives;
		n = c->ndrives;
	} else {
		return true;
	}
	for (size_t i = 0; i < n; i++) {
		struct kvl *kv = &c->vm->items[list[i]].kv;
		const char *iid = kvl_get(kv, "id");

		if (iid && !strcmp(iid, id)) {
			kvl_set(kv, prop, eq + 1, KV_STR);
			return true;
		}
	}
	return qemu_problem(c, err, "advise-bad-set",
			    "%s: -set %s: there is no %s with id=%s", where,
			    val, group, id);
}

static void os_hint(struct adv_vm *vm, enum adv_os os, const char *why)
{
	if (vm->os != ADV_OS_UNKNOWN)
		return;
	vm->os = os;
	free(vm->os_hint);
	vm->os_hint = xstrdup(why);
}

/* -hda/-cdrom: the same as -drive file=F,index=N[,media=cdrom]. */
static bool add_shortcut(struct qcollect *c, const char *opt, const char *file,
			 const char *where, struct err *err)
{
	char w[300];
	int idx;
	struct kvl *kv;

	(void)err;
	snprintf(w, sizeof(w), "%s (%s)", where, opt);
	idx = adv_vm_add_item(c->vm, ADV_SYN_QEMU_KV, "-drive", w);
	kv = &c->vm->items[idx].kv;
	kvl_add(kv, "file", file, KV_STR);
	if (!strcmp(opt, "-cdrom")) {
		kvl_add(kv, "index", "2", KV_NUM);
		kvl_add(kv, "media", "cdrom", KV_STR);
	} else {
		char n[2] = { (char)('0' + (opt[3] - 'a')), 0 };

		kvl_add(kv, "index", n, KV_NUM);
		kvl_add(kv, "media", "disk", KV_STR);
	}
	push_index(&c->drives, &c->ndrives, idx);
	return true;
}

static bool handle(struct qcollect *c, const struct qopt *o, const char *opt,
		   const char *val, const char *where, struct err *err)
{
	struct kvl kv = { 0 };
	char what[300];
	int idx;
	bool ok = true;

	snprintf(what, sizeof(what), "%s: %s", where, opt);
	switch (o->kind) {
	case Q_IGNORE:
		return true;
	case Q_MACHINE:
		ok = qopts_parse(val, "type", what, &kv, err);
		if (ok && kvl_get(&kv, "type"))
			adv_vm_set_machine(c->vm, kvl_get(&kv, "type"));
		break;
	case Q_SMP:
		ok = qopts_parse(val, "cpus", what, &kv, err);
		if (ok)
			c->vm->vcpus = smp_count(&kv);
		if (!c->vm->vcpus)
			c->vm->vcpus = 1;
		break;
	case Q_NAME:
		ok = qopts_parse(val, "guest", what, &kv, err);
		idx = (int)kvl_find(&kv, "guest");
		if (ok && idx >= 0 && *kv.v[idx].val) {
			free(c->vm->name);
			c->vm->name = xstrdup(kv.v[idx].val);
			/* libvirt writes -name guest=NAME,debug-threads=on */
			if (!kv.v[idx].implied)
				c->vm->libvirt_managed = true;
		}
		break;
	case Q_DRIVE:
		idx = add_item(c, "-drive", val, NULL, false, where, err);
		if (idx < 0)
			return false;
		push_index(&c->drives, &c->ndrives, idx);
		return true;
	case Q_BLOCKDEV:
		idx = add_item(c, "-blockdev", val, NULL, true, where, err);
		if (idx < 0)
			return false;
		push_index(&c->blockdevs, &c->nblockdevs, idx);
		return true;
	case Q_DEVICE:
		idx = add_item(c, "-device", val, "driver", true, where, err);
		if (idx < 0)
			return false;
		push_index(&c->devices, &c->ndevices, idx);
		return true;
	case Q_OBJECT:
		ok = qopts_is_json(val) ?
			     qjson_flatten(val, what, &kv, err) :
			     qopts_parse(val, "qom-type", what, &kv, err);
		if (ok && kvl_get(&kv, "qom-type") && kvl_get(&kv, "id") &&
		    !strcmp(kvl_get(&kv, "qom-type"), "iothread"))
			adv_vm_add_iothread(c->vm, kvl_get(&kv, "id"));
		if (ok && kvl_get(&kv, "id") &&
		    !strncmp(kvl_get(&kv, "id"), "masterKey", 9))
			c->vm->libvirt_managed = true;
		kvl_free(&kv);
		return ok;
	case Q_GLOBAL:
		return add_global(c, val, where, err);
	case Q_SET:
		return true; /* applied once everything is collected */
	case Q_HD:
	case Q_CDROM:
		return add_shortcut(c, opt, val, where, err);
	case Q_SNAPSHOT:
		c->snapshot = true;
		return true;
	case Q_CPU:
		if (strstr(val, "hv_") || strstr(val, "hv-"))
			os_hint(c->vm, ADV_OS_WINDOWS,
				"Hyper-V enlightenments in -cpu");
		return true;
	case Q_RTC:
		if (strstr(val, "base=localtime"))
			os_hint(c->vm, ADV_OS_WINDOWS, "-rtc base=localtime");
		return true;
	case Q_READCONFIG:
		warn_add(
			&c->r->warnings, "advise-readconfig",
			"%s: %s -readconfig %s: drives in that file are not analysed; pass its contents as options",
			c->vm->origin, where, val);
		return true;
	}
	kvl_free(&kv);
	return ok;
}

static void collect_free(struct qcollect *c)
{
	for (size_t i = 0; i < c->nglobals; i++) {
		free(c->globals[i].driver);
		free(c->globals[i].prop);
		free(c->globals[i].value);
	}
	free(c->globals);
	free(c->drives);
	free(c->blockdevs);
	free(c->devices);
}

bool adv_qemu_read_argv(struct adv_report *r, enum adv_source src,
			const char *origin, const char *name_hint, int argc,
			char *const *argv, char *const *where, bool strict,
			const struct adv_ctx *ctx, struct err *err)
{
	struct qcollect c = { 0 };
	bool ok = true;
	int i, operands = 0;

	c.vm = adv_vm_new(src, origin);
	c.r = r;
	c.ctx = ctx;
	c.strict = strict;
	for (i = 0; ok && i < argc; i++) {
		const char *a = argv[i], *name, *val = NULL;
		const struct qopt *o;

		if (a[0] != '-' || !a[1]) {
			/* QEMU reads a bare operand as the first hard disk,
			   and refuses a second one (index 0 is taken). */
			if (operands++)
				ok = qemu_problem(
					&c, err, "advise-operand",
					"%s: '%s': QEMU takes one disk image operand; use -drive for more (or quote a value with spaces)",
					where[i], a);
			else
				ok = add_shortcut(&c, "-hda", a, where[i], err);
			continue;
		}
		name = a + 1 + (a[1] == '-');
		o = qopt_find(name);
		if (!o) {
			if (strict) {
				ok = err_set(
					err, EXIT_USAGE, 0,
					"%s: unknown QEMU option '%s'; check its spelling against 'qemu-system-x86_64 -help'",
					where[i], a);
				break;
			}
			warn_add(&r->warnings, "advise-unknown-option",
				 "%s: unknown QEMU option '%s' skipped", origin,
				 a);
			if (i + 1 < argc && argv[i + 1][0] != '-')
				i++;
			continue;
		}
		if (o->arg) {
			if (i + 1 >= argc) {
				ok = err_set(
					err, EXIT_USAGE, 0,
					"%s: QEMU option '%s' needs a value",
					where[i], a);
				break;
			}
			val = argv[++i];
		}
		ok = handle(&c, o, a[1] == '-' ? a + 1 : a, val, where[i], err);
	}
	/* -set applies to options given before or after it. */
	for (i = 0; ok && i + 1 < argc; i++)
		if (!strcmp(argv[i], "-set") || !strcmp(argv[i], "--set"))
			ok = apply_set(&c, argv[i + 1], where[i + 1], err);
	if (ok && !c.vm->name)
		c.vm->name = xstrdup(name_hint);
	if (ok)
		ok = qemu_resolve(&c, err);
	collect_free(&c);
	if (!ok) {
		adv_vm_free(c.vm);
		return false;
	}
	adv_report_add_vm(r, c.vm);
	return true;
}

static bool read_words(struct adv_report *r, enum adv_source src,
		       const char *origin, const char *label,
		       const char *name_hint, const struct sh_words *w,
		       size_t from, size_t to, const struct adv_ctx *ctx,
		       struct err *err)
{
	char **argv = xcalloc(to - from + 1, sizeof(char *));
	char **where = xcalloc(to - from + 1, sizeof(char *));
	int argc = 0;
	bool ok;

	for (size_t i = from; i < to; i++) {
		if (w->v[i].op)
			continue;
		argv[argc] = w->v[i].text;
		where[argc++] = xasprintf("%s:%u", label, w->v[i].line);
	}
	ok = adv_qemu_read_argv(r, src, origin, name_hint, argc, argv, where,
				true, ctx, err);
	for (int i = 0; i < argc; i++)
		free(where[i]);
	free(where);
	free(argv);
	return ok;
}

/* Any whitespace-separated token of @s[0..len) a QEMU program name? */
static bool mentions_program(const char *s, size_t len)
{
	char tok[512];
	size_t i = 0;

	while (i < len) {
		size_t n;

		while (i < len && strchr(" \t\r\n\\\"'", s[i]))
			i++;
		for (n = 0; i + n < len && !strchr(" \t\r\n\"'", s[i + n]); n++)
			;
		if (n && n < sizeof(tok)) {
			memcpy(tok, s + i, n);
			tok[n] = '\0';
			if (adv_qemu_is_program(tok))
				return true;
		}
		i += n;
	}
	return false;
}

static unsigned count_nl(const char *a, const char *b)
{
	unsigned n = 0;

	for (; a < b; a++)
		n += *a == '\n';
	return n;
}

static void append_words(struct sh_words *all, struct sh_words *w,
			 unsigned first_line)
{
	for (size_t i = 0; i < w->n; i++) {
		if (all->n == all->cap) {
			all->cap = all->cap ? 2 * all->cap : 64;
			all->v = xrealloc(all->v, all->cap * sizeof(*all->v));
		}
		all->v[all->n] = w->v[i];
		all->v[all->n++].line += first_line - 1;
	}
	free(w->v);
	memset(w, 0, sizeof(*w));
}

/*
 * Split a text with QEMU command lines among other lines (a script, a
 * libvirt log): each logical line is split on its own, so that a stray
 * quote in a log message cannot swallow the command; a command whose
 * quote spans lines (multi-line JSON) is extended until it closes.
 */
static bool split_commands(const char *text, const char *label,
			   struct sh_words *all, struct err *err)
{
	const char *p = text;
	unsigned line = 1;

	while (*p) {
		const char *end = sh_line_end(p);
		bool cmd = mentions_program(p, (size_t)(end - p)), ok;
		struct sh_words w = { 0 };
		struct err e2 = { 0 };
		char *chunk;

		for (;;) {
			chunk = xasprintf("%.*s", (int)(end - p), p);
			ok = sh_split(chunk, label, &w, &e2);
			free(chunk);
			if (ok || !cmd || !*end)
				break;
			sh_words_free(&w);
			end = sh_line_end(end + 1);
		}
		if (!ok && cmd) {
			/* report the line the command starts on */
			err_set(err, EXIT_USAGE, 0,
				"%s:%u: unterminated quote in this command line; close it",
				label, line);
			sh_words_free(&w);
			sh_words_free(all);
			return false;
		}
		if (ok) {
			struct sh_words nl = { 0 };

			append_words(all, &w, line);
			nl.v = xmalloc(sizeof(*nl.v));
			nl.v[0].text = xstrdup("\n");
			nl.v[0].line = 1;
			nl.v[0].op = true;
			nl.n = nl.cap = 1;
			append_words(all, &nl, line + count_nl(p, end));
		}
		sh_words_free(&w);
		line += count_nl(p, end) + (*end == '\n');
		p = *end ? end + 1 : end;
	}
	return true;
}

bool adv_qemu_read_text(struct adv_report *r, enum adv_source src,
			const char *origin, const char *label, const char *text,
			const struct adv_ctx *ctx, struct err *err)
{
	struct sh_words w = { 0 };
	size_t nprog = 0, vmno = 0;
	const char *base = strrchr(label, '/');
	bool ok = true;

	base = base ? base + 1 : label;
	while (*base == '-')
		base++; /* "--qemu-args" names the VM "qemu-args" */
	if (mentions_program(text, strlen(text)) ?
		    !split_commands(text, label, &w, err) :
		    !sh_split(text, label, &w, err)) {
		sh_words_free(&w);
		return false;
	}
	for (size_t i = 0; i < w.n; i++)
		nprog += !w.v[i].op && adv_qemu_is_program(w.v[i].text);
	if (!nprog) {
		size_t end = 0;

		/* Options only: newlines are spaces, another command ends it. */
		while (end < w.n &&
		       (!w.v[end].op || !strcmp(w.v[end].text, "\n")))
			end++;
		ok = read_words(r, src, origin, label, base, &w, 0, end, ctx,
				err);
	}
	for (size_t i = 0; ok && nprog && i < w.n; i++) {
		size_t end = i + 1;
		char hint[300];

		if (w.v[i].op || !adv_qemu_is_program(w.v[i].text))
			continue;
		while (end < w.n && !w.v[end].op)
			end++;
		if (nprog > 1)
			snprintf(hint, sizeof(hint), "%s#%zu", base, ++vmno);
		else
			snprintf(hint, sizeof(hint), "%s", base);
		ok = read_words(r, src, origin, label, hint, &w, i + 1, end,
				ctx, err);
		i = end;
	}
	sh_words_free(&w);
	return ok;
}
