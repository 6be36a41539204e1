"""The solver: verdicts and shortest lengths against published data and brute force.

Every line the solver reports is replayed through :meth:`Board.push`.
The reference deals are ``tests/data/msc-1500`` (read through ``reference.py``); the whole of it
runs in ``benchmarks/bench_solver.py`` and in the slow tests (``PYRAMID_SLOW=1``).
"""

from __future__ import annotations

import os
import random
from collections import deque

import pytest
from deals import clearable_deal
from reference import RULES_PRESET, reference_deals

from pyramid.engine.board import Board, Move
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import PRESETS, Rules, preset
from pyramid.engine.solver import Solution, solve
from pyramid.engine.winnable import winnable_deal_numbers

#: Each test runs with each solver core: the compiled one and the Python reference it must equal.
pytestmark = pytest.mark.usefixtures("each_solver_core")

slow = pytest.mark.skipif(os.environ.get("PYRAMID_SLOW") != "1", reason="long run: set PYRAMID_SLOW=1")


def replay(board: Board, solution: Solution) -> Board:
    """Play the solution on a copy of ``board``; it must clear the table."""
    played = board.copy()
    for move in solution.moves:
        played.push(move)
    assert played.status() == "cleared", played.fen()
    return played


def checked_solve(board: Board, **options) -> Solution:
    before = board.fen(), board.redeals_left, len(board.move_stack)
    solution = solve(board, **options)
    assert (board.fen(), board.redeals_left, len(board.move_stack)) == before, "the solver changed the board"
    if solution.verdict == "win":
        replay(board, solution)
    else:
        assert solution.moves == []
    return solution


# -- published verdicts and lengths ------------------------------------------------
def test_verdicts_of_the_first_msc_deals_match_the_published_ones() -> None:
    rules = preset(RULES_PRESET)
    for reference in reference_deals()[:40]:
        solution = checked_solve(Board(reference.deal, rules))
        assert (solution.verdict == "win") == reference.winnable, f"deal {reference.number}"


@pytest.mark.parametrize("number", [23, 50, 53, 54])
def test_optimal_lengths_match_the_published_ones(number: int) -> None:
    reference = reference_deals()[number - 1]
    solution = checked_solve(Board(reference.deal, preset(RULES_PRESET)), optimal=True)
    assert solution.verdict == "win" and solution.optimal
    assert solution.steps == reference.length


@slow
@pytest.mark.slow
def test_all_msc_verdicts_match() -> None:
    rules = preset(RULES_PRESET)
    for reference in reference_deals():
        assert (checked_solve(Board(reference.deal, rules)).verdict == "win") == reference.winnable, \
            f"deal {reference.number}"


@slow
@pytest.mark.slow
def test_optimal_lengths_of_the_first_100_msc_deals_match() -> None:
    rules = preset(RULES_PRESET)
    for reference in reference_deals()[:100]:
        assert checked_solve(Board(reference.deal, rules), optimal=True).steps == reference.length, \
            f"deal {reference.number}"


# -- brute force on small positions ------------------------------------------------
def small_position(rules: Rules, rng: random.Random, rows: int, waste: int, stock: int) -> Board:
    """A mid-game position: the top ``rows`` rows, a short waste and stock, made
    of kings and complementary pairs so that wins are common enough to check."""
    board = Board(numbered_deal(rng.randint(1, 10_000), rules.deck), rules)
    spare = list(rules.deck.cards)
    rng.shuffle(spare)
    cards: list = []
    keep = rows * (rows + 1) // 2
    while len(cards) < keep + waste + stock:
        rank = rng.randint(1, rules.target)
        wanted = [rank] if rank == rules.target else [rank, rules.target - rank]
        chosen = []
        for want in wanted:
            card = next((card for card in spare if card.rank == want and card not in chosen), None)
            if card is not None:
                chosen.append(card)
        if len(chosen) == len(wanted):
            cards += chosen
            spare = [card for card in spare if card not in chosen]
    cards = cards[: keep + waste + stock]
    rng.shuffle(cards)
    board.pyramid = cards[:keep] + [None] * (len(board.pyramid) - keep)
    board.waste = cards[keep : keep + waste]
    board.stock = cards[keep + waste :]
    return board


def position_key(board: Board) -> tuple:
    return tuple(board.pyramid), tuple(board.stock), tuple(board.waste), board.redeals_left


def brute_force_shortest(board: Board) -> int | None:
    """Breadth-first over every position (through the board itself): the shortest win, or None."""
    start = board.copy()
    seen = {position_key(start)}
    frontier = deque([(start, 0)])
    while frontier:
        current, steps = frontier.popleft()
        if current.status() == "cleared":
            return steps
        for move in current.legal_moves:
            current.push(move)
            key = position_key(current)
            if key not in seen:
                seen.add(key)
                frontier.append((current.copy(), steps + 1))
            current.pop()
    return None


@pytest.mark.parametrize("name", list(PRESETS))
def test_verdict_and_shortest_length_match_brute_force(name: str) -> None:
    rng = random.Random(name)
    outcomes = {"win": 0, "lose": 0}
    tried = 0
    while tried < 12 or (min(outcomes.values()) == 0 and tried < 200):
        tried += 1
        rules = preset(name).with_redeals(rng.choice((0, 1, None)))
        board = small_position(rules, rng, rng.choice((2, 3)), rng.randint(0, 3), rng.randint(0, 7))
        expected = brute_force_shortest(board)
        verdict = checked_solve(board)
        shortest = checked_solve(board, optimal=True)
        assert verdict.verdict == shortest.verdict == ("lose" if expected is None else "win"), board.fen()
        outcomes[shortest.verdict] += 1
        if expected is not None:
            assert shortest.steps == expected, board.fen()
    assert min(outcomes.values()) > 0, outcomes


@pytest.mark.parametrize("name", ["retrohub", "king-tut"])
def test_verdicts_with_a_deep_waste_match_brute_force(name: str) -> None:
    """The last-pass relaxation plays the waste from the top down: deep wastes test it."""
    rng = random.Random(f"deep-{name}")
    outcomes = {"win": 0, "lose": 0}
    for _ in range(150):
        rules = preset(name).with_redeals(rng.choice((0, 0, 1)))
        board = small_position(rules, rng, 3, rng.randint(3, 8), rng.randint(1, 6))
        expected = "lose" if brute_force_shortest(board) is None else "win"
        assert checked_solve(board).verdict == expected, board.fen()
        outcomes[expected] += 1
    assert min(outcomes.values()) > 10, outcomes


# -- every preset, from the start and from mid-game --------------------------------
@pytest.mark.parametrize("name", list(PRESETS))
def test_solutions_replay_from_the_start_and_from_mid_game(name: str) -> None:
    rules = preset(name)
    rng = random.Random(f"mid-{name}")
    answered = 0
    for number in range(1, 7):
        board = Board(numbered_deal(number, rules.deck), rules)
        from_start = checked_solve(board, max_nodes=20_000)
        for _ in range(rng.randint(3, 15)):
            moves = board.legal_moves
            if not moves:
                break
            removals = [m for m in moves if m.kind == "remove"]
            board.push(rng.choice(removals) if removals else moves[-1])
        mid_game = checked_solve(board, max_nodes=20_000)
        if mid_game.verdict == "win":
            assert from_start.verdict in ("win", "unknown")  # the start can reach this position
        answered += mid_game.verdict != "unknown"
    assert answered >= 3


def test_finished_positions() -> None:
    board = Board(clearable_deal())
    assert checked_solve(board).verdict == "win"
    assert checked_solve(board, optimal=True).steps == 16  # 4 kings and 12 pairs, no draw
    while board.status() == "playing":
        board.push(next(m for m in board.legal_moves if m.kind == "remove"))
    done = solve(board)
    assert (done.verdict, done.moves) == ("win", [])
    lost = Board(numbered_deal(1))
    lone = next(i for i in range(21, 28) if lost.pyramid[i].rank != 13)
    lost.pyramid = [card if i == lone else None for i, card in enumerate(lost.pyramid)]
    lost.stock, lost.waste = [], []
    assert lost.status() == "no_moves"
    assert solve(lost).verdict == "lose"


def test_a_budget_gives_unknown_rather_than_a_late_answer() -> None:
    board = Board(numbered_deal(73))
    assert solve(board, max_nodes=5).verdict == "unknown"
    assert solve(board, max_seconds=0.0, max_nodes=None).verdict in ("unknown", "lose")
    assert solve(board).verdict == "lose"


@pytest.mark.parametrize("name", ["retrohub", "classic"])
def test_a_node_budget_holds_exactly_through_the_last_pass_search(name: str) -> None:
    """Deal 73 without redeals takes the plain search past its first nodes, then the last-pass search
    (a loss under RetroHub's rules, a win under Classic's): one node short of what it spent is "unknown",
    never a verdict, and the nodes it reports are enough again."""
    board = Board(numbered_deal(73), preset(name))
    full = checked_solve(board)
    assert full.verdict in ("win", "lose") and full.nodes > 1_000
    assert solve(board, max_nodes=full.nodes - 1).verdict == "unknown"
    again = checked_solve(board, max_nodes=full.nodes)
    assert (again.verdict, again.nodes, again.moves) == (full.verdict, full.nodes, full.moves)


@pytest.mark.parametrize(("name", "number", "verdict"), [
    ("retrohub", 1, "lose"), ("retrohub", 2, "win"), ("classic", 1, "lose"), ("classic", 15, "win"),
])
def test_a_node_budget_holds_exactly_through_the_two_pass_search(name: str, number: int, verdict: str) -> None:
    """With one redeal these deals pass the plain search's first nodes to the two-pass search (goal
    "pyramid" and goal "all"; the wins redeal once): one node short is "unknown", and the nodes
    it reports are enough again, for the same line."""
    board = Board(numbered_deal(number), preset(name).with_redeals(1))
    full = checked_solve(board)
    assert full.verdict == verdict and full.nodes > 1_000
    assert (Move.redeal() in full.moves) == (verdict == "win")
    assert solve(board, max_nodes=full.nodes - 1).verdict == "unknown"
    again = checked_solve(board, max_nodes=full.nodes)
    assert (again.verdict, again.nodes, again.moves) == (full.verdict, full.nodes, full.moves)


# -- monotonicity ------------------------------------------------------------------
def verdicts(name: str, redeals: list[int | None], number: int) -> list[str]:
    rules = preset(name)
    deal = numbered_deal(number, rules.deck)
    return [solve(Board(deal, rules.with_redeals(r)), max_nodes=15_000).verdict for r in redeals]


def test_more_redeals_never_lose_a_won_deal_and_retrohub_wins_imply_three_pass_wins() -> None:
    rng = random.Random(2026)
    compared = 0
    for number in rng.sample(range(1, 1_000_000), 25):
        allowances: list[int | None] = [0, 1, 2, None]
        retro = verdicts("retrohub", allowances, number)
        three = verdicts("three-pass", allowances, number)
        for results in (retro, three):
            decided = [v for v in results if v != "unknown"]
            wins = [i for i, v in enumerate(results) if v == "win"]
            if wins:
                assert all(v != "lose" for v in results[wins[0]:]), (number, results)
            compared += len(decided)
        for a, b in zip(retro, three):
            if a == "win":
                assert b != "lose", (number, retro, three)
    assert compared > 100


# -- winnable deal lists -----------------------------------------------------------
@pytest.mark.parametrize("name", list(PRESETS))
def test_listed_winnable_deals_are_won(name: str) -> None:
    rules = preset(name)
    numbers = winnable_deal_numbers(rules)
    assert len(numbers) >= 200 and len(set(numbers)) == len(numbers)
    for number in random.Random(name).sample(numbers, 3):
        assert checked_solve(Board(numbered_deal(number, rules.deck), rules), max_nodes=500_000).verdict == "win"


def test_winnable_lists_follow_the_redeal_allowance() -> None:
    three = preset("three-pass")
    assert winnable_deal_numbers(three.with_redeals(None)) == winnable_deal_numbers(three)
    assert winnable_deal_numbers(three.with_redeals(1)) == []
    retro = preset("retrohub")
    assert winnable_deal_numbers(retro.with_redeals(1)) == winnable_deal_numbers(retro)
    assert winnable_deal_numbers(Rules(name="home-made")) == []
