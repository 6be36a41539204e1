"""Read-only snapshots of a table and its opponent, shaped like the scripted mode's trace objects.

The console shows these and writes them into its trace (issue 12: the game
object's ``table`` and ``opponent``); :meth:`to_json` gives exactly those
objects. They are copies taken under the link's lock, safe to keep.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

#: How a table is reached: on the home network, or through the table server.
Via = Literal["lan", "server"]
TableStateName = Literal["waiting", "playing", "finished", "closed"]
OpponentStatusName = Literal["playing", "finished", "left"]


@dataclass(frozen=True, slots=True)
class TableView:
    """Where the table is (``host`` is its address, or the host's account through the table server),
    who sits at it (host first), its state, and how it is reached (``via``)."""

    host: str
    port: int
    players: tuple[str, ...]
    state: TableStateName
    via: Via = "lan"

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["players"] = list(self.players)
        return data


@dataclass(frozen=True, slots=True)
class OpponentView:
    """The opponent as replayed here: never what it claims, what its moves give."""

    name: str
    connected: bool
    round: int
    score: int
    status: OpponentStatusName
    moves: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class OpponentGame:
    """The opponent's game as this console's replay has it (:meth:`MatchLink.opponent_game`): what the
    console shows, compares and lets the player watch. The replay on the network thread is the one
    board; this is its copy at one moment, taken under the link's lock."""

    match: int
    #: The moves replayed, in notation, in order.
    moves: tuple[str, ...]
    round: int
    score: int
    finished: bool
    #: Points of each round played so far (the current one included).
    round_scores: tuple[int, ...]
    rounds_cleared: int


@dataclass(frozen=True, slots=True)
class TableAddress:
    """Where a guest joins this console's table: the addresses it listens on, the home network's first,
    and the port (what "Join by address" asks for on the other console)."""

    addresses: tuple[str, ...]
    port: int


@dataclass(frozen=True, slots=True)
class TableAt:
    """Where a table is joined: an address and port on the home network, or, through the table
    server, the host's account (``port`` 0)."""

    host: str
    port: int
    via: Via = "lan"
