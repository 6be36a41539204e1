"""The daily results' shelf on the network thread (pyramid/net/server/daily.py) at its carrier's seam:
what is sent when, and that each result is said taken once, whatever the connection did meanwhile."""

from __future__ import annotations

import asyncio
import datetime

import pytest

from pyramid.net.context import NetContext
from pyramid.net.daily_result import DailyResult
from pyramid.net.events import DailyShared
from pyramid.net.server import daily
from pyramid.net.server.daily import DailyBoard, DailyResults
from pyramid.saved.stats import PyramidVariant

DAY = datetime.date(2026, 12, 6)
RESULT = DailyResult(DAY, PyramidVariant("retrohub", 0), "Ann", False, 10, 3, 30, False, ("draw", "draw", "draw"))


class Carrier:
    """The session as the shelf sees it: connected or not, each publish a future the test completes."""

    def __init__(self) -> None:
        self.connected = False
        self.sent: list[tuple[str, bytes, asyncio.Future[None]]] = []
        self.subscribed: list[str] = []

    def publish_retained(self, topic: str, payload: bytes, expiry: int | None) -> asyncio.Future[None] | None:
        if not self.connected:
            return None
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.sent.append((topic, payload, future))
        return future

    def subscribe(self, topic: str) -> None:
        self.subscribed.append(topic)

    def unsubscribe(self, topic: str) -> None: ...


def test_a_result_is_sent_when_connected_and_said_taken_once() -> None:
    async def scenario() -> list[object]:
        posted: list[object] = []
        carrier = Carrier()
        shelf = DailyResults(NetContext("Ann", posted.append), "ann", carrier)
        shelf.share(RESULT)  # out of reach: kept
        assert carrier.sent == []
        carrier.connected = True
        shelf.connected()
        shelf.connected()  # a second connection before the first answer: sent again
        assert [topic for topic, _, _ in carrier.sent] == ["pyramids/v1/daily/2026-12-06/retrohub/none/ann"] * 2
        for _, _, future in carrier.sent:
            future.set_result(None)
        await asyncio.sleep(0)
        shelf.connected()
        assert len(carrier.sent) == 2, "taken: not sent again"
        shelf.withdraw(DAY, RESULT.variant)
        shelf.share(RESULT)  # shared again before the withdrawal was taken: the withdrawal's answer is not its
        carrier.sent[2][2].set_result(None)
        await asyncio.sleep(0)
        carrier.sent[3][2].set_result(None)
        await asyncio.sleep(0)
        return posted

    posted = asyncio.run(scenario())
    assert posted == [DailyShared(DAY, "retrohub/none", True), DailyShared(DAY, "retrohub/none", True)]


def test_results_dropped_in_a_flood_are_read_again_once_things_are_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    """A result of a board followed dropped on its way (the session's rate, its inbox, the prover's room):
    the boards are subscribed to again after REREAD_AFTER, once however many were dropped meanwhile, and
    again after a later drop; a drop on a board not followed changes nothing."""
    monkeypatch.setattr(daily, "REREAD_AFTER", 0.05)
    board = DailyBoard(DAY, RESULT.variant)
    other = DailyBoard(DAY - datetime.timedelta(days=1), RESULT.variant)

    async def scenario() -> list[str]:
        carrier = Carrier()
        shelf = DailyResults(NetContext("Dee", lambda event: None), "dee", carrier, today=lambda: DAY)
        shelf.follow([board])
        topic = board.topic.replace("+", "mallory")
        for _ in range(100):
            shelf.missed(topic)
        shelf.missed(other.topic.replace("+", "mallory"))
        await asyncio.sleep(0.2)
        shelf.missed(topic)
        await asyncio.sleep(0.2)
        shelf.missed(topic)
        shelf.stop()  # the connection ends: nothing is read again after
        await asyncio.sleep(0.2)
        return carrier.subscribed

    assert asyncio.run(scenario()) == [board.topic] * 3
