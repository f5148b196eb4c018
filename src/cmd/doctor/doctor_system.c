// SPDX-License-Identifier: GPL-2.0-or-later
/* The distribution, kernel, CPUs and memory doctor reports on. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_impl.h"

/* os-release value: strip quotes and shell escapes. */
static void osr_value(const char *in, char *out, size_t len)
{
	char q = 0;
	size_t o = 0;

	if (*in == '"' || *in == '\'')
		q = *in++;
	for (; *in && *in != '\n' && o + 1 < len; in++) {
		if (q && *in == q)
			break;
		if (*in == '\\' && in[1])
			in++;
		out[o++] = *in;
	}
	out[o] = '\0';
}

static void osr_get(const char *text, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);

	out[0] = '\0';
	for (const char *p = text; *p;) {
		const char *eol = strchrnul(p, '\n');

		if (!strncmp(p, key, klen) && p[klen] == '=')
			osr_value(p + klen + 1, out, len);
		p = *eol ? eol + 1 : eol;
	}
}

static enum dr_family family_of(const char *id)
{
	static const struct {
		const char *id;
		enum dr_family fam;
	} ids[] = {
		{ "debian", DR_FAM_DEBIAN },
		{ "ubuntu", DR_FAM_DEBIAN },
		{ "linuxmint", DR_FAM_DEBIAN },
		{ "raspbian", DR_FAM_DEBIAN },
		{ "devuan", DR_FAM_DEBIAN },
		{ "kali", DR_FAM_DEBIAN },
		{ "rhel", DR_FAM_RHEL },
		{ "ol", DR_FAM_RHEL },
		{ "centos", DR_FAM_RHEL },
		{ "rocky", DR_FAM_RHEL },
		{ "almalinux", DR_FAM_RHEL },
		{ "fedora", DR_FAM_RHEL },
		{ "amzn", DR_FAM_RHEL },
		{ "cloudlinux", DR_FAM_RHEL },
		{ "sles", DR_FAM_SUSE },
		{ "sled", DR_FAM_SUSE },
		{ "suse", DR_FAM_SUSE },
		{ "opensuse", DR_FAM_SUSE },
		{ "opensuse-leap", DR_FAM_SUSE },
		{ "opensuse-tumbleweed", DR_FAM_SUSE },
		{ "arch", DR_FAM_ARCH },
		{ "manjaro", DR_FAM_ARCH },
		{ "alpine", DR_FAM_ALPINE },
	};

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (!strcmp(id, ids[i].id))
			return ids[i].fam;
	return DR_FAM_UNKNOWN;
}

static void distro_classify(struct dr_distro *d)
{
	int major = atoi(d->version_id);

	d->family = family_of(d->id);
	for (const char *p = d->id_like; !d->family && *p;) {
		char word[32];
		size_t n = strcspn(p, " ");

		snprintf(word, sizeof(word), "%.*s", (int)n, p);
		d->family = family_of(word);
		p += n;
		p += strspn(p, " ");
	}
	switch (d->family) {
	case DR_FAM_DEBIAN:
		strcpy(d->pm, "apt");
		break;
	case DR_FAM_RHEL:
		/* yum before EL8 and on Amazon Linux 2; dnf since. */
		if ((!strcmp(d->id, "amzn") && major < 2022) ||
		    (strcmp(d->id, "fedora") && strcmp(d->id, "amzn") &&
		     major > 0 && major < 8))
			strcpy(d->pm, "yum");
		else
			strcpy(d->pm, "dnf");
		break;
	case DR_FAM_SUSE:
		strcpy(d->pm, "zypper");
		break;
	case DR_FAM_ARCH:
		strcpy(d->pm, "pacman");
		break;
	case DR_FAM_ALPINE:
		strcpy(d->pm, "apk");
		break;
	default:
		d->pm[0] = '\0';
	}
}

static void collect_distro(struct dr_ctx *c)
{
	struct dr_distro *d = &c->r->sys.distro;
	char *text = dr_slurp(c, "/etc/os-release", false);

	if (!text)
		text = dr_slurp(c, "/usr/lib/os-release", false);
	if (!text) {
		dr_note_unreadable(c, "/etc/os-release", ENOENT);
		return;
	}
	osr_get(text, "ID", d->id, sizeof(d->id));
	osr_get(text, "ID_LIKE", d->id_like, sizeof(d->id_like));
	osr_get(text, "VERSION_ID", d->version_id, sizeof(d->version_id));
	osr_get(text, "PRETTY_NAME", d->name, sizeof(d->name));
	if (!d->name[0])
		osr_get(text, "NAME", d->name, sizeof(d->name));
	free(text);
	distro_classify(d);
}

/* "0-3,8-11" -> 8 */
static int64_t count_cpus(const char *list)
{
	int64_t n = 0;

	for (const char *p = list; *p;) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p)
			return n ? n : DR_UNKNOWN;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		n += b - a + 1;
		p = end + (*end == ',');
	}
	return n ? n : DR_UNKNOWN;
}

void dr_collect_system(struct dr_ctx *c)
{
	struct dr_system *s = &c->r->sys;
	char buf[256];
	char *mem;

	dr_read(c, "/proc/sys/kernel/osrelease", s->kernel, sizeof(s->kernel),
		true);
	s->cpus = DR_UNKNOWN;
	if (dr_read(c, "/sys/devices/system/cpu/online", buf, sizeof(buf),
		    true) > 0)
		s->cpus = count_cpus(buf);
	s->mem_total_kb = DR_UNKNOWN;
	mem = dr_slurp(c, "/proc/meminfo", true);
	if (mem) {
		long long kb;
		char *p = strstr(mem, "MemTotal:");

		if (p && sscanf(p, "MemTotal: %lld", &kb) == 1)
			s->mem_total_kb = kb;
		free(mem);
	}
	collect_distro(c);
}
