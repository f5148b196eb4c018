// SPDX-License-Identifier: GPL-2.0-or-later
/* Value parsing and formatting; see parse.h. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "err.h"
#include "parse.h"

/* Split "12.5KiB" into a number and a suffix; false if no number. */
static bool split_number(const char *s, double *num, const char **suffix,
			 bool *fraction)
{
	const char *p = s;
	char *end;

	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p) && *p != '.')
		return false;
	errno = 0;
	*num = strtod(p, &end);
	if (errno || end == p || !isfinite(*num))
		return false;
	*fraction = memchr(p, '.', (size_t)(end - p)) != NULL;
	while (isspace((unsigned char)*end))
		end++;
	*suffix = end;
	return true;
}

struct unit {
	const char *name;
	double mult;
};

static const struct unit size_units[] = {
	{ "", 1 },
	{ "b", 1 },
	{ "B", 1 },
	{ "k", 1024.0 },
	{ "K", 1024.0 },
	{ "KiB", 1024.0 },
	{ "kiB", 1024.0 },
	{ "m", 1048576.0 },
	{ "M", 1048576.0 },
	{ "MiB", 1048576.0 },
	{ "g", 1073741824.0 },
	{ "G", 1073741824.0 },
	{ "GiB", 1073741824.0 },
	{ "t", 1099511627776.0 },
	{ "T", 1099511627776.0 },
	{ "TiB", 1099511627776.0 },
	{ "kB", 1e3 },
	{ "KB", 1e3 },
	{ "MB", 1e6 },
	{ "GB", 1e9 },
	{ "TB", 1e12 },
	{ NULL, 0 },
};

bool parse_size(const char *s, uint64_t *out, struct err *err)
{
	const char *suffix;
	bool fraction;
	double num, v;

	if (!s || !split_number(s, &num, &suffix, &fraction))
		return err_set(
			err, EXIT_USAGE, 0,
			"'%s' is not a size; use e.g. 4k, 4KiB, 1M, 1g or plain bytes",
			s ? s : "");
	for (const struct unit *u = size_units; u->name; u++) {
		if (strcmp(suffix, u->name))
			continue;
		v = num * u->mult;
		if (v >= 18446744073709551615.0)
			return err_set(err, EXIT_USAGE, ERANGE,
				       "'%s' is too large", s);
		if (v != floor(v))
			return err_set(err, EXIT_USAGE, 0,
				       "'%s' is not a whole number of bytes",
				       s);
		*out = (uint64_t)v;
		return true;
	}
	return err_set(
		err, EXIT_USAGE, 0,
		"'%s' has an unknown size suffix '%s'; use k/KiB, M/MiB, G/GiB, T/TiB (1024) or kB, MB, GB (1000)",
		s, suffix);
}

static const struct unit time_units[] = {
	{ "", 1e9 },	 { "s", 1e9 },	  { "sec", 1e9 },  { "ms", 1e6 },
	{ "msec", 1e6 }, { "us", 1e3 },	  { "usec", 1e3 }, { "ns", 1 },
	{ "m", 60e9 },	 { "min", 60e9 }, { "h", 3600e9 }, { NULL, 0 },
};

bool parse_duration(const char *s, uint64_t *out_ns, struct err *err)
{
	const char *suffix;
	bool fraction;
	double num, v;

	if (!s || !split_number(s, &num, &suffix, &fraction))
		return err_set(
			err, EXIT_USAGE, 0,
			"'%s' is not a duration; use e.g. 500ms, 5s, 2m or plain seconds",
			s ? s : "");
	for (const struct unit *u = time_units; u->name; u++) {
		if (strcmp(suffix, u->name))
			continue;
		v = num * u->mult;
		if (v > 1e18)
			return err_set(err, EXIT_USAGE, ERANGE,
				       "'%s' is too long", s);
		*out_ns = (uint64_t)llround(v);
		return true;
	}
	return err_set(
		err, EXIT_USAGE, 0,
		"'%s' has an unknown time unit '%s'; use ns, us, ms, s, m or h",
		s, suffix);
}

bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
	       struct err *err)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return err_set(err, EXIT_USAGE, 0, "'%s' is not a whole number",
			       s ? s : "");
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return err_set(err, EXIT_USAGE, 0, "'%s' is not a whole number",
			       s);
	if (v < min || v > max)
		return err_set(err, EXIT_USAGE, 0,
			       "%llu is out of range; use %llu to %llu", v,
			       (unsigned long long)min,
			       (unsigned long long)max);
	*out = v;
	return true;
}

bool parse_double(const char *s, double min, double max, double *out,
		  struct err *err)
{
	const char *suffix;
	bool fraction;
	double v;

	if (!s || !split_number(s, &v, &suffix, &fraction) || *suffix)
		return err_set(err, EXIT_USAGE, 0, "'%s' is not a number",
			       s ? s : "");
	if (v < min || v > max)
		return err_set(err, EXIT_USAGE, 0,
			       "%g is out of range; use %g to %g", v, min, max);
	*out = v;
	return true;
}

/* A CPU number at *p, below PARSE_MAX_CPU; advances *p. */
static bool take_cpu(const char **p, const char *list, long *out,
		     struct err *err)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)**p))
		return err_set(
			err, EXIT_USAGE, 0,
			"'%s' is not a CPU list; write it as 0-3,6 (numbers and ranges)",
			list);
	errno = 0;
	v = strtoul(*p, &end, 10);
	if (errno || v >= PARSE_MAX_CPU)
		return err_set(
			err, EXIT_USAGE, 0,
			"CPU %.*s in '%s' is above the highest CPU number, %d",
			(int)(end - *p), *p, list, PARSE_MAX_CPU - 1);
	*p = end;
	*out = (long)v;
	return true;
}

int parse_cpu_list(const char *s, int *cpus, int max, struct err *err)
{
	const char *p = s;
	int n = 0;

	if (!*p) {
		err_set(err, EXIT_USAGE, 0,
			"the CPU list is empty; write it as 0-3,6");
		return -1;
	}
	while (*p) {
		long a, b;

		if (!take_cpu(&p, s, &a, err))
			return -1;
		b = a;
		if (*p == '-') {
			p++;
			if (!take_cpu(&p, s, &b, err))
				return -1;
			if (b < a) {
				err_set(err, EXIT_USAGE, 0,
					"the range %ld-%ld in '%s' runs backwards",
					a, b, s);
				return -1;
			}
		}
		for (long c = a; c <= b; c++) {
			if (n == max) {
				err_set(err, EXIT_USAGE, 0,
					"'%s' names more than %d CPUs", s, max);
				return -1;
			}
			cpus[n++] = (int)c;
		}
		if (*p == ',' && p[1])
			p++;
		else if (*p) {
			err_set(err, EXIT_USAGE, 0,
				"'%s' is not a CPU list; write it as 0-3,6 (numbers and ranges)",
				s);
			return -1;
		}
	}
	return n;
}

const char *fmt_cpu_list(const bool *set, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int c = 0; c < PARSE_MAX_CPU; c++) {
		int e = c;

		if (!set[c])
			continue;
		while (e + 1 < PARSE_MAX_CPU && set[e + 1])
			e++;
		if (used < len && e > c)
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%d-%d", used ? "," : "", c,
						 e);
		else if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%d",
						 used ? "," : "", c);
		c = e;
	}
	return buf;
}

int parse_list(char *s, char **items, int max, struct err *err)
{
	int n = 0;
	char *p = s, *comma;

	for (;;) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (!*p) {
			err_set(err, EXIT_USAGE, 0,
				"empty item in a comma-separated list");
			return -1;
		}
		if (n == max) {
			err_set(err, EXIT_USAGE, 0,
				"too many items in the list (at most %d)", max);
			return -1;
		}
		items[n++] = p;
		if (!comma)
			return n;
		p = comma + 1;
	}
}

int parse_choice(const char *s, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

const char *fmt_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B",   "KiB", "MiB",
					     "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024.0 && u < 5) {
		v /= 1024.0;
		u++;
	}
	if (u == 0 || v == floor(v))
		snprintf(buf, len, "%.0f %s", v, units[u]);
	else
		snprintf(buf, len, "%.2f %s", v, units[u]);
	return buf;
}

const char *fmt_size_token(uint64_t bytes, char *buf, size_t len)
{
	static const char *const sfx[] = { "", "k", "M", "G", "T" };
	int u = 0;

	while (bytes && bytes % 1024 == 0 && u < 4) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu%s", (unsigned long long)bytes, sfx[u]);
	return buf;
}

const char *fmt_ns(double ns, char *buf, size_t len)
{
	if (ns < 1e3)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 1e4)
		snprintf(buf, len, "%.2f us", ns / 1e3);
	else if (ns < 1e6)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1e7)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else if (ns < 1e9)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
	return buf;
}

const char *fmt_duration(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 120000000000ull && ns % 60000000000ull == 0)
		snprintf(buf, len, "%llu min",
			 (unsigned long long)(ns / 60000000000ull));
	else if (ns >= 1000000000ull)
		snprintf(buf, len, "%g s", (double)ns / 1e9);
	else
		snprintf(buf, len, "%g ms", (double)ns / 1e6);
	return buf;
}
