"""The daily challenge and the difficulty grades on the console, over a real store file."""

from __future__ import annotations

import dataclasses
import datetime
from pathlib import Path

import pygame
import pytest

from display.render import Renderer
from pyramid.console.catalogue import say
from pyramid.console.game_screen import GameScreen
from pyramid.console.menus import open_console
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.engine.board import Board
from pyramid.engine.daily import daily_challenge
from pyramid.engine.deal import numbered_deal
from pyramid.engine.difficulty import GRADES
from pyramid.engine.grade import listed_grade
from pyramid.engine.rules import preset
from pyramid.engine.solver import solve
from pyramid.saved.errors import InvalidSettingError
from pyramid.saved.settings import PlayerSettings, check_setting
from pyramid.saved.store import Store

from console_steps import choose, console_at, play, tap_move

DAY = datetime.date(2026, 12, 3)


def new_session(path: Path, language: str = "en") -> Session:
    return console_at(path, DAY, language=language)


def test_the_daily_deal_is_won_at_par_and_the_end_panel_says_so(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    challenge = daily_challenge(DAY, "retrohub")
    state = choose(session, "Daily deal")
    assert state["screen"] == "game", "dealt at once, without the redeal question"
    board = session.screen.table.board  # type: ignore[attr-defined]
    assert board.deal == numbered_deal(challenge.number) and board.redeals_left == 0
    grade = listed_grade(preset("retrohub"), challenge.number)
    assert grade is not None
    assert challenge.score_par is not None, "RetroHub scores points: its daily deals have a score par"
    assert session.view().table.detail == f"{grade.capitalize()} · Par: {challenge.par} moves"
    for move in solve(Board(board.deal, board.rules), optimal=True).moves:
        tap_move(session, move)
    panel = session.view().panel
    assert session.view().screen == "game_over" and panel.title.startswith("Pyramid cleared")
    assert board.score <= challenge.score_par
    assert panel.lines == ("Par!", f"You: {challenge.par} moves · Par: {challenge.par} moves",
                           f"You: {board.score} points · Par: {challenge.score_par} points",
                           "Daily deals: 1 day in a row, 1 won")
    assert session.store.daily_results() == {DAY: True}


def test_a_daily_deal_resumed_keeps_its_par(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    choose(session, "Daily deal")
    detail = session.view().table.detail
    play(session, "star")
    session.store.close()
    session = new_session(tmp_path)
    choose(session, "Continue")
    assert session.view().table.detail == detail and "Par: " in detail


def test_hard_deals_only_deals_a_hard_deal_and_says_so(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    choose(session, "Settings")
    for value in ("on", "Easy", "Medium", "Hard"):
        state = choose(session, "Winnable deals only")
        assert f"Winnable deals only: {value}" in state["menu"]["items"]
    assert session.settings.winnable_only == "hard"
    play(session, "star")
    choose(session, "New game")
    play(session, "ok")  # no redeal
    number = session.screen.run.progress.deal_number  # type: ignore[attr-defined]
    assert listed_grade(preset("retrohub"), number) == "hard"
    assert session.view().table.detail == "Hard"
    session.store.close()
    assert new_session(tmp_path).settings.winnable_only == "hard", "the choice is kept"


def test_the_deals_choice_accepts_old_values_and_names_a_bad_one() -> None:
    for value in (False, True, "easy", "expert"):
        check_setting("winnable_only", value)
        assert PlayerSettings.from_stored({"winnable_only": value}).winnable_only == value
    with pytest.raises(InvalidSettingError, match="'harder'.*true, false or one of easy, medium, hard, expert"):
        check_setting("winnable_only", "harder")
    assert PlayerSettings.from_stored({"winnable_only": "harder"}).winnable_only is False


def shown_whole(session: Session) -> list[str]:
    """The texts of the session's view at 320x240 that the renderer had to cut ("…")."""
    return [str(key[1]) for _, key in Renderer((320, 240)).scene_for(session.view())
            if key[0] == "text" and str(key[1]).endswith("…")]


@pytest.mark.parametrize(("language", "par_words", "end_words"), [
    ("en", "Par: {par} moves", "You: {par} moves · Par: {par} moves"),
    ("fr", "Par : {par} coups", "Vous : {par} coups · Par : {par} coups"),
])
def test_every_grade_and_the_par_show_whole_on_the_smallest_screen(tmp_path: Path, language: str, par_words: str,
                                                                   end_words: str) -> None:
    pygame.font.init()
    session = new_session(tmp_path, language)
    challenge = daily_challenge(DAY, "retrohub")
    choose(session, say("menu.daily_deal"))
    screen = session.screen
    assert isinstance(screen, GameScreen)
    for grade in GRADES:
        screen.run.progress = dataclasses.replace(screen.run.progress, context={**screen.run.progress.context, "grade": grade})
        assert session.view().table.detail.endswith(par_words.format(par=challenge.par))
        assert not shown_whole(session), grade
    for move in solve(Board(screen.board.deal, screen.board.rules), optimal=True).moves:
        tap_move(session, move)
    assert session.view().panel.lines[1] == end_words.format(par=challenge.par)  # after "Par!"
    assert session.view().panel.lines[2].endswith(f"{challenge.score_par} points"), "the score par too"
    assert not shown_whole(session)


def test_the_menu_says_whether_todays_deal_is_done_and_playing_it_again_says_so(tmp_path: Path) -> None:
    """Issue 29: the menu never said whether today's deal was done; playing it again said nothing."""
    session = new_session(tmp_path, "en")
    assert "Daily deal" in session.state()["menu"]["items"]
    choose(session, "Daily deal")
    board = session.screen.board  # type: ignore[attr-defined]
    for move in solve(Board(board.deal, board.rules), optimal=True).moves:
        tap_move(session, move)
    play(session, "ok")  # Back to the menu
    assert "Daily deal · won ✓" in session.state()["menu"]["items"]
    choose(session, "Daily deal · won ✓")
    moves = session.store.best_of("pyramid", "retrohub/none", daily_challenge(DAY, "retrohub").number)
    assert moves is not None
    assert session.view().table.status_line == f"Already played, best {moves.moves} moves"


def test_each_variant_speaks_of_its_own_daily_deal_and_the_streaks_go_across(tmp_path: Path) -> None:
    """Issue 47, item 1: won under Three passes, the daily deal said "won ✓" under RetroHub too, opened
    a different deal there ("Already played today: won") and stayed "won" when that one was lost."""
    from pyramid.saved.stats import DailyPlay, GameResult, daily_streaks

    store = Store.open(tmp_path / "pyramid.db")
    session = Session(preset("three-pass"), DealChoice(), store=store, today=lambda: DAY)
    open_console(session)
    choose(session, "Daily deal")
    board = session.screen.board  # type: ignore[attr-defined]
    for move in solve(Board(board.deal, board.rules), optimal=True).moves:
        tap_move(session, move)
    play(session, "ok")
    assert "Daily deal · won ✓" in session.state()["menu"]["items"]

    other = Session(preset("retrohub"), DealChoice(), store=store, today=lambda: DAY)
    open_console(other)
    assert "Daily deal" in other.state()["menu"]["items"], "RetroHub's daily deal is not played yet"
    choose(other, "Daily deal")
    assert other.screen.board.deal != board.deal  # type: ignore[attr-defined]
    assert not other.view().table.status_line.startswith("Already played")
    other.store.record_result(GameResult("pyramid", "retrohub/none", False, 40), daily=DailyPlay(DAY))  # lost
    play(other, "star")
    assert "Daily deal · played" in other.state()["menu"]["items"]
    assert store.daily_results("retrohub/none") == {DAY: False}
    assert store.daily_results("three-pass/two") == {DAY: True}
    assert daily_streaks(store.daily_results(), DAY).won == 1, "a day is won when any variant's deal was"


def test_days_played_before_each_variant_had_its_own_are_kept_for_the_streaks(tmp_path: Path) -> None:
    """A data store of the main before issue 47 (schema 7: one row a day) reads the same streaks."""
    import sqlite3

    path = tmp_path / "pyramid.db"
    Store.open(path).close()
    with sqlite3.connect(path) as db:  # the days as version 7 kept them
        db.execute("DROP TABLE daily_shares")  # not there yet (schema 11)
        db.execute("DROP TABLE deal_scores")  # nor this (schema 12)
        db.execute("DROP TABLE daily_deals")
        db.execute("CREATE TABLE daily (day TEXT PRIMARY KEY, won INTEGER NOT NULL)")
        db.executemany("INSERT INTO daily VALUES (?, ?)", [((DAY - datetime.timedelta(days=n)).isoformat(), n % 2)
                                                           for n in range(3)])
        db.execute("PRAGMA user_version = 7")
    with Store.open(path) as store:
        assert not store.notices, "migrated, not put aside"
        days = store.daily_results()
        assert days == {DAY: False, DAY - datetime.timedelta(days=1): True, DAY - datetime.timedelta(days=2): False}
        assert store.daily_results("retrohub/none") == {}, "of no variant's menu line"


@pytest.mark.parametrize("rules", ["retrohub", "three-pass"])
def test_the_solution_watched_after_a_lost_daily_deal_is_the_pars_line(tmp_path: Path, rules: str) -> None:
    """Issue 47, item 7: the daily deal's par was 45 moves, and "Watch the solution" played the
    verdict's line of 47 (54 under Three passes)."""
    from test_end_panels import ended

    session = ended(tmp_path, rules, "Daily deal", won=False)
    par = session.screen.run.par  # type: ignore[attr-defined]
    assert par is not None
    panel = session.view().panel
    assert panel is not None and "Watch the solution" in panel.items
    assert not [line for line in panel.lines if "par's line" in line]
    choose(session, "Watch the solution")
    assert session.screen.name == "replay" and len(session.screen.moves) == par  # type: ignore[attr-defined]


def test_a_par_line_not_found_in_time_is_said_on_the_panel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a slow console the shortest line may not be found within its budget: the solution offered is
    then the verdict's, and the panel says it is longer than the par."""
    from pyramid.console import game_flow
    from test_end_panels import ended

    monkeypatch.setattr(game_flow, "PAR_LINE_SECONDS", 1e-9)
    session = ended(tmp_path, "retrohub", "Daily deal", won=False)
    par = session.screen.run.par  # type: ignore[attr-defined]
    panel = session.view().panel
    assert panel is not None and "Watch the solution" in panel.items
    longer = [line for line in panel.lines if "the par's line was not found in time" in line]
    assert len(longer) == 1 and f"takes {par} moves" not in longer[0], panel.lines
