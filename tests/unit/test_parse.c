// SPDX-License-Identifier: GPL-2.0-or-later
/* Sizes, durations, numbers and lists: accepted forms and refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/err.h"
#include "util/parse.h"

static void test_sizes_good(void **state)
{
	static const struct {
		const char *in;
		uint64_t want;
	} cases[] = {
		{ "4096", 4096 },
		{ "4k", 4096 },
		{ "4K", 4096 },
		{ "4KiB", 4096 },
		{ "1M", 1048576 },
		{ "1m", 1048576 },
		{ "1MiB", 1048576 },
		{ "1g", 1073741824 },
		{ "1G", 1073741824 },
		{ "2GiB", 2147483648ull },
		{ "1t", 1099511627776ull },
		{ "4kB", 4000 },
		{ "4KB", 4000 },
		{ "1MB", 1000000 },
		{ "1.5k", 1536 },
		{ "512b", 512 },
		{ "0", 0 },
		{ "128K", 131072 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct err err = { 0 };
		uint64_t v = 1234;

		assert_true(parse_size(cases[i].in, &v, &err));
		assert_int_equal(v, cases[i].want);
	}
}

static void test_sizes_bad(void **state)
{
	static const char *const bad[] = {
		"",    "k",	      "4x",
		"-4k", "4 kibibytes", "1.3",
		"abc", "4kk",	      "99999999999999999999999"
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct err err = { 0 };
		uint64_t v;

		assert_false(parse_size(bad[i], &v, &err));
		assert_int_equal(err.exit_code, EXIT_USAGE);
		assert_true(strlen(err.msg) > 10);
	}
}

static void test_durations(void **state)
{
	static const struct {
		const char *in;
		uint64_t ns;
	} cases[] = {
		{ "500ms", 500000000ull },
		{ "5s", 5000000000ull },
		{ "2m", 120000000000ull },
		{ "1h", 3600000000000ull },
		{ "10", 10000000000ull },
		{ "250us", 250000ull },
		{ "1.5s", 1500000000ull },
		{ "100ns", 100 },
		{ "0", 0 },
	};
	static const char *const bad[] = { "",	  "s",	     "5x",
					   "-1s", "5 sec s", "ms5" };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct err err = { 0 };
		uint64_t v;

		assert_true(parse_duration(cases[i].in, &v, &err));
		assert_int_equal(v, cases[i].ns);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct err err = { 0 };
		uint64_t v;

		assert_false(parse_duration(bad[i], &v, &err));
		assert_int_equal(err.exit_code, EXIT_USAGE);
	}
}

static void test_u64_and_lists(void **state)
{
	struct err err = { 0 };
	char list[] = "a,bb,c", empty[] = "a,,b";
	char *items[4];
	uint64_t v;

	(void)state;
	assert_true(parse_u64("32", 1, 64, &v, &err));
	assert_int_equal(v, 32);
	assert_false(parse_u64("0", 1, 64, &v, &err));
	assert_false(parse_u64("65", 1, 64, &v, &err));
	assert_false(parse_u64("3x", 1, 64, &v, &err));
	assert_false(parse_u64("-1", 0, 64, &v, &err));
	assert_int_equal(parse_list(list, items, 4, &err), 3);
	assert_string_equal(items[1], "bb");
	assert_int_equal(parse_list(empty, items, 4, &err), -1);
}

static void test_format(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(fmt_size(4096, b, sizeof(b)), "4 KiB");
	assert_string_equal(fmt_size(1536, b, sizeof(b)), "1.50 KiB");
	assert_string_equal(fmt_size(1073741824, b, sizeof(b)), "1 GiB");
	assert_string_equal(fmt_size_token(131072, b, sizeof(b)), "128k");
	assert_string_equal(fmt_size_token(1048576, b, sizeof(b)), "1M");
	assert_string_equal(fmt_ns(850, b, sizeof(b)), "850 ns");
	assert_string_equal(fmt_ns(12345, b, sizeof(b)), "12.3 us");
	assert_string_equal(fmt_ns(4560000, b, sizeof(b)), "4.56 ms");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes_good),
		cmocka_unit_test(test_sizes_bad),
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_u64_and_lists),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
