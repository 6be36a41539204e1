"""The solver's answers remembered along a game: hints on the line found, and after a proven loss, come at once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pyramid.actions import Action
from pyramid.engine.board import Board, Move
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import RETROHUB
from pyramid.engine.solver import Solution, solve
from pyramid.engine.verdicts import GameVerdicts
from pyramid.console import game_flow

from console_steps import choose, play
from test_session_features import new_session


class CountingSolver:
    """The real solver, counting the positions it is asked about."""

    def __init__(self) -> None:
        self.asked: list[tuple[Move, ...]] = []

    def __call__(self, board: Board, *, cancelled: Callable[[], bool] | None = None) -> Solution:
        self.asked.append(tuple(board.move_stack))
        return solve(board, max_seconds=60, cancelled=cancelled)


def winnable_board() -> Board:
    """Numbered deal 2 with unlimited redeals: won, by a line long enough to leave it and come back."""
    board = Board(numbered_deal(2), RETROHUB.with_redeals(None))
    assert solve(board.copy()).verdict == "win"
    return board


def lost_board() -> Board:
    """Numbered deal 1 without a redeal: the solver proves it lost."""
    board = Board(numbered_deal(1), RETROHUB.with_redeals(0))
    assert solve(board.copy()).verdict == "lose"
    return board


def test_every_hint_along_the_line_found_comes_without_a_search_and_the_line_clears_the_table() -> None:
    board, solver = winnable_board(), CountingSolver()
    verdicts = GameVerdicts(solver)
    first = verdicts.solve(board)
    assert first.verdict == "win" and len(first.moves) > 5
    while board.status() == "playing":
        hint = verdicts.solve(board)
        assert hint.verdict == "win" and hint.moves, board.fen()
        board.push(hint.moves[0])
    assert board.status() == "cleared"
    assert solver.asked == [()], "only the first position was searched"
    assert verdicts.solve(Board(board.deal, board.rules)).moves == first.moves, "the solution from the start is known"


def test_a_move_off_the_line_or_an_undo_past_its_start_asks_the_solver_again() -> None:
    board, solver = winnable_board(), CountingSolver()
    verdicts = GameVerdicts(solver)
    line = verdicts.solve(board).moves
    board.push(line[0])
    board.push(line[1])
    verdicts.solve(board)
    assert len(solver.asked) == 1
    board.pop()
    assert verdicts.solve(board).moves == line[1:], "an undo along the line stays on it"
    assert len(solver.asked) == 1
    board.push(Move.draw())  # off the line (it removes Ad+Qd here), still won
    assert line[1] != Move.draw()
    answer = verdicts.solve(board)
    assert answer.verdict == "win" and solver.asked[-1] == (line[0], Move.draw()), "a position off the line is searched"
    board.push(answer.moves[0])
    assert verdicts.solve(board).moves == answer.moves[1:] and len(solver.asked) == 2, "then its new line is followed"


def test_after_a_proven_loss_every_later_position_is_lost_without_a_search() -> None:
    board, solver = lost_board(), CountingSolver()
    verdicts = GameVerdicts(solver)
    board.push(board.legal_moves[0])
    assert verdicts.solve(board).verdict == "lose"
    for _ in range(3):
        if board.status() != "playing":
            break
        board.push(board.legal_moves[-1])
        assert verdicts.solve(board).verdict == "lose"
    assert len(solver.asked) == 1
    while board.move_stack:  # back before the proven position: that one was never asked
        board.pop()
    assert verdicts.solve(board).verdict == "lose"
    assert solver.asked[-1] == () and len(solver.asked) == 2


def test_an_unknown_answer_is_not_remembered() -> None:
    board = winnable_board()
    asked: list[int] = []

    def out_of_time(position: Board, *, cancelled: Callable[[], bool] | None = None) -> Solution:
        asked.append(len(position.move_stack))
        return solve(position, max_nodes=1)

    verdicts = GameVerdicts(out_of_time)
    assert verdicts.solve(board).verdict == "unknown"
    assert verdicts.solve(board).verdict == "unknown"
    assert asked == [0, 0]


def test_in_the_console_a_second_hint_on_the_line_is_not_searched_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two hints in a row along the hinted line (the first one played): one search, both shown."""
    solver = CountingSolver()
    monkeypatch.setattr(game_flow, "game_solver", lambda: solver)
    session = new_session(tmp_path, number=2)
    choose(session, "New game")
    play(session, "down ok")  # Unlimited redeals
    play(session, "hint")
    first = session.view().table
    assert first.status_line.startswith("Hint: ") and first.hint
    for target in first.hint:  # play the hinted move
        session.handle(Action.tap(0, 0), lambda x, y, target=target: target)
    play(session, "hint")
    assert session.view().table.status_line.startswith("Hint: ") and session.view().table.hint
    assert len(solver.asked) == 1
