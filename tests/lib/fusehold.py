# SPDX-License-Identifier: GPL-2.0-or-later
"""A one-file FUSE filesystem served in a thread over the raw /dev/fuse
protocol (stdlib only), whose read replies can be held while told to: a
device that stalls, for the tests of stuck I/O, or fails its reads
(fail_errno). The file (NAME, SIZE bytes) reads as zeros. Needs root;
skips (77) when FUSE cannot be mounted."""
import ctypes
import os
import struct
import subprocess
import threading

from iolabtest import skip

IN_HDR = struct.Struct("=IIQQIIIHH")      # fuse_in_header, 40 bytes
OUT_HDR = struct.Struct("=IiQ")           # fuse_out_header, 16 bytes
ATTR = struct.Struct("=QQQQQQIIIIIIIIII")  # fuse_attr, 88 bytes
LOOKUP, GETATTR, OPEN, READ, RELEASE, INIT = 1, 3, 14, 15, 18, 26
FORGET, INTERRUPT, BATCH_FORGET = 2, 36, 42
NAME, INO, SIZE = b"disk.img", 2, 64 << 20


class Fuse:
    def __init__(self, mnt):
        self.fd = os.open("/dev/fuse", os.O_RDWR)
        self.hold = False
        self.fail_errno = 0  # reads fail with this errno while non-zero
        self.held = []
        self.lock = threading.Lock()
        libc = ctypes.CDLL(None, use_errno=True)
        opts = ("fd=%d,rootmode=40000,user_id=0,group_id=0,allow_other" %
                self.fd).encode()
        if libc.mount(b"iolabtest", mnt.encode(), b"fuse", 0, opts):
            e = ctypes.get_errno()
            os.close(self.fd)
            skip("cannot mount a FUSE filesystem: " + os.strerror(e))
        self.th = threading.Thread(target=self.serve, daemon=True)
        self.th.start()

    def reply(self, unique, err=0, body=b""):
        try:
            os.write(self.fd, OUT_HDR.pack(OUT_HDR.size + len(body), -err,
                                           unique) + body)
        except OSError:
            pass  # the request was interrupted or the mount is gone

    def attr(self, ino):
        if ino == 1:
            return ATTR.pack(1, 0, 0, 0, 0, 0, 0, 0, 0, 0o40755, 2, 0, 0, 0,
                             4096, 0)
        return ATTR.pack(INO, SIZE, SIZE // 512, 0, 0, 0, 0, 0, 0, 0o100644,
                         1, 0, 0, 0, 4096, 0)

    def serve(self):
        while True:
            try:
                buf = os.read(self.fd, (1 << 20) + 4096)
            except OSError:
                return
            if len(buf) < IN_HDR.size:
                return
            _, op, unique, node, _, _, _, _, _ = IN_HDR.unpack_from(buf)
            arg = buf[IN_HDR.size:]
            if op in (FORGET, BATCH_FORGET, INTERRUPT):
                continue
            if op == INIT:
                major, minor, ra, flags = struct.unpack_from("=IIII", arg)
                self.reply(unique, 0, struct.pack(
                    "=IIIIHHIIHHII24x", 7, min(minor, 31), ra, 0, 16, 12,
                    128 << 10, 1, 0, 0, 0, 0))
            elif op == LOOKUP:
                if arg.rstrip(b"\0") != NAME:
                    self.reply(unique, 2)  # ENOENT
                else:
                    self.reply(unique, 0, struct.pack("=QQQQII", INO, 0, 0,
                                                      0, 0, 0) +
                               self.attr(INO))
            elif op == GETATTR:
                self.reply(unique, 0, struct.pack("=QII", 0, 0, 0) +
                           self.attr(node))
            elif op == OPEN:
                self.reply(unique, 0, struct.pack("=QIi", 1, 0, 0))
            elif op == READ:
                _, off, size = struct.unpack_from("=QQI", arg)
                size = max(0, min(size, SIZE - off))
                with self.lock:
                    if self.fail_errno:
                        self.reply(unique, self.fail_errno)
                        continue
                    if self.hold:
                        self.held.append((unique, size))
                        continue
                self.reply(unique, 0, bytes(size))
            elif op == RELEASE:
                self.reply(unique)
            else:
                self.reply(unique, 38)  # ENOSYS

    def stall(self):
        with self.lock:
            self.hold = True

    def release(self):
        with self.lock:
            self.hold = False
            held, self.held = self.held, []
        for unique, size in held:
            self.reply(unique, 0, bytes(size))

    def close(self, mnt):
        self.release()
        subprocess.run(["umount", "-l", mnt], capture_output=True)
        os.close(self.fd)
