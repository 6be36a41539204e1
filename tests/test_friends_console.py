"""The day's deal among friends from a console's own game (issue 50): Ann wins today's daily deal on
her console, which shares it through a real table server; Dee's console, following today's board,
proves it. With "Share my daily results" off, nothing is shared.

Ann's console is a real session (its store on disk, its network tables and the real ``Network``);
Dee's is this project's ``Network`` alone (tests/test_net_match.py's Endpoint).
"""

from __future__ import annotations

import datetime
import queue
from collections.abc import Iterator
from pathlib import Path

import pytest

from console_steps import choose, play, tap_move
from pyramid.console.menus import open_console
from pyramid.console.net.tables import Tables
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.engine.board import Board
from pyramid.engine.rules import RETROHUB
from pyramid.engine.solver import solve
from pyramid.net import events as ev
from pyramid.net.network import Network
from pyramid.net.server.daily import DailyBoard
from pyramid.saved.stats import PyramidVariant
from pyramid.saved.store import Store
from table_server import Broker, make_server, running
from test_net_match import GUARD, Endpoint

VARIANT = PyramidVariant("retrohub", 0)


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    yield from running(make_server(tmp_path / "server", "ann", "bob", "dee")[0])


def anns_console(broker: Broker, path: Path, events: queue.Queue[object], **settings: object) -> Session:
    account = broker.server.account("ann")
    tables = Tables(lambda name: Network(name, events.put, discovery="off", server=account), server=account)
    store = Store.open(path / "pyramid.db")
    store.set_setting("player_name", "Ann")
    for name, value in settings.items():
        store.set_setting(name, value)
    today = datetime.date.today()
    session = Session(None, DealChoice(), store=store, today=lambda: today, tables=tables)
    open_console(session)
    return session


def win_the_daily_deal(session: Session) -> Board:
    assert choose(session, "Daily deal")["screen"] == "game"
    board: Board = session.screen.table.board  # type: ignore[attr-defined]
    for move in solve(Board(board.deal, board.rules), optimal=True, max_seconds=30).moves:
        tap_move(session, move)
    assert board.status() == "cleared"
    return board


def test_a_daily_deal_won_is_shared_once_and_proven_on_a_friends_console(broker: Broker, tmp_path: Path) -> None:
    events: queue.Queue[object] = queue.Queue()
    session = anns_console(broker, tmp_path, events)
    dee = Endpoint("Dee", server=broker.server.account("dee"))
    try:
        board = win_the_daily_deal(session)
        today = session.today()
        assert [share.day for share in session.store.pending_shares()] == [today], "kept until the server has it"
        while not isinstance(taken := events.get(timeout=GUARD), ev.DailyShared):
            session.post_event(taken)
        session.post_event(taken)  # the main loop hands the network's news to the console
        assert session.store.pending_shares() == [], "taken: not sent again"
        dee.net.follow_daily([DailyBoard(today, VARIANT)])
        proven = dee.wait(ev.DailyResultSeen).proven
        assert (proven.account, proven.result.name, proven.result.won) == ("ann", "Ann", True)
        assert proven.result.line == tuple(str(move) for move in board.move_stack)
        assert proven.result.score == board.score and not proven.result.assisted
        play(session, "back back")  # from the end panel to the main menu
        choose(session, "Settings")
        assert choose(session, "Share my daily results")["menu"]["items"][-4] == "Share my daily results: off"
        gone = dee.wait(ev.DailyResultGone)
        assert (gone.account, gone.day) == ("ann", today), "turned off: taken back from the server"
        while not isinstance(taken := events.get(timeout=GUARD), ev.DailyShared):
            session.post_event(taken)
        session.post_event(taken)
        assert taken.shared is False and session.store.pending_shares() == []
    finally:
        dee.net.stop()
        session.tables.stop()


def test_with_sharing_off_a_daily_deal_is_kept_to_the_console(broker: Broker, tmp_path: Path) -> None:
    events: queue.Queue[object] = queue.Queue()
    session = anns_console(broker, tmp_path, events, share_daily=False)
    try:
        assert session.friends.sharer() is None
        win_the_daily_deal(session)
        assert session.store.pending_shares() == []
        assert session.store.daily_results() == {session.today(): True}, "counted as ever"
    finally:
        session.tables.stop()


def test_the_board_ranks_friends_and_a_friends_game_is_watched(broker: Broker, tmp_path: Path) -> None:
    """After her daily deal, Ann opens "Today among friends": her own line (selected), Dee's (won the same
    way, slower, with help), Bob's (given up); won first, then score, moves, time. ✓ on Dee's watches it."""
    from pyramid.engine.daily import daily_board
    from pyramid.net.daily_result import DailyResult

    events: queue.Queue[object] = queue.Queue()
    session = anns_console(broker, tmp_path, events)
    dee, bob = Endpoint("Dee", server=broker.server.account("dee")), Endpoint("Bob", server=broker.server.account("bob"))
    try:
        today = session.today()
        line = tuple(str(move) for move in win_the_daily_deal(session).move_stack)
        lost = daily_board(today, RETROHUB.with_redeals(0))
        lost.replay(line[:10])
        dees = DailyResult(today, VARIANT, "Dee", True, session.screen.board.score, len(line), 100, True, line)  # type: ignore[attr-defined]
        bobs = DailyResult(today, VARIANT, "Bob", False, lost.counted_score(), 10, 50, False, line[:10])
        dee.net.share_daily(dees)
        bob.net.share_daily(bobs)
        dee.wait(ev.DailyShared)
        bob.wait(ev.DailyShared)
        panel = session.view().panel
        assert panel is not None and "Today among friends" in panel.items
        play(session, "down " * (panel.items.index("Today among friends") - panel.selected) + "ok")
        assert session.view().screen == "friends_board"
        while len(session.friends.entries(session.friends.following[0])) < 3:
            session.post_event(events.get(timeout=GUARD))
        menu = session.state()["menu"]
        names = [item.split(":")[0] for item in menu["items"]]
        assert names == ["1. Ann", "2. Dee", "3. Bob"], menu["items"]
        assert menu["items"][0].endswith("✓ par (you)") and menu["items"][1].endswith("✓ par (aided)")
        assert menu["selected"] == 0, "the player's own line"
        week = play(session, "right")
        assert week["screen"] == "friends_week" and len(session.friends.following) == 7
        while not any(item.startswith("1. Ann: won 1 of 1") for item in session.state()["menu"]["items"]):
            session.post_event(events.get(timeout=GUARD))
        assert play(session, "left")["screen"] == "friends_board" and len(session.friends.following) == 1
        state = play(session, "down ok")
        assert state["screen"] == "replay"
        play(session, "back back")
        assert session.view().screen == "game_over" and session.friends.following == (), "left: not followed"
    finally:
        dee.net.stop()
        bob.net.stop()
        session.tables.stop()


def test_a_past_day_of_the_calendar_shows_its_board_among_friends(broker: Broker, tmp_path: Path) -> None:
    """With a table server, ✓ on a calendar's day asks: play it, or that day among friends (Bob's result)."""
    from pyramid.engine.daily import daily_board
    from pyramid.net.daily_result import DailyResult

    events: queue.Queue[object] = queue.Queue()
    session = anns_console(broker, tmp_path, events)
    bob = Endpoint("Bob", server=broker.server.account("bob"))
    try:
        yesterday = session.today() - datetime.timedelta(days=1)
        line = tuple(str(move) for move in solve(daily_board(yesterday, RETROHUB.with_redeals(0)), max_seconds=30).moves)
        won = daily_board(yesterday, RETROHUB.with_redeals(0))
        won.replay(line)
        bob.net.share_daily(DailyResult(yesterday, VARIANT, "Bob", True, won.counted_score(), len(line), 90, False, line))
        bob.wait(ev.DailyShared)
        choose(session, "Daily deals calendar")
        state = play(session, "left ok")
        assert state["screen"] == "calendar_day" and state["menu"]["items"] == ["Play this day's deal",
                                                                               "That day among friends"]
        state = play(session, "down ok")
        assert state["screen"] == "friends_board"
        while not session.friends.entries(session.friends.following[0]):
            session.post_event(events.get(timeout=GUARD))
        view = session.view()
        assert view.menu is not None and view.menu.title.endswith("among friends")
        assert view.menu.items[0].startswith("1. Bob: ") and view.menu.items[0].endswith("✓")
        assert play(session, "back")["screen"] == "calendar"
    finally:
        bob.net.stop()
        session.tables.stop()
