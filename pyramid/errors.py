"""The root of every error the console raises for bad input, and the contracts' own errors.

Each layer has its own family under :class:`PyramidError` (the engine's in
:mod:`pyramid.engine.errors`, the saved data's in :mod:`pyramid.saved.errors`),
so ``main()`` catches one family and turns it into a one-line message and an
exit status. Every error is a ``ValueError``; each message quotes the input.
"""

from __future__ import annotations


class PyramidError(ValueError):
    """Base class of every error raised for bad input anywhere in the console."""


class InvalidActionError(PyramidError):
    """An input action written in a notation the console cannot parse."""
