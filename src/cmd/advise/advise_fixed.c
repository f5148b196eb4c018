// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * advise --write-fixed PATH and --diff: the input file with every fix
 * applied (see advise_rewrite.h), written to a new file or shown as a
 * unified diff. The input is read again, never written; PATH must not
 * exist (O_EXCL) and is never reached through a symbolic link
 * (O_NOFOLLOW), so the copy cannot overwrite the input or anything else.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "advise_fixed.h"
#include "advise_rewrite.h"
#include "../../util/err.h"
#include "../../util/infile.h"
#include "../../util/xmem.h"

/* The inputs advise reads are at most this large (--qemu-args-file's). */
#define FIXED_IN_MAX (16u << 20)

char *adv_fixed_text(const struct adv_report *r, enum adv_source kind,
		     const char *path, char **orig, struct err *err)
{
	struct rw_edits ed = { 0 };
	char *text = infile_read(path, "the input", FIXED_IN_MAX, NULL, err);
	char *fixed = NULL;
	bool ok = text != NULL;

	for (size_t v = 0; ok && v < r->nvms; v++) {
		const struct adv_vm *vm = r->vms[v];

		if (vm->source != kind)
			continue;
		ok = kind == ADV_SRC_LIBVIRT ? rw_libvirt(vm, text, &ed, err) :
		     kind == ADV_SRC_PROXMOX ? rw_pve(vm, text, &ed, err) :
					       rw_qemu(vm, text, &ed, err);
	}
	if (ok)
		fixed = rw_apply(text, &ed, err);
	rw_free(&ed);
	if (fixed)
		*orig = text;
	else
		free(text);
	return fixed;
}

bool adv_write_new(const char *path, const char *data, struct err *err)
{
	size_t len = strlen(data), done = 0;
	int fd = open(path,
		      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY |
			      O_CLOEXEC,
		      0600);

	if (fd < 0)
		return err_set(
			err, EXIT_ENV, errno,
			errno == EEXIST ?
				"--write-fixed %s: it exists; name a new file (nothing is overwritten)" :
				"--write-fixed %s",
			path);
	while (done < len) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = errno;

			close(fd);
			unlink(path);
			return err_set(err, EXIT_ENV, e, "--write-fixed %s",
				       path);
		}
		done += (size_t)n;
	}
	if (close(fd)) {
		int e = errno;

		unlink(path);
		return err_set(err, EXIT_ENV, e, "--write-fixed %s", path);
	}
	return true;
}
