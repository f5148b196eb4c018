// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab mark --json` to the compare/report model, after iolab-mark(1) of
 * the mark branch (mark was not on main yet): "tests":[{"name","pattern",
 * "bs_bytes","qd","threads","read":{"mbps":{"max","mean","min","stddev"},
 * "iops":{...},"lat_ns":{"mean","p99",...},"page_cache_reads","warnings",
 * "runs":[...]},"write":{...},"mix":{...}}]. Tolerates the spec's older
 * spellings (issue 4).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../adapters.h"
#include "mark_figs.h"
#include "../../report/adapt.h"
#include "../../report/json_read.h"
#include "../../core/result.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

void adapt_mark_settings(struct rdoc *d, const struct jr_node *o)
{
	char buf[64];
	double v;

	rdoc_set(d, RS_WORKLOAD, "preset", "preset", jr_str(o, "preset"));
	rdoc_set(d, RS_WORKLOAD, "engine", "engine", jr_str(o, "engine"));
	rdoc_set(d, RS_WORKLOAD, "cache", "cache", jr_str(o, "cache"));
	rdoc_set(d, RS_WORKLOAD, "procedure", "procedure",
		 jr_str(o, "procedure"));
	rdoc_set(d, RS_WORKLOAD, "runs", "runs per test",
		 jr_scalar(o, "runs", buf, sizeof(buf)));
	rdoc_set(d, RS_WORKLOAD, "precision", "precision asked, +-%",
		 jr_scalar(o, "precision_pct", buf, sizeof(buf)));
	if (jr_num(o, "max_time_s", &v)) {
		snprintf(buf, sizeof(buf), "%g s", v);
		rdoc_set(d, RS_WORKLOAD, "max_time", "time per test at most",
			 buf);
	}
	if (jr_num(o, "time_s", &v)) {
		snprintf(buf, sizeof(buf), "%g s", v);
		rdoc_set(d, RS_WORKLOAD, "time", "time per run", buf);
	}
	if (jr_num(o, "interval_s", &v)) {
		snprintf(buf, sizeof(buf), "%g s", v);
		rdoc_set(d, RS_WORKLOAD, "interval", "interval", buf);
	}
	adapt_list_setting(d, o, "directions", "directions", "directions");
	if (adapt_list_has(jr_get(o, "directions"), "mix"))
		rdoc_set(d, RS_WORKLOAD, "mix", "mix read share %",
			 jr_scalar(o, "mix_read_pct", buf, sizeof(buf)));
	if (jr_num(o, "flush_every", &v) && v > 0)
		rdoc_set(d, RS_WORKLOAD, "flush_every", "flush every N writes",
			 jr_scalar(o, "flush_every", buf, sizeof(buf)));
	rdoc_set(d, RS_WORKLOAD, "data", "data written", jr_str(o, "pattern"));
	rdoc_set(d, RS_WORKLOAD, "size", "test size",
		 adapt_size(o, "size_bytes", buf, sizeof(buf)));
}

/* "1 MiB sequential, 8 in flight" from a test's fields. */
static const char *test_subtitle(const struct jr_node *t, char *buf, size_t len)
{
	char bs[32];
	const char *pat = jr_str(t, "pattern");
	const char *name = jr_str(t, "name");
	/* "sequential" (mark's word) or, without a pattern, the SEQ name. */
	bool seq = pat ? !strncmp(pat, "seq", 3) :
			 (name && !strncmp(name, "SEQ", 3));

	if (!adapt_size(t, "bs_bytes", bs, sizeof(bs)))
		return NULL;
	snprintf(buf, len, "%s %s, queue %.0f x %.0f thread%s", bs,
		 seq ? "sequential" : "random", jr_numd(t, "qd", 1),
		 jr_numd(t, "threads", 1),
		 jr_numd(t, "threads", 1) == 1 ? "" : "s");
	return buf;
}

/* "IOPS 1234 · mean 0.81 ms · p99 2.10 ms" */
static const char *dir_note(const struct jr_node *dir, char *buf, size_t len)
{
	char iops[32], mean[32], p99[32];
	int n;

	n = snprintf(buf, len, "%s IOPS, mean %s, p99 %s",
		     rfmt(RU_IOPS, adapt_headline(dir, "iops"), iops,
			  sizeof(iops)),
		     rfmt(RU_NS, adapt_stat(dir, "lat_ns", "mean"), mean,
			  sizeof(mean)),
		     rfmt(RU_NS, adapt_stat(dir, "lat_ns", "p99"), p99,
			  sizeof(p99)));
	if (adapt_page_cache(dir) && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n,
			 "; from the page cache, not the disk");
	return buf;
}

/* The compare figures of a test's direction, keyed under @key_prefix. */
static void mark_dir_figs(struct rdoc *d, const char *key_prefix,
			  const char *group, const struct jr_node *dir)
{
	char key[256];

	for (int k = 0; k < MARK_NFIGS; k++) {
		const struct mark_fig *f = &mark_figs[k];

		if (!f->name)
			continue;
		snprintf(key, sizeof(key), "%s/%s", key_prefix, f->key);
		rdoc_fig(d, key, group, f->name, f->unit, f->better,
			 mark_fig_json(f, dir), f->rflags);
	}
	/* compare's noise: each run's figure, or the one run's seconds. */
	adapt_test_dir_samples(d, key_prefix, dir);
}

/* The report's table: the test, the direction, the figures with a
 * table column. */
static struct rtable *mark_table(struct rdoc *d)
{
	const char *head[2 + MARK_NFIGS] = { "test", "" };
	size_t n = 2;

	for (int k = 0; k < MARK_NFIGS; k++)
		if (mark_figs[k].table)
			head[n++] = mark_figs[k].table;
	return rdoc_table(d, "table", "All figures", n, head);
}

static void mark_table_row(struct rtable *t, const char *name,
			   const char *dir_label, const struct jr_node *dir)
{
	char c[2 + MARK_NFIGS][48];
	const char *row[2 + MARK_NFIGS];
	size_t n = 2;

	snprintf(c[0], 48, "%s", name);
	snprintf(c[1], 48, "%s", dir_label);
	for (int k = 0; k < MARK_NFIGS; k++)
		if (mark_figs[k].table) {
			rfmt(mark_figs[k].unit,
			     mark_fig_json(&mark_figs[k], dir), c[n], 48);
			n++;
		}
	for (size_t i = 0; i < n; i++)
		row[i] = c[i];
	rtable_row(t, row);
}

bool adapt_mark(struct rdoc *d, const struct jr_node *root, struct err *err)
{
	const struct jr_node *tests = jr_get(root, "tests");
	const struct jr_node *o = jr_get(root, "options");
	const struct jr_node *env = jr_get(root, "environment");
	struct rtable *t;
	char title[512], runs[32], tgt[512];
	bool b;

	if (!jr_len(tests))
		return err_set(
			err, EXIT_USAGE, 0,
			"a mark document without \"tests\"; give the output of 'iolab mark --json'");
	adapt_mark_settings(d, o);
	adapt_environment(d, env);
	adapt_warnings(d, jr_get(root, "warnings"));
	if (jr_bool(root, "partial", &b) && b)
		d->partial = true;
	adapt_stopped(d, root);
	snprintf(title, sizeof(title), "%s%s, %s, cache=%s on %s",
		 jr_str(o, "preset") ? "preset " : "",
		 jr_str(o, "preset") ? jr_str(o, "preset") : "custom tests",
		 jr_str(o, "engine") ? jr_str(o, "engine") : "?",
		 jr_str(o, "cache") ? jr_str(o, "cache") : "?",
		 adapt_target(env, tgt, sizeof(tgt)));
	d->title = xstrdup(title);
	if (jr_str(o, "headline") && !strcmp(jr_str(o, "headline"), "mean"))
		snprintf(
			title, sizeof(title),
			"Bars show the mean of each test's runs, run until it was known to +-%s%% (95%% interval); the whisker spans the slowest to the fastest run.",
			jr_scalar(o, "precision_pct", runs, sizeof(runs)) ?
				runs :
				"?");
	else
		snprintf(
			title, sizeof(title),
			"Bars show the best of %s runs, as CrystalDiskMark reports; the whisker spans the slowest to the fastest run and the tick marks the mean.",
			jr_scalar(o, "runs", runs, sizeof(runs)) ? runs :
								   "the");
	d->summary = xstrdup(title);

	for (size_t i = 0; i < jr_len(tests); i++) {
		const struct jr_node *tt = jr_at(tests, i);
		char nbuf[64], sub[96], key[160], group[160], note[160];
		const char *name = adapt_test_name(tt, nbuf, sizeof(nbuf));
		struct rbars *bars = rdoc_bars(d, "tests", name, RU_MBPS);

		if (test_subtitle(tt, sub, sizeof(sub)))
			bars->subtitle = xstrdup(sub);
		for (int k = 0; suite_dir_names[k]; k++) {
			const struct jr_node *dir =
				jr_get(tt, suite_dir_names[k]);

			if (!dir)
				continue;
			rbars_add(bars, suite_dir_labels[k],
				  adapt_headline(dir, "mbps"),
				  adapt_stat(dir, "mbps", "min"),
				  adapt_stat(dir, "mbps", "max"),
				  adapt_stat(dir, "mbps", "mean"),
				  dir_note(dir, note, sizeof(note)), NULL);
			adapt_dir_warnings(d, name, suite_dir_names[k], dir);
			snprintf(key, sizeof(key), "%s/%s", name,
				 suite_dir_names[k]);
			snprintf(group, sizeof(group), "%s %s", name,
				 suite_dir_names[k]);
			mark_dir_figs(d, key, group, dir);
		}
	}
	t = mark_table(d);
	for (size_t i = 0; i < jr_len(tests); i++) {
		const struct jr_node *tt = jr_at(tests, i);
		char nbuf[64];
		const char *name = adapt_test_name(tt, nbuf, sizeof(nbuf));

		for (int k = 0; suite_dir_names[k]; k++)
			if (jr_get(tt, suite_dir_names[k]))
				mark_table_row(t, name, suite_dir_labels[k],
					       jr_get(tt, suite_dir_names[k]));
	}
	return true;
}
