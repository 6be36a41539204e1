"""The day's deal among friends on a real table server (issue 50): results shared, proven, withdrawn.

Consoles are this project's ``Network`` with accounts of their own on a Mosquitto made by
make-server.sh (tests/table_server.py); Mallory is any MQTT client with an account of her own.
"""

from __future__ import annotations

import dataclasses
import datetime
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyramid.engine.daily import daily_board
from pyramid.engine.rules import RETROHUB
from pyramid.engine.solver import solve
from pyramid.net import events as ev
from pyramid.net.daily_result import DailyResult
from pyramid.net.server import topics
from pyramid.net.server.daily import DailyBoard
from pyramid.saved.stats import PyramidVariant
from table_server import Broker, Mallory, make_server, running
from test_net_match import Endpoint

VARIANT = PyramidVariant("retrohub", 0)


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    yield from running(make_server(tmp_path / "server", "ann", "bob", "cyd", "dee", "mallory")[0])


@pytest.fixture(scope="module")
def today_line() -> tuple[datetime.date, list[str]]:
    today = datetime.date.today()
    solution = solve(daily_board(today, RETROHUB.with_redeals(0)), optimal=True, max_seconds=30)
    assert solution.verdict == "win"
    return today, [str(move) for move in solution.moves]


def result(day: datetime.date, line: list[str], name: str, assisted: bool = False) -> DailyResult:
    board = daily_board(day, RETROHUB.with_redeals(0))
    board.replay(line)
    return DailyResult(day, VARIANT, name, board.status() == "cleared", board.counted_score(), len(line), 200 + len(name),
                       assisted, tuple(line))


def console(broker: Broker, account: str, name: str) -> Endpoint:
    return Endpoint(name, server=broker.server.account(account))


def test_three_results_shared_are_proven_on_a_console_that_comes_later(
        broker: Broker, today_line: tuple[datetime.date, list[str]]) -> None:
    """Ann won, Bob gave up after ten moves, Cyd won with help; Dee connects afterwards and follows the
    day's board: all three, proven, each under its account; Ann withdraws hers and Dee sees it go."""
    today, line = today_line
    shared = {"ann": result(today, line, "Ann"), "bob": result(today, line[:10], "Bob"),
              "cyd": result(today, line, "Cyd", assisted=True)}
    players = {account: console(broker, account, played.name) for account, played in shared.items()}
    dee = console(broker, "dee", "Dee")
    try:
        for account, endpoint in players.items():
            endpoint.net.share_daily(shared[account])  # before the server is reached: sent once it is
        for account, endpoint in players.items():
            taken = endpoint.wait(ev.DailyShared)
            assert (taken.day, taken.variant, taken.shared) == (today, VARIANT.key, True)
        dee.net.follow_daily([DailyBoard(today, VARIANT)])
        seen = {event.proven.account: event.proven.result for event in (dee.wait(ev.DailyResultSeen) for _ in range(3))}
        assert seen == shared
        players["ann"].net.withdraw_daily(today, VARIANT)
        assert players["ann"].wait(ev.DailyShared).shared is False
        gone = dee.wait(ev.DailyResultGone)
        assert (gone.account, gone.day, gone.variant) == ("ann", today, VARIANT.key)
    finally:
        for endpoint in (*players.values(), dee):
            endpoint.net.stop()


def test_a_hostile_account_shows_nothing_false_and_the_board_goes_on(
        broker: Broker, today_line: tuple[datetime.date, list[str]], caplog: pytest.LogCaptureFixture) -> None:
    """Mallory, under her own topic: garbage, a better score than her line, another day's line, a name
    that is not hers, two thousand results in a burst (held to the protocol's rate: most never reach the
    prover). Dee shows one result of hers, her true one sent afterwards, as hers; Bob's still comes."""
    today, line = today_line
    dee, bob = console(broker, "dee", "Dee"), console(broker, "bob", "Bob")
    mallory = Mallory(broker.server)
    yesterday = today - datetime.timedelta(days=1)
    yesterdays = [str(move) for move in solve(daily_board(yesterday, RETROHUB.with_redeals(0)), max_seconds=30).moves]
    mine = topics.daily(today.isoformat(), "retrohub", "none", "mallory")
    caplog.set_level(logging.INFO, logger="pyramid.net")
    try:
        dee.net.follow_daily([DailyBoard(today, VARIANT)])
        dee.wait(ev.ServerState, lambda event: event.state == "connected")
        time.sleep(1)  # the subscription is made after "connected"
        honest = result(today, line, "Ann")
        for forged in (b"\xff", b"{}", b"x" * 8000, dataclasses.replace(honest, score=honest.score + 5).to_bytes(),
                       dataclasses.replace(result(yesterday, yesterdays, "Ann"), day=today).to_bytes(),
                       result(yesterday, yesterdays, "Ann").to_bytes(),  # a true result, under the wrong day's topic
                       dataclasses.replace(honest, won=False).to_bytes()):
            mallory.send(mine, forged)
        for _ in range(2000):
            mallory.send(mine, dataclasses.replace(honest, moves=1).to_bytes())
        time.sleep(3)  # her bucket full again (the protocol's burst at its rate): a result at a human pace is read
        mallory.send(mine, honest.to_bytes(), retain=True)
        bob.net.share_daily(result(today, line[:5], "Bob"))
        came = {event.proven.account: event.proven.result for event in (dee.wait(ev.DailyResultSeen) for _ in range(2))}
        assert came == {"mallory": honest, "bob": result(today, line[:5], "Bob")}, "her true one, as hers"
        dee.drain()
        assert not [event for event in dee.seen if isinstance(event, ev.DailyResultSeen)
                    and event.proven.result != honest and event.proven.account == "mallory"]
        refused = [record.getMessage() for record in caplog.records if "was not shown" in record.getMessage()]
        assert refused and len(refused) < 2000, "each proof refused is one line; the flood is held to the rate"
    finally:
        mallory.stop()
        bob.net.stop()
        dee.net.stop()
