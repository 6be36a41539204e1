"""The table protocol: newline-delimited JSON objects, each checked by hand into a frozen value.

Why newline-delimited JSON: it is readable in a packet capture and with ``nc``,
every language has a parser, and a line is bounded by looking for one byte, so a
reader can refuse an over-long message after :data:`MAX_MESSAGE` bytes without
buffering the rest (asyncio's ``StreamReader.readuntil`` with a ``limit`` does
exactly that). JSON never holds a raw newline (it is escaped inside strings), so
the framing cannot be confused. A length prefix would save a scan but needs a
binary reader on the other side and gains nothing at a few messages a second.

Each line is one UTF-8 JSON object with a type tag ``"t"``; the fields of each
type are fixed (unknown fields, wrong types and out-of-range values are refused)
and decoded into the frozen dataclasses below. :func:`decode` raises
:class:`~pyramid.net.errors.ProtocolError` for anything else; nothing received is
ever used as a file name, a command or code: the only things kept are bounded
integers, names checked for printable characters, and moves matching the
engine's canonical notation. See docs/network.md for the message list.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final, Literal, Union, get_args

from pyramid.engine.deal import MAX_DEAL_NUMBER
from pyramid.engine.duel.levels import LEVELS
from pyramid.net.errors import ProtocolError, quote

#: The protocol version a console speaks; a hello with another version is refused. Version 2 (issue
#: 30): the guest states its skill level in its join, and a table refuses one above its own. Version 3
#: (issue 47): a round ends only when the player has no move in sight (the stock empty, the joker
#: used, no card fitting), so a console of version 2 would replay a game to another end.
PROTOCOL_VERSION: Final = 3
#: The largest message, in bytes, newline included.
MAX_MESSAGE: Final = 64 * 1024
#: The most ``[`` and ``{`` a message may hold. Every message is one flat object, and only a name
#: (32 characters at most) may hold brackets, so a valid one has far fewer; deeper nesting is
#: refused before the JSON parser recurses to Python's limit (where, on the network thread, a
#: finaliser running at that depth failed with a RecursionError of its own in a soak).
MAX_BRACKETS: Final = 64
#: The longest player name, in characters.
MAX_NAME: Final = 32
#: The most moves a player can make in one match (far above any real game).
MAX_MOVES: Final = 10_000
#: Bounds of a claimed score (a real match stays within a few thousand points).
MAX_SCORE: Final = 1_000_000

RefuseReason = Literal["full", "version", "no_table", "bad_token", "closed", "busy", "level"]
LeaveReason = Literal["left", "closed", "void"]

_MOVE = re.compile(r"(?:turn|joker|[A23456789TJQK][cdhs])\Z")
_TOKEN = re.compile(r"[0-9a-f]{32}\Z")


@dataclass(frozen=True, slots=True)
class Hello:
    """First message of every connection, both ways: the protocol version and the player's name."""

    v: int
    name: str


@dataclass(frozen=True, slots=True)
class TableInfo:
    """The host's answer to a hello: what table it has open (``seats`` 0 when none or full)."""

    host: str
    match: int
    level: str
    seats: int


@dataclass(frozen=True, slots=True)
class Join:
    """A guest asks for the seat; ``token`` is "" the first time, the seat's token to come back;
    ``level`` is the guest's own skill level, which a new seat must not exceed the table's (its
    host's maximum skill level). Added in version 2."""

    token: str
    level: str


@dataclass(frozen=True, slots=True)
class Accept:
    """The host seats the guest: the token to reconnect with, the match and the host's maximum level."""

    token: str
    match: int
    level: str


@dataclass(frozen=True, slots=True)
class Refuse:
    """The host does not seat the guest (or does not take an invite); the connection then closes."""

    reason: RefuseReason


@dataclass(frozen=True, slots=True)
class Invite:
    """A host invites this console to its table (sent on a short connection of its own)."""

    host: str
    port: int
    match: int


@dataclass(frozen=True, slots=True)
class Move:
    """The sender's move number ``n`` (1-based, per match) in the engine's notation."""

    match: int
    n: int
    move: str


@dataclass(frozen=True, slots=True)
class Resend:
    """"I am on match ``match``; send me your moves from number ``next`` on": sent once a link is
    (re)established, and again when a rematch starts."""

    match: int
    next: int


@dataclass(frozen=True, slots=True)
class Status:
    """What the sender claims after its move ``moves``; the receiver checks it against its replay."""

    match: int
    round: int
    score: int
    moves: int
    finished: bool


@dataclass(frozen=True, slots=True)
class Rematch:
    """A proposal to play a new match with number ``match`` once both have finished."""

    match: int


@dataclass(frozen=True, slots=True)
class RematchAccept:
    """Agreement to the proposal of ``match``: both sides start it."""

    match: int


@dataclass(frozen=True, slots=True)
class Leave:
    """The sender leaves the table for good (not a network drop); the connection then closes."""

    reason: LeaveReason


@dataclass(frozen=True, slots=True)
class Ping:
    """Keeps an idle link known to be alive; answered by a :class:`Pong` with the same ``n``."""

    n: int


@dataclass(frozen=True, slots=True)
class Pong:
    n: int


Message = Union[
    Hello, TableInfo, Join, Accept, Refuse, Invite, Move, Resend, Status, Rematch, RematchAccept, Leave, Ping, Pong
]

#: The type tag of each message class, as written in ``"t"``.
TAGS: Final[dict[type[Any], str]] = {
    Hello: "hello", TableInfo: "table", Join: "join", Accept: "accept", Refuse: "refuse",
    Invite: "invite", Move: "move", Resend: "resend", Status: "status", Rematch: "rematch",
    RematchAccept: "rematch_ok", Leave: "leave", Ping: "ping", Pong: "pong",
}
_CLASSES: Final = {tag: cls for cls, tag in TAGS.items()}


def encode(message: Message) -> bytes:
    """One line: the message as compact JSON with its tag, then ``\\n``."""
    data = {"t": TAGS[type(message)], **asdict(message)}
    line = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
    if len(line) > MAX_MESSAGE:
        raise ProtocolError(f"message too long to send ({len(line)} bytes): {quote(line)}")
    return line


def decode(line: bytes) -> Message:
    """Check one received line (with or without its newline) and return its message.

    Raises :class:`ProtocolError`, quoting a bounded part of ``line``, for
    anything that is not exactly one of the protocol's messages.
    """
    if len(line) > MAX_MESSAGE:
        raise ProtocolError(f"message longer than {MAX_MESSAGE} bytes: {quote(line)}")
    if line.count(b"[") + line.count(b"{") > MAX_BRACKETS:
        raise ProtocolError(f"more than {MAX_BRACKETS} brackets, which no message holds: {quote(line)}")
    try:
        text = line.decode("utf-8")
        data = json.loads(text, parse_constant=_refuse_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ProtocolError(f"not a JSON message ({type(error).__name__}): {quote(line)}") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"a message is a JSON object: {quote(line)}")
    tag = data.pop("t", None)
    cls = _CLASSES.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise ProtocolError(f"unknown message type {quote(str(tag))}: {quote(line)}")
    names = [field.name for field in fields(cls)]
    if set(data) != set(names):
        raise ProtocolError(f"{tag!r} needs the fields {sorted(names)}, got {quote(str(sorted(data)))}: {quote(line)}")
    message: Message = cls(**data)
    try:
        check(message)
        return _canonical_names(message)
    except ProtocolError as error:
        raise ProtocolError(f"{tag!r}: {error}: {quote(line)}") from None


def _canonical_names(message: Message) -> Message:
    """``message`` with the names it carries in their canonical form (:func:`received_name`)."""
    match message:
        case Hello(name=name):
            return replace(message, name=received_name(name, "name"))
        case TableInfo(host=host) | Invite(host=host):
            return replace(message, host=received_name(host, "host"))
    return message


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def check(message: Message) -> None:
    """Raise ProtocolError unless every field of ``message`` has its type and range."""
    match message:
        case Hello(v=v, name=name):
            _int(v, "v", 0, 1_000_000)
            check_name(name, "name")
        case TableInfo(host=host, match=match, level=level, seats=seats):
            check_name(host, "host")
            _match(match)
            _level(level)
            _int(seats, "seats", 0, 1)
        case Join(token=token, level=level):
            if not (isinstance(token, str) and (token == "" or _TOKEN.match(token))):
                raise ProtocolError("token must be '' or 32 lower-case hex digits")
            _level(level)
        case Accept(token=token, match=match, level=level):
            if not (isinstance(token, str) and _TOKEN.match(token)):
                raise ProtocolError("token must be 32 lower-case hex digits")
            _match(match)
            _level(level)
        case Refuse(reason=reason):
            _choice(reason, "reason", get_args(RefuseReason))
        case Invite(host=host, port=port, match=match):
            check_name(host, "host")
            _int(port, "port", 1, 65535)
            _match(match)
        case Move(match=match, n=n, move=move):
            _match(match)
            _int(n, "n", 1, MAX_MOVES)
            if not (isinstance(move, str) and _MOVE.match(move)):
                raise ProtocolError("move must be 'turn', 'joker' or a card such as 'Th'")
        case Resend(match=match, next=next_number):
            _match(match)
            _int(next_number, "next", 1, MAX_MOVES + 1)
        case Status(match=match, round=round_number, score=score, moves=moves, finished=finished):
            _match(match)
            _int(round_number, "round", 1, 100)
            _int(score, "score", -MAX_SCORE, MAX_SCORE)
            _int(moves, "moves", 0, MAX_MOVES)
            if not isinstance(finished, bool):
                raise ProtocolError("finished must be true or false")
        case Rematch(match=match) | RematchAccept(match=match):
            _match(match)
        case Leave(reason=reason):
            _choice(reason, "reason", get_args(LeaveReason))
        case Ping(n=n) | Pong(n=n):
            _int(n, "n", 0, 2**31 - 1)


def check_name(value: object, field: str = "name") -> str:
    """A player name: 1…MAX_NAME printable characters, no surrounding spaces; returned as is."""
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_NAME or value != value.strip():
        raise ProtocolError(f"{field} must be 1..{MAX_NAME} characters without surrounding spaces")
    if any(unicodedata.category(char).startswith(("C", "Z")) and char != " " for char in value):
        raise ProtocolError(f"{field} may not hold control or separator characters")
    return value


#: Variation selectors only choose how a character looks (U+FE0F: "as an emoji"): a phone
#: writes Bob♥️ for Bob♥. Dropped from received names, so both are one name.
_VARIATION_SELECTORS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def received_name(value: object, field: str = "name") -> str:
    """A name from another console, checked (:func:`check_name`) and in one canonical form:
    Unicode NFC (so "e" + combining acute and "é" are one name) without variation selectors."""
    canonical = _VARIATION_SELECTORS.sub("", unicodedata.normalize("NFC", check_name(value, field)))
    return check_name(canonical, field)


def _int(value: object, field: str, low: int, high: int) -> None:
    if type(value) is not int or not low <= value <= high:
        raise ProtocolError(f"{field} must be an integer in {low}..{high}")


def _match(value: object) -> None:
    _int(value, "match", 1, MAX_DEAL_NUMBER)


def _level(value: object) -> None:
    _choice(value, "level", LEVELS)


def _choice(value: object, field: str, choices: tuple[str, ...]) -> None:
    if not isinstance(value, str) or value not in choices:
        raise ProtocolError(f"{field} must be one of {', '.join(choices)}")
