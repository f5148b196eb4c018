// SPDX-License-Identifier: GPL-2.0-or-later
/* The measuring commands' one path from flags to exit code; see measure.h. */

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "common.h"
#include "measure.h"
#include "../util/err.h"
#include "../util/sig.h"

static enum measure_format format_of(const struct measure_flags *f)
{
	return f->json ? MEASURE_JSON : f->csv ? MEASURE_CSV : MEASURE_TEXT;
}

/* A directory as TARGET: iolab's own test file inside it. */
static bool dir_target(struct measure *m, struct err *err)
{
	struct stat st;
	size_t n;

	if (!m->st.npositional || stat(m->req.path, &st) ||
	    !S_ISDIR(st.st_mode))
		return true;
	n = strlen(m->req.path);
	while (n > 1 && m->req.path[n - 1] == '/')
		n--;
	if ((size_t)snprintf(m->dir_target, sizeof(m->dir_target), "%.*s/%s",
			     (int)n, m->req.path,
			     CLI_DEFAULT_TARGET) >= sizeof(m->dir_target))
		return err_set(err, EXIT_USAGE, 0,
			       "the directory %.200s... is too long a path",
			       m->req.path);
	m->req.path = m->dir_target;
	return true;
}

int measure_main(const struct measure_cmd *cmd, void *self, void *opts,
		 struct measure_flags *flags, int argc, char **argv)
{
	struct measure m = {
		.self = self,
		.opts = cmd->opts,
		/* The report echoes the whole line, "iolab" included. */
		.argc = argc + 1,
		.argv = argv - 1,
	};
	struct err err = { 0 };
	FILE *out = NULL;
	int rc = EXIT_OK, prc;
	bool prepared = false, complete = false;

	prc = opts_parse(cmd->opts, argc, argv, opts, &m.st, &err);
	if (prc != OPTS_OK) {
		opts_state_free(&m.st);
		return prc == OPTS_HELP ? EXIT_OK : err_report(&err);
	}
	if (flags->json && flags->csv) {
		err_set(&err, EXIT_USAGE, 0,
			"--json and --csv exclude each other; choose one");
		goto out;
	}
	m.req.path = m.st.npositional ? m.st.positional[0] : CLI_DEFAULT_TARGET;
	if (!dir_target(&m, &err))
		goto out;
	m.req.size = flags->size;
	m.req.create_size = 1ull << 30;
	m.req.offset = flags->offset;
	m.req.allow_write_file = flags->allow_write_file;
	m.req.allow_write_device = flags->allow_write_device;
	m.req.keep = flags->keep;
	m.req.progress = !flags->no_progress && cli_progress_wanted();
	/* Before the report file or the test file exists. */
	if (!cmd->prepare(&m, &err))
		goto out;

	out = cli_open_output(flags->output, m.req.path, &err);
	if (!out)
		goto out;
	sig_install();
	prepared = true;
	if (cmd->announce)
		cmd->announce(&m);
	if (!target_prepare(&m.t, &m.req, &m.warnings, &err))
		goto out;
	if (!cmd->run(&m, &err))
		goto out;
	if (!cmd->render[format_of(flags)](&m, out, &err))
		rc = err_report(&err);
	complete = rc == EXIT_OK;
	rc = cmd->status(&m, rc);
	cmd->done(&m);
out:
	rc = cli_finish(rc, &err, prepared ? &m.t : NULL, out, complete);
	warnings_free(&m.warnings);
	opts_state_free(&m.st);
	return rc;
}
