// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading a result document for compare and report: the envelope check,
 * then the adapter of the command that wrote it. The adapters live with
 * their commands; this table is the one place that knows them all, so it
 * sits above them.
 */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include "adapters.h"
#include "../report/json_read.h"
#include "../report/rdoc.h"
#include "../util/err.h"
#include "../util/xmem.h"

static const struct {
	const char *command;
	bool (*fn)(struct rdoc *d, const struct jr_node *root, struct err *err);
} adapters[] = {
	{ "run", adapt_run },	    { "mark", adapt_mark },
	{ "matrix", adapt_matrix }, { "calibrate", adapt_calibrate },
	{ "doctor", adapt_doctor }, { "advise", adapt_advise },
	{ "lab", adapt_lab },	    { "check", adapt_check },
};

/* "runs/before.json" -> "before". */
static char *label_of(const char *path)
{
	char *copy, *base, *dot, *label;

	if (!strcmp(path, "-"))
		return xstrdup("stdin");
	copy = xstrdup(path);
	base = basename(copy);
	dot = strrchr(base, '.');
	if (dot && dot != base && !strcmp(dot, ".json"))
		*dot = 0;
	label = xstrdup(base);
	free(copy);
	return label;
}

/* "2026-12-02T01:31:00Z" as a time, 0 if absent or not that form. */
static time_t doc_time(const char *s)
{
	struct tm tm;
	const char *end;

	if (!s)
		return 0;
	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!end || *end)
		return 0;
	return timegm(&tm);
}

/* Map a checked document with its command's adapter; frees @jd. */
static struct rdoc *rdoc_adapt(struct jr_doc *jd, const char *path,
			       struct err *err)
{
	const char *cmd = jr_command(jd);
	struct rdoc *d;
	struct stat st;

	for (size_t i = 0; i < sizeof(adapters) / sizeof(adapters[0]); i++) {
		if (strcmp(cmd, adapters[i].command))
			continue;
		d = rdoc_new(cmd);
		d->path = xstrdup(path);
		d->label = label_of(path);
		d->tool_version = xstrdup(jr_tool_version(jd));
		/* When the document says when it was written, that: a
		 * copy's mtime is the copy's. */
		d->mtime = doc_time(jr_str(jr_root(jd), "time_utc"));
		if (!d->mtime && strcmp(path, "-") && !stat(path, &st))
			d->mtime = st.st_mtime;
		rdoc_set(d, RS_ENV, "iolab_version", "iolab version",
			 d->tool_version);
		if (!adapters[i].fn(d, jr_root(jd), err)) {
			err_prefix(err, "%s", path);
			rdoc_free(d);
			d = NULL;
		}
		jr_free(jd);
		return d;
	}
	err_set(err, EXIT_ENV, 0,
		"%s: this iolab cannot read '%s' results (it reads run, mark, matrix, calibrate, doctor, advise, lab and check); use the iolab that wrote it",
		path, cmd);
	jr_free(jd);
	return NULL;
}

struct rdoc *rdoc_load(const char *path, struct err *err)
{
	struct jr_doc *jd = jr_load(path, err);

	return jd ? rdoc_adapt(jd, path, err) : NULL;
}

struct rdoc *rdoc_parse(const char *text, const char *name, struct err *err)
{
	struct jr_doc *jd = jr_parse(text, name, err);

	return jd ? rdoc_adapt(jd, name, err) : NULL;
}
