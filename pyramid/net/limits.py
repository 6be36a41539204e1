"""Every timeout and limit of the network layer, in one value the caller may tighten (tests do).

Why these numbers: a console answers a hello at once, so 5 s is generous on a
home network; pings every 15 s keep an idle link known alive while costing one
wake-up per 15 s (an idle table uses no CPU to speak of); a link silent for
45 s (three pings) is dead; a person makes at most a few moves a second, so 20
messages a second (bursts of 40) never limit a real player but stop a flood;
a power cut and restart of a Raspberry Pi takes well under 5 minutes, hence the
seat is kept that long.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

#: The TCP port a table listens on unless the settings say otherwise.
DEFAULT_PORT: Final = 47312


@dataclass(frozen=True, slots=True)
class Limits:
    """Timeouts (seconds) and limits; the defaults are the ones documented in docs/network.md."""

    #: From accepting a connection to a complete hello (and then to its join or invite).
    hello_deadline: float = 5.0
    #: The longest a seated link may stay without a complete message (a half message included).
    read_timeout: float = 45.0
    #: How often a seated link sends a ping when it has nothing else to say.
    ping_interval: float = 15.0
    #: Messages a second a peer may send on average, and the burst allowed above that.
    rate: float = 20.0
    burst: float = 40.0
    #: Connections not (yet) seated that are served at once; more are closed on arrival.
    max_pending: int = 8
    #: Of those, how many one address may hold.
    max_pending_per_address: int = 4
    #: How long the host keeps the seat (and a guest keeps trying) after a drop.
    seat_hold: float = 300.0
    #: First and longest pause between a guest's reconnection attempts.
    retry_first: float = 0.5
    retry_longest: float = 10.0
    #: Connecting to a table or to an invited console.
    connect_timeout: float = 5.0
    #: How long a guest asking for a new seat keeps trying while the host answers ``busy`` (more
    #: connections at once than it serves, see table.py), before the join fails.
    busy_patience: float = 10.0
    #: After saying goodbye (a leave), how long to wait for the peer to close its side, so the
    #: goodbye is read and not lost to a reset (see Wire.finish); a live peer closes at once.
    farewell_linger: float = 1.0
    #: First and longest pause before connecting to the table server again after a drop.
    server_retry_first: float = 1.0
    server_retry_longest: float = 30.0
    #: The part of each such pause drawn at random (0.5: between half of it and all of it), so that a
    #: club's consoles spread out after the server restarts instead of knocking at the same instant.
    server_retry_spread: float = 0.5
    #: The pause after another connection signed in as this console's account took its place (MQTT 5
    #: "Session taken over"): two consoles set to one account take turns, not a fight every second.
    server_taken_over_pause: float = 30.0
