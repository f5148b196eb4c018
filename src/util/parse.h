/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Parsing of the values people type: sizes, durations, counts, lists; and
 * the matching formatting for tables. Parsers fill a struct err naming the
 * value and the accepted forms; callers add the flag name with err_prefix().
 */
#ifndef IOLAB_UTIL_PARSE_H
#define IOLAB_UTIL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct err;

/*
 * Sizes: plain bytes ("4096"), binary suffixes k/K/KiB, m/M/MiB, g/G/GiB,
 * t/T/TiB (powers of 1024, as fio and dd), and SI suffixes kB/KB, MB, GB,
 * TB (powers of 1000, said so in the message when that makes a size
 * unaligned). A fraction is allowed if the result is a whole byte count.
 */
bool parse_size(const char *s, uint64_t *out, struct err *err);

/*
 * Durations: "500ms", "5s", "2m", "1h", "250us", "100ns"; a plain number is
 * seconds (as fio's runtime). Result in nanoseconds.
 */
bool parse_duration(const char *s, uint64_t *out_ns, struct err *err);

/* A decimal unsigned integer within [min, max]. */
bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
	       struct err *err);

/* A decimal number (fractions allowed) within [min, max]. */
bool parse_double(const char *s, double min, double max, double *out,
		  struct err *err);

/*
 * Split a comma-separated list in place into at most @max items; empty items
 * are an error. Returns the count, or -1 with @err set.
 */
int parse_list(char *s, char **items, int max, struct err *err);

/* CPU numbers a CPU list may name: glibc's cpu_set_t. */
#define PARSE_MAX_CPU 1024

/*
 * A CPU list as taskset and cpusets write it, "0-3,6", into @cpus in the
 * order given (at most @max). Every number is below PARSE_MAX_CPU: one that
 * is not, or does not fit a long, is an error rather than wrapped.
 * Returns the count, or -1 with @err set.
 */
int parse_cpu_list(const char *s, int *cpus, int max, struct err *err);
/* "0-3,6" for the CPUs set in @set (PARSE_MAX_CPU flags); "" if none. */
const char *fmt_cpu_list(const bool *set, char *buf, size_t len);

/* Index of @s in the NULL-terminated @names, or -1. */
int parse_choice(const char *s, const char *const *names);

/* "4 KiB", "1 MiB", "1.50 GiB", "512 B": exact binary units for sizes. */
const char *fmt_size(uint64_t bytes, char *buf, size_t len);
/* "850 ns", "12.3 us", "4.56 ms", "1.20 s": latency for tables. */
const char *fmt_ns(double ns, char *buf, size_t len);
/* "5 s", "500 ms", "2 min": durations for messages. */
const char *fmt_duration(uint64_t ns, char *buf, size_t len);
/* Size as a token a user could type back: "4k", "1M", "1536". */
const char *fmt_size_token(uint64_t bytes, char *buf, size_t len);

#endif
