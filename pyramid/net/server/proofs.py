"""Friends' daily results waiting for the prover: the latest of each, once, within a bound in bytes.

Why a waiting room and not a queue: each result is a retained message under its account's topic
(``daily/DAY/PRESET/REDEALS/ACCOUNT``), so only the latest one under a topic can ever be on a board.
A queue of everything that came let one account's flood fill it (a thousand results of its own
waiting to be replayed) and a friend's result that came behind was dropped. Here a topic holds one
place: a newer payload replaces the waiting one (and a proof under way of an older one is not shown),
so a flood costs the prover one replay at a time and takes no one else's place. A payload the prover
has already judged (proven or refused) is known by its digest and never replayed again: the same
garbage sent ten thousand times, or a board's results sent again on each connection, cost nothing.

Beyond :data:`MAX_WAITING_BYTES` a result is dropped and the room says so: the network reads the
boards again once the room is idle (:meth:`pyramid.net.server.daily.DailyResults.missed`), the known
ones skipped. So nothing a friend shared is lost to a flood, only later.

Sans-IO: the network's shelf (:mod:`pyramid.net.server.daily`) feeds it and runs the proofs.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Literal, NamedTuple

#: What became of a result offered: it waits its turn; it is known (judged, or being proven); no room.
Offered = Literal["waits", "known", "full"]

#: Payloads waiting at most, in bytes: a thousand results of the largest size (7,680 bytes), some
#: eight thousand of a real game's size (under a kilobyte).
MAX_WAITING_BYTES = 8 * 1024 * 1024


class Waiting(NamedTuple):
    """A result to prove: the topic it came under (its board and account) and its payload."""

    topic: str
    payload: bytes


def digest(payload: bytes) -> bytes:
    """What a payload is known by once judged (16 bytes: a collision would take a forger 2**64 tries
    to make, and would only hide a result, never show a false one, as the shown one was proven)."""
    return hashlib.blake2b(payload, digest_size=16).digest()


class ProofRoom:
    """The latest unjudged result of each topic, in the order the topics came (network thread only)."""

    def __init__(self, max_bytes: int = MAX_WAITING_BYTES) -> None:
        self.max_bytes = max_bytes
        self._waiting: OrderedDict[str, bytes] = OrderedDict()
        self._bytes = 0
        #: The digest of the payload last judged under each topic.
        self._judged: dict[str, bytes] = {}
        #: The topic being proven and its payload's digest, or None; ``_cancelled``: withdrawn since.
        self._taken: tuple[str, bytes] | None = None
        self._cancelled = False

    @property
    def waiting_bytes(self) -> int:
        return self._bytes

    def __len__(self) -> int:
        return len(self._waiting)

    @property
    def idle(self) -> bool:
        """Nothing waits and nothing is being proven."""
        return not self._waiting and self._taken is None

    def offer(self, topic: str, payload: bytes) -> Offered:
        """A result came under ``topic``: it waits, in the place of the one before it, unless it is the
        one being proven or was judged already, or there is no room for it."""
        known = digest(payload)
        proving = self._taken is not None and self._taken[0] == topic and not self._cancelled
        if (self._taken == (topic, known) if proving else self._judged.get(topic) == known):
            self._unwait(topic)  # the latest is the one being proven, or the one judged last
            return "known"
        before = self._waiting.get(topic)
        if self._bytes - (0 if before is None else len(before)) + len(payload) > self.max_bytes:
            self._unwait(topic)  # an older one is not the latest (this one comes again after the overflow),
            self._cancelled = self._cancelled or proving  # nor is one being proven
            return "full"
        self._unwait(topic)
        self._waiting[topic] = payload  # last in line: a flood keeps back its own result, no one else's
        self._bytes += len(payload)
        return "waits"

    def withdraw(self, topic: str) -> None:
        """The result under ``topic`` was taken back: not proven, not shown, forgotten."""
        self._unwait(topic)
        self._judged.pop(topic, None)
        if self._taken is not None and self._taken[0] == topic:
            self._cancelled = True

    def take(self) -> Waiting | None:
        """The next result to prove, when none is being proven and one waits."""
        if self._taken is not None or not self._waiting:
            return None
        topic, payload = self._waiting.popitem(last=False)
        self._bytes -= len(payload)
        self._taken, self._cancelled = (topic, digest(payload)), False
        return Waiting(topic, payload)

    def judged(self) -> bool:
        """The result taken is judged: whether its verdict still stands (it was neither withdrawn nor
        replaced meanwhile), so that a proof of it may be shown."""
        assert self._taken is not None, "judged() without take()"
        topic, known = self._taken
        self._taken = None
        if self._cancelled:
            return False
        self._judged[topic] = known
        return topic not in self._waiting

    def keep(self, wanted: Callable[[str], bool]) -> None:
        """Forget every topic not ``wanted`` (the boards no longer followed)."""
        for topic in [topic for topic in self._waiting if not wanted(topic)]:
            self._bytes -= len(self._waiting.pop(topic))
        for topic in [topic for topic in self._judged if not wanted(topic)]:
            del self._judged[topic]
        if self._taken is not None and not wanted(self._taken[0]):
            self._cancelled = True

    def _unwait(self, topic: str) -> None:
        payload = self._waiting.pop(topic, None)
        if payload is not None:
            self._bytes -= len(payload)
