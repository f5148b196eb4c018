// SPDX-License-Identifier: GPL-2.0-or-later
/* Parsing iolab JSON input with jansson; see json_read.h. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json_read.h"
#include "json_util.h"
#include "../util/err.h"
#include "../util/infile.h"
#include "../util/xmem.h"

/*
 * A result of 4,000 jobs with percentiles and a time series is about
 * 12 MiB; jansson needs several times the text in memory.
 */
#define JR_MAX_BYTES (64u << 20)

struct jr_doc {
	json_t *root;
	char *name;
	const char *command;
	const char *version;
	int schema;
};

#define NODE(j) ((const struct jr_node *)(j))
#define JSON(n) ((json_t *)(n))

static struct jr_doc *jr_check(json_t *root, const char *name, struct err *err)
{
	json_t *sv = json_object_get(root, "schema_version");
	const char *tool = json_string_value(
		json_object_get(json_object_get(root, "tool"), "name"));
	const char *cmd = json_string_value(json_object_get(root, "command"));
	const char *ver = json_string_value(
		json_object_get(json_object_get(root, "tool"), "version"));
	struct jr_doc *d;

	if (!json_is_object(root) || !sv || !tool || strcmp(tool, "iolab")) {
		err_set(err, EXIT_USAGE, 0,
			"%s is not an iolab JSON document (no schema_version or tool \"iolab\"); give files written by 'iolab COMMAND --json'",
			name);
		goto out_free;
	}
	if (!json_is_integer(sv) || json_integer_value(sv) < 1) {
		err_set(err, EXIT_ENV, 0,
			"%s: unknown schema_version %s; this iolab reads schema_version %d",
			name,
			json_is_integer(sv) ? "below 1" : "(not an integer)",
			IOLAB_SCHEMA_VERSION);
		goto out_free;
	}
	if (json_integer_value(sv) > IOLAB_SCHEMA_VERSION) {
		err_set(err, EXIT_ENV, 0,
			"%s: schema_version %lld (written by iolab %s) is newer than this iolab %s reads (schema_version %d); read it with the iolab that wrote it or a newer one",
			name, (long long)json_integer_value(sv),
			ver ? ver : "?", IOLAB_VERSION, IOLAB_SCHEMA_VERSION);
		goto out_free;
	}
	if (!cmd || !*cmd) {
		err_set(err, EXIT_USAGE, 0,
			"%s has no \"command\"; give files written by 'iolab COMMAND --json'",
			name);
		goto out_free;
	}
	d = xcalloc(1, sizeof(*d));
	d->root = root;
	d->name = xstrdup(name);
	d->command = cmd;
	d->version = ver ? ver : "?";
	d->schema = (int)json_integer_value(sv);
	return d;
out_free:
	json_decref(root);
	return NULL;
}

static bool jr_parse_error(const json_error_t *je, const char *name,
			   struct err *err)
{
	if (je->line <= 0)
		return err_set(
			err, EXIT_USAGE, 0,
			"%s is not JSON (%s); give files written by 'iolab COMMAND --json'",
			name, je->text);
	return err_set(
		err, EXIT_USAGE, 0,
		"%s is not valid JSON: %s at line %d column %d; give files written by 'iolab COMMAND --json'",
		name, je->text, je->line, je->column);
}

struct jr_doc *jr_load(const char *path, struct err *err)
{
	json_error_t je;
	json_t *root;
	size_t len;
	char *text = infile_read(path, "input", JR_MAX_BYTES, &len, err);

	if (!text)
		return NULL;
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	free(text);
	if (!root) {
		jr_parse_error(&je, strcmp(path, "-") ? path : "standard input",
			       err);
		return NULL;
	}
	return jr_check(root, path, err);
}

struct jr_doc *jr_parse(const char *text, const char *name, struct err *err)
{
	json_error_t je;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &je);

	if (!root) {
		jr_parse_error(&je, name, err);
		return NULL;
	}
	return jr_check(root, name, err);
}

void jr_free(struct jr_doc *d)
{
	if (!d)
		return;
	json_decref(d->root);
	free(d->name);
	free(d);
}

const struct jr_node *jr_root(const struct jr_doc *d)
{
	return NODE(d->root);
}

const char *jr_command(const struct jr_doc *d)
{
	return d->command;
}

const char *jr_tool_version(const struct jr_doc *d)
{
	return d->version;
}

const char *jr_name(const struct jr_doc *d)
{
	return d->name;
}

int jr_schema_version(const struct jr_doc *d)
{
	return d->schema;
}

const struct jr_node *jr_get(const struct jr_node *n, const char *path)
{
	json_t *j = JSON(n);
	char key[128];

	while (j && path && *path) {
		const char *dot = strchr(path, '.');
		size_t len = dot ? (size_t)(dot - path) : strlen(path);

		if (len >= sizeof(key) || !json_is_object(j))
			return NULL;
		memcpy(key, path, len);
		key[len] = 0;
		j = json_object_get(j, key);
		path = dot ? dot + 1 : NULL;
	}
	return j && !json_is_null(j) ? NODE(j) : NULL;
}

bool jr_num(const struct jr_node *n, const char *path, double *out)
{
	json_t *j = JSON(jr_get(n, path));

	if (!json_is_number(j))
		return false;
	*out = json_number_value(j);
	return isfinite(*out);
}

double jr_numd(const struct jr_node *n, const char *path, double dflt)
{
	double v;

	return jr_num(n, path, &v) ? v : dflt;
}

const char *jr_str(const struct jr_node *n, const char *path)
{
	return json_string_value(JSON(jr_get(n, path)));
}

bool jr_bool(const struct jr_node *n, const char *path, bool *out)
{
	json_t *j = JSON(jr_get(n, path));

	if (!json_is_boolean(j))
		return false;
	*out = json_is_true(j);
	return true;
}

size_t jr_len(const struct jr_node *n)
{
	return json_is_array(JSON(n)) ? json_array_size(JSON(n)) : 0;
}

const struct jr_node *jr_at(const struct jr_node *n, size_t i)
{
	json_t *j = json_is_array(JSON(n)) ? json_array_get(JSON(n), i) : NULL;

	return j && !json_is_null(j) ? NODE(j) : NULL;
}

bool jr_is_array(const struct jr_node *n)
{
	return json_is_array(JSON(n));
}

bool jr_is_object(const struct jr_node *n)
{
	return json_is_object(JSON(n));
}

const char *jr_scalar(const struct jr_node *n, const char *path, char *buf,
		      size_t len)
{
	json_t *j = JSON(jr_get(n, path));
	double v;

	/* Always into @buf: callers may use @buf rather than the result. */
	if (json_is_string(j)) {
		snprintf(buf, len, "%s", json_string_value(j));
		return buf;
	}
	if (json_is_boolean(j)) {
		snprintf(buf, len, "%s", json_is_true(j) ? "true" : "false");
		return buf;
	}
	if (!json_is_number(j))
		return NULL;
	v = json_number_value(j);
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%g", v);
	return buf;
}
