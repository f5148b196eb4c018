/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest init: what iolab does when the kernel starts it as /init in
 * a lab guest. It mounts proc, sys and devtmpfs, loads the bus's kernel
 * modules (finit_module), finds the test disk, fills it, runs the suite
 * (and doctor, if asked), sends the results to the host over the channel
 * (ttyS1, see channel.h) and powers the machine off.
 */
#ifndef IOLAB_CMD_LAB_GUEST_H
#define IOLAB_CMD_LAB_GUEST_H

#include <stdbool.h>

/*
 * True when this process is a lab guest's init: PID 1, started as
 * "/init", with the lab's configuration file present. Anything else (a
 * container whose PID 1 is iolab, say) runs the normal CLI.
 */
bool lab_guest_is_init(int argc, char **argv);
/* Never returns while PID 1: the machine powers off. */
int lab_guest_main(int argc, char **argv);

#endif
