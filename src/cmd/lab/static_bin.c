// SPDX-License-Identifier: GPL-2.0-or-later
/* Finding the guest's static iolab; see static_bin.h. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "static_bin.h"
#include "../../util/err.h"

bool static_bin_check(const char *path, struct err *err)
{
	Elf64_Ehdr eh;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return err_set(err, errno == ENOENT ? EXIT_USAGE : EXIT_ENV,
			       errno, "cannot read %s: %s", path,
			       strerror(errno));
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr)) {
		close(fd);
		return err_set(err, EXIT_USAGE, 0,
			       "%s is not an x86-64 executable", path);
	}
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		if (pread(fd, &ph, sizeof(ph),
			  (off_t)(eh.e_phoff + (uint64_t)i * sizeof(ph))) !=
		    (ssize_t)sizeof(ph))
			break;
		if (ph.p_type == PT_INTERP) {
			close(fd);
			return err_set(
				err, EXIT_USAGE, 0,
				"%s is dynamically linked; the guest has no libraries: build a static iolab (meson setup build-static -Dstatic=true && ninja -C build-static)",
				path);
		}
	}
	close(fd);
	return true;
}

bool static_bin_find(const char *given, char *out, size_t len, struct err *err)
{
	char self[PATH_MAX], dir[PATH_MAX], cand[PATH_MAX + 64];
	ssize_t n;

	if (given) {
		if (!static_bin_check(given, err)) {
			err_prefix(err, "--iolab-static");
			return false;
		}
		snprintf(out, len, "%s", given);
		return true;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return err_set(
			err, EXIT_ENV, errno,
			"cannot find the running iolab; give --iolab-static PATH");
	self[n] = '\0';
	if (static_bin_check(self, NULL)) {
		snprintf(out, len, "%s", self);
		return true;
	}
	{
		char tmp[PATH_MAX];

		snprintf(tmp, sizeof(tmp), "%s", self);
		snprintf(dir, sizeof(dir), "%s", dirname(tmp));
	}
	snprintf(cand, sizeof(cand), "%s/iolab-static", dir);
	if (!access(cand, X_OK) && static_bin_check(cand, NULL)) {
		snprintf(out, len, "%s", cand);
		return true;
	}
	snprintf(cand, sizeof(cand), "%s/../libexec/iolab/iolab-static", dir);
	if (!access(cand, X_OK) && static_bin_check(cand, NULL)) {
		snprintf(out, len, "%s", cand);
		return true;
	}
	return err_set(
		err, EXIT_ENV, ENOENT,
		"no static iolab for the guests (looked for %s/iolab-static and %s/../libexec/iolab/iolab-static): build one with meson setup build-static -Dstatic=true && ninja -C build-static, then pass --iolab-static build-static/iolab",
		dir, dir);
}
