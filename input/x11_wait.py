"""Sleeping on the X server's socket, so an idle window uses no CPU.

pygame-ce's ``event.wait(timeout)`` polls SDL every millisecond (about 2 %
of a core when idle, measured under Xvfb). On X11 every input event arrives
on one socket, the X connection, so the main loop can instead block in
``select`` on that socket plus a pipe that producer threads write to, then
let SDL read what came. The socket is found through the window's X
``Display`` (``pygame.display.get_wm_info()``) and libX11's
``XConnectionNumber``; events Xlib already holds are checked with
``XEventsQueued`` before sleeping. Other video drivers keep pygame's wait.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import select

import pygame

#: XEventsQueued mode: count the events Xlib holds without reading or flushing.
QUEUED_ALREADY = 0


class X11Wait:
    """Blocks until the X connection or the wake pipe is readable, or a time-out."""

    def __init__(self, xlib: ctypes.CDLL, display: int) -> None:
        self._xlib = xlib
        self._display = display
        self._connection = xlib.XConnectionNumber(display)
        self._wake_read, self._wake_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)

    @classmethod
    def for_window(cls) -> "X11Wait | None":
        """The waiter for the open pygame window, or None when it is not an X11 window."""
        if not pygame.display.get_init() or pygame.display.get_driver() != "x11":
            return None
        library = ctypes.util.find_library("X11")
        capsule = pygame.display.get_wm_info().get("display")
        if library is None or capsule is None:
            return None
        get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
        get_pointer.restype = ctypes.c_void_p
        get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
        xlib = ctypes.CDLL(library)
        xlib.XConnectionNumber.argtypes = [ctypes.c_void_p]
        xlib.XEventsQueued.argtypes = [ctypes.c_void_p, ctypes.c_int]
        return cls(xlib, get_pointer(capsule, b"display"))

    def wait(self, timeout: float | None) -> None:
        """Return when X events or a wake-up arrived, or after ``timeout`` seconds (None: no limit)."""
        if self._xlib.XEventsQueued(self._display, QUEUED_ALREADY) == 0:
            select.select([self._connection, self._wake_read], [], [], timeout)
        try:
            while os.read(self._wake_read, 4096):
                pass
        except BlockingIOError:
            pass

    def wake(self) -> None:
        """From any thread: end a pending :meth:`wait`."""
        try:
            os.write(self._wake_write, b"!")
        except BlockingIOError:
            pass  # the pipe is full: the waiter is already due to wake

    def close(self) -> None:
        os.close(self._wake_read)
        os.close(self._wake_write)
