// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading query-blockstats' reply: untrusted JSON, bounded by the caller. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "top_vm.h"
#include "../../report/json_util.h"
#include "../../util/term.h"
#include "../../util/xmem.h"

static uint64_t num(json_t *stats, const char *key)
{
	json_t *v = json_object_get(stats, key);

	return json_is_integer(v) && json_integer_value(v) >= 0 ?
		       (uint64_t)json_integer_value(v) :
		       0;
}

/* "/machine/peripheral/virtio0/virtio-backend" -> "virtio0". */
static void qdev_id(const char *qdev, char *out, size_t len)
{
	const char *p = "/machine/peripheral/";
	char buf[TOP_NAME_MAX];
	char *slash;

	if (!strncmp(qdev, p, strlen(p)))
		qdev += strlen(p);
	snprintf(buf, sizeof(buf), "%s", qdev);
	slash = strchr(buf, '/');
	if (slash && slash != buf)
		*slash = '\0';
	term_sanitize(out, len, buf, 0);
}

bool top_blockstats_parse(const char *text, size_t len, struct top_vmstats *s,
			  char *why, size_t wlen)
{
	json_error_t e;
	json_t *doc = json_loadb(text, len, 0, &e), *ret, *it;
	size_t i;

	s->n = 0;
	s->d = NULL;
	ret = json_object_get(doc, "return");
	if (!json_is_array(ret)) {
		json_t *err =
			json_object_get(json_object_get(doc, "error"), "desc");

		snprintf(why, wlen, "query-blockstats: %s",
			 json_is_string(err) ?
				 term_safe(json_string_value(err)) :
				 "no list of devices in the reply");
		json_decref(doc);
		return false;
	}
	s->d = xcalloc(json_array_size(ret) + 1, sizeof(*s->d));
	json_array_foreach(ret, i, it)
	{
		json_t *st = json_object_get(it, "stats");
		json_t *dev = json_object_get(it, "device");
		json_t *qdev = json_object_get(it, "qdev");
		json_t *node = json_object_get(it, "node-name");
		struct top_vmdisk *d = &s->d[s->n];

		if (!json_is_object(st))
			continue;
		/*
		 * libvirt and -blockdev leave "device" empty: the qdev id; a
		 * device without an id (-device virtio-blk-pci,drive=N, as the
		 * lab's) has only a path, and advise names it by the node.
		 */
		if (json_is_string(dev) && json_string_length(dev))
			term_sanitize(d->name, sizeof(d->name),
				      json_string_value(dev), 0);
		else if (json_is_string(node) && json_string_length(node) &&
			 (!json_is_string(qdev) ||
			  !strncmp(json_string_value(qdev),
				   "/machine/peripheral-anon/", 25)))
			term_sanitize(d->name, sizeof(d->name),
				      json_string_value(node), 0);
		else if (json_is_string(qdev) && json_string_length(qdev))
			qdev_id(json_string_value(qdev), d->name,
				sizeof(d->name));
		else if (json_is_string(node))
			term_sanitize(d->name, sizeof(d->name),
				      json_string_value(node), 0);
		else
			snprintf(d->name, sizeof(d->name), "#%zu", i);
		d->rd_ops = num(st, "rd_operations");
		d->wr_ops = num(st, "wr_operations");
		d->fl_ops = num(st, "flush_operations");
		d->rd_bytes = num(st, "rd_bytes");
		d->wr_bytes = num(st, "wr_bytes");
		d->rd_ns = num(st, "rd_total_time_ns");
		d->wr_ns = num(st, "wr_total_time_ns");
		d->fl_ns = num(st, "flush_total_time_ns");
		s->n++;
	}
	json_decref(doc);
	return true;
}

void top_vmstats_free(struct top_vmstats *s)
{
	free(s->d);
	s->d = NULL;
	s->n = 0;
}
