// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The guest-to-host channel: messages split anywhere across reads, a
 * DATA payload holding newlines and "IOLAB-" text, noise lines ignored,
 * and what the guest's writer produces read back by the host's parser.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cmd/lab/channel.h"

static void test_fragments(void **state)
{
	static const char stream[] =
		"garbage before\r\n"
		"IOLAB-HELLO 1 0.1.0\n"
		"IOLAB-DISK vda 67108864 iolab-lab-disk-2\n"
		"IOLAB-PROGRESS 3 8 RND4K Q1T1 read\n"
		"IOLAB-UNKNOWN x\n"
		"IOLAB-DATA suite 0 26\n{\"a\":\"x\nIOLAB-END\n\",\"b\":1}\n"
		"IOLAB-FAIL no disk\n"
		"IOLAB-END\n";

	(void)state;
	/* Every split point gives the same events. */
	for (size_t cut = 0; cut <= sizeof(stream) - 1; cut += 7) {
		struct chan_parser p;
		struct chan_event ev;
		int n = 0;

		chan_parser_init(&p);
		chan_feed(&p, stream, cut);
		while (chan_next(&p, &ev)) {
			free(ev.data);
			n++;
		}
		chan_feed(&p, stream + cut, sizeof(stream) - 1 - cut);
		while (chan_next(&p, &ev)) {
			switch (n++) {
			case 0:
				assert_int_equal(ev.type, CHAN_HELLO);
				assert_int_equal(ev.n1, 1);
				assert_string_equal(ev.text, "0.1.0");
				break;
			case 1:
				assert_int_equal(ev.type, CHAN_DISK);
				assert_string_equal(ev.text, "vda");
				assert_int_equal(ev.n1, 67108864);
				assert_string_equal(ev.serial,
						    "iolab-lab-disk-2");
				break;
			case 2:
				assert_int_equal(ev.type, CHAN_PROGRESS);
				assert_int_equal(ev.n1, 3);
				assert_int_equal(ev.n2, 8);
				assert_string_equal(ev.text, "RND4K Q1T1 read");
				break;
			case 3:
				assert_int_equal(ev.type, CHAN_DATA);
				assert_string_equal(ev.kind, "suite");
				assert_int_equal(ev.len, 26);
				assert_string_equal(
					ev.data,
					"{\"a\":\"x\nIOLAB-END\n\",\"b\":1}");
				break;
			case 4:
				assert_int_equal(ev.type, CHAN_FAIL);
				assert_string_equal(ev.text, "no disk");
				break;
			case 5:
				assert_int_equal(ev.type, CHAN_END);
				break;
			default:
				fail();
			}
			free(ev.data);
		}
		assert_int_equal(n, 6);
		chan_parser_free(&p);
	}
}

static void test_round_trip(void **state)
{
	static const char payload[] = "{\"tests\":[]}\nmore";
	struct chan_parser p;
	struct chan_event ev;
	char buf[4096];
	int fds[2];
	ssize_t n;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_true(chan_send(fds[1], "LOG %s", "two\nlines"));
	assert_true(chan_send_data(fds[1], "doctor", 4, payload,
				   sizeof(payload) - 1));
	assert_true(chan_send(fds[1], "END"));
	close(fds[1]);
	n = read(fds[0], buf, sizeof(buf));
	close(fds[0]);
	assert_true(n > 0);
	chan_parser_init(&p);
	chan_feed(&p, buf, (size_t)n);
	assert_true(chan_next(&p, &ev));
	assert_int_equal(ev.type, CHAN_LOG);
	assert_string_equal(ev.text, "two lines"); /* one line on the wire */
	assert_true(chan_next(&p, &ev));
	assert_int_equal(ev.type, CHAN_DATA);
	assert_string_equal(ev.kind, "doctor");
	assert_int_equal(ev.code, 4);
	assert_string_equal(ev.data, payload);
	free(ev.data);
	assert_true(chan_next(&p, &ev));
	assert_int_equal(ev.type, CHAN_END);
	assert_false(chan_next(&p, &ev));
	chan_parser_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fragments),
		cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
