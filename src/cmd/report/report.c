// SPDX-License-Identifier: GPL-2.0-or-later
/* `iolab report`: its flags, and the driver from files to an HTML page. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../commands.h"
#include "../common.h"
#include "../docs.h"
#include "../opts.h"
#include "../../report/html/html.h"
#include "../../report/rdoc.h"
#include "../../util/err.h"
#include "../../util/term.h"

#define REPORT_MAX_DOCS 64

struct report_opts {
	const char *output, *title, *labels;
	double threshold_pct;
};

#define OFF(f) offsetof(struct report_opts, f)

static const struct opt report_table[] = {
	{ .kind = OPT_GROUP, .name = "", .help = "Report" },
	{ "output", 'o', OPT_STRING, "FILE", OFF(output),
	  "write the page to FILE, e.g. report.html (never one of the inputs)" },
	{ "title", 0, OPT_STRING, "TEXT", OFF(title),
	  "the page's title (default: iolab report)" },
	{ "labels", 0, OPT_STRING, "A,B,...", OFF(labels),
	  "names for the inputs (default: their file names without .json)" },
	{ "threshold", 0, OPT_DOUBLE, "PCT", OFF(threshold_pct),
	  "in compare views, changes within PCT percent are the same (default 5)",
	  NULL, 0, 1000 },
	{ .kind = OPT_GROUP },
};

static const struct opt_cmd report_cmd = {
	.name = "report",
	.synopsis = "iolab report [OPTIONS] RESULT.json ... -o report.html",
	.summary =
		"Write one self-contained HTML page (no scripts, fonts or network) with\n"
		"charts of the results given, written by any iolab command with --json:\n"
		"a section per result, and a compare view for every command given more\n"
		"than once (the first of them is the baseline).",
	.opts = report_table,
	.footer =
		"A result may be '-' for standard input. Without -o the page goes to\n"
		"standard output, unless that is a terminal.\n"
		"Exit: 0 ok, 1 usage (bad flags, not iolab JSON), 2 an input that cannot\n"
		"be read or was written by a newer iolab (schema_version), or the page\n"
		"cannot be written.\n",
	.max_positional = REPORT_MAX_DOCS,
};

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .threshold_pct = 5 };
	struct rdoc *docs[REPORT_MAX_DOCS] = { 0 };
	struct opt_state st;
	struct err err = { 0 };
	FILE *out = NULL;
	int rc = EXIT_OK, prc, n = 0;
	bool complete = false;

	prc = opts_parse(&report_cmd, argc, argv, &o, &st, &err);
	if (prc != OPTS_OK) {
		opts_state_free(&st);
		return prc == OPTS_HELP ? EXIT_OK : err_report(&err);
	}
	if (!st.npositional) {
		err_set(&err, EXIT_USAGE, 0,
			"report needs at least one result, e.g. 'iolab report run.json -o report.html'");
		goto out;
	}
	if ((!o.output || !strcmp(o.output, "-")) && isatty(STDOUT_FILENO)) {
		err_set(&err, EXIT_USAGE, 0,
			"the report is an HTML page: give -o report.html (or redirect standard output)");
		goto out;
	}
	if (!cli_output_not_input(o.output, st.positional, st.npositional,
				  &err))
		goto out;
	if (!cli_load_docs(st.positional, st.npositional, o.labels, docs, &err))
		goto out;
	n = st.npositional;
	out = cli_open_output(o.output, NULL, &err);
	if (!out)
		goto out;
	{
		struct html_opts ho = {
			.title = o.title,
			.threshold = o.threshold_pct / 100,
			.now = time(NULL),
		};

		if (!html_write(docs, (size_t)n, &ho, out, &err))
			goto out;
	}
	complete = true;
out:
	if (out && !cli_close_output(out, complete, &err) && rc == EXIT_OK)
		rc = err_report(&err);
	else if (out && !err.msg[0] && o.output && strcmp(o.output, "-"))
		fprintf(stderr, "iolab: wrote %s (%d result%s)\n",
			term_safe(o.output), n, n == 1 ? "" : "s");
	if (err.msg[0] && rc == EXIT_OK)
		rc = err_report(&err);
	cli_free_docs(docs, n);
	opts_state_free(&st);
	return rc;
}
