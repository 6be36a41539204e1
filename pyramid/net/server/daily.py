"""The daily results on the table server, on the network thread: this console's to share, the boards
it follows, and the friends' results it proves (docs/network.md, "The day's deal among friends").

Why here and not in the session: the session is the connection (who is there, conversations,
adverts); the daily results are a shelf beside it with rules of their own. Each result is retained
under ``daily/DAY/PRESET/REDEALS/ACCOUNT`` and expires after the calendar's span, so a console that
connects later sees the day, and a console subscribes only to the boards it shows (a day and a
variant), never to every day of every account.

**Sharing.** :meth:`DailyResults.share` keeps the result until the server has it (its PUBACK), then
posts :class:`~pyramid.net.events.DailyShared`; one shared while the server is out of reach goes when
it is back, once (re-published on each connection until then, the same retained message: the last
one stays). :meth:`DailyResults.withdraw` removes one (an empty retained message), the same way.

**Proving.** A friend's result is replayed through the engine (:func:`~pyramid.net.daily_result.prove`)
on one worker thread beside the main loop and the network thread, as the solver's searches are: a
board of a thousand results takes seconds of a Pi Zero 2's time, which neither the game nor a match's
messages wait for. What waits is the latest result of each account on each board, within a bound in
bytes, each payload judged once (:mod:`pyramid.net.server.proofs`): a flood costs one replay at a
time and takes no friend's place.

**Read again after a flood.** A friend's result can be dropped on its way in a flood: by the server
(its queue for this console full), by the session (the sender over the protocol's rate, the inbox
full) or by the prover's room (full). Whatever this console drops is :meth:`DailyResults.missed`; once
:data:`REREAD_AFTER` seconds have passed and the room is idle, the boards followed are subscribed to
again and the server sends their retained results again (MQTT 3.1.1 and MQTT 5 §3.8.4: a SUBSCRIBE
that replaces a subscription re-sends the retained messages), the payloads judged already skipped. So
a friend's result is not lost to a flood, only late.
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Callable, Collection
from concurrent.futures import Future, ThreadPoolExecutor
from typing import NamedTuple, Protocol

from pyramid.engine.daily import DAYS_BACK
from pyramid.net.context import NetContext, log
from pyramid.net.daily_result import DailyResult, ResultRefused, parse_result, prove
from pyramid.net.events import DailyResultGone, DailyResultSeen, DailyShared
from pyramid.net.server import topics
from pyramid.net.server.proofs import ProofRoom
from pyramid.saved.stats import PyramidVariant

#: A result's retained message expires after the calendar's span (MQTT 5 message expiry, seconds).
RESULT_EXPIRY = (DAYS_BACK + 1) * 24 * 3600
#: Boards followed at once (a week view is seven days of one variant).
MAX_BOARDS = 16
#: Seconds from a result missed (a flood) to reading the boards again, at the earliest.
REREAD_AFTER = 5.0


class DailyBoard(NamedTuple):
    """The results of one day under one variant: what a console follows."""

    day: datetime.date
    variant: PyramidVariant

    @property
    def topic(self) -> str:
        return topics.daily_board(self.day.isoformat(), self.variant.preset, self.variant.redeals_word)


class Carrier(Protocol):
    """What the shelf needs of the session: publish, subscribe and unsubscribe while connected."""

    def publish_retained(self, topic: str, payload: bytes, expiry: int | None) -> asyncio.Future[None] | None: ...

    def subscribe(self, topic: str) -> None: ...

    def unsubscribe(self, topic: str) -> None: ...


class DailyResults:
    """This console's daily results on the server and the boards it follows (network thread only)."""

    def __init__(self, context: NetContext, account: str, carrier: Carrier,
                 today: Callable[[], datetime.date] = datetime.date.today) -> None:
        self.context, self.account, self.carrier, self.today = context, account, carrier, today
        self._outgoing: dict[DailyBoard, DailyResult | None] = {}  # None: a withdrawal
        self._followed: frozenset[DailyBoard] = frozenset()
        self._prover: ThreadPoolExecutor | None = None
        self._room = ProofRoom()
        self._missed = False
        self._reread: asyncio.TimerHandle | None = None

    # -- this console's results --------------------------------------------------------------
    def share(self, result: DailyResult) -> None:
        self._send(DailyBoard(result.day, result.variant), result)

    def withdraw(self, day: datetime.date, variant: PyramidVariant) -> None:
        self._send(DailyBoard(day, variant), None)

    def _send(self, board: DailyBoard, result: DailyResult | None) -> None:
        self._outgoing[board] = result
        self._publish(board)

    def _publish(self, board: DailyBoard) -> None:
        result = self._outgoing[board]
        topic = topics.daily(board.day.isoformat(), board.variant.preset, board.variant.redeals_word, self.account)
        sent = self.carrier.publish_retained(topic, b"" if result is None else result.to_bytes(),
                                             None if result is None else RESULT_EXPIRY)
        if sent is not None:
            sent.add_done_callback(lambda future: self._taken(board, result, future))

    def _taken(self, board: DailyBoard, result: DailyResult | None, future: asyncio.Future[None]) -> None:
        if future.cancelled() or future.exception() is not None or board not in self._outgoing \
                or self._outgoing[board] is not result:
            return  # not taken (sent again on the next connection), taken already (sent twice), or replaced since
        del self._outgoing[board]
        self.context.emit(DailyShared(board.day, board.variant.key, result is not None))

    # -- the boards followed -----------------------------------------------------------------
    def follow(self, boards: Collection[DailyBoard]) -> None:
        """Follow exactly ``boards`` (the day's board, a week's): the others' results are no longer read."""
        wanted = frozenset(list(boards)[:MAX_BOARDS])
        for board in self._followed - wanted:
            self.carrier.unsubscribe(board.topic)
        for board in wanted - self._followed:
            self.carrier.subscribe(board.topic)
        self._followed = wanted
        self._room.keep(lambda topic: _board_of(topic) in wanted)

    def connected(self) -> None:
        """A new connection: subscribe again to what is followed, send what the server has not taken."""
        for board in self._followed:
            self.carrier.subscribe(board.topic)
        for board in list(self._outgoing):
            self._publish(board)

    # -- a friend's result -------------------------------------------------------------------
    def receive(self, sender: str, topic: str, payload: bytes) -> None:
        """A result (or its withdrawal: empty) under ``sender``'s topic ``topic``: proven beside the loop."""
        board = _board_of(topic)
        if board is None or board not in self._followed:
            return  # a board no longer followed (its retained messages can still be on their way)
        if not payload:
            self._room.withdraw(topic)
            self.context.emit(DailyResultGone(sender, board.day, board.variant.key))
            return
        offered = self._room.offer(topic, payload)
        if offered == "waits":
            self._prove_next()
        elif offered == "full":
            self.missed(topic)

    def missed(self, topic: str) -> None:
        """A result under ``topic`` was dropped on its way (a flood): when it is of a board followed, the
        boards are read again, :data:`REREAD_AFTER` seconds from now at the earliest."""
        if _board_of(topic) not in self._followed:
            return
        if not self._missed:
            log.warning("daily results were dropped in a flood: the boards are read again in %.0f s", REREAD_AFTER)
        self._missed = True
        if self._reread is None:
            self._reread = asyncio.get_running_loop().call_later(REREAD_AFTER, self._read_again)

    def _read_again(self) -> None:
        self._reread = None
        if not self._room.idle:  # the proofs first: what comes again is judged against them
            self._reread = asyncio.get_running_loop().call_later(1.0, self._read_again)
            return
        self._missed = False
        for board in self._followed:
            self.carrier.subscribe(board.topic)

    def _prove_next(self) -> None:
        """Hand the prover the next result waiting, when it is idle."""
        waiting = self._room.take()
        if waiting is None:
            return
        board, where = _board_of(waiting.topic), topics.read(waiting.topic)
        assert board is not None and where is not None, "only a board's topic is offered"
        if self._prover is None:
            self._prover = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pyramid-proofs")
        proof = self._prover.submit(_proven, where.sender, board, waiting.payload, self.today())
        loop = asyncio.get_running_loop()

        def back_on_the_loop(done: Future[DailyResultSeen | None]) -> None:
            try:
                loop.call_soon_threadsafe(self._proved, done)
            except RuntimeError:  # the network thread has stopped meanwhile
                pass

        proof.add_done_callback(back_on_the_loop)

    def _proved(self, proof: Future[DailyResultSeen | None]) -> None:
        stands = self._room.judged()
        seen = None if proof.cancelled() else proof.result()
        if stands and seen is not None and DailyBoard(seen.proven.result.day, seen.proven.result.variant) in self._followed:
            self.context.emit(seen)
        self._prove_next()

    def stop(self) -> None:
        if self._reread is not None:
            self._reread.cancel()
            self._reread = None
        if self._prover is not None:
            self._prover.shutdown(wait=False, cancel_futures=True)
            self._prover = None


def _board_of(topic: str) -> DailyBoard | None:
    parts = topic.split("/")
    if len(parts) != 7:
        return None
    try:
        day = datetime.date.fromisoformat(parts[3])
    except ValueError:
        return None
    variant = PyramidVariant.parse(f"{parts[4]}/{parts[5]}")
    return None if variant is None else DailyBoard(day, variant)


def _proven(sender: str, board: DailyBoard, payload: bytes, today: datetime.date) -> DailyResultSeen | None:
    """On the prover's thread: the event for a result proven under its topic's day and variant, or None
    (and one log line) for anything else."""
    try:
        result = parse_result(payload)
        if (result.day, result.variant) != board:
            raise ResultRefused("topic", f"{sender}'s result of {result.day} {result.variant.key} came under "
                                         f"{board.day} {board.variant.key}")
        return DailyResultSeen(prove(result, sender, today))
    except ResultRefused as error:
        log.info("a daily result of %s was not shown (%s): %s", sender, error.reason, error)
    except Exception:  # a defect must not end the prover: logged, the next result proven
        log.exception("a daily result of %s could not be proven", sender)
    return None
