// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Inside a lab guest with --check: iolab check's profile on the test
 * disk, judged as `iolab check` judges it, its JSON document written for
 * the guest init to send; see lab_check.h. The guest sees only its
 * virtual disk: whether QEMU honoured its flushes is the host's to say.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lab_check.h"
#include "../check/check_report.h"
#include "../../core/target.h"
#include "../../util/err.h"
#include "../../util/parse.h"
#include "../../util/warn.h"

int lab_check_guest_run(const struct check_profile *p, uint64_t runtime_ns,
			const char *dev, const char *json_path, struct err *err)
{
	struct target_req req = {
		.path = dev,
		.need_write = true, /* every profile writes */
		.allow_write_device = true,
	};
	char rt[32];
	/* What a user would type in a VM to get the same document. */
	char *argv[] = { (char *)"iolab",
			 (char *)"check",
			 (char *)"--runtime",
			 rt,
			 (char *)"--allow-write-device",
			 (char *)"--json",
			 (char *)p->name,
			 (char *)dev,
			 NULL };
	struct check_result r = { .profile = p, .runtime_ns = runtime_ns };
	struct check_report rep;
	struct warnings w = { 0 };
	struct target t;
	bool ran, wrote = false;
	FILE *f;
	int fd, rc;

	snprintf(rt, sizeof(rt), "%llums",
		 (unsigned long long)(runtime_ns / 1000000ull));
	if (!target_prepare(&t, &req, &w, err)) {
		target_release(&t);
		warnings_free(&w);
		return err->exit_code ? err->exit_code : EXIT_ENV;
	}
	/* The live line goes to stderr: the guest init relays it. */
	ran = check_run(&r, &t, true, "iolab check", &w, err);
	if (ran && r.judged && r.verdict == CHECK_FAIL)
		check_hints_collect(&r, &t);
	rep = (struct check_report){
		.argc = 8, .argv = argv, .target = &t, .res = &r, .warnings = &w
	};
	/* A new file: never one that was there, never through a link. */
	fd = ran ? open(json_path,
			O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			0644) :
		   -1;
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f && fd >= 0)
		close(fd);
	if (f) {
		wrote = check_json_write(&rep, f, err);
		if (fclose(f))
			wrote = false;
	} else if (ran) {
		err_set(err, EXIT_ENV, errno, "cannot write %s: %s", json_path,
			strerror(errno));
	}
	if (!ran)
		rc = err->exit_code ? err->exit_code : EXIT_ENV;
	else if (!wrote)
		rc = EXIT_ENV;
	else
		rc = r.judged ? EXIT_OK : EXIT_IO;
	check_result_free(&r);
	check_hints_free(&r);
	target_release(&t);
	warnings_free(&w);
	return rc;
}
