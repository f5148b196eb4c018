/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest-to-host channel: the guest's second serial port (ttyS1),
 * which QEMU connects to a socket of the host. Line messages, one per
 * line, all starting "IOLAB-"; a result travels as a DATA line giving its
 * length, then exactly that many bytes, then a newline:
 *
 *	IOLAB-HELLO <protocol> <iolab version>     init started
 *	IOLAB-LOG <text>                           a note for the report
 *	IOLAB-START <k>                            now on disk k (0, 1 ...)
 *	IOLAB-DISK <name> <bytes> <serial>         the test disk found, by
 *	                                           its serial ("-": by size)
 *	IOLAB-PROGRESS <done> <total> <label>      suite progress
 *	IOLAB-DATA <kind> <exit code> <length>     then the bytes
 *	IOLAB-FAIL <text>                          the guest gives up
 *	IOLAB-END                                  all sent; powering off
 *
 * A guest with several disks (cells sharing one guest) sends START
 * before each: what follows, up to the next START or END, is that
 * disk's cell. FAIL after a START gives up that disk only.
 *
 * Anything else on the line (there should be nothing) is ignored.
 */
#ifndef IOLAB_CMD_LAB_CHANNEL_H
#define IOLAB_CMD_LAB_CHANNEL_H

#include <stdbool.h>
#include <stddef.h>

#define CHAN_PROTOCOL 2
#define CHAN_MAX_DATA (64u << 20)

enum chan_type {
	CHAN_HELLO,
	CHAN_LOG,
	CHAN_START,
	CHAN_DISK,
	CHAN_PROGRESS,
	CHAN_DATA,
	CHAN_FAIL,
	CHAN_END,
};

struct chan_event {
	enum chan_type type;
	char text[512]; /* HELLO: version; LOG, FAIL: text; PROGRESS: label;
			   DISK: device name */
	char kind[16]; /* DATA: "suite", "doctor" */
	char serial[32]; /* DISK: the serial it was found by, "-" none */
	int code; /* DATA: the exit code of what produced it */
	unsigned long long n1, n2; /* PROGRESS: done, total; DISK: bytes;
				      HELLO: protocol;
				      START: the disk's number */
	char *data; /* DATA: the bytes, NUL-terminated; caller frees */
	size_t len;
};

struct chan_parser {
	char *buf;
	size_t len, cap;
	bool in_data; /* reading the bytes of a DATA message */
	struct chan_event data_ev;
};

void chan_parser_init(struct chan_parser *p);
void chan_parser_free(struct chan_parser *p);
/* Append bytes read from the channel. */
void chan_feed(struct chan_parser *p, const char *data, size_t len);
/* Take the next complete message; false when none is complete yet. */
bool chan_next(struct chan_parser *p, struct chan_event *ev);

/* Guest side: write one message line (printf-like) / a DATA message. */
bool chan_send(int fd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool chan_send_data(int fd, const char *kind, int code, const char *data,
		    size_t len);

#endif
