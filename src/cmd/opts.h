/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The option table behind every subcommand: one row per flag drives
 * parsing, validation of the value, --help and the JSON echo of what the
 * user set. Each subcommand keeps its table in its own file.
 */
#ifndef IOLAB_CMD_OPTS_H
#define IOLAB_CMD_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct err;

enum opt_kind {
	OPT_GROUP, /* not an option: a heading in --help */
	OPT_FLAG, /* bool, takes no value */
	OPT_SIZE, /* uint64_t, bytes ("4k", "1M") */
	OPT_DURATION, /* uint64_t, nanoseconds ("500ms", "5s") */
	OPT_U64, /* uint64_t in [min, max] */
	OPT_UINT, /* unsigned int in [min, max] */
	OPT_DOUBLE, /* double in [min, max] */
	OPT_STRING, /* const char *, points into argv */
	OPT_ENUM, /* an enum field: the index of the value in choices[] */
	OPT_CALL, /* custom parser */
};

struct opt {
	const char *name; /* long name without "--" */
	char key; /* short letter or 0 */
	enum opt_kind kind;
	const char *arg; /* value placeholder in --help ("SIZE") */
	size_t off; /* offsetof() the field in the options struct */
	const char *help; /* one line; "(default X)" belongs here */
	const char *const *choices; /* OPT_ENUM: names, NULL-terminated */
	double min, max; /* OPT_U64/UINT/DOUBLE bounds */
	bool (*call)(void *opts, const char *arg, struct err *err);
};

/*
 * offsetof() an enum field for an OPT_ENUM row. The parser stores an int;
 * an enum of another size fails the build here.
 */
#define OPT_ENUM_OFF(type, field) \
	(offsetof(type, field) +  \
	 0 * sizeof(char[sizeof(((type *)0)->field) == sizeof(int) ? 1 : -1]))

#define OPTS_MAX 96

struct opt_cmd {
	const char *name; /* "run" */
	const char *synopsis; /* "iolab run [OPTIONS] [TARGET]" */
	const char *summary; /* one sentence */
	const struct opt *opts; /* terminated by a row with kind OPT_GROUP and
				   name NULL and help NULL */
	const char *footer; /* extra text after the options, or NULL */
	int max_positional; /* how many operands it takes */
};

struct opt_state {
	bool set[OPTS_MAX]; /* by row index: given on the command line */
	const char *value[OPTS_MAX]; /* the text given, NULL for flags */
	char **positional; /* operands, in order */
	int npositional;
};

enum opts_rc { OPTS_OK = 0, OPTS_HELP = 1, OPTS_ERROR = -1 };

/*
 * Parse argv[1..] (argv[0] is the subcommand name) into @out. "-h"/"--help"
 * print the help and return OPTS_HELP. Accepts "--name value",
 * "--name=value", "-k value" and "--" to end options.
 */
int opts_parse(const struct opt_cmd *cmd, int argc, char **argv, void *out,
	       struct opt_state *st, struct err *err);
bool opts_was_set(const struct opt_cmd *cmd, const struct opt_state *st,
		  const char *name);
void opts_help(const struct opt_cmd *cmd, FILE *f);
void opts_state_free(struct opt_state *st);

#endif
