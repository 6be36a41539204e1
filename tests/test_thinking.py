"""Hints off the main loop (issue 27): the search runs on a worker thread, the screen keeps
answering, "Thinking…" shows after 150 ms, Back calls the search off, a new question the old one.

The worker is the real :class:`~pyramid.console.thinking.Thinker` posting to a real queue, which
the test takes as the main loop does (``Session.post_event``); the clock of the cue is the
session's, swapped for one the test moves.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from console_steps import play
from deals import clearable_deal
from pyramid.console import game_flow
from pyramid.console.game_flow import HintAnswer
from pyramid.console.menus import open_console
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.console.thinking import Thinker, Thought
from pyramid.engine.board import Board
from pyramid.engine.cards import parse_deal
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import preset
from pyramid.engine.solver import solve
from pyramid.engine.verdicts import GameVerdicts
from pyramid.saved.store import Store
from fake_clock import FakeClock

GUARD = 60.0


def test_a_search_called_off_answers_unknown_at_its_next_look() -> None:
    board = Board(numbered_deal(97), preset("classic").with_redeals(1))
    looks: list[int] = []

    def cancelled() -> bool:
        looks.append(1)
        return len(looks) >= 3

    answer = solve(board, cancelled=cancelled, core="python")
    assert answer.verdict == "unknown" and len(looks) >= 3
    assert answer.nodes <= 4 * 256, "looked at every 256 nodes, and stopped at the first yes"
    assert solve(board).verdict in ("win", "lose")
    # The compiled core asks at most every 10 ms (the question takes the GIL back): see test_solver_core.py.


def wait_for(events: "queue.Queue[object]") -> Thought:
    event = events.get(timeout=GUARD)
    assert isinstance(event, Thought)
    return event


def until_called_off(cancelled: Callable[[], bool]) -> str:
    """Work that runs until it is called off (a search longer than any test)."""
    for _ in range(int(GUARD / 0.01)):
        if cancelled():
            return "called off"
        threading.Event().wait(0.01)
    raise AssertionError("never called off")


def test_a_new_question_calls_off_the_one_before_and_only_its_answer_is_handed_over() -> None:
    events: queue.Queue[object] = queue.Queue()
    thinker, delivered = Thinker(events.put), []
    thinker.ask(until_called_off, delivered.append)
    thinker.ask(lambda cancelled: 42, delivered.append)
    thinker.take(wait_for(events))
    assert delivered == [42] and not thinker.thinking
    thinker.cancel(wait=True)
    assert events.empty(), "the question called off posted nothing"


def test_cancel_with_wait_returns_once_the_worker_is_free() -> None:
    events: queue.Queue[object] = queue.Queue()
    thinker, started = Thinker(events.put), threading.Event()

    def work(cancelled: Callable[[], bool]) -> str:
        started.set()
        return until_called_off(cancelled)

    thinker.ask(work, lambda answer: None)
    assert started.wait(GUARD)
    thinker.cancel(wait=True)
    assert not thinker.thinking and events.empty()


def test_a_failing_search_is_raised_on_the_main_loop() -> None:
    events: queue.Queue[object] = queue.Queue()
    thinker = Thinker(events.put)

    def work(cancelled: Callable[[], bool]) -> None:
        raise ValueError("broken")

    thinker.ask(work, lambda answer: None)
    with pytest.raises(ValueError, match="broken"):
        thinker.take(wait_for(events))


def threaded_game(tmp_path: Path) -> tuple[Session, "queue.Queue[object]", FakeClock]:
    events: queue.Queue[object] = queue.Queue()
    session = Session(deal=DealChoice(cards=parse_deal(clearable_deal())), store=Store.open(tmp_path / "p.db"),
                      thinker=Thinker(events.put))
    session.clock = clock = FakeClock(100.0)
    open_console(session)
    assert play(session, "ok down down down ok")["screen"] == "game"  # "No redeal"
    return session, events, clock


def test_the_screen_answers_while_a_hint_is_searched_for_and_back_calls_it_off(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session, events, clock = threaded_game(tmp_path)
    monkeypatch.setattr(game_flow, "think_of_hint", lambda verdicts, board, cancelled, shown: until_called_off(cancelled))
    play(session, "hint")
    assert session.thinker.thinking and session.view().table.status_line != "Thinking… (Back stops)"
    before = session.state()["game"]["cursor"]
    play(session, "right")  # the cursor moves while the search goes on
    assert session.state()["game"]["cursor"] != before and session.thinker.thinking
    clock.now += 0.2
    session.tick()
    assert session.view().table.status_line == "Thinking… (Back stops)"
    play(session, "back")
    assert not session.thinker.thinking and session.state()["screen"] == "game"
    assert session.view().table.status_line != "Thinking… (Back stops)"
    session.thinker.cancel(wait=True)
    assert events.empty(), "a hint called off is never shown"


def test_a_hint_searched_on_the_worker_is_the_hint_searched_at_once(tmp_path: Path) -> None:
    session, events, clock = threaded_game(tmp_path)
    play(session, "hint")
    session.post_event(wait_for(events))
    threaded = session.view().table.status_line
    board = session.screen.board  # type: ignore[attr-defined]
    assert threaded.startswith("Hint: "), threaded
    inline = game_flow.think_of_hint(GameVerdicts(solve), board.copy(), lambda: False)
    assert isinstance(inline, HintAnswer) and inline.solution.verdict == "win"
    assert session.screen.hint and not session.thinker.thinking  # type: ignore[attr-defined]


def test_the_end_panel_comes_at_once_and_watch_the_solution_joins_it_when_the_deal_is_judged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The deal is judged from its start on the worker (up to the solver's budget): the panel does not
    wait for it, and the line highlighted stays highlighted when "Watch the solution" comes in."""
    session, events, clock = threaded_game(tmp_path)
    screen = session.screen
    verdicts, gate = screen.run.verdicts, threading.Event()  # type: ignore[attr-defined]
    judge = verdicts.solve

    def slow(board: Board, cancelled: Callable[[], bool] | None = None) -> object:
        assert gate.wait(GUARD)
        return judge(board, cancelled)

    monkeypatch.setattr(verdicts, "solve", slow)
    board = screen.board  # type: ignore[attr-defined]
    while board.status() == "playing":  # a poor player: draws first, removes last
        draws = [move for move in board.legal_moves if move.kind != "remove"]
        board.push(draws[0] if draws else board.legal_moves[-1])
    screen.run.check_end()  # type: ignore[attr-defined]
    state = session.state()
    assert state["menu"]["items"] == ["Back to the menu", "Undo the last move", "Play again", "Retry this deal"]
    assert session.view().panel.lines[-1] == "Judging this deal…"
    state = play(session, "down down down")
    assert state["menu"]["items"][state["menu"]["selected"]] == "Retry this deal"
    gate.set()
    session.post_event(wait_for(events))
    state = session.state()
    assert state["menu"]["items"] == ["Back to the menu", "Watch the solution", "Undo the last move", "Play again",
                                      "Retry this deal"]
    assert state["menu"]["items"][state["menu"]["selected"]] == "Retry this deal", "the highlight kept its line"
    assert session.view().panel.lines[-1] == "This deal could be won from the start."


def hard_game(tmp_path: Path) -> tuple[Session, "queue.Queue[object]"]:
    """King Tut with unlimited redeals, deal 106: a lost deal whose first hint the compiled core
    searches for some 150,000 nodes (0.2-0.3 s here, seconds on a Pi Zero 2)."""
    events: queue.Queue[object] = queue.Queue()
    session = Session(rules=preset("king-tut"), deal=DealChoice(number=106), store=Store.open(tmp_path / "p.db"),
                      thinker=Thinker(events.put))
    open_console(session)
    assert play(session, "ok")["screen"] == "game"
    return session, events


def test_a_hint_searched_by_the_compiled_core_leaves_the_main_loop_drawing(tmp_path: Path) -> None:
    """The real search, no stand-in: while the worker searches (the core lets go of the GIL), the
    main loop goes on ticking and drawing frames, and the answer then comes as an event."""
    session, events = hard_game(tmp_path)
    play(session, "hint")
    frames = 0
    while session.thinker.thinking:
        session.tick()
        assert session.view().table is not None
        frames += 1
        try:
            session.post_event(events.get(timeout=0.001))
        except queue.Empty:
            pass
    assert frames >= 5, f"only {frames} frames while the hint was searched"
    line = session.view().table.status_line
    assert line and line != "Thinking… (Back stops)", line


def test_back_calls_off_a_hint_the_compiled_core_is_searching(tmp_path: Path) -> None:
    session, events = hard_game(tmp_path)
    play(session, "hint")
    assert session.thinker.thinking
    play(session, "back")
    assert not session.thinker.thinking and session.state()["screen"] == "game"
    session.thinker.cancel(wait=True)  # returns once the core has read its "called off?" (every 10 ms)
    assert events.empty(), "a hint called off is never shown"
