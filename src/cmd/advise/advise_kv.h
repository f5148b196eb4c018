/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An ordered list of key/value pairs: one QEMU option string, one JSON
 * object flattened to dotted keys, one XML element's attributes, one
 * Proxmox drive line. Order is kept so that a corrected line reads like
 * the user's own; the type is kept so that JSON comes back as JSON.
 */
#ifndef IOLAB_CMD_ADVISE_ADVISE_KV_H
#define IOLAB_CMD_ADVISE_ADVISE_KV_H

#include <stdbool.h>
#include <stddef.h>

enum kv_type {
	KV_STR,
	KV_BOOL, /* val is "on" or "off" (JSON true/false) */
	KV_NUM, /* val is the number's text */
	KV_NULL, /* JSON null */
};

struct kv {
	char *key;
	char *val;
	enum kv_type type;
	bool implied; /* written without "key=" (-device virtio-blk-pci,...) */
	bool bare; /* written as a bare key, meaning "on" (readonly) */
};

struct kvl {
	struct kv *v;
	size_t n, cap;
};

void kvl_add(struct kvl *l, const char *key, const char *val,
	     enum kv_type type);
/* Index of @key, or -1. */
long kvl_find(const struct kvl *l, const char *key);
/* Value of @key, or NULL. */
const char *kvl_get(const struct kvl *l, const char *key);
/* Replace the value of @key in place, or append it. */
void kvl_set(struct kvl *l, const char *key, const char *val,
	     enum kv_type type);
/* Remove @key; true if it was there. */
bool kvl_del(struct kvl *l, const char *key);
/* Remove every key that starts with @prefix. */
void kvl_del_prefix(struct kvl *l, const char *prefix);
void kvl_copy(struct kvl *dst, const struct kvl *src);
void kvl_free(struct kvl *l);

/*
 * QEMU's and Proxmox's booleans: on/off, yes/no, true/false, y/n, 1/0.
 * Returns false if @s is none of them.
 */
bool kv_parse_bool(const char *s, bool *out);

#endif
