"""What the network thread tells the console's main loop: small frozen values, never callbacks.

The network layer posts these through the ``post`` callable it is given (for
instance the ``put`` of the queue the main loop already waits on for input), so
the main loop handles network news exactly like a key press. They carry codes
and data, not sentences: the console words them ("Ann's console is not
answering" is :class:`PeerConnection` with ``connected=False``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Callable, Literal, Union

from pyramid.net.advert import TableAd
from pyramid.net.daily_result import ProvenResult
from pyramid.net.views import OpponentGame, Via


@dataclass(frozen=True, slots=True)
class Listening:
    """The console accepts connections on ``host``:``port`` (port 0 was asked: this is the real one)."""

    host: str
    port: int


@dataclass(frozen=True, slots=True)
class ListenFailed:
    """The address could not be listened on (``detail`` is the system's message)."""

    host: str
    port: int
    detail: str


@dataclass(frozen=True, slots=True)
class OpponentJoined:
    """Host side: a guest sat at the table (``resumed``: the same guest came back)."""

    name: str
    resumed: bool


@dataclass(frozen=True, slots=True)
class Seated:
    """Guest side: the host seated this console at match ``match`` (``resumed`` after a reconnect)."""

    host_name: str
    match: int
    level: str
    resumed: bool


@dataclass(frozen=True, slots=True)
class JoinFailed:
    """Guest side: no seat. ``reason``: a :data:`~pyramid.net.protocol.RefuseReason`,
    ``"unreachable"`` (no connection), ``"outside"`` (an address off the home network, never
    connected to) or ``"protocol"`` (the other side spoke nonsense)."""

    reason: str
    detail: str


@dataclass(frozen=True, slots=True)
class PeerConnection:
    """The opponent's console became unreachable, or reachable again; the seat is kept meanwhile."""

    connected: bool


@dataclass(frozen=True, slots=True)
class OpponentMoved:
    """The opponent's move ``number`` replayed here, and the opponent's position after it; ``game``:
    the opponent's whole game after it, a snapshot taken on the network thread as the move was
    replayed (issue 48: the main thread read it back from the link, under the network's lock)."""

    number: int
    move: str
    round: int
    score: int
    finished: bool
    game: OpponentGame | None = None


@dataclass(frozen=True, slots=True)
class OpponentStatus:
    """The opponent's claimed status, checked against the replay and found right (after a resend,
    and when the opponent's game is over)."""

    round: int
    score: int
    moves: int
    finished: bool
    #: The opponent's game as checked (a snapshot, as :attr:`OpponentMoved.game`).
    game: OpponentGame | None = None


@dataclass(frozen=True, slots=True)
class MatchVoided:
    """The opponent's moves disagree with the engine; ``reason`` is a MatchVoidError code."""

    reason: str
    detail: str


OpponentLeftReason = Literal["left", "closed", "void", "timeout"]


@dataclass(frozen=True, slots=True)
class OpponentLeft:
    """The opponent is gone for good: it left, closed its table, voided, or stayed away too long."""

    reason: OpponentLeftReason


@dataclass(frozen=True, slots=True)
class RematchProposed:
    """The opponent proposes a new match numbered ``match``."""

    match: int


@dataclass(frozen=True, slots=True)
class RematchStarted:
    """Both agreed: match ``match`` starts now (both boards are fresh). ``previous`` is the opponent's
    game of the match just ended as it finished, so that the console counts that match even when it
    takes the news after the link moved on (it never asks the link about an old match)."""

    match: int
    previous: OpponentGame


@dataclass(frozen=True, slots=True)
class Crowded:
    """Host side: connections are being turned away (``busy``; more came at once than are served),
    or, ``crowded`` False, none has been for a while."""

    crowded: bool


@dataclass(frozen=True, slots=True)
class InviteReceived:
    """``name`` at ``address`` invites this console to its table on ``port`` (match ``match``);
    through the table server (``via``), ``address`` is the inviting console's account and ``port`` 0."""

    name: str
    address: str
    port: int
    match: int
    via: Via = "lan"


@dataclass(frozen=True, slots=True)
class InviteSent:
    """The invite reached ``address``:``port`` (``delivered``) or could not (``detail`` says why)."""

    address: str
    port: int
    delivered: bool
    detail: str


@dataclass(frozen=True, slots=True)
class TableSeen:
    """Discovery found a table (or its details changed)."""

    table: TableAd


@dataclass(frozen=True, slots=True)
class TableGone:
    """The table named ``key`` (see :attr:`TableAd.key`) is no longer announced."""

    key: str


@dataclass(frozen=True, slots=True)
class DiscoveryStarted:
    """Discovery runs through ``backend`` (``"avahi"`` or ``"zeroconf"``) because ``why``."""

    backend: str
    why: str


@dataclass(frozen=True, slots=True)
class DiscoveryFailed:
    """Discovery could not start or stopped working; tables can still be joined by address."""

    backend: str
    detail: str


#: The table server's state: ``connecting``, ``connected``, ``unreachable`` (no answer, TLS refused,
#: the connection dropped: trying again), ``taken_over`` (another connection signed in as this
#: console's account took its place: trying again after a longer pause), ``refused`` (the account or
#: its password: not tried again) or ``misconfigured`` (the password or CA file cannot be read: not
#: tried again).
ServerStateName = Literal["connecting", "connected", "unreachable", "taken_over", "refused", "misconfigured"]


@dataclass(frozen=True, slots=True)
class ServerState:
    """The table server (``address`` as the settings write it) is in ``state``; ``detail`` says why."""

    address: str
    state: ServerStateName
    detail: str


@dataclass(frozen=True, slots=True)
class DailyResultSeen:
    """A friend's result of a daily deal on a board this console follows, proven by its line."""

    proven: ProvenResult


@dataclass(frozen=True, slots=True)
class DailyResultGone:
    """``account`` withdrew its result of ``day`` under ``variant`` (its statistics key)."""

    account: str
    day: datetime.date
    variant: str


@dataclass(frozen=True, slots=True)
class DailyShared:
    """The table server took this console's result of ``day`` under ``variant`` (``shared``), or its
    withdrawal (not ``shared``)."""

    day: datetime.date
    variant: str
    shared: bool


NetEvent = Union[
    Listening, ListenFailed, OpponentJoined, Seated, JoinFailed, PeerConnection, OpponentMoved, OpponentStatus, MatchVoided,
    OpponentLeft, RematchProposed, RematchStarted, Crowded, InviteReceived, InviteSent, TableSeen, TableGone,
    DiscoveryStarted, DiscoveryFailed, ServerState, DailyResultSeen, DailyResultGone, DailyShared,
]

#: What the network layer calls with each event; it must be thread-safe and must not block.
Post = Callable[[NetEvent], None]
