/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The subcommands main() dispatches to. Each takes argv with argv[0] set to
 * the subcommand's name and returns the process exit code (util/err.h).
 */
#ifndef IOLAB_CMD_COMMANDS_H
#define IOLAB_CMD_COMMANDS_H

int cmd_run(int argc, char **argv);
int cmd_mark(int argc, char **argv);
int cmd_matrix(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_advise(int argc, char **argv);
int cmd_lab(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_top(int argc, char **argv);

#include <stdbool.h>
/*
 * "iolab help COMMAND": replace the process with man iolab-COMMAND when
 * stdout is a terminal and the page is installed; false (and nothing
 * done) otherwise.
 */
bool cmd_help_man(const char *command);

#endif
