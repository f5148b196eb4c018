// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "iolab help COMMAND" at a terminal: the command's man page, as git help
 * does, when man knows it; else (a pipe, a script, no page installed) the
 * --help text, so that output meant for programs never changes.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"

extern char **environ;

/* Does "man -w PAGE" find it? Quietly, and without a shell. */
static bool man_has(const char *page)
{
	char *argv[] = { (char *)"man", (char *)"-w", (char *)page, NULL };
	posix_spawn_file_actions_t fa;
	int status = -1;
	pid_t pid;
	bool ok;

	if (posix_spawn_file_actions_init(&fa))
		return false;
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null",
					 O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null",
					 O_WRONLY, 0);
	ok = !posix_spawnp(&pid, "man", &fa, NULL, argv, environ) &&
	     waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	     WEXITSTATUS(status) == 0;
	posix_spawn_file_actions_destroy(&fa);
	return ok;
}

bool cmd_help_man(const char *command)
{
	char page[64];

	if (!isatty(STDOUT_FILENO))
		return false;
	snprintf(page, sizeof(page), "iolab-%s", command);
	if (!man_has(page))
		return false;
	fflush(stdout);
	execlp("man", "man", page, (char *)NULL);
	return false; /* man vanished since: the --help text then */
}
