/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Building blocks of every command's JSON, shared by the report/json_*.c
 * renderers. This is the only header that includes jansson, and only
 * report/json_*.c include it.
 */
#ifndef IOLAB_REPORT_JSON_UTIL_H
#define IOLAB_REPORT_JSON_UTIL_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "../core/result.h"

struct err;
struct target;

#define IOLAB_SCHEMA_VERSION 1

/* {"schema_version", "tool":{name,version}, "command", "argv"}. */
json_t *jdoc_new(const char *command, int argc, char *const *argv);
/* {"min","mean","max","stddev","percentiles":[{"p","ns"}]}, or null. */
json_t *jlat(const struct hist *h, const double *ps, int n);
/* [{"id","message"}]. */
json_t *jwarnings(const struct warnings *w);
/* The "environment" object of a target. */
json_t *jenvironment(const struct target *t);
/* Into "options": "target", "size_bytes", "offset_bytes", "keep". */
void jtarget_options(json_t *opts, const struct target *t);
/* "stopped_by": "SIGINT", "SIGTERM", "signal", "io-error" or null. */
json_t *jstopped_by(int stop_signal, bool io_error);
/* A job's effective settings, as in "options" and "jobs". */
json_t *jjob_spec(const struct job_spec *j);
/* A full job result ("jobs" entry of run; "runs" entries of mark). */
json_t *jrun_result(const struct run_result *r);
/* Set key to a number rounded to @digits decimals. */
void jset_real(json_t *o, const char *key, double v, int digits);
/* Dump with 2-space indent and a final newline; steals @doc. */
bool jdoc_write(json_t *doc, FILE *f, struct err *err);

#endif
