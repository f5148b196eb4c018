/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which existing files are iolab's own: a test file iolab created and
 * filled carries the extended attribute user.iolab naming its inode and
 * size, so a later command may reuse a file kept with --keep and still
 * never write one it did not create. Where the filesystem has no user
 * xattrs (older tmpfs, vfat, many NFS mounts), a kept file is listed in
 * $XDG_STATE_HOME/iolab/kept instead.
 */
#ifndef IOLAB_CORE_OWNED_H
#define IOLAB_CORE_OWNED_H

#include <stdbool.h>
#include <sys/stat.h>

#define OWNED_XATTR "user.iolab"

/*
 * Mark the file open as @fd (created and filled by us, described by @st)
 * as ours. With @keep, list it in the state file if the xattr cannot be
 * set. Best effort: false only says the mark could not be made.
 */
bool owned_mark(int fd, const struct stat *st, bool keep);

/* Is the file held as @fd (any descriptor, O_PATH too) one iolab made? */
bool owned_check(int fd, const struct stat *st);

#endif
