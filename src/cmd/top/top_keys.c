// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The keyboard of the full-screen view: 'q' leaves, as in top. The
 * terminal goes into non-canonical, no-echo mode only while top runs on
 * it, and is put back as it was on every way out that returns (Ctrl-C
 * included: the first signal only asks the loop to stop).
 */
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include "top_report.h"
#include "../../util/clock.h"
#include "../../util/sig.h"

static struct termios saved;
static bool raw_on;

void top_keys_restore(void)
{
	if (raw_on) {
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
		raw_on = false;
	}
}

bool top_keys_start(void)
{
	struct termios t;
	static bool registered;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &saved))
		return false;
	t = saved;
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSANOW, &t))
		return false;
	raw_on = true;
	/* An exit() on the way (out of memory) must not leave it so. */
	if (!registered)
		registered = !atexit(top_keys_restore);
	return true;
}

bool top_keys_wait(uint64_t t_ns)
{
	while (!sig_pending()) {
		uint64_t now = clock_mono_ns();
		struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
		char c;

		if (now >= t_ns)
			return false;
		if (poll(&p, 1, (int)((t_ns - now) / 1000000 + 1)) > 0 &&
		    read(STDIN_FILENO, &c, 1) == 1 && (c == 'q' || c == 'Q'))
			return true;
	}
	return false;
}
