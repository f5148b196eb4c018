// SPDX-License-Identifier: GPL-2.0-or-later
/* Table-driven option parsing and --help; see opts.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "opts.h"
#include "opts_alias.h"
#include "../util/err.h"
#include "../util/parse.h"
#include "../util/xmem.h"

static bool opt_is_end(const struct opt *o)
{
	return o->kind == OPT_GROUP && !o->name && !o->help;
}

static int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int prev[64], cur[64];

	if (la >= 63 || lb >= 63)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			int del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = sub < del ? (sub < ins ? sub : ins) :
					     (del < ins ? del : ins);
		}
		memcpy(prev, cur, sizeof(int) * (lb + 1));
	}
	return prev[lb];
}

static const struct opt *find_long(const struct opt_cmd *cmd, const char *name,
				   size_t len, int *idx);

static const char *closest(const struct opt_cmd *cmd, const char *name)
{
	const char *best = NULL;
	int bestd = 3;

	for (const struct opt *o = cmd->opts; !opt_is_end(o); o++) {
		int d;

		if (o->kind == OPT_GROUP)
			continue;
		d = edit_distance(name, o->name);
		/* "--qdepth" for "--qd", "--run" for "--runtime" */
		if (d >= 3 && strlen(o->name) >= 2 &&
		    (!strncmp(name, o->name, strlen(o->name)) ||
		     !strncmp(o->name, name, strlen(name))))
			d = 2;
		if (d < bestd) {
			bestd = d;
			best = o->name;
		}
	}
	/* "--iodeph": fio's word misspelt, answered with ours. */
	for (const struct opt_alias *a = opt_aliases; a->alias; a++) {
		int d = edit_distance(name, a->alias), i;

		if (d < bestd && find_long(cmd, a->name, strlen(a->name), &i)) {
			bestd = d;
			best = a->name;
		}
	}
	return best;
}

static bool opt_store(const struct opt *o, const char *val, void *out,
		      struct err *err)
{
	char *field = (char *)out + o->off;
	uint64_t u;
	double d;
	int c;

	switch (o->kind) {
	case OPT_FLAG:
		*(bool *)field = true;
		return true;
	case OPT_SIZE:
		if (!parse_size(val, &u, err))
			return false;
		*(uint64_t *)field = u;
		return true;
	case OPT_DURATION:
		if (!parse_duration(val, &u, err))
			return false;
		*(uint64_t *)field = u;
		return true;
	case OPT_U64:
	case OPT_UINT:
		if (!parse_u64(val, (uint64_t)o->min, (uint64_t)o->max, &u,
			       err))
			return false;
		if (o->kind == OPT_U64)
			*(uint64_t *)field = u;
		else
			*(unsigned int *)field = (unsigned int)u;
		return true;
	case OPT_DOUBLE:
		if (!parse_double(val, o->min, o->max, &d, err))
			return false;
		*(double *)field = d;
		return true;
	case OPT_STRING:
		*(const char **)field = val;
		return true;
	case OPT_ENUM:
		c = parse_choice(val, o->choices);
		if (c < 0) {
			char list[256] = "";

			for (int i = 0; o->choices[i]; i++) {
				strncat(list, i ? ", " : "",
					sizeof(list) - strlen(list) - 1);
				strncat(list, o->choices[i],
					sizeof(list) - strlen(list) - 1);
			}
			return err_set(err, EXIT_USAGE, 0,
				       "'%s' is not one of %s", val, list);
		}
		*(int *)field = c;
		return true;
	case OPT_CALL:
		return o->call(out, val, err);
	case OPT_GROUP:
		break;
	}
	return err_set(err, EXIT_USAGE, 0, "internal: bad option kind");
}

static const struct opt *find_long(const struct opt_cmd *cmd, const char *name,
				   size_t len, int *idx)
{
	int i = 0;

	for (const struct opt *o = cmd->opts; !opt_is_end(o); o++, i++) {
		if (o->kind == OPT_GROUP)
			continue;
		if (strlen(o->name) == len && !strncmp(o->name, name, len)) {
			*idx = i;
			return o;
		}
	}
	return NULL;
}

static const struct opt *find_short(const struct opt_cmd *cmd, char key,
				    int *idx)
{
	int i = 0;

	for (const struct opt *o = cmd->opts; !opt_is_end(o); o++, i++) {
		if (o->kind != OPT_GROUP && o->key == key) {
			*idx = i;
			return o;
		}
	}
	return NULL;
}

/*
 * A unit word standing alone: "--runtime 10 sec" means 10 seconds to the
 * user, but the shell split it and "sec" would become the test file.
 */
static bool is_unit_word(const char *a)
{
	static const char *const units[] = {
		"s",  "sec",  "secs",  "second", "seconds", "ms",     "msec",
		"us", "usec", "ns",    "min",	 "mins",    "minute", "minutes",
		"h",  "hour", "hours", "b",	 "k",	    "kb",     "kib",
		"m",  "mb",   "mib",   "g",	 "gb",	    "gib",    "t",
		"tb", "tib",  "iops",  "%",
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(a, units[i]))
			return true;
	return false;
}

static bool ends_in_digit(const char *v)
{
	size_t n = strlen(v);

	return n && v[n - 1] >= '0' && v[n - 1] <= '9';
}

int opts_parse(const struct opt_cmd *cmd, int argc, char **argv, void *out,
	       struct opt_state *st, struct err *err)
{
	bool only_operands = false;
	int value_at = 0; /* argv index of the last option's separate value */

	memset(st, 0, sizeof(*st));
	st->positional = xcalloc((size_t)argc + 1, sizeof(char *));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL, *eq;
		const struct opt_alias *alias;
		const struct opt *o;
		char shown[80];
		int idx = 0;

		if (only_operands || a[0] != '-' || !a[1]) {
			if (!only_operands && value_at && i == value_at + 1 &&
			    ends_in_digit(argv[value_at]) && is_unit_word(a)) {
				err_set(err, EXIT_USAGE, 0,
					"'%s' after '%s %s' reads as a unit, not an operand; write '%s %s%s' (or './%s' for a file of that name)",
					a, argv[value_at - 1], argv[value_at],
					argv[value_at - 1], argv[value_at], a,
					a);
				return OPTS_ERROR;
			}
			if (st->npositional >= cmd->max_positional) {
				err_set(err, EXIT_USAGE, 0,
					cmd->max_positional ?
						"unexpected extra operand '%s'; 'iolab %s' takes at most %d" :
						"unexpected operand '%s'; 'iolab %s' takes none%.0d",
					a, cmd->name, cmd->max_positional);
				return OPTS_ERROR;
			}
			st->positional[st->npositional++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			only_operands = true;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			opts_help(cmd, stdout);
			return OPTS_HELP;
		}
		alias = NULL;
		if (a[1] == '-') {
			const char *name = a + 2;
			size_t len;

			eq = strchr(name, '=');
			len = eq ? (size_t)(eq - name) : strlen(name);
			o = find_long(cmd, name, len, &idx);
			/* fio's spelling, or another command's. */
			if (!o && (alias = opt_alias_find(name, len)))
				o = find_long(cmd, alias->name,
					      strlen(alias->name), &idx);
			if (!o) {
				char base[64];
				const char *near;

				snprintf(base, sizeof(base), "%.*s",
					 eq ? (int)(eq - name) :
					      (int)strlen(name),
					 name);
				near = closest(cmd, base);
				if (near)
					err_set(err, EXIT_USAGE, 0,
						"unknown option '--%s' for 'iolab %s'; did you mean '--%s'?",
						base, cmd->name, near);
				else
					err_set(err, EXIT_USAGE, 0,
						"unknown option '--%s' for 'iolab %s'; see 'iolab %s --help'",
						base, cmd->name, cmd->name);
				return OPTS_ERROR;
			}
			if (eq)
				val = eq + 1;
			if (alias)
				snprintf(shown, sizeof(shown), "--%s (--%s)",
					 alias->alias, o->name);
			else
				snprintf(shown, sizeof(shown), "--%s", o->name);
		} else {
			o = find_short(cmd, a[1], &idx);
			if (!o || a[2]) {
				err_set(err, EXIT_USAGE, 0,
					"unknown option '%s' for 'iolab %s'; see 'iolab %s --help'",
					a, cmd->name, cmd->name);
				return OPTS_ERROR;
			}
			snprintf(shown, sizeof(shown), "-%c", o->key);
		}
		if (o->kind == OPT_FLAG) {
			if (val) {
				err_set(err, EXIT_USAGE, 0, "%s takes no value",
					shown);
				return OPTS_ERROR;
			}
		} else if (!val) {
			if (i + 1 >= argc) {
				err_set(err, EXIT_USAGE, 0,
					"%s needs a value (%s)", shown,
					o->arg ? o->arg : "VALUE");
				return OPTS_ERROR;
			}
			val = argv[++i];
			value_at = i;
		}
		if (alias && val && !opt_alias_value(alias, val)) {
			err_set(err, EXIT_USAGE, 0,
				"--%s=%s has no counterpart among the values of --%s; see 'iolab %s --help'",
				alias->alias, val, o->name, cmd->name);
			return OPTS_ERROR;
		}
		if (alias && val)
			val = opt_alias_value(alias, val);
		if (!opt_store(o, val, out, err)) {
			err_prefix(err, "%s", shown);
			return OPTS_ERROR;
		}
		if (idx < OPTS_MAX) {
			st->set[idx] = true;
			st->value[idx] = val;
		}
	}
	return OPTS_OK;
}

bool opts_was_set(const struct opt_cmd *cmd, const struct opt_state *st,
		  const char *name)
{
	int i = 0;

	for (const struct opt *o = cmd->opts; !opt_is_end(o); o++, i++)
		if (o->kind != OPT_GROUP && !strcmp(o->name, name))
			return i < OPTS_MAX && st->set[i];
	return false;
}

void opts_help(const struct opt_cmd *cmd, FILE *f)
{
	fprintf(f, "Usage: %s\n\n%s\n", cmd->synopsis, cmd->summary);
	for (const struct opt *o = cmd->opts; !opt_is_end(o); o++) {
		char left[64];

		if (o->kind == OPT_GROUP) {
			fprintf(f, "\n%s:\n", o->help);
			continue;
		}
		if (o->key)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->key,
				 o->name, o->kind == OPT_FLAG ? "" : " ",
				 o->kind == OPT_FLAG ? "" : o->arg);
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->name,
				 o->kind == OPT_FLAG ? "" : " ",
				 o->kind == OPT_FLAG ? "" : o->arg);
		if (strlen(left) > 26)
			fprintf(f, "  %s\n  %-26s  %s\n", left, "", o->help);
		else
			fprintf(f, "  %-26s  %s\n", left, o->help);
	}
	fprintf(f, "  -h, --help                  show this help\n");
	if (cmd->footer)
		fprintf(f, "\n%s", cmd->footer);
}

void opts_state_free(struct opt_state *st)
{
	free(st->positional);
	st->positional = NULL;
}
