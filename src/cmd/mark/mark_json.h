/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JSON pieces of a mark result, for mark_json.c, matrix_json.c and any
 * renderer that embeds a mark result (the lab's, per cell). Like
 * json_util.h, included only by report/ files.
 */
#ifndef IOLAB_CMD_MARK_MARK_JSON_H
#define IOLAB_CMD_MARK_MARK_JSON_H

#include "../../report/json_util.h"
#include "mark_suite.h"

/* The suite's settings: preset, tests, directions, runs, times, and the
 * base job (engine, cache, pattern ...). */
json_t *jmark_options(const struct mark_spec *s);
/* The "tests" array: per test, "read"/"write"/"mix" with the figures
 * across runs and each run in full. */
json_t *jmark_tests(const struct mark_result *r);

#endif
