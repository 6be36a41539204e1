"""What a console saved of its table, checked as it is read back (issue 45).

The saved table lives in the data directory, which a damaged card or a hand edit can change: a
port of 10**30 there once reached ``asyncio``'s socket calls, whose ``OverflowError`` ended the
network task with no event at all, and Continue waited for ever. Each value is held to what the
console itself could have written, else :class:`ProtocolError` names it, and the caller sets the
saved table aside.
"""

from __future__ import annotations

from pyramid.engine.deal import MAX_DEAL_NUMBER
from pyramid.net.views import Via
from pyramid.net.errors import ProtocolError, quote
from pyramid.net.server.account import ACCOUNT

#: The longest host a console writes: a DNS name (RFC 1035) or an address literal.
MAX_HOST = 253


def match_number(value: object) -> int:
    """A match number the duel can deal (1 … MAX_DEAL_NUMBER)."""
    if type(value) is not int or not 1 <= value <= MAX_DEAL_NUMBER:
        raise ProtocolError(f"the saved match number {quote(repr(value))} is not 1 to {MAX_DEAL_NUMBER}")
    return value


def table_address(value: object, via: Via) -> tuple[str, int]:
    """Where a guest's table is: on the home network a host and a port 1-65535; through the table
    server the host's account, port 0."""
    host, port = _pair(value, "table address")
    if via == "server":
        if not ACCOUNT.match(host) or port != 0:
            raise ProtocolError(f"the saved table address {quote(repr(value))} is not an account on the table server")
    elif not 1 <= port <= 65535:
        raise ProtocolError(f"the saved table's port {port} is not 1 to 65535")
    return host, port


def listen_address(value: object) -> tuple[str, int] | None:
    """Where a host listened (``""``: every interface; port 0: any), or None when it did not say."""
    if value is None:
        return None
    host, port = _pair(value, "listening address", empty_host=True)
    if not 0 <= port <= 65535:
        raise ProtocolError(f"the saved listening port {port} is not 0 to 65535")
    return host, port


def _pair(value: object, what: str, empty_host: bool = False) -> tuple[str, int]:
    """A host text and an integer port, as the table was saved (a JSON list of two)."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ProtocolError(f"the saved {what} {quote(repr(value))} is not a host and a port")
    host, port = value
    if (not isinstance(host, str) or len(host) > MAX_HOST or (not host and not empty_host)
            or not host.isprintable() or any(character.isspace() for character in host)):
        raise ProtocolError(f"the saved {what}'s host {quote(repr(host))} is not a host name or address")
    if type(port) is not int:
        raise ProtocolError(f"the saved {what}'s port {quote(repr(port))} is not a number")
    return host, port
