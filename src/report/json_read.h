/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading iolab's own JSON documents back (for compare and report). This is
 * the one file that parses JSON input; the rest of the tree sees opaque
 * nodes and typed getters, never jansson.
 *
 * jr_load() accepts only documents with the common envelope (jdoc_new():
 * schema_version, tool.name "iolab", command) and refuses a schema_version
 * newer than IOLAB_SCHEMA_VERSION, so an adapter never sees a shape it was
 * not written for.
 */
#ifndef IOLAB_REPORT_JSON_READ_H
#define IOLAB_REPORT_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

struct err;
struct jr_doc;
struct jr_node; /* a value inside a document; valid while the doc lives */

/*
 * Read and parse @path ("-" is standard input) and check the envelope.
 * Fails with EXIT_ENV for an unreadable file, a directory, a file that is
 * not regular, empty, holds a NUL byte or is over 64 MiB, or a newer
 * schema_version; EXIT_USAGE for a file that is not an iolab JSON
 * document.
 */
struct jr_doc *jr_load(const char *path, struct err *err);
/* The same from a string (for tests); @name is used in messages. */
struct jr_doc *jr_parse(const char *text, const char *name, struct err *err);
void jr_free(struct jr_doc *d);

const struct jr_node *jr_root(const struct jr_doc *d);
const char *jr_command(const struct jr_doc *d);
const char *jr_tool_version(const struct jr_doc *d); /* "?" if absent */
const char *jr_name(const struct jr_doc *d); /* the path it was read from */
int jr_schema_version(const struct jr_doc *d);

/*
 * Look up @path under @n: keys separated by '.', e.g. "read.lat_ns.mean".
 * An empty path is @n itself. NULL when any step is missing or JSON null.
 */
const struct jr_node *jr_get(const struct jr_node *n, const char *path);
/* A number (integer or real) at @path; false if absent or not a number. */
bool jr_num(const struct jr_node *n, const char *path, double *out);
/* A number at @path, or @dflt. */
double jr_numd(const struct jr_node *n, const char *path, double dflt);
/* A string at @path, or NULL. */
const char *jr_str(const struct jr_node *n, const char *path);
/* A boolean at @path; false if absent or not a boolean. */
bool jr_bool(const struct jr_node *n, const char *path, bool *out);
/* Array length (0 for anything else) and element. */
size_t jr_len(const struct jr_node *n);
const struct jr_node *jr_at(const struct jr_node *n, size_t i);
bool jr_is_array(const struct jr_node *n);
bool jr_is_object(const struct jr_node *n);
/*
 * Any scalar at @path as text for display ("4096", "true", "none"),
 * written into @buf (cut to @len) and returned; NULL, with @buf untouched,
 * when absent, null or not a scalar. Numbers print as integers when whole.
 */
const char *jr_scalar(const struct jr_node *n, const char *path, char *buf,
		      size_t len);

#endif
