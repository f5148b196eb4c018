// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd/probe: label values as the exposition format wants, bucket bounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/probe/probe_impl.h"

static void check_label(const char *in, const char *want)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	assert_non_null(f);
	prom_label_value(f, in);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, want);
	free(buf);
}

static void test_label(void **state)
{
	char long_in[400], long_want[300];

	(void)state;
	check_label("/dev/vda", "\"/dev/vda\"");
	check_label("", "\"\"");
	check_label("a\"b\\c", "\"a\\\"b\\\\c\"");
	/* a newline or an escape sequence: \xNN, its backslash escaped */
	check_label("a\nb", "\"a\\\\x0ab\"");
	check_label("\033]52;c;x\007", "\"\\\\x1b]52;c;x\\\\x07\"");
	/* UTF-8 kept, a byte that is not UTF-8 escaped */
	check_label("caf\xc3\xa9", "\"caf\xc3\xa9\"");
	check_label("a\xff", "\"a\\\\xff\"");
	/* bounded: 256 bytes of the source at most */
	memset(long_in, 'x', sizeof(long_in) - 1);
	long_in[sizeof(long_in) - 1] = '\0';
	long_want[0] = '"';
	memset(long_want + 1, 'x', 256);
	strcpy(long_want + 257, "\"");
	check_label(long_in, long_want);
}

static void test_bucket(void **state)
{
	(void)state;
	assert_int_equal(probe_bucket(0), 0);
	assert_int_equal(probe_bucket(16000), 0); /* le: inclusive */
	assert_int_equal(probe_bucket(16001), 1);
	assert_int_equal(probe_bucket(32000), 1);
	assert_int_equal(probe_bucket(1000000), 6); /* 1 ms <= 1.024 ms */
	assert_int_equal(probe_bucket(PROBE_BUCKET0_NS << (PROBE_NBUCKETS - 1)),
			 PROBE_NBUCKETS - 1);
	assert_int_equal(probe_bucket(60000000000ull), PROBE_NBUCKETS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label),
		cmocka_unit_test(test_bucket),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
