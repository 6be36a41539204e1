"""A player's result of a daily deal, as consoles share it on the table server, and its proof.

Why a proof: a friend's result arrives from the network, and nothing from the network is
trusted. So a result carries its whole line of moves, and a console shows it only once the
line, replayed through the engine on that day's deal under that variant, ends exactly as the
result says: won or not, the score, the moves. A claim that does not replay, a better score
than the line makes, another day's deal, a day to come, a variant no console plays: refused,
with one log line, never shown (docs/network.md, "The day's deal among friends").

Who played it is never read from the payload: it is the account under whose topic the result
came, as the server's ACL binds it. The payload's ``name`` is only what the board shows beside
that account (the player's name, as in an advert).

The wire format is one JSON object, at most :data:`MAX_RESULT` bytes (within the shipped broker's
``max_packet_size`` of 8 KiB, with the topic and the MQTT header)::

    {"v": 1, "day": "2026-12-06", "variant": "retrohub/one", "name": "Ann", "won": true,
     "score": 1290, "moves": 61, "seconds": 245, "assisted": false, "line": "draw Kc 4h+9c ..."}

``score`` is the score the game is counted with (points, or the cards the goal still asked to
remove: :meth:`~pyramid.engine.board.Board.counted_score`); ``moves`` the length of ``line``;
``seconds`` the time of play; ``line`` the moves in the engine's notation, one space between two (a
game of more than :data:`MAX_LINE` moves is not shared: unlimited redeals let a game go on for ever).
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from typing import Any, Final

from pyramid.engine.board import Board
from pyramid.engine.daily import DAYS_BACK, NoDailyChallenge, daily_board
from pyramid.engine.rules import PRESETS
from pyramid.errors import PyramidError
from pyramid.net.errors import NetError, ProtocolError, quote
from pyramid.net.protocol import received_name
from pyramid.saved.stats import PyramidVariant

#: The format's version: a console reads the versions it knows and drops the others.
VERSION: Final = 1
#: Bytes of one result at most: a line of MAX_LINE moves in the longest notation fits, and the whole
#: message within the broker's 8 KiB packets (firmware/server/etc/mosquitto/conf.d/pyramids.conf).
MAX_RESULT: Final = 7680
#: Moves of a line at most (a daily deal is won in 30 to 90 moves).
MAX_LINE: Final = 1000
#: A move in the engine's notation at most ("8h+5c", "draw", "redeal", "Kc"), in characters.
MAX_MOVE: Final = 8
#: Seconds of play at most (a year): a result is a game, not a clock left running.
MAX_SECONDS: Final = 366 * 24 * 3600
#: Days a result's day may be after this console's today: another time zone's today (UTC+14 to UTC-12).
DAYS_AHEAD: Final = 1


class ResultRefused(NetError):
    """A friend's result that cannot be shown; ``reason`` is a short code for the log.

    Codes: ``"format"`` (not this format), ``"day"`` (a day to come, or older than the calendar),
    ``"variant"`` (no console plays it), ``"no_daily"`` (its preset has no daily deal),
    ``"line"`` (a move that does not replay), ``"claim"`` (the line does not end as claimed), ``"topic"``
    (a day or variant other than its topic's).
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class DailyResult:
    """A daily deal's game as a console publishes it (see the module's docstring)."""

    day: datetime.date
    variant: PyramidVariant
    name: str
    won: bool
    score: int
    moves: int
    seconds: int
    assisted: bool
    line: tuple[str, ...]

    def to_bytes(self) -> bytes:
        data = {"v": VERSION, "day": self.day.isoformat(), "variant": self.variant.key, "name": self.name,
                "won": self.won, "score": self.score, "moves": self.moves, "seconds": self.seconds,
                "assisted": self.assisted, "line": " ".join(self.line)}
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


@dataclass(frozen=True, slots=True)
class ProvenResult:
    """A friend's result whose line replayed to exactly its claim, under the account that published it."""

    account: str
    result: DailyResult


def parse_result(payload: bytes) -> DailyResult:
    """The result ``payload`` holds, every field checked for its type and bounds (not yet proven):
    :class:`ResultRefused` ("format") for anything else."""
    if len(payload) > MAX_RESULT:
        raise ResultRefused("format", f"a result of {len(payload)} bytes (at most {MAX_RESULT})")
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ResultRefused("format", f"not a JSON result: {quote(payload)}") from None
    if not isinstance(data, dict) or data.get("v") != VERSION:
        raise ResultRefused("format", f"not a version {VERSION} result: {quote(payload)}")
    try:
        return _fields(data)
    except ProtocolError as error:
        raise ResultRefused("format", str(error)) from None


def _fields(data: dict[str, Any]) -> DailyResult:
    day, variant, line = data.get("day"), data.get("variant"), data.get("line")
    if not isinstance(day, str):
        raise ProtocolError("day must be a date, YYYY-MM-DD")
    try:
        date = datetime.date.fromisoformat(day) if len(day) == 10 else None
    except ValueError:
        date = None
    if date is None:
        raise ProtocolError(f"day must be a date, YYYY-MM-DD: {quote(day)}")
    parsed = PyramidVariant.parse(variant) if isinstance(variant, str) else None
    if parsed is None:
        raise ProtocolError(f"variant must be a preset and its redeals: {quote(str(variant))}")
    moves_text = line.split(" ") if isinstance(line, str) and line else []
    if not isinstance(line, str) or len(moves_text) > MAX_LINE:
        raise ProtocolError(f"line must be at most {MAX_LINE} moves, one space between two")
    if not all(1 <= len(move) <= MAX_MOVE for move in moves_text):
        raise ProtocolError(f"each move of the line must be 1..{MAX_MOVE} characters, one space between two")
    flags = [data.get(field) for field in ("won", "assisted")]
    if not all(isinstance(flag, bool) for flag in flags):
        raise ProtocolError("won and assisted must be true or false")
    score, moves, seconds = (_whole(data.get(field), field, high)
                             for field, high in (("score", 1_000_000), ("moves", MAX_LINE), ("seconds", MAX_SECONDS)))
    return DailyResult(date, parsed, received_name(data.get("name")), bool(flags[0]), score, moves, seconds,
                       bool(flags[1]), tuple(moves_text))


def _whole(value: object, field: str, high: int) -> int:
    if type(value) is not int or not 0 <= value <= high:
        raise ProtocolError(f"{field} must be a whole number in 0..{high}")
    return value


def prove(result: DailyResult, account: str, today: datetime.date) -> ProvenResult:
    """``result``, published under ``account``, once its line replays on its day's deal under its
    variant to exactly what it claims; :class:`ResultRefused` otherwise. ``today`` is this console's:
    a result of a later day than its own tomorrow, or older than the calendar, is not shown."""
    if not today - datetime.timedelta(days=DAYS_BACK) <= result.day <= today + datetime.timedelta(days=DAYS_AHEAD):
        raise ResultRefused("day", f"{account}'s result of {result.day}: not a day of the calendar of {today}")
    board = _fresh_board(result, account)
    try:
        board.replay(result.line)
    except PyramidError as error:
        raise ResultRefused("line", f"{account}'s result of {result.day}: {error}") from None
    found = (board.status() == "cleared", board.counted_score(), len(board.move_stack))
    claimed = (result.won, result.score, result.moves)
    if found != claimed:
        raise ResultRefused("claim", f"{account}'s result of {result.day} claims won, score, moves {claimed}; "
                                     f"its line makes {found}")
    return ProvenResult(account, result)


def _fresh_board(result: DailyResult, account: str) -> Board:
    """The day's deal, dealt under the result's variant: a preset no console has, or redeals its
    preset does not let a player choose, are no console's."""
    rules = PRESETS.get(result.variant.preset)
    if rules is None or (not rules.asks_redeals and result.variant.redeals != rules.redeals):
        raise ResultRefused("variant", f"{account}'s result of {result.day}: no console plays {result.variant.key!r}")
    try:
        return daily_board(result.day, rules.with_redeals(result.variant.redeals))
    except NoDailyChallenge as error:
        raise ResultRefused("no_daily", f"{account}'s result of {result.day}: {error}") from None
