"""Daily streaks: days in a row played and won, surviving restarts and a wrong clock."""

from __future__ import annotations

import datetime
from pathlib import Path

from hypothesis import given, strategies as st

from pyramid.saved.stats import DailyPlay, DailyStreaks, GameResult, daily_streaks
from pyramid.saved.store import Store

DAY = datetime.date(2026, 12, 1)


def days_ago(*numbers: int) -> list[datetime.date]:
    return [DAY - datetime.timedelta(days=number) for number in numbers]


def test_streaks_run_back_from_the_last_day_played() -> None:
    played = dict.fromkeys(days_ago(4, 2, 1, 0), True)
    played[DAY - datetime.timedelta(days=1)] = False
    assert daily_streaks(played, DAY) == DailyStreaks(played=3, won=1, best_played=3, best_won=1)
    assert daily_streaks({}, DAY) == DailyStreaks()


def test_today_not_played_yet_keeps_yesterdays_streak_and_a_missed_day_breaks_it() -> None:
    played = dict.fromkeys(days_ago(3, 2, 1), True)
    assert daily_streaks(played, DAY) == DailyStreaks(3, 3, 3, 3)
    assert daily_streaks(played, DAY + datetime.timedelta(days=1)) == DailyStreaks(0, 0, 3, 3)


def test_a_clock_set_back_never_loses_a_streak() -> None:
    played = dict.fromkeys(days_ago(2, 1, 0), True)
    assert daily_streaks(played, DAY - datetime.timedelta(days=400)) == DailyStreaks(3, 3, 3, 3)
    assert daily_streaks(played, datetime.date(1970, 1, 1)) == daily_streaks(played, DAY)


def test_a_day_dated_in_the_future_does_not_hold_the_streak() -> None:
    """Issue 26, item 11: one row dated 2099-01-01 among 30 won days made "In a row" 1 for ever."""
    played = dict.fromkeys(days_ago(*range(30)), True)
    played[datetime.date(2099, 1, 1)] = True
    assert daily_streaks(played, DAY) == DailyStreaks(30, 30, 30, 30)
    assert daily_streaks(played, DAY + datetime.timedelta(days=1)) == DailyStreaks(30, 30, 30, 30)
    assert daily_streaks(played, DAY + datetime.timedelta(days=2)) == DailyStreaks(0, 0, 30, 30)


@given(st.dictionaries(st.dates(min_value=datetime.date(2020, 1, 1), max_value=datetime.date(2030, 1, 1)),
                       st.booleans(), max_size=40),
       st.dates(min_value=datetime.date(2020, 1, 1), max_value=datetime.date(2030, 1, 1)))
def test_streaks_against_counting_day_by_day(played: dict[datetime.date, bool], today: datetime.date) -> None:
    streaks = daily_streaks(played, today)
    assert 0 <= streaks.won <= streaks.played <= streaks.best_played and streaks.won <= streaks.best_won
    if played:
        past = [day for day in played if day <= today]
        last = max(past) if past else max(played)  # days after today do not count, unless all do
        count_played = count_won = 0
        day, winning = last, True
        while day in played:
            count_played += 1
            winning = winning and played[day]
            count_won += winning
            day -= datetime.timedelta(days=1)
        broken = bool(past) and (today - last).days > 1
        assert streaks.played == (0 if broken else count_played)
        assert streaks.won == (0 if broken else count_won)


def test_a_daily_result_is_kept_with_its_statistics_in_one_transaction(tmp_path: Path) -> None:
    path = tmp_path / "pyramid.db"
    with Store.open(path) as store:
        store.record_result(GameResult("pyramid", "retrohub/none", False, 100), daily=DailyPlay(DAY))
        store.record_result(GameResult("pyramid", "retrohub/none", True, 420), daily=DailyPlay(DAY))  # won on a retry
        store.record_result(GameResult("pyramid", "retrohub/none", False, 50), daily=DailyPlay(DAY))  # a won day stays won
        store.record_result(GameResult("pyramid", "retrohub/one", True, 420, assisted=True), daily=DailyPlay(DAY - datetime.timedelta(days=1)))
    with Store.open(path) as store:  # after a restart
        assert store.daily_results() == {DAY: True, DAY - datetime.timedelta(days=1): False}
        assert store.stats("pyramid", "retrohub/none").played == 3
