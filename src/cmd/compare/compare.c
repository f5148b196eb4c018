// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab compare`: its flags, and the driver from files to a comparison. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "../commands.h"
#include "../common.h"
#include "../docs.h"
#include "../opts.h"
#include "../../report/compare.h"
#include "../../util/err.h"

struct compare_opts {
	bool json, csv;
	const char *output, *labels;
	double threshold_pct;
	int color;
};

#define OFF(f) offsetof(struct compare_opts, f)

static const struct opt compare_table[] = {
	{ .kind = OPT_GROUP, .name = "", .help = "Comparison" },
	{ "threshold", 0, OPT_DOUBLE, "PCT", OFF(threshold_pct),
	  "changes within PCT percent are the same; larger ones are tested against the noise (default 5)",
	  NULL, 0, 1000 },
	{ "labels", 0, OPT_STRING, "A,B,...", OFF(labels),
	  "names for the inputs (default: their file names without .json)" },
	{ .kind = OPT_GROUP, .name = "", .help = "Output" },
	{ "json", 0, OPT_FLAG, NULL, OFF(json), "JSON on stdout" },
	{ "csv", 0, OPT_FLAG, NULL, OFF(csv),
	  "CSV on stdout: one line per figure, for spreadsheets" },
	{ "output", 'o', OPT_STRING, "FILE", OFF(output),
	  "write to FILE instead of stdout (never one of the inputs)" },
	{ "color", 0, OPT_ENUM, "WHEN", OFF(color),
	  "auto|always|never: colour better/worse (default auto: a terminal without NO_COLOR)",
	  cli_color_names },
	{ .kind = OPT_GROUP },
};

static const struct opt_cmd compare_cmd = {
	.name = "compare",
	.synopsis = "iolab compare [OPTIONS] A.json B.json [C.json ...]",
	.summary =
		"Compare results of one command (run, mark, matrix, calibrate, doctor,\n"
		"advise, lab, check), written with --json: every figure side by side\n"
		"with its ratio to A and the spread of that ratio, and the settings that\n"
		"differ. Beyond --threshold a change is better or worse only when Welch's\n"
		"t-test on the figure's per-run values (else the per-second values of its\n"
		"one run) finds it at the 5 % level; else within noise, with the runs a\n"
		"test would need to tell, or no spread known when there are no such values.",
	.opts = compare_table,
	.footer =
		"A file may be '-' for standard input.\n"
		"Exit: 0 ok, 1 usage (bad flags, not iolab JSON, mixed commands), 2 an input\n"
		"that cannot be read or was written by a newer iolab (schema_version).\n",
	.max_positional = CMP_MAX_DOCS,
};

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { .threshold_pct = 5 };
	struct rdoc *docs[CMP_MAX_DOCS] = { 0 };
	struct cmp c = { 0 };
	struct opt_state st;
	struct err err = { 0 };
	FILE *out = NULL;
	int rc = EXIT_OK, prc, n = 0;
	bool complete = false;

	prc = opts_parse(&compare_cmd, argc, argv, &o, &st, &err);
	if (prc != OPTS_OK) {
		opts_state_free(&st);
		return prc == OPTS_HELP ? EXIT_OK : err_report(&err);
	}
	if (o.json && o.csv) {
		err_set(&err, EXIT_USAGE, 0,
			"--json and --csv exclude each other; choose one");
		goto out;
	}
	if (st.npositional < 2) {
		err_set(&err, EXIT_USAGE, 0,
			"compare needs at least two results, e.g. 'iolab compare before.json after.json'");
		goto out;
	}
	if (!cli_output_not_input(o.output, st.positional, st.npositional,
				  &err))
		goto out;
	if (!cli_load_docs(st.positional, st.npositional, o.labels, docs, &err))
		goto out;
	n = st.npositional;
	if (!cmp_build(&c, docs, (size_t)n, o.threshold_pct / 100, &err))
		goto out;
	out = cli_open_output(o.output, NULL, &err);
	if (!out)
		goto out;
	if (o.json) {
		if (!cmp_json_write(&c, argc + 1, argv - 1, out, &err))
			goto out;
	} else if (o.csv) {
		if (!cmp_csv_write(&c, out, &err))
			goto out;
	} else {
		struct cmp_text_opts to = {
			.color = cli_color_wanted(o.color, fileno(out)),
		};

		cmp_text_print(&c, &to, out);
	}
	complete = true;
out:
	if (out && !cli_close_output(out, complete, &err) && rc == EXIT_OK)
		rc = err_report(&err);
	if (err.msg[0] && rc == EXIT_OK)
		rc = err_report(&err);
	cmp_free(&c);
	cli_free_docs(docs, n);
	opts_state_free(&st);
	return rc;
}
