"""A winnable deal is looked for beside the main loop (issue 27): the screen keeps drawing, says so
after 150 ms, Back calls the search off and keeps the game in progress; a deal proven live is graded.

The worker is the real :class:`~pyramid.console.thinking.Thinker` posting to a real queue, which the
test takes as the main loop does (``Session.post_event``); the cue's clock is the session's.
"""

from __future__ import annotations

import queue
import random
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from console_steps import choose, play
from pyramid.console import dealing
from pyramid.console.menus import open_console
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.console.thinking import Thinker, Thought
from pyramid.engine.board import Board
from pyramid.engine.deal import numbered_deal
from pyramid.engine.grade import measure, read_grades
from pyramid.engine.rules import preset
from pyramid.engine.solver import solve
from pyramid.saved.store import Store
from fake_clock import FakeClock

GUARD = 60.0


def threaded_session(tmp_path: Path, winnable_only: object = True) -> tuple[Session, "queue.Queue[object]", FakeClock]:
    events: queue.Queue[object] = queue.Queue()
    store = Store.open(tmp_path / "p.db")
    store.set_setting("winnable_only", winnable_only)
    session = Session(rules=preset("classic"), deal=DealChoice(), store=store, thinker=Thinker(events.put))
    session.clock = clock = FakeClock(100.0)
    open_console(session)
    return session, events, clock


def answered(session: Session, events: "queue.Queue[object]") -> None:
    event = events.get(timeout=GUARD)
    assert isinstance(event, Thought)
    session.post_event(event)


def until_called_off(cancelled: Callable[[], bool]) -> None:
    for _ in range(int(GUARD / 0.01)):
        if cancelled():
            return None
        threading.Event().wait(0.01)
    raise AssertionError("never called off")


def test_a_winnable_deal_is_found_beside_the_main_loop_then_dealt_proven_and_graded(tmp_path: Path) -> None:
    session, events, clock = threaded_session(tmp_path)
    choose(session, "New game")
    assert session.state()["screen"] == "dealing" and session.thinker.thinking
    assert session.view().panel is None, "a quick search shows nothing"
    clock.now += 0.2
    session.tick()
    panel = session.view().panel
    assert panel is not None and panel.title == "Looking for a winnable deal"
    answered(session, events)
    assert session.state()["screen"] == "game" and not session.thinker.thinking
    screen = session.screen
    rules, number = screen.board.rules, screen.run.progress.deal_number  # type: ignore[attr-defined]
    assert solve(Board(numbered_deal(number, rules.deck), rules)).verdict == "win"
    grade = screen.run.progress.context.get("grade")  # type: ignore[attr-defined]
    difficulty = measure(Board(numbered_deal(number, rules.deck), rules))
    shipped = read_grades("classic")
    assert difficulty is not None and shipped is not None
    assert grade == shipped.scale.grade(difficulty.traps), "a deal proven live is graded on its preset's scale"
    assert session.view().table.detail == {"easy": "Easy", "medium": "Medium", "hard": "Hard",
                                           "expert": "Expert"}[grade]


def test_back_calls_the_search_off_and_the_game_in_progress_stays(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session, events, clock = threaded_session(tmp_path)
    session.fixed_deal.number = 5  # a game in progress, dealt at once
    session.settings = session.settings._replace(winnable_only=False)
    choose(session, "New game")
    saved = session.store.load_progress("pyramid")
    assert session.state()["screen"] == "game" and saved is not None
    play(session, "star")
    session.settings = session.settings._replace(winnable_only=True)
    monkeypatch.setattr(dealing, "find_deal", lambda rules, wanted, rng, cancelled: until_called_off(cancelled))
    state = choose(session, "New game")
    assert state["screen"] == "confirm"
    assert play(session, "down ok")["screen"] == "dealing"
    clock.now += 0.2
    session.tick()
    assert session.state()["menu"]["items"] == ["Cancel"]
    assert play(session, "back")["screen"] == "menu" and not session.thinker.thinking
    session.thinker.cancel(wait=True)
    assert events.empty(), "a search called off deals nothing"
    assert session.store.load_progress("pyramid") == saved, "the game in progress is neither replaced nor lost"
    assert session.store.all_stats() == [], "nothing counted as lost"


def test_a_grade_asked_for_is_dealt_from_the_search_with_that_grade(tmp_path: Path) -> None:
    session, events, clock = threaded_session(tmp_path, "expert")
    choose(session, "New game")
    if session.state()["screen"] == "dealing":
        answered(session, events)
    assert session.state()["screen"] == "game"
    assert session.screen.run.progress.context.get("grade") == "expert"  # type: ignore[attr-defined]


def test_the_search_stops_at_once_when_called_off() -> None:
    rules = preset("classic")
    looks: list[int] = []

    def cancelled() -> bool:
        looks.append(1)
        return True

    assert dealing.find_deal(rules, True, random.Random(1), cancelled) is None
    assert dealing.find_deal(rules.with_redeals(2), "hard", random.Random(1), cancelled) is None, (
        "graded live: more redeals than the shipped grades were measured with")
    assert len(looks) <= 8, "no deal was searched once called off"


def test_a_deal_proven_live_is_graded_on_its_presets_scale() -> None:
    rules = preset("classic")
    found = dealing.find_deal(rules, True, random.Random(7), lambda: False)
    assert found is not None and found.number is not None
    difficulty = measure(Board(found.cards, rules))
    shipped = read_grades("classic")
    assert difficulty is not None and shipped is not None
    assert found.grade == shipped.scale.grade(difficulty.traps)
