"""Typed errors of the engine, each quoting the offending input.

They derive from :class:`pyramid.errors.PyramidError` (a leaf module with no
imports), so callers that only care about "bad input" catch one thing while
the command line and the console can tell the kinds apart.
"""

from __future__ import annotations

from pyramid.errors import PyramidError


class EngineError(PyramidError):
    """Base class of every error raised by the engine for bad input."""


class InvalidCardError(EngineError):
    """A card written in a notation the engine does not know (e.g. ``"1x"``)."""


class InvalidDealError(EngineError):
    """A deal with the wrong number of cards, a duplicate or a missing card."""


class IllegalMoveError(EngineError):
    """A move that the rules do not allow in the current position."""


class InvalidMoveError(EngineError):
    """A move written in a notation the engine cannot parse."""


class OtherDealError(EngineError):
    """A position asked of a solver made for another deal or other rules."""


class ReplayError(EngineError):
    """Moves in notation that no longer replay on their deal (a saved game, a peer's game)."""


class UnknownPresetError(EngineError, KeyError):
    """A rule preset name the engine does not know (``"retrohb"``).

    Also a ``KeyError``: a preset is looked up by name, as in a mapping.
    """

    def __str__(self) -> str:  # KeyError would quote the whole message again
        return str(self.args[0]) if self.args else ""
