// SPDX-License-Identifier: GPL-2.0-or-later
/* util/term.c (control characters out of terminal text), util/strmap.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/strmap.h"
#include "util/term.h"

static void check(const char *in, unsigned flags, const char *want)
{
	char buf[256];
	size_t n = term_sanitize(buf, sizeof(buf), in, flags);

	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
	/* The length alone (dst NULL) is the same and terminates. */
	assert_int_equal(term_sanitize(NULL, 0, in, flags), strlen(want));
	assert_int_equal(term_unsafe(in, flags), strcmp(in, want) != 0);
}

static void test_controls(void **state)
{
	(void)state;
	check("plain text", 0, "plain text");
	check("osc\x1b]52;c;aGk=\x07!", 0, "osc\\x1b]52;c;aGk=\\x07!");
	check("csi\x1b[2J", 0, "csi\\x1b[2J");
	check("a\nb\tc\rd\x7f", 0, "a\\x0ab\\x09c\\x0dd\\x7f");
	check("a\nb\tc", TERM_KEEP_NL, "a\nb\\x09c");
	check("a\nb\tc", TERM_KEEP_NL | TERM_KEEP_TAB, "a\nb\tc");
	check("a\nb\n", TERM_KEEP_NL, "a\nb\n");
}

static void test_utf8(void **state)
{
	(void)state;
	/* UTF-8 is kept: "×", "é", an emoji. */
	check("3.36\xc3\x97 caf\xc3\xa9 \xf0\x9f\x98\x80", 0,
	      "3.36\xc3\x97 caf\xc3\xa9 \xf0\x9f\x98\x80");
	/* C1 CSI as UTF-8 (U+009B) and as a raw 8-bit byte. */
	check("x\xc2\x9b"
	      "2J",
	      0, "x\\xc2\\x9b2J");
	check("x\x9b"
	      "2J",
	      0, "x\\x9b2J");
	/* Overlong, truncated and out-of-range sequences. */
	check("\xc0\x9b", 0, "\\xc0\\x9b");
	check("\xe2\x82", 0, "\\xe2\\x82");
	check("\xf5\x80\x80\x80", 0, "\\xf5\\x80\\x80\\x80");
}

static void test_cut(void **state)
{
	char buf[6];

	(void)state;
	assert_int_equal(term_sanitize(buf, sizeof(buf), "ab\x1b", 0), 6);
	assert_string_equal(buf, "ab\\x1");
	assert_ptr_equal(term_safe(NULL), NULL);
	assert_string_equal(term_safe("a\x1b"), "a\\x1b");
	{
		const char *clean = "clean";

		assert_ptr_equal(term_safe(clean), clean);
	}
}

static void test_buf(void **state)
{
	char *out = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&out, &len);
	struct term_buf tb;
	FILE *f;

	(void)state;
	assert_non_null(mem);
	f = term_buf_open(&tb, mem);
	fprintf(f, "VM %s\n\tdisk\n", "evil\x1b]0;t\x07");
	term_buf_close(&tb, mem);
	fclose(mem);
	assert_string_equal(out, "VM evil\\x1b]0;t\\x07\n\tdisk\n");
	free(out);
}

static void test_strmap(void **state)
{
	struct strmap m = { 0 };
	static char keys[5000][16];
	size_t v;

	(void)state;
	assert_false(strmap_get(&m, "x", &v));
	for (size_t i = 0; i < 5000; i++) {
		snprintf(keys[i], sizeof(keys[i]), "job%zu/read", i);
		assert_true(strmap_put(&m, keys[i], i));
	}
	assert_false(strmap_put(&m, "job7/read", 1));
	for (size_t i = 0; i < 5000; i++) {
		assert_true(strmap_get(&m, keys[i], &v));
		assert_int_equal(v, i);
	}
	assert_false(strmap_get(&m, "job5000/read", &v));
	strmap_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_controls), cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_cut),	 cmocka_unit_test(test_buf),
		cmocka_unit_test(test_strmap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
