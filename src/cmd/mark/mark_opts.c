// SPDX-License-Identifier: GPL-2.0-or-later
/* Command-line pieces shared by mark and matrix; see mark_opts.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../common.h"
#include "mark_opts.h"
#include "../../util/err.h"
#include "mark_report.h"
#include "../../util/parse.h"

void suite_cli_init(struct suite_cli *c)
{
	memset(c, 0, sizeof(*c));
	mark_spec_defaults(&c->s);
	c->precision_pct = 100 * c->s.precision;
}

/* --runs (CrystalDiskMark's procedure) or --precision/--max-time. */
static bool choose_procedure(struct suite_cli *c, const struct opt_cmd *cmd,
			     const struct opt_state *st, struct err *err)
{
	bool prec = opts_was_set(cmd, st, "precision"),
	     cap = opts_was_set(cmd, st, "max-time");

	if (!opts_was_set(cmd, st, "runs")) {
		c->s.precision = c->precision_pct / 100;
		return true;
	}
	if (prec || cap)
		return err_set(
			err, EXIT_USAGE, 0,
			"--runs fixes the number of runs (CrystalDiskMark's procedure); %s stops when the figure is known: give one or the other",
			prec ? "--precision" : "--max-time");
	mark_spec_set_fixed(&c->s, c->runs);
	return true;
}

static bool parse_only(struct suite_cli *c, struct err *err)
{
	char buf[128], *items[MARK_DIRS + 1];
	int n;

	if (strlen(c->only) >= sizeof(buf))
		return err_set(
			err, EXIT_USAGE, 0,
			"--only takes read, write, mix or a list of them");
	strcpy(buf, c->only);
	n = parse_list(buf, items, MARK_DIRS, err);
	if (n < 0) {
		err_prefix(err, "--only");
		return false;
	}
	memset(c->s.dir, 0, sizeof(c->s.dir));
	for (int i = 0; i < n; i++) {
		int d = parse_choice(items[i], suite_dir_names);

		if (d < 0)
			return err_set(
				err, EXIT_USAGE, 0,
				"--only: '%s' is not a direction; use read, write, mix or a list such as read,write,mix",
				items[i]);
		c->s.dir[d] = true;
	}
	return true;
}

static const char *preset_list(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const struct mark_preset *p = mark_presets; p->name && n < len;
	     p++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      p == mark_presets ? "" : ", ", p->name);
	return buf;
}

bool suite_cli_finish(struct suite_cli *c, const struct opt_cmd *cmd,
		      const struct opt_state *st, const char *default_preset,
		      struct err *err)
{
	struct mark_spec *s = &c->s;
	char list[160];

	if (!choose_procedure(c, cmd, st, err))
		return false;
	if (c->preset && c->tests)
		return err_set(
			err, EXIT_USAGE, 0,
			"--preset and --tests both choose the tests; give one of them");
	if (c->tests) {
		int n = mark_tests_parse(c->tests, s->tests, MARK_MAX_TESTS,
					 err);

		if (n < 0) {
			err_prefix(err, "--tests");
			return false;
		}
		s->ntests = (unsigned int)n;
		s->preset = NULL;
	} else {
		const char *name = c->preset ? c->preset : default_preset;
		const struct mark_preset *p = mark_preset_find(name);

		if (!p)
			return err_set(err, EXIT_USAGE, 0,
				       "--preset '%s' is not one of %s", name,
				       preset_list(list, sizeof(list)));
		mark_spec_set_preset(s, p);
	}
	/* An explicit --time or --interval wins over the preset's. */
	c->time_set = opts_was_set(cmd, st, "time");
	if (c->time_set)
		s->time_ns = c->time_ns;
	if (c->time_set && !opts_was_set(cmd, st, "max-time"))
		mark_spec_fit_cap(s);
	if (opts_was_set(cmd, st, "interval"))
		s->interval_ns = c->interval_ns;
	if (c->only && !parse_only(c, err))
		return false;
	if (opts_was_set(cmd, st, "mix") && !s->dir[MARK_MIX])
		return err_set(
			err, EXIT_USAGE, 0,
			"--mix sets the read share of the mix tests; add them with --only mix or --only read,write,mix");
	if (s->base.flush_every && !s->dir[MARK_WRITE] &&
	    !(s->dir[MARK_MIX] && s->mix_read_pct < 100))
		return err_set(
			err, EXIT_USAGE, 0,
			"--flush-every needs tests that write; use --only write, mix or read,write");
	if (opts_was_set(cmd, st, "time") && !s->time_ns)
		return err_set(err, EXIT_USAGE, 0,
			       "--time must be above 0 (e.g. 5s or 500ms)");
	s->progress = !c->m.no_progress && cli_progress_wanted();
	return true;
}

const char *suite_fmt_eta(uint64_t ns, char *buf, size_t len)
{
	uint64_t s = (ns + 500000000ull) / 1000000000ull;

	if (s >= 3600)
		snprintf(buf, len, "%llu h %02llu min",
			 (unsigned long long)s / 3600,
			 (unsigned long long)(s % 3600) / 60);
	else if (s >= 60)
		snprintf(buf, len, "%llu min %02llu s",
			 (unsigned long long)s / 60,
			 (unsigned long long)s % 60);
	else if (ns >= 1000000000ull || !ns)
		snprintf(buf, len, "%llu s", (unsigned long long)s);
	else
		snprintf(buf, len, "%.1f s", (double)ns / 1e9);
	return buf;
}

const char *suite_fmt_span(uint64_t ns, uint64_t max_ns, char *buf, size_t len)
{
	char a[32], b[32];

	if (max_ns <= ns) {
		snprintf(buf, len, "about %s", suite_fmt_eta(ns, a, sizeof(a)));
		return buf;
	}
	snprintf(buf, len, "%s to %s", suite_fmt_eta(ns, a, sizeof(a)),
		 suite_fmt_eta(max_ns, b, sizeof(b)));
	return buf;
}

void suite_print_estimate(const char *who, const struct suite_cli *c,
			  const char *path, unsigned int ntests,
			  uint64_t total_ns, uint64_t max_ns)
{
	char dirs[32] = "", proc[192], eta[64], sz[32], fill[96] = "";
	struct stat sb;
	size_t n = 0;

	for (int d = 0; d < MARK_DIRS; d++)
		if (c->s.dir[d])
			n += (size_t)snprintf(dirs + n, sizeof(dirs) - n,
					      "%s%s", n ? ", " : "",
					      suite_dir_names[d]);
	if (stat(path, &sb) && errno == ENOENT)
		snprintf(fill, sizeof(fill), ", after writing the %s test file",
			 fmt_size(c->m.size ? c->m.size : 1ull << 30, sz,
				  sizeof(sz)));
	fprintf(stderr, "%s: %u test%s (%s), %s: %s%s\n", who, ntests,
		ntests == 1 ? "" : "s", dirs,
		mark_procedure_text(&c->s, proc, sizeof(proc)),
		suite_fmt_span(total_ns, max_ns, eta, sizeof(eta)), fill);
}
