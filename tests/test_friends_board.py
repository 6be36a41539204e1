"""The friends' board's ranking (docs/rules.md, "The day's deal among friends"): won, score, moves, time."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import given, settings, strategies as st

from pyramid.actions import Action
from pyramid.console.friends_board import standings
from pyramid.console.session import Session
from pyramid.net.daily_result import DailyResult, ProvenResult
from pyramid.saved.stats import PyramidVariant

DAY = datetime.date(2026, 12, 6)
VARIANT = PyramidVariant("retrohub", 0)


def entry(account: str, won: bool, score: int, moves: int, seconds: int) -> ProvenResult:
    return ProvenResult(account, DailyResult(DAY, VARIANT, account.title(), won, score, moves,
                                             seconds, False, ()))


def test_won_then_more_points_then_fewer_moves_then_less_time_equal_results_share_a_rank() -> None:
    entries = {e.account: e for e in (
        entry("lost-high", False, 900, 20, 10), entry("won-low", True, 400, 40, 10), entry("won-high", True, 500, 50, 99),
        entry("won-high-quick", True, 500, 50, 60), entry("won-high-short", True, 500, 45, 300),
        entry("tie-b", True, 400, 40, 10))}
    board = standings(entries, points=True, mine="won-low")
    assert [(s.rank, s.account, s.mine) for s in board] == [
        (1, "won-high-short", False), (2, "won-high-quick", False), (3, "won-high", False),
        (4, "tie-b", False), (4, "won-low", True), (6, "lost-high", False)]


def test_where_the_score_is_the_cards_left_fewer_is_better() -> None:
    entries = {e.account: e for e in (entry("five-left", False, 5, 30, 10), entry("two-left", False, 2, 60, 10),
                                      entry("cleared", True, 0, 50, 10))}
    assert [s.account for s in standings(entries, points=False, mine=None)] == ["cleared", "two-left", "five-left"]


def test_the_week_ranks_days_won_then_points_then_days_played() -> None:
    from pyramid.console.friends_board import week_standings

    monday = {e.account: e for e in (entry("ann", True, 500, 40, 10), entry("bob", True, 300, 40, 10),
                                     entry("cyd", False, 100, 10, 10))}
    tuesday = {e.account: e for e in (entry("ann", False, 50, 10, 10), entry("bob", True, 400, 40, 10),
                                      entry("dee", True, 900, 40, 10))}
    week = week_standings([tuesday, monday], points=True, mine="cyd")
    assert [(s.rank, s.account, s.played, s.won, s.score, s.mine) for s in week] == [
        (1, "bob", 2, 2, 700, False), (2, "dee", 1, 1, 900, False), (3, "ann", 2, 1, 550, False),
        (4, "cyd", 1, 0, 100, True)]


def test_a_name_that_could_pass_for_another_or_draws_nothing_shows_its_account() -> None:
    """The name is the player's word, the account the server's: Mallory calling herself "Ann" (or
    "ANN", or "Ánn" with a combining accent) is shown with her account beside it, as Ann is; a name of
    combining marks alone, which draws nothing, is shown as its account; a name of one is shown as is."""
    from pyramid.console.catalogue import use_language
    from pyramid.console.friends_board import shown_names

    use_language("en")
    names = shown_names({"ann": "Ann", "mallory": "A\u0301NN", "ghost": "\u034f\u034f", "bob": "Bob♥", "cyd": "Cyd"})
    assert names == {"ann": "Ann (ann)", "mallory": "A\u0301NN (mallory)", "ghost": "ghost", "bob": "Bob♥", "cyd": "Cyd"}


class Following:
    """The console's network as a board uses it (the results are handed over by the test)."""

    def follow_daily(self, boards: object) -> None:
        self.boards = boards


def board_console(path: Path, clock: Callable[[], float]) -> Session:
    """A console with a table server, on "Today among friends" (for DAY)."""
    from pyramid.console.friends_board import FriendsBoardScreen
    from pyramid.console.menus import open_console
    from pyramid.console.net.tables import Tables
    from pyramid.console.protocols import DealChoice, Followed
    from pyramid.net.server.account import ServerAccount
    from pyramid.saved.store import Store

    account = ServerAccount("127.0.0.1", 8883, "me", path / "password", None)
    session = Session(None, DealChoice(), store=Store.open(path / "p.db"),
                      tables=Tables(lambda name: Following(), server=account),  # type: ignore[arg-type,return-value]
                      today=lambda: DAY)
    session.clock = clock
    open_console(session)
    session.push(FriendsBoardScreen(session, Followed(DAY, VARIANT), True, None))
    return session


def test_a_big_board_filling_up_is_ranked_again_at_most_every_quarter_second(tmp_path: Path) -> None:
    """Under RANKED_AT_ONCE results each comes at once; from there, news within RANK_EVERY of the last
    ranking waits for the tick the screen asks for (due), and the view after it has them."""
    from pyramid.console.friends_board import RANK_EVERY, RANKED_AT_ONCE
    from pyramid.net.events import DailyResultSeen

    now = [100.0]
    session = board_console(tmp_path, lambda: now[0])

    def lines() -> int:
        view = session.view()
        assert view.menu is not None
        return len(view.menu.items)

    for number in range(RANKED_AT_ONCE):
        session.post_event(DailyResultSeen(entry(f"a{number:04}", True, number, 30, 60)))
        assert lines() == number + 1, "a small board: each result at once"
    assert session.due() is None
    session.post_event(DailyResultSeen(entry("late", True, 10_000, 30, 60)))
    assert lines() == RANKED_AT_ONCE and session.due() == 100.0 + RANK_EVERY, "within a quarter second: later"
    now[0] += RANK_EVERY
    session.tick()
    view = session.view()
    assert view.menu is not None and len(view.menu.items) == RANKED_AT_ONCE + 1
    assert view.menu.items[0].startswith("1. Late: ") and session.due() is None
    session.post_event(DailyResultSeen(entry("later", True, 20_000, 30, 60)))
    now[0] += RANK_EVERY
    assert lines() == RANKED_AT_ONCE + 2, "a quarter second after the last ranking: at once"


def test_a_week_keeps_the_lines_of_its_day_only() -> None:
    """The day's games can be watched; the six days before it are only summed: kept without lines."""
    import time
    import tempfile

    from pyramid.console.protocols import Followed
    from pyramid.net.events import DailyResultSeen

    with tempfile.TemporaryDirectory() as directory:
        session = board_console(Path(directory), time.monotonic)
        line = ("draw", "draw")
        today, yesterday = (ProvenResult(account, DailyResult(day, VARIANT, account.title(), False, 0, 2, 9, False, line))
                            for account, day in (("ann", DAY), ("bob", DAY - datetime.timedelta(days=1))))
        session.handle(Action.parse("right"))
        assert session.view().screen == "friends_week"
        session.post_event(DailyResultSeen(today))
        session.post_event(DailyResultSeen(yesterday))
        friends = session.friends
        assert friends.entries(Followed(DAY, VARIANT))["ann"].result.line == line
        kept = friends.entries(Followed(yesterday.result.day, VARIANT))["bob"]
        assert kept.result.line == () and kept.result == dataclasses.replace(yesterday.result, line=())
        menu = session.view().menu
        assert menu is not None and menu.items == ("1. Ann: won 0 of 1, 0 pts", "1. Bob: won 0 of 1, 0 pts"), "summed"
        session.handle(Action.parse("left"))
        assert friends.entries(Followed(DAY, VARIANT))["ann"].result.line == line, "back on the day: still watchable"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 3), st.integers(1, 3), st.integers(0, 2)), max_size=12),
       st.randoms(use_true_random=False), st.booleans())
def test_the_order_ranked_before_only_speeds_the_ranking(results: list[tuple[bool, int, int, int]],
                                                          random: Any, points: bool) -> None:
    """Whatever order (and whatever accounts, gone ones too) is given as ranked before: the same standings."""
    entries = {f"a{number}": entry(f"a{number}", *result) for number, result in enumerate(results)}
    before = [*entries, "gone"]
    random.shuffle(before)
    assert standings(entries, points, "a0", before[:random.randint(0, len(before))]) == standings(entries, points, "a0")
