"""The friends' board's ranking (docs/rules.md, "The day's deal among friends"): won, score, moves, time."""

from __future__ import annotations

import datetime

from pyramid.console.friends_board import standings
from pyramid.net.daily_result import DailyResult, ProvenResult
from pyramid.saved.stats import PyramidVariant

DAY = datetime.date(2026, 12, 6)


def entry(account: str, won: bool, score: int, moves: int, seconds: int) -> ProvenResult:
    return ProvenResult(account, DailyResult(DAY, PyramidVariant("retrohub", 0), account.title(), won, score, moves,
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
