"""Typed errors of the engine.

Every error is a ``ValueError`` so callers that only care about "bad input" can
catch one thing, while the UI and the command line can tell the kinds apart.
Each message quotes the offending input.
"""

from __future__ import annotations


class PyramidError(ValueError):
    """Base class of every error raised by the engine for bad input."""


class InvalidCardError(PyramidError):
    """A card written in a notation the engine does not know (e.g. ``"1x"``)."""


class InvalidDealError(PyramidError):
    """A deal with the wrong number of cards, a duplicate or a missing card."""


class IllegalMoveError(PyramidError):
    """A move that the rules do not allow in the current position."""


class InvalidMoveError(PyramidError):
    """A move written in a notation the engine cannot parse."""


class InvalidActionError(PyramidError):
    """An input action written in a notation the engine cannot parse."""


class ReplayError(PyramidError):
    """A saved game whose deal or moves the engine no longer accepts."""


class InvalidSettingError(PyramidError):
    """A setting given a value of the wrong type or outside its choices."""
