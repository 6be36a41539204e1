"""Typed errors of the network layer, each quoting a bounded part of what was received.

They derive from :class:`pyramid.errors.PyramidError`, like the engine's and the
saved data's, so the console tells "bad input from the network" apart from its
own bugs. Every message quotes at most :data:`QUOTE_LIMIT` characters of the
input: a hostile peer must not be able to fill a log with its bytes.
"""

from __future__ import annotations

from pyramid.errors import PyramidError

#: How many characters of received input an error message quotes at most.
QUOTE_LIMIT = 80


def quote(data: bytes | str) -> str:
    """``repr`` of the first :data:`QUOTE_LIMIT` characters of ``data``, marked when cut."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    if len(text) > QUOTE_LIMIT:
        return repr(text[:QUOTE_LIMIT]) + f"… ({len(text)} characters)"
    return repr(text)


class NetError(PyramidError):
    """Base class of every error about what came (or did not come) from the network."""


class ProtocolError(NetError):
    """A message that is not one of the protocol's: bad JSON, unknown type, wrong field."""


class MatchVoidError(NetError):
    """The opponent's moves or claims do not agree with the engine: the match is void.

    ``reason`` is a short code the console turns into words: ``"illegal_move"``,
    ``"out_of_order"``, ``"changed_move"``, ``"score_mismatch"``, ``"wrong_match"``.
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class PeerFault(NetError):
    """The peer broke a rule or went away; ``reason`` is a short code for the log and events.

    Codes: ``"closed"``, ``"timeout"``, ``"too_long"``, ``"flood"``, ``"protocol"``,
    ``"unsent"`` (the peer does not read what it is sent), ``"busy"``.
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
