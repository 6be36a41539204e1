"""Keeping the text console from drawing over a framebuffer we write to.

A Linux virtual terminal in text mode repaints its cursor and messages into
the framebuffer; ``KDSETMODE KD_GRAPHICS`` stops that (FACTS.md). The previous
mode is restored on exit so a crash-free shutdown leaves a usable console.
"""

from __future__ import annotations

import fcntl
import logging
import os
import re
import struct
import sys

KDSETMODE = 0x4B3A
KDGETMODE = 0x4B3B
KD_TEXT = 0
KD_GRAPHICS = 1

log = logging.getLogger(__name__)


def _console_path() -> str:
    """Our own virtual terminal if we run on one (a service on tty1), else the active one."""
    try:
        own = os.ttyname(sys.stdin.fileno())
    except (OSError, ValueError):
        own = ""
    return own if re.fullmatch(r"/dev/tty\d+", own) else "/dev/tty0"


class ConsoleGraphicsMode:
    """Switch the virtual terminal to graphics mode until :meth:`restore`; a no-op where not allowed."""

    def __init__(self, path: str | None = None) -> None:
        self.path = path or _console_path()
        self._fd: int | None = None
        self._previous = KD_TEXT
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_NOCTTY)
        except OSError as error:
            log.info("text console left in text mode: cannot open %s (%s)", self.path, error)
            return
        try:
            mode = fcntl.ioctl(fd, KDGETMODE, struct.pack("i", 0))
            self._previous = struct.unpack("i", mode)[0]
            fcntl.ioctl(fd, KDSETMODE, KD_GRAPHICS)
        except OSError as error:
            log.info("text console left in text mode: %s refused KDSETMODE (%s)", self.path, error)
            os.close(fd)
            return
        self._fd = fd

    @property
    def active(self) -> bool:
        return self._fd is not None

    def restore(self) -> None:
        if self._fd is None:
            return
        try:
            fcntl.ioctl(self._fd, KDSETMODE, self._previous)
        except OSError as error:
            log.warning("could not restore the text console on %s: %s", self.path, error)
        os.close(self._fd)
        self._fd = None
