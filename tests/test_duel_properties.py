"""Pyramids duel invariants over random play (hypothesis), checked by independent code."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from pyramid.engine.cards import Card
from pyramid.engine.duel.board import DuelBoard, DuelMove

match_numbers = st.integers(min_value=1, max_value=2**32)
choices = st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=150)


def random_play(board: DuelBoard, picks: list[int]) -> list[dict]:
    """Play the picks as indices into the legal moves; return the JSON before each move."""
    seen = []
    for pick in picks:
        moves = board.legal_moves
        if not moves:
            break
        seen.append(board.to_json())
        board.push(moves[pick % len(moves)])
    return seen


def rescore(moves: list[DuelMove], rounds: list[int]) -> int:
    """The score from the rules alone: sequences of 5, 10, 15 …, 5 per turn, 50 per joker,
    50 per cleared round (a round is cleared by its 28th placement)."""
    score, streak, placed, round_index = 0, 0, 0, 0
    for move, round_number in zip(moves, rounds):
        if round_number - 1 != round_index:
            streak, placed, round_index = 0, 0, round_number - 1
        if move.kind == "turn":
            score, streak = score - 5, 0
        elif move.kind == "joker":
            score -= 50
        else:
            streak, placed = streak + 1, placed + 1
            score += 5 * streak
            if placed == 28:
                score += 50
    return score


@settings(max_examples=60, deadline=None)
@given(match_numbers, choices)
def test_every_card_of_the_round_is_in_exactly_one_place(number: int, picks: list[int]) -> None:
    board = DuelBoard.for_match(number)
    for pick in picks:
        places = [card for card in board.pyramid if card is not None] + board.stock + board.pile
        assert Counter(places) == Counter(board.deal)
        assert all(isinstance(card, Card) for card in places)
        moves = board.legal_moves
        if not moves:
            break
        board.push(moves[pick % len(moves)])


@settings(max_examples=60, deadline=None)
@given(match_numbers, choices)
def test_pop_restores_every_earlier_position_exactly(number: int, picks: list[int]) -> None:
    board = DuelBoard.for_match(number)
    seen = random_play(board, picks)
    for before in reversed(seen):
        board.pop()
        assert board.to_json() == before


@settings(max_examples=60, deadline=None)
@given(match_numbers, choices)
def test_score_is_the_sum_of_its_parts(number: int, picks: list[int]) -> None:
    board = DuelBoard.for_match(number)
    seen = random_play(board, picks)
    assert board.score == sum(tally.points for tally in board.tallies) == sum(board.round_scores())
    rounds = [position["round"] for position in seen]
    assert board.score == rescore(board.move_stack, rounds)
    for tally in board.tallies:
        run_points = tally.placement_points
        assert 5 * tally.placements <= run_points <= 5 * tally.placements * (tally.placements + 1) // 2
        assert tally.jokers <= 1


@settings(max_examples=60, deadline=None)
@given(match_numbers, choices)
def test_json_rebuilds_the_same_match(number: int, picks: list[int]) -> None:
    board = DuelBoard.for_match(number)
    random_play(board, picks)
    assert DuelBoard.from_json(board.to_json()).to_json() == board.to_json()


@settings(max_examples=40, deadline=None)
@given(match_numbers, st.randoms(use_true_random=False))
def test_the_game_ends_exactly_when_the_player_has_no_move_in_sight(number: int, rng) -> None:
    """A game played at random ends with the stock empty, the joker used and no uncovered card one
    above or below the pile top (issue 47: never on what the stock holds), and never before."""
    board = DuelBoard.for_match(number)
    while board.legal_moves:
        assert board.status() == "playing"
        board.push(rng.choice(board.legal_moves))
    if board.status() == "no_moves":
        assert not board.stock and not board.joker_available and not board.joker_armed
        assert not any(abs(card.rank - board.pile_top.rank) in (1, 12) for card in board.uncovered_cards())
    else:
        assert board.status() == "cleared" and len(board.tallies) == 5
