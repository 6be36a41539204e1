"""What a stock or waste card can take from a pyramid (``Freeing``), against the board's own moves (hypothesis).

The reference is :class:`Board` itself: the pyramids its removals inside the pyramid reach from a
position (pairs of pyramid cards and pyramid kings, as ``legal_moves`` offers them), found by
pushing those moves, with nothing of the solver's encoding but the bit each pyramid place takes.
Whether the put-off removals lose no line is held by the two-pass search against the exhaustive
search (tests/test_solver_exhaustive.py); here, that every pyramid ``Freeing`` hands out is one a
card can really leave behind, and that what needs no removal first is always there.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pyramid.engine.board import Board, Move
from pyramid.engine.cards import Card
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import PRESETS, preset
from pyramid.engine.solver import Core, solve
from pyramid.engine.solver.freeing import Freeing
from pyramid.engine.solver.budget import Budget
from pyramid.engine.solver.memory import Memory
from pyramid.engine.solver.position import Position, set_bits
from pyramid.engine.solver.verdict import VerdictSearch
from pyramid.engine.winnable import read_list

#: Past this many pyramids below the start, the board-by-board reference takes too long for a test.
LATTICE_LIMIT = 2_000


def pyramid_of(board: Board) -> tuple[Card | None, ...]:
    return tuple(board.pyramid)


def removals_inside(board: Board) -> list[Board]:
    """The boards one removal inside the pyramid on (the board's own legal moves)."""
    inside = {card for card in board.pyramid if card is not None}
    after = []
    for move in board.legal_moves:
        if move.kind == "remove" and all(card in inside for card in move.cards):
            child = board.copy()
            child.push(move)
            after.append(child)
    return after


def pyramids_below(board: Board) -> dict[tuple[Card | None, ...], Board] | None:
    """Every pyramid the removals inside it reach from ``board`` (itself included), or None past the limit."""
    found = {pyramid_of(board): board}
    todo = [board]
    while todo:
        for child in removals_inside(todo.pop()):
            key = pyramid_of(child)
            if key not in found:
                if len(found) >= LATTICE_LIMIT:
                    return None
                found[key] = child
                todo.append(child)
    return found


def mask_of(position: Position, pyramid: tuple[Card | None, ...], without: Card | None = None) -> int:
    return sum(1 << position.bit_of[index] for index, card in enumerate(pyramid)
               if card is not None and card != without)


def random_board(name: str, number: int, plies: int, seed: int) -> Board:
    """Deal ``number`` of the preset after up to ``plies`` random moves (removals mostly)."""
    board = Board(numbered_deal(number, preset(name).deck), preset(name))
    chooser = random.Random(seed)
    for _ in range(plies):
        moves = board.legal_moves
        if not moves or board.status() != "playing":
            break
        removals = [move for move in moves if move.kind == "remove"]
        board.push(chooser.choice(removals) if removals and chooser.random() < 0.7 else chooser.choice(moves))
    return board


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(list(PRESETS)), number=st.integers(1, 100_000), plies=st.integers(0, 60),
       seed=st.integers(0, 2**32))
def test_every_pyramid_freeing_hands_out_is_one_a_card_can_leave_behind(
        name: str, number: int, plies: int, seed: int) -> None:
    board = random_board(name, number, plies, seed)
    below = pyramids_below(board)
    assume(below is not None)
    assert below is not None
    position = Position(board)
    freed = Freeing(position).of(position.start_pm)
    target = board.rules.target
    # What a card of each rank can leave behind: a pyramid below, less one uncovered card of the rank it needs.
    possible: dict[int, set[int]] = {}
    for pyramid, there in below.items():
        for card in there.uncovered_cards():
            if card.rank != target:
                possible.setdefault(card.rank, set()).add(mask_of(position, pyramid, without=card))
    for rank, afters in freed.after.items():
        assert set(afters) <= possible.get(rank, set()), (name, board.fen(), rank)
    # A card uncovered already needs no removal first: taking it is always offered.
    for card in board.uncovered_cards():
        if card.rank != target:
            assert mask_of(position, pyramid_of(board), without=card) in freed.after.get(card.rank, ()), board.fen()
    # The pyramid clears by its own removals exactly when the board's removals inside it empty it.
    assert freed.clears == any(all(card is None for card in pyramid) for pyramid in below), board.fen()
    # ``cards``, the cards it offers to take: each one its lists leave behind, and each list takes one.
    for bit in set_bits(freed.cards):
        assert any(not after >> bit & 1 for after in freed.after[position.rank[bit]]), board.fen()
    for rank, afters in freed.after.items():
        of_rank = freed.cards & position.rank_mask[rank]
        assert all(of_rank & ~after for after in afters), (board.fen(), rank)


def inside_pyramid(board: Board, move: Move) -> bool:
    """Is ``move`` a removal of pyramid cards only (a pair, an overlap pair or a king)?"""
    inside = {card for card in board.pyramid if card is not None}
    return move.kind == "remove" and all(card in inside for card in move.cards)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(list(PRESETS)), listed=st.integers(0, 999), plies=st.integers(0, 12),
       seed=st.integers(0, 2**32), core=st.sampled_from(["python", "compiled"]))
def test_a_winning_line_makes_each_removal_inside_the_pyramid_as_soon_as_it_can(
        name: str, listed: int, plies: int, seed: int, core: Core) -> None:
    """The searches put those removals off (Freeing); the line they give (``removals_first``) makes each
    as soon as it is legal, as a player would: a hint offers the pair before a draw."""
    board = random_board(name, read_list(name).numbers[listed], plies, seed)
    solution = solve(board, max_nodes=200_000, core=core)
    assume(solution.verdict == "win")
    later = [move for move in solution.moves if inside_pyramid(board, move)]
    for move in solution.moves:
        if inside_pyramid(board, move):
            later.remove(move)
        else:
            ready = [removal for removal in later if removal in board.legal_moves]
            assert not ready, (name, board.fen(), move, ready)
        board.push(move)
    assert board.status() == "cleared", (name, board.fen())


def test_the_removals_that_free_a_card_are_found_expanding_each_pyramid_once() -> None:
    """``VerdictSearch._removals_to`` writes the removals a win below put off back into the line,
    trying each card of the rank taken that left (``_freed_takes``): most lead nowhere, and a wrong
    partner taken early is a dead end too. Without the pyramids found failing, every order of the
    removals before it was tried again (Classic deal 261407, found by a random search: 506 calls
    where 69 do; no removals reach this pyramid)."""
    rules = preset("classic")
    position = Position(Board(numbered_deal(261407, rules.deck), rules))
    search = VerdictSearch(position, Budget(None, None), Memory(position))
    start, to = 35816724670907137, 52884150878977
    expanded: list[int] = []
    removals_to = search._removals_to

    def spy(pm: int, goal: int, failed: set[int] | None = None) -> list[tuple[int, ...]] | None:
        if pm != goal and (failed is None or pm not in failed):
            expanded.append(pm)
        return removals_to(pm, goal, failed)

    search._removals_to = spy  # type: ignore[method-assign]
    assert search._removals_to(start, to) is None
    assert len(expanded) == len(set(expanded)), "a pyramid expanded twice"
    assert Freeing(position).of(start).after  # a pyramid with cards to free
