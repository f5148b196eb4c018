// SPDX-License-Identifier: GPL-2.0-or-later
/* The system's side of top: iowait and steal (/proc/stat), PSI io. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "top_stats.h"
#include "../../util/clock.h"
#include "../../util/fsread.h"

void top_sys_parse_stat(const char *buf, struct top_sys_snap *s)
{
	unsigned long long v[8];

	s->cpu_ok = false;
	/* The first line sums every CPU; guest time is inside user already. */
	if (strncmp(buf, "cpu ", 4) ||
	    sscanf(buf + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		return;
	for (int i = 0; i < 8; i++)
		s->cpu[i] = v[i];
	s->cpu_ok = true;
}

static bool psi_total(const char *buf, const char *kind, uint64_t *us)
{
	const char *line = buf;
	size_t k = strlen(kind);

	while (line && *line) {
		if (!strncmp(line, kind, k) && line[k] == ' ') {
			const char *t = strstr(line, "total=");
			const char *nl = strchr(line, '\n');
			unsigned long long v;

			if (!t || (nl && t > nl) ||
			    sscanf(t, "total=%llu", &v) != 1)
				return false;
			*us = v;
			return true;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return false;
}

void top_sys_parse_psi(const char *buf, struct top_sys_snap *s)
{
	if (!psi_total(buf, "some", &s->psi_some_us)) {
		s->psi_err = -EINVAL;
		return;
	}
	s->psi_err = 0;
	s->psi_full_ok = psi_total(buf, "full", &s->psi_full_us);
}

void top_sys_read(const char *root, struct top_sys_snap *s)
{
	struct fsview v = { .root = root };
	char buf[4096];
	ssize_t n;

	memset(s, 0, sizeof(*s));
	s->t_ns = clock_mono_ns();
	if (fsv_read(&v, "/proc/stat", buf, sizeof(buf)) > 0)
		top_sys_parse_stat(buf, s);
	n = fsv_read(&v, "/proc/pressure/io", buf, sizeof(buf));
	if (n < 0)
		s->psi_err = (int)n;
	else
		top_sys_parse_psi(buf, s);
}

void top_sys_rate_of(const struct top_sys_snap *prev,
		     const struct top_sys_snap *cur, struct top_sys_rate *r)
{
	double us = (double)(cur->t_ns - prev->t_ns) / 1e3;

	r->iowait_pct = r->steal_pct = NAN;
	r->psi_some_pct = r->psi_full_pct = NAN;
	r->psi_err = cur->psi_err ? cur->psi_err : prev->psi_err;
	if (prev->cpu_ok && cur->cpu_ok) {
		uint64_t d[8], total = 0;
		bool ok = true;

		for (int i = 0; i < 8; i++) {
			ok &= cur->cpu[i] >= prev->cpu[i];
			d[i] = cur->cpu[i] - prev->cpu[i];
			total += d[i];
		}
		if (ok && total) {
			r->iowait_pct = 100.0 * (double)d[4] / (double)total;
			r->steal_pct = 100.0 * (double)d[7] / (double)total;
		}
	}
	if (!r->psi_err && us > 0 && cur->psi_some_us >= prev->psi_some_us) {
		r->psi_some_pct = fmin(
			100.0,
			100.0 * (double)(cur->psi_some_us - prev->psi_some_us) /
				us);
		if (prev->psi_full_ok && cur->psi_full_ok &&
		    cur->psi_full_us >= prev->psi_full_us)
			r->psi_full_pct = fmin(
				100.0, 100.0 *
					       (double)(cur->psi_full_us -
							prev->psi_full_us) /
					       us);
	}
}
