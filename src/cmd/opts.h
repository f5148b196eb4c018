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

/*
 * Rows the measuring commands share, each described once. @t is the
 * options struct; the region, safety and output rows write the struct
 * measure_flags (cmd/measure.h) it embeds as member `m`.
 */
/* clang-format off */
#define OPT_ROWS_REGION(t)						\
	{ "size", 0, OPT_SIZE, "SIZE", offsetof(t, m.size),		\
	  "test file size, or the region of a device/file (default: 1G for a new file, else all)" }, \
	{ "offset", 0, OPT_SIZE, "SIZE", offsetof(t, m.offset),		\
	  "start of the region (default 0)" }
/* --pattern and --seed into the enum @pattern and the uint64_t @seed. */
#define OPT_ROWS_DATA(t, pattern, seed)					\
	{ "pattern", 0, OPT_ENUM, "random|zero", OPT_ENUM_OFF(t, pattern), \
	  "data written (default random: incompressible)",		\
	  cli_pattern_names },						\
	{ "seed", 0, OPT_U64, "N", offsetof(t, seed),			\
	  "seed of the offset and data generators", NULL, 0, 1.8e19 }
#define OPT_ROW_KEEP(t)							\
	{ "keep", 0, OPT_FLAG, NULL, offsetof(t, m.keep),		\
	  "keep the test file iolab created" }
#define OPT_ROWS_SAFETY(t)						\
	OPT_ROW_KEEP(t),						\
	{ "allow-write-file", 0, OPT_FLAG, NULL,			\
	  offsetof(t, m.allow_write_file),				\
	  "allow writing to an existing file iolab did not create" },	\
	{ "allow-write-device", 0, OPT_FLAG, NULL,			\
	  offsetof(t, m.allow_write_device),				\
	  "allow writing to a block device (destroys its data)" }
/*
 * --engine and --cache into the enums @engine and @cache; @note is added
 * to the default of --cache ("" or "; ...").
 */
#define OPT_ROWS_ENGINE(t, engine, cache, note)				\
	{ "engine", 'e', OPT_ENUM, "NAME", OPT_ENUM_OFF(t, engine),	\
	  "io_uring|native|threads|sync|null (default: io_uring if usable)", \
	  engine_names },						\
	{ "cache", 'c', OPT_ENUM, "MODE", OPT_ENUM_OFF(t, cache),	\
	  "none|directsync|writethrough|writeback|unsafe (default none" note ")", \
	  cache_names }
/* --json, --csv (their help says what each holds) and -o. */
#define OPT_ROWS_OUTPUT(t, json_help, csv_help)				\
	{ "json", 0, OPT_FLAG, NULL, offsetof(t, m.json), json_help },	\
	{ "csv", 0, OPT_FLAG, NULL, offsetof(t, m.csv), csv_help },	\
	{ "output", 'o', OPT_STRING, "FILE", offsetof(t, m.output),	\
	  "write the report to FILE instead of stdout" }
#define OPT_ROW_NO_PROGRESS(t)						\
	{ "no-progress", 0, OPT_FLAG, NULL, offsetof(t, m.no_progress),	\
	  "no live progress line on stderr" }
/* clang-format on */

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
