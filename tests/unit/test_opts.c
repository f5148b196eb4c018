// SPDX-License-Identifier: GPL-2.0-or-later
/* The option-table parser: forms, values, refusals, suggestions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/opts.h"
#include "cmd/opts_alias.h"
#include "util/err.h"

enum color { RED, GREEN, BLUE_ISH };

struct o {
	bool flag;
	uint64_t size, dur;
	unsigned int n;
	enum color color;
	unsigned int after; /* beside the enum: must stay untouched */
	const char *str;
};

static const char *const colors[] = { "red", "green", NULL };

static const struct opt table[] = {
	{ .kind = OPT_GROUP, .name = "", .help = "Group" },
	{ "flag", 'f', OPT_FLAG, NULL, offsetof(struct o, flag), "a flag" },
	{ "size", 's', OPT_SIZE, "SIZE", offsetof(struct o, size), "a size" },
	{ "time", 0, OPT_DURATION, "T", offsetof(struct o, dur), "a time" },
	{ "qd", 0, OPT_UINT, "N", offsetof(struct o, n), "a count", NULL, 1,
	  32 },
	{ "color", 0, OPT_ENUM, "C", OPT_ENUM_OFF(struct o, color), "a choice",
	  colors },
	{ "name", 0, OPT_STRING, "S", offsetof(struct o, str), "a string" },
	{ .kind = OPT_GROUP },
};

static const struct opt_cmd cmd = {
	.name = "t",
	.synopsis = "t",
	.summary = "t",
	.opts = table,
	.max_positional = 1,
};

static int parse(struct o *o, struct opt_state *st, struct err *err, int argc,
		 char **argv)
{
	memset(o, 0, sizeof(*o));
	memset(err, 0, sizeof(*err));
	return opts_parse(&cmd, argc, argv, o, st, err);
}

static void test_good_forms(void **state)
{
	char *argv[] = { "t",	   "--flag",	 "--size=4k", "-s", "1M",
			 "--time", "500ms",	 "--qd",      "32", "--color",
			 "green",  "--name=x=y", "target" };
	struct opt_state st;
	struct err err;
	struct o o;

	(void)state;
	assert_int_equal(parse(&o, &st, &err, 13, argv), OPTS_OK);
	assert_true(o.flag);
	assert_int_equal(o.size, 1048576); /* last one wins */
	assert_int_equal(o.dur, 500000000ull);
	assert_int_equal(o.n, 32);
	assert_int_equal(o.color, GREEN);
	assert_string_equal(o.str, "x=y");
	assert_int_equal(st.npositional, 1);
	assert_string_equal(st.positional[0], "target");
	assert_true(opts_was_set(&cmd, &st, "size"));
	assert_false(opts_was_set(&cmd, &st, "nonexistent"));
	opts_state_free(&st);
}

static void expect_error(char **argv, int argc, const char *needle)
{
	struct opt_state st;
	struct err err;
	struct o o;

	assert_int_equal(parse(&o, &st, &err, argc, argv), OPTS_ERROR);
	assert_int_equal(err.exit_code, EXIT_USAGE);
	if (!strstr(err.msg, needle))
		fail_msg("'%s' does not contain '%s'", err.msg, needle);
	opts_state_free(&st);
}

static void test_errors(void **state)
{
	char *a1[] = { "t", "--sise", "4k" };
	char *a2[] = { "t", "--qd", "64" };
	char *a3[] = { "t", "--color", "blue" };
	char *a4[] = { "t", "--size" };
	char *a5[] = { "t", "--flag=yes" };
	char *a6[] = { "t", "a", "b" };
	char *a7[] = { "t", "--size", "4x" };
	char *a8[] = { "t", "--zzzzzzzzz" };

	(void)state;
	expect_error(a1, 3, "did you mean '--size'");
	expect_error(a2, 3, "out of range");
	expect_error(a3, 3, "red, green");
	expect_error(a4, 2, "needs a value");
	expect_error(a5, 2, "takes no value");
	expect_error(a6, 3, "extra operand");
	expect_error(a7, 3, "--size");
	expect_error(a8, 2, "see 'iolab t --help'");
}

/* "--time 10 sec": the shell split the unit off; it is not the target. */
static void test_unit_operand(void **state)
{
	char *a1[] = { "t", "--time", "10", "sec" };
	char *a2[] = { "t", "--size", "1", "GiB" };
	char *a3[] = { "t", "--time", "10", "./sec" };
	char *a4[] = { "t", "--name", "x", "sec" };
	char *a5[] = { "t", "--time", "10", "--", "sec" };
	struct opt_state st;
	struct err err;
	struct o o;

	(void)state;
	expect_error(a1, 4, "'sec' after '--time 10' reads as a unit");
	expect_error(a2, 4, "write '--size 1GiB'");
	assert_int_equal(parse(&o, &st, &err, 4, a3), OPTS_OK);
	assert_string_equal(st.positional[0], "./sec");
	opts_state_free(&st);
	/* A value that is no number takes no unit: "sec" is the target. */
	assert_int_equal(parse(&o, &st, &err, 4, a4), OPTS_OK);
	assert_string_equal(st.positional[0], "sec");
	opts_state_free(&st);
	assert_int_equal(parse(&o, &st, &err, 5, a5), OPTS_OK);
	assert_string_equal(st.positional[0], "sec");
	opts_state_free(&st);
}

/* fio's spellings and other commands' names, where the meaning is ours. */
static void test_aliases(void **state)
{
	struct o o;
	struct opt_state st;
	struct err err;
	char *a1[] = { "t", "--iodepth", "8", "--runtime=2s" };
	char *a2[] = { "t", "--iodeph", "8" };
	char *a3[] = { "t", "--numjobs", "2" }; /* "threads": not in t */

	(void)state;
	assert_int_equal(parse(&o, &st, &err, 4, a1), OPTS_OK);
	assert_int_equal(o.n, 8);
	assert_int_equal(o.dur, 2000000000ull);
	assert_true(opts_was_set(&cmd, &st, "qd"));
	opts_state_free(&st);
	expect_error(a2, 3, "did you mean '--qd'");
	expect_error(a3, 3, "unknown option '--numjobs'");
	assert_string_equal(opt_alias_value(opt_alias_find("ioengine", 8),
					    "libaio"),
			    "native");
	assert_string_equal(opt_alias_value(opt_alias_find("ioengine", 8),
					    "psync"),
			    "sync");
	assert_null(opt_alias_value(opt_alias_find("ioengine", 8), "mmap"));
	assert_string_equal(opt_alias_value(opt_alias_find("direct", 6), "1"),
			    "none");
	assert_string_equal(opt_alias_value(opt_alias_find("direct", 6), "0"),
			    "writeback");
	assert_null(opt_alias_find("iodepth_batch", 13));
}

/* The enum field is written in place, from its default, and only it. */
static void test_enum(void **state)
{
	char *a1[] = { "t", "--color=red" };
	char *a2[] = { "t", "--color", "green" };
	char *a3[] = { "t", "--color", "Green" };
	char *a4[] = { "t", "--color", "" };
	struct opt_state st;
	struct err err;
	struct o o;

	(void)state;
	memset(&o, 0, sizeof(o));
	memset(&err, 0, sizeof(err));
	o.color = BLUE_ISH;
	o.after = 0xdeadbeef;
	assert_int_equal(opts_parse(&cmd, 2, a1, &o, &st, &err), OPTS_OK);
	assert_int_equal(o.color, RED);
	assert_int_equal(o.after, 0xdeadbeef);
	assert_true(opts_was_set(&cmd, &st, "color"));
	opts_state_free(&st);

	o.color = RED;
	assert_int_equal(opts_parse(&cmd, 3, a2, &o, &st, &err), OPTS_OK);
	assert_int_equal(o.color, GREEN);
	assert_int_equal(o.after, 0xdeadbeef);
	opts_state_free(&st);

	/* Not given: the default stays. */
	o.color = BLUE_ISH;
	assert_int_equal(opts_parse(&cmd, 1, a1, &o, &st, &err), OPTS_OK);
	assert_int_equal(o.color, BLUE_ISH);
	assert_false(opts_was_set(&cmd, &st, "color"));
	opts_state_free(&st);

	/* An unknown value: one line naming the flag and every choice. */
	memset(&err, 0, sizeof(err));
	o.color = BLUE_ISH;
	assert_int_equal(opts_parse(&cmd, 3, a3, &o, &st, &err), OPTS_ERROR);
	assert_int_equal(err.exit_code, EXIT_USAGE);
	assert_string_equal(err.msg,
			    "--color: 'Green' is not one of red, green");
	assert_int_equal(o.color, BLUE_ISH);
	opts_state_free(&st);

	memset(&err, 0, sizeof(err));
	assert_int_equal(opts_parse(&cmd, 3, a4, &o, &st, &err), OPTS_ERROR);
	assert_string_equal(err.msg, "--color: '' is not one of red, green");
	opts_state_free(&st);
}

static void test_double_dash(void **state)
{
	char *argv[] = { "t", "--", "--flag" };
	struct opt_state st;
	struct err err;
	struct o o;

	(void)state;
	assert_int_equal(parse(&o, &st, &err, 3, argv), OPTS_OK);
	assert_false(o.flag);
	assert_string_equal(st.positional[0], "--flag");
	opts_state_free(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_forms),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_unit_operand),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_enum),
		cmocka_unit_test(test_double_dash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
