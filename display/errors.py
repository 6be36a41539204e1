"""Errors of the display package.

:class:`DisplayError` is for the environment (no screen, wrong SDL driver, a
framebuffer that cannot be opened): its message always says what to do, so the
application can print it and exit non-zero. :class:`LayoutError` is for bad
input to the pure layout (a screen too small to hold the table).
"""

from __future__ import annotations


class DisplayError(RuntimeError):
    """A screen could not be opened or used; the message tells the user what to try."""


class LayoutError(ValueError):
    """The layout cannot fit the table on a screen of the given size."""
