// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --from FILE: a saved `iolab calibrate --json` or `iolab mark --json` as
 * gauges, for the same textfile collector the probe feeds. The file is
 * read with the bounded reader compare and report use (size, NUL bytes,
 * the envelope and schema checked there), so a hostile or foreign file is
 * refused before anything is printed; the test names and target it holds
 * become label values only through prom_label_value(). Base units as in
 * the probe's own families: MB/s become bytes per second, ms seconds.
 * iolab's documents carry no wall-clock time, so no timestamp gauge is
 * made up: Prometheus stamps the scrape.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe_impl.h"
#include "../../report/json_read.h"
#include "../../util/err.h"

static const char *target_of(const struct jr_node *root)
{
	const char *t = jr_str(root, "options.target");

	return t ? t : "";
}

static void sample(FILE *f, const char *name, const char *target,
		   const char *test, const char *dir, const char *stat,
		   double v)
{
	fprintf(f, "%s{target=", name);
	prom_label_value(f, target);
	if (test) {
		fputs(",test=", f);
		prom_label_value(f, test);
	}
	if (dir)
		fprintf(f, ",dir=\"%s\"", dir);
	if (stat)
		fprintf(f, ",stat=\"%s\"", stat);
	fprintf(f, "} %.15g\n", v); /* what the JSON held, no binary noise */
}

static bool render_calibrate(FILE *f, const struct jr_node *root,
			     struct err *err)
{
	const char *target = target_of(root);
	const char *stat = jr_str(root, "options.latency_stat");
	double iops, lat_ms, mbps;
	bool cap;

	if (!jr_num(root, "max_iops", &iops) ||
	    !jr_num(root, "actual_latency_ms", &lat_ms))
		return err_set(
			err, EXIT_USAGE, 0,
			"it holds no max_iops and actual_latency_ms: not a finished calibrate result");
	if (!stat || (strcmp(stat, "mean") && strcmp(stat, "p99")))
		stat = "mean";
	prom_family(
		f, "iolab_calibrate_max_iops", "gauge",
		"The highest random-read rate (I/O per second, at its --bs) iolab calibrate measured within its latency cap.");
	sample(f, "iolab_calibrate_max_iops", target, NULL, NULL, NULL, iops);
	prom_family(
		f, "iolab_calibrate_latency_seconds", "gauge",
		"The latency (stat: mean or p99, as calibrated) at iolab calibrate's max_iops.");
	sample(f, "iolab_calibrate_latency_seconds", target, NULL, NULL, stat,
	       lat_ms / 1e3);
	if (jr_num(root, "max_mbps", &mbps)) {
		prom_family(
			f, "iolab_calibrate_max_bytes_per_second", "gauge",
			"The highest 1 MiB random-read throughput iolab calibrate measured.");
		sample(f, "iolab_calibrate_max_bytes_per_second", target, NULL,
		       NULL, NULL, mbps * 1e6);
	}
	if (jr_bool(root, "cap_met", &cap)) {
		prom_family(
			f, "iolab_calibrate_cap_met", "gauge",
			"Whether max_iops was found within the latency cap (1) or the cap was never met (0).");
		sample(f, "iolab_calibrate_cap_met", target, NULL, NULL, NULL,
		       cap ? 1 : 0);
	}
	return true;
}

/* One mark family: @key ("mbps", "iops") per test, direction and stat. */
static size_t mark_family(FILE *f, const struct jr_node *tests,
			  const char *target, const char *name, const char *key,
			  double scale, const char *help)
{
	static const char *const dirs[] = { "read", "write" };
	static const char *const stats[] = { "max", "mean", "min" };
	size_t n = 0;

	prom_family(f, name, "gauge", help);
	for (size_t i = 0; i < jr_len(tests); i++) {
		const struct jr_node *t = jr_at(tests, i);
		const char *test = jr_str(t, "name");

		if (!test)
			continue;
		for (size_t d = 0; d < 2; d++) {
			const struct jr_node *m =
				jr_get(jr_get(t, dirs[d]), key);

			for (size_t s = 0; m && s < 3; s++) {
				double v;

				if (!jr_num(m, stats[s], &v) || !isfinite(v))
					continue;
				sample(f, name, target, test, dirs[d], stats[s],
				       v * scale);
				n++;
			}
		}
	}
	return n;
}

static bool render_mark(FILE *f, const struct jr_node *root, struct err *err)
{
	const struct jr_node *tests = jr_get(root, "tests");
	const char *target = target_of(root);
	size_t n;

	if (!jr_is_array(tests) || !jr_len(tests))
		return err_set(err, EXIT_USAGE, 0,
			       "it holds no tests: not a finished mark result");
	n = mark_family(
		f, tests, target, "iolab_mark_bytes_per_second", "mbps", 1e6,
		"iolab mark's throughput of a test (dir: read or write) over its scored runs (stat: max, mean, min).");
	n += mark_family(
		f, tests, target, "iolab_mark_iops", "iops", 1,
		"iolab mark's I/O per second of a test (dir: read or write) over its scored runs (stat: max, mean, min).");
	if (!n)
		return err_set(
			err, EXIT_USAGE, 0,
			"its tests hold no scored runs: nothing to turn into gauges");
	return true;
}

/*
 * Everything is rendered into a memory stream first: a document refused
 * half way leaves neither stdout nor the textfile with a partial family.
 */
char *probe_from_render(const char *path, size_t *len, struct err *err)
{
	struct jr_doc *d = jr_load(path, err);
	char *buf = NULL;
	const char *cmd;
	FILE *f;
	bool ok;

	if (!d)
		return NULL;
	cmd = jr_command(d);
	f = open_memstream(&buf, len);
	if (!f) {
		jr_free(d);
		err_set(err, EXIT_IO, 0, "out of memory");
		return NULL;
	}
	if (!strcmp(cmd, "calibrate"))
		ok = render_calibrate(f, jr_root(d), err);
	else if (!strcmp(cmd, "mark"))
		ok = render_mark(f, jr_root(d), err);
	else
		ok = err_set(
			err, EXIT_USAGE, 0,
			"it is an iolab %s document; --from turns only calibrate and mark results into gauges",
			cmd);
	if (ok) {
		prom_family(
			f, "iolab_result_info", "gauge",
			"Always 1: the iolab command and version that wrote the result file the gauges come from.");
		fprintf(f, "iolab_result_info{command=\"%s\",version=", cmd);
		prom_label_value(f, jr_tool_version(d));
		fputs("} 1\n", f);
	}
	fclose(f);
	if (!ok) {
		char m[sizeof(err->msg)];

		/* The reader's own refusals name the file; these do too. */
		snprintf(m, sizeof(m), "--from %s: %s", jr_name(d), err->msg);
		snprintf(err->msg, sizeof(err->msg), "%s", m);
		free(buf);
		buf = NULL;
	}
	jr_free(d);
	return buf;
}
