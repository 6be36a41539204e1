"""The fast verdicts against a plain exhaustive search, on random positions of every preset (hypothesis).

The solver proves most losses with relaxations, dominance rules and dead-card
arguments; each of them would show here as a "lose" where some line wins. The
reference is deliberately naive: a depth-first search over every legal move of
:class:`Board` itself, with a set of visited positions and nothing else, so it
shares no code with the solver. Every "win" the solver gives replays through
:meth:`Board.push`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pyramid.engine.board import Board, Move
from pyramid.engine.cards import Card
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import PRESETS, Rules, preset
from pyramid.engine.solver import Solution, solve
from pyramid.engine.solver.budget import Budget
from pyramid.engine.solver.freeing import Freeing
from pyramid.engine.solver.last_pass import LastPass
from pyramid.engine.solver.memory import Memory
from pyramid.engine.solver.position import Position
from pyramid.engine.solver.relaxation import Relaxation
from pyramid.engine.solver.verdict import two_passes_verdict
import pytest

#: Each test runs with each solver core: the compiled one and the Python reference it must equal.
pytestmark = pytest.mark.usefixtures("each_solver_core")

#: What the property tests draw from: every preset, every redeal setting, a seed for the position.
ANY_PRESET = st.sampled_from(list(PRESETS))
ANY_REDEALS = st.sampled_from([0, 1, 2, None])
SEEDS = st.integers(min_value=0, max_value=2**32)
#: The small positions of every preset and redeal count that the exhaustive search can settle quickly.
SMALL_POSITIONS: dict[str, st.SearchStrategy[Any]] = {
    "name": ANY_PRESET,
    "redeals": ANY_REDEALS,
    "seed": SEEDS,
    "rows": st.integers(min_value=2, max_value=4),
    "waste": st.integers(min_value=0, max_value=5),
    "stock": st.integers(min_value=0, max_value=9),
}

PositionKey = tuple[tuple[Card | None, ...], tuple[Card, ...], tuple[Card, ...], int | None]


def position_key(board: Board) -> PositionKey:
    return tuple(board.pyramid), tuple(board.stock), tuple(board.waste), board.redeals_left


def exhaustive_win(board: Board) -> bool:
    """Can ``board`` be cleared? Every legal move, every position once (unlimited redeals stay finite)."""
    seen: set[PositionKey] = set()
    stack = [board.copy()]
    while stack:
        current = stack.pop()
        if current.status() == "cleared":
            return True
        stack += unseen_successors(current, seen)
    return False


def unseen_successors(current: Board, seen: set[PositionKey]) -> Iterator[Board]:
    """The positions one legal move from ``current`` that are not in ``seen`` (added to it as they come)."""
    for move in current.legal_moves:
        current.push(move)
        key = position_key(current)
        if key not in seen:
            seen.add(key)
            yield current.copy()
        current.pop()


def shortest_length(board: Board) -> int | None:
    """The fewest moves that clear ``board`` (None: it cannot be cleared), breadth first over every legal move."""
    seen = {position_key(board)}
    layer = [board.copy()]
    steps = 0
    while layer:
        if any(current.status() == "cleared" for current in layer):
            return steps
        layer = [following for current in layer for following in unseen_successors(current, seen)]
        steps += 1
    return None


def random_position(rules: Rules, rng: random.Random, rows: int, waste: int, stock: int) -> Board:
    """A mid-game position: the top ``rows`` rows of the pyramid, a waste and a stock.

    Mostly kings and complementary pairs, with a few cards of any rank, so that
    both verdicts are common and the dead-card rules have something to find.
    """
    board = Board(numbered_deal(rng.randint(1, 10_000), rules.deck), rules)
    spare = list(rules.deck.cards)
    rng.shuffle(spare)
    keep = rows * (rows + 1) // 2
    cards: list[Card] = []
    while len(cards) < keep + waste + stock and spare:
        if rng.random() < 0.15:
            cards.append(spare.pop())
            continue
        rank = rng.randint(1, rules.target)
        wanted = [rank] if rank == rules.target else [rank, rules.target - rank]
        chosen: list[Card] = []
        for want in wanted:
            card = next((card for card in spare if card.rank == want and card not in chosen), None)
            if card is not None:
                chosen.append(card)
        if len(chosen) == len(wanted):
            cards += chosen
            spare = [card for card in spare if card not in chosen]
    cards = cards[: keep + waste + stock]
    rng.shuffle(cards)
    keep = min(keep, len(cards))
    board.pyramid = list(cards[:keep]) + [None] * (len(board.pyramid) - keep)
    board.waste = cards[keep : keep + waste]
    board.stock = cards[keep + waste :]
    return board


def checked(board: Board, solution: Solution) -> None:
    if solution.verdict == "win":
        played = board.copy()
        for move in solution.moves:
            played.push(move)
        assert played.status() == "cleared", board.fen()
    else:
        assert solution.moves == []


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**SMALL_POSITIONS)
def test_fast_verdicts_match_the_exhaustive_search(
    name: str, redeals: int | None, seed: int, rows: int, waste: int, stock: int
) -> None:
    rules = preset(name).with_redeals(redeals)
    board = random_position(rules, random.Random(seed), rows, waste, stock)
    solution = solve(board)
    checked(board, solution)
    assert solution.verdict == ("win" if exhaustive_win(board) else "lose"), (name, redeals, board.fen())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, rows=st.integers(min_value=2, max_value=4), waste=st.integers(min_value=0, max_value=5),
       stock=st.integers(min_value=1, max_value=9))
def test_the_places_of_one_draw_and_redeal_cycle_are_one_position(seed: int, rows: int, waste: int, stock: int) -> None:
    """King Tut draws three with unlimited redeals: the places a pass's draws stop at (0, 3, 6, … cards in
    the waste, and the whole pass) lead to each other by drawing and redealing alone, so the loss table
    keys them once (Position.lost_key) and they must share a verdict; a waste of another size (a removal
    from the waste made it) cannot come back and keeps a key of its own."""
    rules = preset("king-tut").with_redeals(None)
    board = random_position(rules, random.Random(seed), rows, waste, stock)
    total = len(board.stock) + len(board.waste)
    cycle = {size for size in range(total + 1) if size % 3 == 0 or size == total}
    pos = Position(board)
    places: list[tuple[int, int, bool]] = []  # waste size, loss-table key, won
    current = board.copy()
    for _ in range(2 * total + 2):  # to the end of the pass, a redeal, and a whole pass more
        if current.status() != "playing":
            break
        pos.aim(current)
        places.append((len(current.waste), pos.lost_key(pos.start_pm, pos.start_live, pos.start_q, pos.start_r),
                       exhaustive_win(current)))
        current.push(Move.draw() if current.stock else Move.redeal())
    assume(len(places) > 1)
    for size, key, won in places:
        for other_size, other_key, other_won in places:
            assert (key == other_key) == (size == other_size or {size, other_size} <= cycle), board.fen()
            assert key != other_key or won == other_won, board.fen()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from([name for name, rules in PRESETS.items() if rules.stock_top_playable]),
    redeals=st.sampled_from([0, 0, 1]),
    seed=SEEDS,
    waste=st.integers(min_value=3, max_value=8),
    stock=st.integers(min_value=1, max_value=6),
)
def test_deep_wastes_under_a_playable_stock_top_match_the_exhaustive_search(
    name: str, redeals: int, seed: int, waste: int, stock: int
) -> None:
    """The last-pass relaxation lets the waste top leave with a stock card when the stock top plays."""
    rules = preset(name).with_redeals(redeals)
    board = random_position(rules, random.Random(seed), 3, waste, stock)
    solution = solve(board)
    checked(board, solution)
    assert solution.verdict == ("win" if exhaustive_win(board) else "lose"), (name, redeals, board.fen())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=ANY_PRESET,
    redeals=ANY_REDEALS,
    seed=SEEDS,
)
def test_optimal_solutions_replay_and_agree_with_the_verdict(name: str, redeals: int | None, seed: int) -> None:
    rules = preset(name).with_redeals(redeals)
    board = random_position(rules, random.Random(seed), 3, 3, 7)
    verdict = solve(board)
    shortest = solve(board, optimal=True)
    checked(board, shortest)
    assert shortest.verdict == verdict.verdict
    assert shortest.steps <= verdict.steps or verdict.verdict == "lose"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=ANY_PRESET,
    redeals=ANY_REDEALS,
    seed=SEEDS,
    waste=st.integers(min_value=0, max_value=4),
    stock=st.integers(min_value=2, max_value=8),
)
def test_optimal_lengths_match_a_breadth_first_search(
    name: str, redeals: int | None, seed: int, waste: int, stock: int
) -> None:
    """A* keys its record by ranks, not cards, and skips pyramid-only removals after a draw: still shortest."""
    rules = preset(name).with_redeals(redeals)
    board = random_position(rules, random.Random(seed), 3, waste, stock)
    shortest = solve(board, optimal=True)
    checked(board, shortest)
    length = shortest_length(board)
    assert (shortest.steps if shortest.verdict == "win" else None) == length, (name, redeals, board.fen())


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from([name for name, rules in PRESETS.items() if rules.draw_count == 1]),
    seed=SEEDS,
    rows=st.integers(min_value=3, max_value=4),
    waste=st.integers(min_value=0, max_value=6),
    stock=st.integers(min_value=4, max_value=11),
)
def test_last_pass_excursions_answer_as_the_exhaustive_search(
    name: str, seed: int, rows: int, waste: int, stock: int
) -> None:
    """The last-pass search by waste excursions, asked directly: a wrong "win" would hide behind the depth-first search."""
    rules = preset(name).with_redeals(0)
    board = random_position(rules, random.Random(seed), rows, waste, stock)
    if board.status() != "playing":
        return
    position = Position(board)
    budget = Budget(None, None)
    lost: dict[int, int] = {}
    last_pass = LastPass(position, budget, lost, Relaxation(position, budget), Freeing(position))
    verdict = last_pass.can_win(position.start_pm, position.start_live, position.start_q)
    assert verdict == exhaustive_win(board), (name, board.fen())
    assert solve(board).verdict == ("win" if verdict else "lose")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from([name for name, rules in PRESETS.items() if rules.draw_count == 1]),
    seed=SEEDS,
    rows=st.integers(min_value=3, max_value=4),
    waste=st.integers(min_value=0, max_value=5),
    stock=st.integers(min_value=4, max_value=9),
)
def test_two_passes_answer_as_the_exhaustive_search(name: str, seed: int, rows: int, waste: int, stock: int) -> None:
    """The two-pass search with one redeal left, asked directly (the depth-first probe settles these
    small positions before it would be asked), and the line it leads to replays."""
    rules = preset(name).with_redeals(1)
    board = random_position(rules, random.Random(seed), rows, waste, stock)
    if board.status() != "playing":
        return
    position = Position(board)
    won, search = two_passes_verdict(position, Budget(None, None), Memory(position))
    assert won == exhaustive_win(board), (name, board.fen())
    if won:
        checked(board, Solution("win", [position.move_of(token) for token in search.path], False, 0, 0.0))
