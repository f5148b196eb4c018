/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lab's disk images: created by qemu-img (raw or qcow2, preallocated
 * with falloc so that no write of the suite allocates), only at a path
 * that did not exist, and removed after; Ctrl-C included. The file iolab
 * created is held open, and qemu-img and QEMU are given it as
 * /proc/self/fd/N (the descriptor passed down), never by its name again:
 * a name swapped for a link meanwhile cannot make them write elsewhere.
 */
#ifndef IOLAB_CMD_LAB_IMAGE_H
#define IOLAB_CMD_LAB_IMAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "qemu_argv.h"

struct err;

struct lab_image {
	char path[4096]; /* the name, for messages and removal */
	int fd; /* the file created, >= 3; -1 none */
	char fdpath[32]; /* "/proc/self/fd/N": what children open */
	struct stat st; /* of the file created */
	enum lab_format format;
	uint64_t bytes;
	int cleanup_handle;
	bool created;
};

/*
 * Create @path with @qemu_img. Refuses an existing path (iolab writes
 * only to files it created). qemu-img's own message goes into @err.
 */
bool image_create(struct lab_image *im, const char *qemu_img, const char *path,
		  enum lab_format f, uint64_t bytes, struct err *err);
/* Drop the host page cache of the image: each cell starts cold. */
void image_drop_cache(const struct lab_image *im);
/*
 * Throw its data away while QEMU still holds it (a shared guest is done
 * with this disk): what the host's page cache holds of it, dirty pages
 * included, and its blocks, so that writing them back does not compete
 * with the next cell's disk, as an image removed after its own guest
 * would not. Best effort: a file system without hole punching keeps it.
 */
void image_discard(const struct lab_image *im);
/* Remove it (if we created it). */
void image_remove(struct lab_image *im);

#endif
