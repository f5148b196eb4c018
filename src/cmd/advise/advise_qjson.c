// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one file of src/diag that includes jansson: QEMU options given as
 * JSON are input here, not a report, so they cannot go through
 * report/json_util.h. See advise_qjson.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "advise_qjson.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

/* Deep nesting is legal JSON but no QEMU option needs it. */
#define QJSON_MAX_DEPTH 16

static bool flatten(json_t *v, const char *path, int depth, struct kvl *out,
		    const char *what, struct err *err)
{
	char num[64];

	if (depth > QJSON_MAX_DEPTH)
		return err_set(err, EXIT_USAGE, 0,
			       "%s: JSON nested deeper than %d levels at '%s'",
			       what, QJSON_MAX_DEPTH, path);
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		const char *k;
		json_t *c;

		json_object_foreach(v, k, c)
		{
			char *sub = *path ? xasprintf("%s.%s", path, k) :
					    xstrdup(k);
			bool ok = flatten(c, sub, depth + 1, out, what, err);

			free(sub);
			if (!ok)
				return false;
		}
		return true;
	}
	case JSON_ARRAY: {
		size_t i;
		json_t *c;

		json_array_foreach(v, i, c)
		{
			char *sub = xasprintf("%s.%zu", path, i);
			bool ok = flatten(c, sub, depth + 1, out, what, err);

			free(sub);
			if (!ok)
				return false;
		}
		return true;
	}
	case JSON_STRING:
		kvl_add(out, path, json_string_value(v), KV_STR);
		return true;
	case JSON_INTEGER:
		snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
			 json_integer_value(v));
		kvl_add(out, path, num, KV_NUM);
		return true;
	case JSON_REAL:
		snprintf(num, sizeof(num), "%.17g", json_real_value(v));
		kvl_add(out, path, num, KV_NUM);
		return true;
	case JSON_TRUE:
		kvl_add(out, path, "on", KV_BOOL);
		return true;
	case JSON_FALSE:
		kvl_add(out, path, "off", KV_BOOL);
		return true;
	case JSON_NULL:
		kvl_add(out, path, "", KV_NULL);
		return true;
	}
	return true;
}

bool qjson_flatten(const char *text, const char *what, struct kvl *out,
		   struct err *err)
{
	json_error_t je;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
	bool ok;

	if (!root)
		return err_set(err, EXIT_USAGE, 0,
			       "%s: invalid JSON at column %d: %s", what,
			       je.column, je.text);
	if (!json_is_object(root)) {
		json_decref(root);
		return err_set(err, EXIT_USAGE, 0,
			       "%s: the JSON form must be an object {...}",
			       what);
	}
	ok = flatten(root, "", 0, out, what, err);
	json_decref(root);
	return ok;
}

static json_t *scalar(const struct kv *e)
{
	char *end;

	switch (e->type) {
	case KV_BOOL:
		return json_boolean(!strcmp(e->val, "on"));
	case KV_NULL:
		return json_null();
	case KV_NUM:
		if (!strpbrk(e->val, ".eE")) {
			long long n;

			errno = 0;
			n = strtoll(e->val, &end, 10);
			if (!errno && *e->val && !*end)
				return json_integer(n);
		} else {
			double d = strtod(e->val, &end);

			if (*e->val && !*end)
				return json_real(d);
		}
		return json_string(e->val);
	case KV_STR:
		break;
	}
	return json_string(e->val);
}

static bool all_indices(json_t *o)
{
	size_t want = 0;
	const char *k;
	json_t *c;

	if (!json_object_size(o))
		return false;
	json_object_foreach(o, k, c)
	{
		char buf[32];

		snprintf(buf, sizeof(buf), "%zu", want++);
		if (strcmp(k, buf))
			return false;
	}
	return true;
}

/* Objects whose keys are exactly 0..n-1 were arrays: make them so again. */
static json_t *crumple(json_t *v)
{
	const char *k;
	json_t *c;

	if (!json_is_object(v))
		return v;
	json_object_foreach(v, k, c)
		json_object_set_new(v, k, crumple(json_incref(c)));
	if (all_indices(v)) {
		json_t *arr = json_array();

		json_object_foreach(v, k, c) json_array_append(arr, c);
		json_decref(v);
		return arr;
	}
	return v;
}

char *qjson_format(const struct kvl *l)
{
	json_t *root = json_object();
	char *text, *out;

	for (size_t i = 0; i < l->n; i++) {
		char *path = xstrdup(l->v[i].key), *seg = path, *dot;
		json_t *cur = root;

		while ((dot = strchr(seg, '.'))) {
			json_t *next;

			*dot = '\0';
			next = json_object_get(cur, seg);
			if (!json_is_object(next)) {
				next = json_object();
				json_object_set_new(cur, seg, next);
			}
			cur = next;
			seg = dot + 1;
		}
		json_object_set_new(cur, seg, scalar(&l->v[i]));
		free(path);
	}
	root = crumple(root);
	text = json_dumps(root,
			  JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
	json_decref(root);
	out = xstrdup(text ? text : "{}");
	free(text);
	return out;
}
