"""A table as discovery announces it: the DNS-SD TXT record, written and checked both ways.

TXT keys (all values ASCII or UTF-8 text, checked like protocol fields when read):
``host`` (the host player's name), ``match``, ``level`` (the host's maximum
skill level), ``seats`` (seats free, 0 or 1), ``v`` (protocol version). A
console in the network menu with no table open announces itself too (so a host
can invite it) with ``match=0``, ``level=`` (empty) and ``seats=0``. An
announcement that does not check is ignored: discovery is as untrusted as the
table connection.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from pyramid.net.addresses import is_allowed_peer
from pyramid.net.errors import ProtocolError, quote
from pyramid.net.protocol import Invite, TableInfo, check, received_name
from pyramid.net.views import Via

#: A number in a TXT record: ASCII digits only ("²" and "٣" are digits to ``str.isdigit`` but not to ``int``).
_NUMBER = re.compile(r"[0-9]{1,10}\Z")

#: The DNS-SD service type of a Pyramids table.
SERVICE_TYPE: Final = "_pyramids._tcp"

@dataclass(frozen=True, slots=True)
class TableAd:
    """One announced table: who hosts it, where it listens, and what it offers."""

    host: str
    address: str
    port: int
    match: int
    level: str
    seats: int
    version: int
    #: The DNS-SD instance name (unique on the network), or ``server:ACCOUNT``: what :class:`TableGone` names.
    key: str = ""
    #: Through the table server, ``address`` is the host's account and ``port`` 0.
    via: Via = "lan"

    @property
    def is_table(self) -> bool:
        """A table open to join (else a console in the network menu, which can only be invited)."""
        return self.match != 0

    @classmethod
    def lobby(cls, name: str, port: int, version: int) -> "TableAd":
        """The announcement of a console with no table open."""
        return cls(name, "", port, 0, "", 0, version)

    def txt(self) -> dict[str, str]:
        """The TXT record's key/value pairs."""
        return {"host": self.host, "match": str(self.match), "level": self.level, "seats": str(self.seats),
                "v": str(self.version)}

    @classmethod
    def from_txt(cls, key: str, address: str, port: int, txt: dict[str, str]) -> "TableAd":
        """Check a received TXT record; :class:`ProtocolError` if any field is missing or wrong."""
        if not is_allowed_peer(address):
            raise ProtocolError(f"not a table announcement ({address[:80]!r} is not a loopback, link-local or"
                                f" private address): {quote(repr(txt))}")
        host, match_number, level, seats, version = _checked(txt, port)
        return cls(host, address, port, match_number, level, seats, version, key)

    @classmethod
    def from_server(cls, account: str, txt: object) -> "TableAd":
        """Check an advert relayed by the table server (the same fields as the TXT record, as a JSON
        object, under the account that published it); :class:`ProtocolError` if it is not one."""
        if not isinstance(txt, dict) or not all(isinstance(value, str) for value in txt.values()):
            raise ProtocolError(f"not a table announcement: {quote(repr(txt))}")
        host, match_number, level, seats, version = _checked(txt, 1)
        return cls(host, account, 0, match_number, level, seats, version, f"server:{account}", "server")


def _checked(txt: dict[str, str], port: int) -> tuple[str, int, str, int, int]:
    """The fields of an announcement, each checked like a protocol field (the name canonical)."""
    try:
        host, match_text, level = txt["host"], txt["match"], txt["level"]
        seats_text, version_text = txt["seats"], txt["v"]
        if not all(_NUMBER.match(text) for text in (match_text, seats_text, version_text)):
            raise ProtocolError("match, seats and v are numbers")
        version, match_number, seats = int(version_text), int(match_text), int(seats_text)
        host = received_name(host, "host")
        if match_number == 0 and (level, seats) == ("", 0):
            check(Invite(host, port, 1))  # a console in the network menu
        else:
            check(TableInfo(host, match_number, level, seats))
            check(Invite(host, port, match_number))
    except (KeyError, ProtocolError) as error:
        raise ProtocolError(f"not a table announcement ({error}): {quote(repr(txt))}") from None
    return host, match_number, level, seats, version


def parse_port(text: str) -> int:
    """A port as a browser prints it; :class:`ProtocolError` unless it is 1…65535 in ASCII digits."""
    if not _NUMBER.match(text) or not 1 <= int(text) <= 65535:
        raise ProtocolError(f"not a port: {quote(text)}")
    return int(text)
