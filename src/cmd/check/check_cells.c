// SPDX-License-Identifier: GPL-2.0-or-later
/* The closing lines of a profile judged in many cells; see check_report.h. */
#include <stdio.h>

#include "check_report.h"
#include "check_verdict.h"

int check_cells_recommend(const char *name, const char *no_pass_hint,
			  check_cells_fn list, const void *r, char lines[][512],
			  int max)
{
	char buf[400];
	int n = 0;

	if (max < 4)
		return 0;
	if (list(r, CHECK_PASS, 1, buf, sizeof(buf)))
		snprintf(lines[n++], 512,
			 "Pass %s and keep data on host power loss: %s.", name,
			 buf);
	else
		snprintf(
			lines[n++], 512,
			"No cell that keeps data on host power loss passes %s: see the failed criteria above, and %s.",
			name, no_pass_hint);
	if (list(r, CHECK_NO_THRESHOLD, -1, buf, sizeof(buf)))
		snprintf(
			lines[n++], 512,
			"%s publishes no threshold here; compare the figures above: %s.",
			name, buf);
	if (list(r, CHECK_FAIL, -1, buf, sizeof(buf)))
		snprintf(lines[n++], 512, "Fail %s: %s.", name, buf);
	if (list(r, CHECK_INCONCLUSIVE, -1, buf, sizeof(buf)))
		snprintf(
			lines[n++], 512,
			"Inconclusive: %s (flushes dropped or answered by a cache, or too few samples: never a pass).",
			buf);
	return n;
}
