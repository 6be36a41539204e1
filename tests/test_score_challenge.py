"""The score challenge (issue 27): a deal whose best score is known, to be reached; the end panel
says how close the player came. Over a real store file, in both languages, on the smallest screen."""

from __future__ import annotations

import datetime
import random
from pathlib import Path

import pygame
import pytest

from console_steps import choose, play, tap_move
from display.render import Renderer
from pyramid.console.catalogue import say
from pyramid.console.game_screen import GameScreen
from pyramid.console.menus import open_console
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.engine.board import Board
from pyramid.engine.daily import challenges, daily_challenge
from pyramid.engine.rules import preset
from pyramid.engine.solver.best_score import best_score
from pyramid.saved.store import Store

DAY = datetime.date(2026, 12, 3)


def new_session(path: Path, rules: str, language: str = "en") -> Session:
    """A console on ``rules`` whose random choices are the same at every run (the deal a challenge
    picks, so a test's search stays quick)."""
    store = Store.open(path / "pyramid.db")
    store.set_setting("language", language)
    session = Session(preset(rules), DealChoice(), store=store, today=lambda: DAY)
    session.rng = random.Random(7)
    open_console(session)
    return session


def cut_short(session: Session, *texts: str) -> list[str]:
    """Those of ``texts`` the renderer had to cut ("…") to draw the session's view at 320x240."""
    cut = [str(key[1])[:-1] for _, key in Renderer((320, 240)).scene_for(session.view())
           if key[0] == "text" and str(key[1]).endswith("…")]
    return [text for text in texts if any(text.startswith(start) for start in cut)]


def play_out(session: Session, screen: GameScreen) -> None:
    """Play on until the game is over: a draw while there is one, else the first move."""
    while screen.board.status() == "playing":
        moves = screen.board.legal_moves
        tap_move(session, next((move for move in moves if move.kind == "draw"), moves[0]))


def challenged(session: Session) -> tuple[GameScreen, int]:
    state = choose(session, say("menu.score_challenge"))
    screen = session.screen
    assert state["screen"] == "game" and isinstance(screen, GameScreen)
    number = screen.run.progress.deal_number
    known = {challenge.number: challenge.score_par for challenge in challenges(screen.board.rules.name)}
    goal = known[number]
    assert goal is not None and number != daily_challenge(DAY, screen.board.rules.name).number
    return screen, goal


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_best_line_reaches_the_goal_and_the_panel_says_so(tmp_path: Path, language: str) -> None:
    pygame.font.init()
    session = new_session(tmp_path, "three-pass", language)
    screen, goal = challenged(session)
    assert screen.board.redeals_left == 2, "the preset's own redeals: the goal is for them"
    assert session.view().table.detail == say("game.score_goal", goal=goal)
    assert not cut_short(session, say("game.score_goal", goal=goal))
    best = best_score(Board(screen.board.deal, screen.board.rules))
    assert (best.verdict, best.score) == ("best", goal)
    for move in best.moves:
        tap_move(session, move)
    play_out(session, screen)  # the best line may stop before the game ends: nothing scores more
    panel = session.view().panel
    assert panel is not None and panel.lines[0] == say("end.score_reached", points=goal)
    assert not cut_short(session, *panel.lines)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_game_short_of_the_goal_is_told_by_how_much(tmp_path: Path, language: str) -> None:
    pygame.font.init()
    session = new_session(tmp_path, "retrohub", language)
    screen, goal = challenged(session)
    assert screen.board.redeals_left == 0, "no redeal question: the goal is for RetroHub's own rules"
    play_out(session, screen)  # a poor player: draws while it can, then anything
    points = screen.board.score
    panel = session.view().panel
    assert points < goal and panel is not None
    assert say("end.score_short", points=points, goal=goal, short=goal - points) in panel.lines
    assert not cut_short(session, *panel.lines)


def test_variants_that_count_cards_left_offer_no_score_challenge(tmp_path: Path) -> None:
    (tmp_path / "classic").mkdir()
    (tmp_path / "three-pass").mkdir()
    assert say("menu.score_challenge") not in new_session(tmp_path / "classic", "classic").state()["menu"]["items"]
    assert say("menu.score_challenge") in new_session(tmp_path / "three-pass", "three-pass").state()["menu"]["items"]


def test_a_game_in_progress_is_not_replaced_without_asking(tmp_path: Path) -> None:
    session = new_session(tmp_path, "three-pass")
    challenged(session)
    play(session, "star")
    state = choose(session, say("menu.score_challenge"))
    assert state["screen"] == "confirm"


def test_play_again_deals_the_next_challenge(tmp_path: Path) -> None:
    session = new_session(tmp_path, "retrohub")
    screen, _ = challenged(session)
    play_out(session, screen)
    panel = session.view().panel
    assert panel is not None
    while session.state()["menu"]["items"][session.state()["menu"]["selected"]] != say("end.play_again"):
        play(session, "down")
    state = play(session, "ok")
    again = session.screen
    assert state["screen"] == "game" and isinstance(again, GameScreen) and again is not screen
    assert again.run.progress.context.get("score_par") and again.run.progress.context.get("daily") is None
    assert session.view().table.detail.startswith("Goal: ")
    assert session.stack == [session.stack[0], again], "the finished game gave way to the next"
