// SPDX-License-Identifier: GPL-2.0-or-later
/* Memory and CPU limits of this process; see resources.h. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resources.h"
#include "../util/err.h"
#include "../util/fsread.h"
#include "../util/parse.h"

/* A limit this high is "no limit" (v1 writes PAGE_COUNTER_MAX pages). */
#define NO_LIMIT (1ull << 62)

/* "Key:   123 kB" or "key 123" in a small stats file; false if absent. */
static bool stat_field(const char *text, const char *key, uint64_t *out)
{
	size_t klen = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, key, klen) &&
		    (p[klen] == ' ' || p[klen] == ':' || p[klen] == '\t')) {
			char *end;
			unsigned long long v = strtoull(p + klen + 1, &end, 10);

			while (*end == ' ')
				end++;
			*out = !strncmp(end, "kB", 2) ? v * 1024 : v;
			return true;
		}
	}
	return false;
}

struct cg_mount {
	bool v2;
	char root[256], dir[256];
};

/*
 * The memory hierarchy's mounts from mountinfo: "id parent maj:min root
 * mountpoint opts ... - fstype source superopts".
 */
static int cg_mounts(const struct fsview *v, struct cg_mount *m, int max)
{
	char *text = fsv_slurp(v, "/proc/self/mountinfo", NULL, &(int){ 0 });
	int n = 0;

	if (!text)
		return 0;
	for (char *line = strtok(text, "\n"); line && n < max;
	     line = strtok(NULL, "\n")) {
		char root[256], dir[256], fstype[32], super[256];
		const char *dash = strstr(line, " - ");

		if (!dash ||
		    sscanf(line, "%*s %*s %*s %255s %255s", root, dir) != 2 ||
		    sscanf(dash + 3, "%31s %*s %255s", fstype, super) != 2)
			continue;
		if (!strcmp(fstype, "cgroup2")) {
			m[n].v2 = true;
		} else if (!strcmp(fstype, "cgroup") &&
			   (strstr(super, ",memory") ||
			    !strncmp(super, "memory", 6))) {
			m[n].v2 = false;
		} else {
			continue;
		}
		snprintf(m[n].root, sizeof(m[n].root), "%s", root);
		snprintf(m[n].dir, sizeof(m[n].dir), "%s", dir);
		n++;
	}
	free(text);
	return n;
}

/* This process's group in the hierarchy: "0::/a" (v2), "4:memory:/a". */
static bool cg_path(const struct fsview *v, bool v2, char *out, size_t len)
{
	char *text = fsv_slurp(v, "/proc/self/cgroup", NULL, &(int){ 0 });
	bool found = false;

	if (!text)
		return false;
	for (char *line = strtok(text, "\n"); line && !found;
	     line = strtok(NULL, "\n")) {
		char *c1 = strchr(line, ':'),
		     *c2 = c1 ? strchr(c1 + 1, ':') : 0;

		if (!c2)
			continue;
		*c1 = *c2 = '\0';
		if (v2 ? !strcmp(line, "0") && c2 == c1 + 1 :
			 !!strstr(c1 + 1, "memory")) {
			snprintf(out, len, "%s", c2 + 1);
			found = true;
		}
	}
	free(text);
	return found;
}

/* Headroom under one group's limit; false if it has none. */
static bool cg_headroom(const struct fsview *v, const char *dir, bool v2,
			uint64_t *room)
{
	char p[600], buf[64], *stat;
	uint64_t limit, usage = 0, cache = 0;

	snprintf(p, sizeof(p), "%s/%s", dir,
		 v2 ? "memory.max" : "memory.limit_in_bytes");
	if (fsv_read(v, p, buf, sizeof(buf)) <= 0 || !strcmp(buf, "max"))
		return false;
	limit = strtoull(buf, NULL, 10);
	if (!limit || limit >= NO_LIMIT)
		return false;
	snprintf(p, sizeof(p), "%s/%s", dir,
		 v2 ? "memory.current" : "memory.usage_in_bytes");
	if (fsv_read_u64(v, p, &usage) < 0)
		usage = 0;
	snprintf(p, sizeof(p), "%s/memory.stat", dir);
	stat = fsv_slurp(v, p, NULL, &(int){ 0 });
	if (stat) {
		/* Page cache is given back under pressure: not held. */
		if (!stat_field(stat, v2 ? "file" : "total_cache", &cache))
			stat_field(stat, "cache", &cache);
		free(stat);
	}
	if (cache > usage)
		cache = usage;
	usage -= cache;
	*room = limit > usage ? limit - usage : 0;
	return true;
}

static void cg_limits(const struct fsview *v, uint64_t *best, char *what,
		      size_t len)
{
	struct cg_mount m[8];
	int n = cg_mounts(v, m, 8);

	for (int i = 0; i < n; i++) {
		char rel[256], dir[600];
		const char *r = rel;
		size_t rl = strlen(m[i].root);

		if (!cg_path(v, m[i].v2, rel, sizeof(rel)))
			continue;
		/* A namespaced mount shows its own root: strip it. */
		if (strcmp(m[i].root, "/") && !strncmp(rel, m[i].root, rl))
			r = rel + rl;
		snprintf(dir, sizeof(dir), "%s%s", m[i].dir,
			 strcmp(r, "/") ? r : "");
		if (!fsv_is_dir(v, dir))
			snprintf(dir, sizeof(dir), "%s", m[i].dir);
		/* Every level up to the mount: a parent's limit binds too. */
		for (;;) {
			uint64_t room;
			char *slash;

			if (cg_headroom(v, dir, m[i].v2, &room) &&
			    room < *best) {
				*best = room;
				snprintf(what, len, "the cgroup limit %s/%s",
					 dir,
					 m[i].v2 ? "memory.max" :
						   "memory.limit_in_bytes");
			}
			if (strlen(dir) <= strlen(m[i].dir))
				break;
			slash = strrchr(dir, '/');
			if (!slash)
				break;
			*slash = '\0';
		}
	}
}

bool res_mem_available(const struct fsview *v, uint64_t *bytes, char *what,
		       size_t len)
{
	char *info = fsv_slurp(v, "/proc/meminfo", NULL, &(int){ 0 });
	uint64_t avail;
	bool ok;

	if (!info)
		return false;
	ok = stat_field(info, "MemAvailable", &avail);
	free(info);
	if (!ok)
		return false;
	snprintf(what, len, "MemAvailable");
	cg_limits(v, &avail, what, len);
	*bytes = avail;
	return true;
}

bool res_check_buffers(const struct fsview *v, uint64_t bytes, const char *desc,
		       const char *fix, struct err *err)
{
	char what[700], need[32], have[32];
	uint64_t avail;

	if (!bytes || !res_mem_available(v, &avail, what, sizeof(what)))
		return true;
	if (bytes / RES_MEM_SHARE_PCT <= avail / 100)
		return true;
	return err_set(
		err, EXIT_ENV, ENOMEM,
		"%s need %s of I/O buffers, more than %d%% of the %s of memory available (%s); %s",
		desc, fmt_size(bytes, need, sizeof(need)), RES_MEM_SHARE_PCT,
		fmt_size(avail, have, sizeof(have)), what, fix);
}

bool res_cpus_allowed(bool *set)
{
	cpu_set_t cs;

	if (sched_getaffinity(0, sizeof(cs), &cs))
		return false;
	for (int c = 0; c < PARSE_MAX_CPU; c++)
		set[c] = c < CPU_SETSIZE && CPU_ISSET(c, &cs);
	return true;
}
