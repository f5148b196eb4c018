// SPDX-License-Identifier: GPL-2.0-or-later
/* Loading compare's and report's inputs; see docs.h. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapters.h"
#include "docs.h"
#include "../report/rdoc.h"
#include "../util/err.h"
#include "../util/xmem.h"

const char *const cli_color_names[] = { "auto", "always", "never", NULL };

bool cli_load_docs(char *const *paths, int n, const char *labels,
		   struct rdoc **docs, struct err *err)
{
	char *copy = labels ? xstrdup(labels) : NULL, *save = NULL;
	char *lab = copy ? strtok_r(copy, ",", &save) : NULL;
	int stdin_uses = 0;

	for (int i = 0; i < n; i++)
		stdin_uses += !strcmp(paths[i], "-");
	if (labels) {
		int k = 1;

		for (const char *p = labels; *p; p++)
			k += *p == ',';
		if (!*labels || strstr(labels, ",,") || labels[0] == ',' ||
		    labels[strlen(labels) - 1] == ',') {
			free(copy);
			return err_set(
				err, EXIT_USAGE, 0,
				"--labels '%s' has an empty name; give one name per input, comma-separated",
				labels);
		}
		if (k != n) {
			free(copy);
			return err_set(
				err, EXIT_USAGE, 0,
				"--labels names %d input%s but %d %s given; give one name per input, comma-separated",
				k, k == 1 ? "" : "s", n, n == 1 ? "is" : "are");
		}
	}
	if (stdin_uses > 1) {
		free(copy);
		return err_set(
			err, EXIT_USAGE, 0,
			"'-' (standard input) given %d times; it can be read once",
			stdin_uses);
	}
	for (int i = 0; i < n; i++) {
		docs[i] = rdoc_load(paths[i], err);
		if (!docs[i]) {
			cli_free_docs(docs, i);
			free(copy);
			return false;
		}
		if (lab) {
			free(docs[i]->label);
			docs[i]->label = xstrdup(lab);
			lab = strtok_r(NULL, ",", &save);
		}
	}
	free(copy);
	return true;
}

void cli_free_docs(struct rdoc **docs, int n)
{
	for (int i = 0; i < n; i++) {
		rdoc_free(docs[i]);
		docs[i] = NULL;
	}
}

bool cli_output_not_input(const char *out, char *const *paths, int n,
			  struct err *err)
{
	struct stat a, b;

	if (!out || !strcmp(out, "-") || stat(out, &a))
		return true;
	for (int i = 0; i < n; i++)
		if (strcmp(paths[i], "-") && !stat(paths[i], &b) &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return err_set(
				err, EXIT_USAGE, 0,
				"--output %s is the input %s; choose another file (iolab never overwrites its inputs)",
				out, paths[i]);
	return true;
}

bool cli_color_wanted(int mode, int fd)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

	if (mode == 1)
		return true;
	if (mode == 2)
		return false;
	/* https://no-color.org: set and not empty means no colour. */
	if (nc && *nc)
		return false;
	if (term && !strcmp(term, "dumb"))
		return false;
	return isatty(fd);
}
