"""Engine invariants over random play (hypothesis), checked by independent code."""

from __future__ import annotations

from collections import Counter, deque

from hypothesis import given, settings
from hypothesis import strategies as st

from pyramid.engine.board import Board, Move
from pyramid.engine.cards import Card
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import RETROHUB

redeal_choices = st.sampled_from([0, 1, 2, None])
deal_numbers = st.integers(min_value=1, max_value=2**32)
choices = st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=120)


def uncovered(pyramid: list[Card | None], index: int) -> bool:
    """Independent geometry: row r, column k is covered by (r+1, k) and (r+1, k+1)."""
    row = next(r for r in range(7) if index < (r + 1) * (r + 2) // 2)
    column = index - row * (row + 1) // 2
    if row == 6:
        return True
    below = (row + 1) * (row + 2) // 2 + column
    return pyramid[below] is None and pyramid[below + 1] is None


def brute_force_removal_reachable(board: Board) -> bool:
    """Breadth-first search over every draw/redeal-only position, with a visited set."""
    open_cards = [card for i, card in enumerate(board.pyramid) if card is not None and uncovered(board.pyramid, i)]
    start = (tuple(board.stock), tuple(board.waste), board.redeals_left)
    seen, queue = {start}, deque([start])
    while queue:
        stock, waste, redeals = queue.popleft()
        cards = open_cards + ([waste[-1]] if waste else [])
        if any(card.rank == 13 for card in cards) or any(
            a.rank + b.rank == 13 for i, a in enumerate(cards) for b in cards[i + 1:]
        ):
            return True
        following = []
        if stock:
            following.append((stock[1:], waste + stock[:1], redeals))
        elif waste and redeals != 0:
            following.append((waste, (), None if redeals is None else redeals - 1))
        for state in following:
            # unlimited redeals: the count does not matter, so the state space is finite
            if state not in seen:
                seen.add(state)
                queue.append(state)
    return False


def points(board: Board, card: Card) -> int:
    if card in board.pyramid:
        index = board.pyramid.index(card)
        row = next(r for r in range(7) if index < (r + 1) * (r + 2) // 2)
        return 5 * (7 - row)
    return 5


@settings(max_examples=200, deadline=None)
@given(deal_numbers, redeal_choices, choices)
def test_random_play_keeps_every_invariant(number: int, redeals: int | None, picks: list[int]) -> None:
    board = Board(numbered_deal(number), RETROHUB.with_redeals(redeals))
    removed: list[Card] = []
    expected_score = 0
    for pick in picks:
        assert (board.status() == "no_moves") == (
            not board.is_cleared() and not brute_force_removal_reachable(board)
        ), board.fen()
        moves = board.legal_moves
        if not moves:
            break
        move = moves[pick % len(moves)]
        before = board.to_json()
        if move.kind == "remove":
            for card in move.cards:
                if card in board.pyramid:
                    assert uncovered(board.pyramid, board.pyramid.index(card)), "covered card removed"
                else:
                    assert card == board.waste_top
            assert sum(card.rank for card in move.cards) == 13 or move.cards[0].rank == 13
            expected_score += sum(points(board, card) for card in move.cards)
            removed.extend(move.cards)
        board.push(move)
        # undo restores exactly, and the move replays identically
        after = board.to_json()
        board.pop()
        assert board.to_json() == before
        board.push(move)
        assert board.to_json() == after
        # card conservation
        present = [card for card in board.pyramid if card] + board.stock + board.waste + removed
        assert Counter(present) == Counter(board.deal) and len(present) == 52
        assert board.score == expected_score


@settings(max_examples=40, deadline=None)
@given(deal_numbers, redeal_choices, choices)
def test_json_round_trip_at_any_point(number: int, redeals: int | None, picks: list[int]) -> None:
    rules = RETROHUB.with_redeals(redeals)
    board = Board(numbered_deal(number), rules)
    for pick in picks:
        moves = board.legal_moves
        if not moves:
            break
        board.push(moves[pick % len(moves)])
    assert Board.from_json(board.to_json(), rules).to_json() == board.to_json()
    assert all(Move.parse(str(move)) == move for move in board.move_stack)
