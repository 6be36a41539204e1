"""The daily deals' calendar (issue 47): a month page per variant, each day marked as it went, any day
of the last twelve months played again, counted for its day and never for a streak; over a real store file."""

from __future__ import annotations

import datetime
from contextlib import closing
from pathlib import Path

import pygame
import pytest

from display.layout import Layout
from display.render import Renderer
from pyramid.actions import Action
from pyramid.console.catalogue import say
from pyramid.console.daily_calendar import DAYS_BACK, month_shift
from pyramid.console.menus import open_console
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.engine.board import Board
from pyramid.engine.daily import daily_challenge
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import preset
from pyramid.engine.solver import solve
from pyramid.saved.stats import DailyPlay, DailyRecord, GameResult
from pyramid.saved.store import Store
from pyramid.view import MenuHit, MonthHit

from console_steps import choose, console_at, play, tap_move
from old_store import database_at

DAY = datetime.date(2026, 12, 3)
YESTERDAY = DAY - datetime.timedelta(days=1)
ONE_DAY = datetime.timedelta(days=1)


def new_session(path: Path, rules: str = "retrohub") -> Session:
    return console_at(path, DAY, rules_preset=rules)


def marks(session: Session) -> dict[int, str]:
    """The calendar on screen: each day's mark, by its number (the days that can be played)."""
    page = session.view().calendar
    assert page is not None
    return {day.number: day.mark for day in page.days if day.mark != "closed"}


def win(session: Session) -> None:
    """Play the deal on screen to the end along a shortest solution."""
    board = session.screen.table.board  # type: ignore[attr-defined]
    for move in solve(Board(board.deal, board.rules), optimal=True).moves:
        tap_move(session, move)
    assert board.status() == "cleared"


def test_yesterdays_deal_is_played_from_the_calendar_and_counts_for_its_day_not_the_streak(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    state = choose(session, "Daily deals calendar")
    assert state["screen"] == "calendar"
    page = session.view().calendar
    assert page is not None and page.title == "December 2026" and page.selected == DAY.day - 1
    assert page.detail == f"3 December: not played · par {daily_challenge(DAY, 'retrohub').par} moves"
    assert marks(session) == {1: "open", 2: "open", 3: "open"}, "the days to come cannot be played"
    play(session, "left ok")
    challenge = daily_challenge(YESTERDAY, "retrohub")
    board = session.screen.table.board  # type: ignore[attr-defined]
    assert board.deal == numbered_deal(challenge.number) and challenge.number != daily_challenge(DAY, "retrohub").number
    assert session.view().table.title == "Daily · 2 December"
    win(session)
    assert "Daily deals: 0 days in a row, 0 won" in session.view().panel.lines, "no streak from a late day"
    play(session, "ok")  # back to the menu: the calendar, with its marks read again
    assert session.view().screen == "calendar" and marks(session)[2] == "par"
    assert session.view().calendar.detail == f"2 December: won in par, {challenge.par} moves ✓"
    assert session.store.daily_results() == {}, "a day played late is no streak's"
    assert session.store.daily_records("retrohub/none")[YESTERDAY].late
    assert session.store.stats("pyramid", "retrohub/none").won == 1, "a win all the same"


def test_a_day_played_on_its_day_keeps_it_for_the_streaks_when_played_again_late(tmp_path: Path) -> None:
    with closing(Store.open(tmp_path / "pyramid.db")) as store:
        result = GameResult("pyramid", "three-pass/two", False, 300)
        store.record_result(result, daily=DailyPlay(YESTERDAY, late=False, moves=60, score=300))
        store.record_result(GameResult("pyramid", "three-pass/two", True, 1200),
                            daily=DailyPlay(YESTERDAY, late=True, moves=50, score=1200))
        store.record_result(GameResult("pyramid", "three-pass/two", True, 1000),
                            daily=DailyPlay(YESTERDAY, late=True, moves=44, score=1000))
        store.record_result(GameResult("pyramid", "three-pass/two", True, 1500, assisted=True),
                            daily=DailyPlay(YESTERDAY, late=True, moves=30, score=1500))
        assert store.daily_records("three-pass/two") == {YESTERDAY: DailyRecord(True, 44, 1200, False)}
        assert store.daily_results() == {YESTERDAY: True}, "first played on its day: the streaks count it"
        assert store.daily_records("retrohub/none") == {}


@pytest.mark.parametrize("score, moves, mark", [(None, None, "won"), (0, 99, "won"), (0, 1, "par"),
                                                (10 ** 6, 99, "best")])
def test_the_marks_say_won_in_par_and_best_score_from_the_days_pars(tmp_path: Path, score: int | None,
                                                                    moves: int | None, mark: str) -> None:
    session = new_session(tmp_path, "three-pass")
    session.store.record_result(GameResult("pyramid", "three-pass/two", True, score),
                                daily=DailyPlay(DAY - 2 * ONE_DAY, moves=moves, score=score))
    session.store.record_result(GameResult("pyramid", "three-pass/two", False, 0), daily=DailyPlay(DAY - ONE_DAY))
    session.store.record_result(GameResult("pyramid", "retrohub/none", True, 0), daily=DailyPlay(DAY))
    choose(session, "Daily deals calendar")
    assert marks(session) == {1: mark, 2: "played", 3: "open"}, "each variant's days are its own"


def test_the_arrows_stay_within_the_last_twelve_months_and_taps_turn_the_months(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    choose(session, "Daily deals calendar")
    screen = session.screen
    play(session, "right down")
    assert screen.selected == DAY, "nothing after today"  # type: ignore[attr-defined]
    assert not session.view().calendar.later and session.view().calendar.earlier
    play(session, "up")
    assert screen.selected == DAY - 7 * ONE_DAY  # type: ignore[attr-defined]
    play(session, "left left left")
    assert session.view().calendar.title == "November 2026", "a day across the month's edge turns the page"
    session.handle(Action.tap(0, 0), lambda x, y: MonthHit(-1))
    assert session.view().calendar.title == "October 2026"
    for _ in range(20):
        session.handle(Action.tap(0, 0), lambda x, y: MonthHit(-1))
    first = DAY - DAYS_BACK * ONE_DAY
    assert screen.selected == first and not session.view().calendar.earlier  # type: ignore[attr-defined]
    assert set(marks(session)) == set(range(first.day, 32)), "the days over a year ago are closed"
    assert session.view().calendar.detail == "3 December: not played · par " + \
        f"{daily_challenge(first, 'retrohub').par} moves"
    play(session, "left")
    assert screen.selected == first  # type: ignore[attr-defined]
    session.handle(Action.tap(0, 0), lambda x, y: MenuHit(first.day - 2))
    assert screen.selected == first, "a closed day cannot be chosen"  # type: ignore[attr-defined]
    session.handle(Action.tap(0, 0), lambda x, y: MenuHit(first.day))
    assert screen.selected == first + ONE_DAY, "a tap selects"  # type: ignore[attr-defined]
    session.handle(Action.tap(0, 0), lambda x, y: MenuHit(first.day))
    assert session.view().screen == "game", "a second tap plays"
    assert session.screen.run.daily == first + ONE_DAY  # type: ignore[attr-defined]
    play(session, "star star")


def test_month_shift_keeps_the_day_or_takes_the_months_last() -> None:
    assert month_shift(datetime.date(2026, 3, 31), -1) == datetime.date(2026, 2, 28)
    assert month_shift(datetime.date(2026, 12, 15), 1) == datetime.date(2027, 1, 15)
    assert month_shift(datetime.date(2026, 1, 15), -13) == datetime.date(2024, 12, 15)


@pytest.mark.parametrize("size, safe_area", [((320, 240), 0), ((480, 320), 0), ((1280, 720), 0),
                                             ((1920, 1080), 5)])
@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_every_day_of_a_six_week_month_fits_and_taps_land_on_it(tmp_path: Path, size: tuple[int, int],
                                                                safe_area: int, language: str) -> None:
    """August 2026 starts on a Saturday and spans six weeks: every cell inside the safe area, above the
    selected day's line, none overlapping; a tap in a cell's middle answers its day, on ◀ the month before."""
    store = Store.in_memory()
    store.set_setting("language", language)
    session = Session(None, DealChoice(), store=store, today=lambda: datetime.date(2026, 8, 31))
    open_console(session)
    choose(session, say("menu.calendar"))
    view = session.view()
    page = view.calendar
    assert page is not None and page.first_column == 5 and len(page.days) == 31
    layout = Layout(size, safe_area)
    placed = layout.calendar(page)
    assert len(placed.cells) == 31 and placed.cells[-1].bottom <= placed.detail.y
    assert all(layout.safe.contains(cell) for cell in placed.cells)
    assert not any(a.intersects(b) for k, a in enumerate(placed.cells) for b in placed.cells[k + 1:])
    for index, cell in enumerate(placed.cells):
        assert layout.hit_at(view, cell.x + cell.w // 2, cell.y + cell.h // 2) == MenuHit(index)
    middle = placed.earlier.x + placed.earlier.w // 2, placed.earlier.y + placed.earlier.h // 2
    assert layout.hit_at(view, *middle) == MonthHit(-1)
    assert layout.hit_at(view, placed.later.x + 2, placed.later.y + 2) is None, "no month after this one"
    assert placed.cell_px >= 10, "readable on a 2.8-inch screen"
    renderer = Renderer(size, safe_area)
    renderer.draw(view)
    pygame.image.save(renderer.frame, tmp_path / "calendar.png")  # the screen tour's picture draws


def test_the_days_kept_by_the_main_before_the_calendar_read_the_same(tmp_path: Path) -> None:
    """A store of schema 9 (no late, moves or score): its days count for the streaks as before, and
    the calendar marks them played or won."""
    path = tmp_path / "pyramid.db"
    with closing(database_at(path, 9)) as db:
        db.executemany("INSERT INTO daily_deals (day, variant, won) VALUES (?, ?, ?)",
                       [(YESTERDAY.isoformat(), "retrohub/none", 1), (DAY.isoformat(), "retrohub/none", 0),
                        ((DAY - 2 * ONE_DAY).isoformat(), "", 1)])
    session = new_session(tmp_path)
    assert session.store.daily_results() == {DAY: False, YESTERDAY: True, DAY - 2 * ONE_DAY: True}
    choose(session, "Daily deals calendar")
    assert marks(session) == {1: "open", 2: "won", 3: "played"}
    play(session, "left")
    assert session.view().calendar.detail == f"2 December: won · par {daily_challenge(YESTERDAY, 'retrohub').par} moves"


def test_a_daily_deal_left_for_another_game_marks_its_day_played(tmp_path: Path) -> None:
    """A daily deal replaced by a new deal counts as lost in the statistics; its day said nothing of it
    (the streak broke, the calendar offered it as never played). Now its day is played, not won."""
    session = new_session(tmp_path)
    choose(session, "Daily deal")
    board = session.screen.board  # type: ignore[attr-defined]
    tap_move(session, board.legal_moves[0])
    play(session, "star")
    choose(session, "New game")
    assert play(session, "down ok")["screen"] == "redeal_choice"  # "Start a new game? Daily · 3 December" — yes
    assert play(session, "ok")["screen"] == "game"  # no redeal: dealt, the daily deal counted
    assert session.store.daily_results() == {DAY: False}
    assert session.store.daily_records("retrohub/none")[DAY] == DailyRecord(False, None, board.score, False)
