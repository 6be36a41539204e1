"""The solver of one deal keeps what it proved between questions: never a wrong verdict, and progress.

:class:`DealSolver` answers questions about the positions of one game from
tables that earlier questions filled, including questions cut short by their
budget. A fact kept wrongly (a position marked lost while it was being
explored, say) would show here as a verdict that the plain exhaustive search
of ``test_solver_exhaustive`` contradicts, on random games with random budgets.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid.console import game_flow
from pyramid.engine import solver as solver_module
from pyramid.engine.solver import answers
from pyramid.engine.board import Board
from pyramid.engine.deal import numbered_deal
from pyramid.engine.errors import OtherDealError
from pyramid.engine.rules import PRESETS, RETROHUB, preset
from pyramid.engine.solver import DealSolver, solve

from test_solver_exhaustive import SMALL_POSITIONS, checked, exhaustive_win, random_position

#: Node budgets for the questions of a random game: most run out somewhere inside a search.
BUDGETS = st.lists(st.sampled_from([1, 2, 5, 20, 80, None]), min_size=1, max_size=8)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**SMALL_POSITIONS, budgets=BUDGETS)
def test_every_answer_along_a_game_matches_the_exhaustive_search_whatever_ran_out_before(
    name: str, redeals: int | None, seed: int, rows: int, waste: int, stock: int, budgets: list[int | None]
) -> None:
    rules = preset(name).with_redeals(redeals)
    rng = random.Random(seed)
    board = random_position(rules, rng, rows, waste, stock)
    deal_solver = DealSolver(board)
    start = board.copy()
    for budget in budgets:
        answer = deal_solver.solve(board, max_nodes=budget)
        if answer.verdict != "unknown":
            assert (answer.verdict == "win") == exhaustive_win(board), (name, board.fen())
            checked(board, answer)
        moves = board.legal_moves
        if not moves:
            break
        board.push(rng.choice(moves))
    again = deal_solver.solve(start)
    assert (again.verdict == "win") == exhaustive_win(start), (name, start.fen())
    checked(start, again)


@pytest.mark.parametrize("number, redeals, verdict", [(14, 1, "lose"), (82, 1, "win"), (33, 0, "lose")])
def test_a_question_cut_short_leaves_its_work_to_the_next(number: int, redeals: int, verdict: str) -> None:
    """With a quarter of the nodes a search needs, a new search never answers; the deal's solver
    answers after a few questions, as a console's hints do after their budget ran out."""
    board = Board(numbered_deal(number), RETROHUB.with_redeals(redeals))
    full = solve(board)
    assert full.verdict == verdict
    budget = full.nodes // 4
    assert solve(board, max_nodes=budget).verdict == "unknown"
    deal_solver = DealSolver(board)
    answers = [deal_solver.solve(board, max_nodes=budget) for _ in range(8)]
    verdicts = [answer.verdict for answer in answers]
    assert verdict in verdicts, verdicts
    assert verdicts[0] == "unknown" and set(verdicts[: verdicts.index(verdict)]) == {"unknown"}
    checked(board, answers[verdicts.index(verdict)])


def test_the_line_from_the_start_is_the_new_searchs_line() -> None:
    """What earlier questions proved prunes only lost positions: the line found first is the same."""
    rules = PRESETS["three-pass"]
    for number in range(1, 6):
        board = Board(numbered_deal(number), rules)
        deal_solver = DealSolver(board)
        later = board.copy()
        later.push(later.legal_moves[-1])
        deal_solver.solve(later)
        assert deal_solver.solve(board).moves == solve(board).moves


def test_a_position_play_cannot_reach_is_refused() -> None:
    board = Board(numbered_deal(5), RETROHUB.with_redeals(1))
    deal_solver = DealSolver(board)
    with pytest.raises(OtherDealError, match="cannot reach"):
        deal_solver.solve(Board(numbered_deal(6), RETROHUB.with_redeals(1)))
    with pytest.raises(OtherDealError):
        deal_solver.solve(Board(numbered_deal(5), RETROHUB.with_redeals(2)))  # more redeals
    with pytest.raises(OtherDealError):
        deal_solver.solve(Board(numbered_deal(5), RETROHUB.with_redeals(None)))  # other rules
    shuffled = board.copy()
    shuffled.stock[0], shuffled.stock[1] = shuffled.stock[1], shuffled.stock[0]
    with pytest.raises(OtherDealError):
        deal_solver.solve(shuffled)


def test_the_console_asks_one_deal_solver_per_game(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Board] = []

    class CountedDealSolver(DealSolver):
        def __init__(self, board: Board) -> None:
            made.append(board)
            super().__init__(board)

    monkeypatch.setattr(solver_module, "DealSolver", CountedDealSolver)
    board = Board(numbered_deal(2), RETROHUB.with_redeals(None))
    ask = game_flow.game_solver()
    first = ask(board)
    board.push(board.legal_moves[0])
    second = ask(board)
    assert first.verdict == "win" and second.verdict in ("win", "lose")
    assert len(made) == 1 and made[0].move_stack == [] and made[0].deal == board.deal


def test_a_solver_full_of_answers_starts_again_and_still_answers_right(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(answers, "KEPT_ENTRIES", 50)
    board = Board(numbered_deal(14), RETROHUB.with_redeals(1))
    deal_solver = DealSolver(board, core="python")
    assert deal_solver.solve(board).verdict == "lose"
    full = deal_solver.memory
    assert full.entries() > 50
    later = board.copy()
    later.push(later.legal_moves[0])
    assert deal_solver.solve(later).verdict == solve(later).verdict
    assert deal_solver.memory is not full


def test_a_compiled_core_full_of_answers_starts_again_and_still_answers_right(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(answers, "KEPT_BYTES", 1)
    board = Board(numbered_deal(14), RETROHUB.with_redeals(1))
    deal_solver = DealSolver(board, core="compiled")
    assert deal_solver.solve(board).verdict == "lose"
    full = deal_solver.compiled
    later = board.copy()
    later.push(later.legal_moves[0])
    assert deal_solver.solve(later).verdict == solve(later, core="python").verdict
    assert deal_solver.compiled is not full and deal_solver.compiled is not None
