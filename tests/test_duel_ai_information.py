"""No computer level sees what a person cannot: the stock's order and the deals still to come.

Checked on random positions (hypothesis): two boards that look the same to a person — the same
pyramid, pile, joker and history, the same cards in the stock but in another order, other deals
for the later rounds — get the same move from every level. And every level's whole game, from
the start or taken over in the middle of a round, is played through the engine's legal moves.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pyramid.engine.cards import STANDARD_DECK, Card
from pyramid.engine.duel.ai import LEVELS, ExpertPlayer, opponent_for, play_game, play_match
from pyramid.engine.duel.board import DuelBoard
from pyramid.engine.duel.search import Observation

match_numbers = st.integers(min_value=1, max_value=2**32)
choices = st.lists(st.integers(min_value=0, max_value=10**6), max_size=120)


def random_play(board: DuelBoard, picks: list[int]) -> None:
    """Play the picks as indices into the legal moves while the game lasts."""
    for pick in picks:
        moves = board.legal_moves
        if not moves:
            return
        board.push(moves[pick % len(moves)])


def play_while_open(board: DuelBoard, picks: list[int]) -> None:
    """Play the picks as long as the game goes on with two cards or more in the stock (so that
    they can come in another order)."""
    for pick in picks:
        moves = board.legal_moves
        board.push(moves[pick % len(moves)])
        if board.is_over() or len(board.stock) < 2:
            board.pop()
            return


def same_sight_other_cards(board: DuelBoard, rng: random.Random) -> DuelBoard:
    """The same game so far on other deals that a person cannot tell apart from ``board``'s:
    the cards left in the stock in another order, and fresh deals for the rounds to come."""
    n = board.rules.pyramid_size
    deal = board.deal
    turned = len(deal) - n - 1 - len(board.stock)
    stock = list(board.stock)
    rng.shuffle(stock)
    if stock == board.stock:
        stock = stock[1:] + stock[:1]
    current = deal[: n + 1 + turned] + tuple(stock)
    later = []
    for _ in board.deals[board.round_index + 1 :]:
        cards = list(STANDARD_DECK.cards)
        rng.shuffle(cards)
        later.append(tuple(cards))
    other = DuelBoard([*board.deals[: board.round_index], current, *later], board.rules)
    for move in board.move_stack:
        other.push(move)
    return other


@settings(max_examples=40, deadline=None)
@given(match_numbers, choices, st.randoms(use_true_random=False), st.integers(min_value=0, max_value=2**32))
def test_no_level_can_see_the_order_of_the_stock(number: int, picks: list[int], rng: random.Random, seed: int) -> None:
    board = DuelBoard.for_match(number)
    play_while_open(board, picks)
    other = same_sight_other_cards(board, rng)
    assert other.stock != board.stock and sorted(other.stock) == sorted(board.stock)
    assert Observation.of(other) == Observation.of(board)
    for level in LEVELS:
        assert opponent_for(level, seed).choose(board) == opponent_for(level, seed).choose(other), level


def test_the_observation_holds_the_stock_only_as_the_set_of_unseen_cards() -> None:
    board = DuelBoard.for_match(8)
    board.push(board.legal_moves[-1])  # a turn or a placement: either way one more card is in sight
    seen = Observation.of(board)
    in_sight = {card for card in seen.pyramid if card is not None} | set(seen.pile)
    assert set(seen.unseen) == set(STANDARD_DECK.cards) - in_sight == set(board.stock)
    assert list(seen.unseen) == [card for card in STANDARD_DECK.cards if card in board.stock]  # deck order
    assert seen.stock_size == len(board.stock)
    assert all(isinstance(card, Card) for card in seen.unseen)
    assert seen.legal_moves == tuple(board.legal_moves)


@settings(max_examples=8, deadline=None)
@given(match_numbers)
def test_every_level_plays_whole_games_through_the_engine(number: int) -> None:
    for level in LEVELS:
        record = play_match(number, level)
        board = DuelBoard.for_match(number)
        for move in record.moves:
            board.push(move)  # IllegalMoveError if the move was not legal
        assert board.is_over() and board.score == record.total


@settings(max_examples=15, deadline=None)
@given(match_numbers, choices, st.integers(min_value=0, max_value=2**32))
def test_every_level_takes_over_any_position_and_plays_legally(number: int, picks: list[int], seed: int) -> None:
    for level in LEVELS:
        board = DuelBoard.for_match(number)
        random_play(board, picks)
        before = len(board.move_stack)
        record = play_game(board, opponent_for(level, seed))
        assert board.is_over() and record.total == board.score
        assert len(record.moves) == len(board.move_stack) >= before


def test_the_expert_decides_on_the_position_alone_whatever_it_played_before() -> None:
    """The expert keeps its lookahead between moves; an undone move or another game must not
    make it decide otherwise than a fresh expert would."""
    player = ExpertPlayer()
    first = play_game(DuelBoard.for_match(21), player)
    assert play_game(DuelBoard.for_match(22), player) == play_game(DuelBoard.for_match(22), ExpertPlayer())
    assert play_game(DuelBoard.for_match(21), player) == first
    board = DuelBoard.for_match(23)
    for _ in range(6):
        board.push(player.choose(board))
    for _ in range(3):
        board.pop()
        assert player.choose(board) == ExpertPlayer().choose(board)
