"""The board under every preset: variant moves, scoring, and the exact end check.

The end check (:meth:`Board.removal_reachable`) walks one draw/redeal path; it
is compared here with an independent brute force over every stock/waste
position reachable by draws and redeals, on random mid-game positions of every
preset.
"""

from __future__ import annotations

import random

import pytest
from deals import build_deal, c, clearable_deal

from pyramid.engine.board import Board, Move, msc_row_bonus
from pyramid.engine.cards import STANDARD_DECK, Card
from pyramid.engine.deal import numbered_deal
from pyramid.engine.errors import IllegalMoveError
from pyramid.engine.rules import (
    MSC_REMOVAL_POINTS,
    PRESETS,
    Rules,
    preset,
)


def board_with(pyramid: list[str], stock: list[str], rules: Rules) -> Board:
    return Board(build_deal(pyramid, stock), rules)


# -- variant moves ---------------------------------------------------------------
def test_classic_plays_the_stock_top_and_pairs_it_with_the_waste_top() -> None:
    board = board_with([], ["5c", "8d", "2h"], preset("classic"))
    assert Move.draw() in board.legal_moves
    board.push(Move.draw())  # 5c to the waste; 8d is the stock top, face up
    assert board.waste_top == c("5c") and board.stock_top == c("8d")
    assert Move.remove(c("5c"), c("8d")) in board.legal_moves
    board.push(Move.remove(c("5c"), c("8d")))
    assert board.stock_top == c("2h") and board.waste == []


def test_retrohub_never_plays_the_stock_top() -> None:
    board = board_with([], ["5c", "8d"], preset("retrohub"))
    board.push(Move.draw())
    assert Move.remove(c("5c"), c("8d")) not in board.legal_moves


def test_classic_is_won_only_with_all_52_cards_gone() -> None:
    board = Board(clearable_deal(), preset("classic"))
    relaxed = Board(clearable_deal(), preset("relaxed"))
    for played in (board, relaxed):
        played.pyramid = [None] * 28
    assert relaxed.status() == "cleared"
    assert board.status() != "cleared" and not board.is_cleared()
    board.stock, board.waste = [], []
    assert board.status() == "cleared"


def test_cards_left_scoring_counts_nothing_while_playing() -> None:
    board = Board(clearable_deal(), preset("relaxed"))
    board.push(Move.remove(c("Kc")))
    assert board.score == 0
    assert board.cards_left() == 27


def test_king_tut_draws_three_and_plays_only_the_waste_top() -> None:
    board = board_with([], ["5c", "8d", "2h", "Jc"], preset("king-tut"))
    board.push(Move.draw())
    assert board.waste == [c("5c"), c("8d"), c("2h")]
    assert board.stock_top == c("Jc")
    assert Move.remove(c("2h"), c("Jc")) not in board.legal_moves
    assert [m for m in board.legal_moves if m.kind == "remove" and c("8d") in m.cards] == []


def test_king_tut_redeals_without_limit() -> None:
    rules = preset("king-tut")
    assert rules.redeals is None
    board = board_with([], ["5c"], rules)
    board.stock = [c("5c")]
    board.waste = []
    board.push(Move.draw())
    assert board.can_redeal()


def test_overlap_removes_a_card_with_its_only_coverer() -> None:
    # Row 5 holds 6c at (5,0); row 6 (base) has 7c at (6,0) and 9h at (6,1).
    rows = [["Ks"], ["Kd", "Kc"], ["Ah", "2h", "3h"], ["4h", "5h", "6h", "Th"],
            ["8h", "Jh", "Qh", "Ad", "2d"], ["6c", "3d", "4d", "5d", "6d", "7d"],
            ["7c", "9h", "8d", "9d", "Td", "Jd", "Qd"]]
    pyramid = [card for row in rows for card in row]
    board = board_with(pyramid, [], preset("overlap"))
    pair = Move.remove(c("6c"), c("9h"))  # 6c + 9h is 15: not a pair anyway
    assert pair not in board.legal_moves
    overlap_pair = Move.remove(c("6c"), c("7c"))
    assert overlap_pair not in board.legal_moves  # 6c is still covered by 7c and 9h
    board.pyramid[board.index_of(c("9h"))] = None  # 9h gone: 7c alone covers 6c
    assert overlap_pair in board.legal_moves
    board.push(overlap_pair)
    assert board.index_of(c("6c")) is None and board.index_of(c("7c")) is None
    retro = board_with(pyramid, [], preset("relaxed"))
    retro.pyramid[retro.index_of(c("9h"))] = None
    assert overlap_pair not in retro.legal_moves


def test_six_rows_deals_21_cards_and_31_in_the_stock() -> None:
    rules = preset("six-rows")
    board = Board(numbered_deal(7, rules.deck), rules)
    assert len(board.pyramid) == 21 and len(board.stock) == 31
    assert board.uncovered_indices() == list(range(15, 21))
    assert board.row_of(20) == 5


def test_spanish_deck_pairs_make_12_and_the_king_leaves_alone() -> None:
    rules = preset("spanish")
    for number in range(1, 200):
        board = Board(numbered_deal(number, rules.deck), rules)
        base = [board.pyramid[i] for i in board.uncovered_indices()]
        if any(card is not None and card.rank == 12 for card in base):
            break
    assert len(board.pyramid) + len(board.stock) == 48
    assert all(card.suit in "opeb" and card.rank <= 12 for card in board.deal)
    removals = [move for move in board.legal_moves if move.kind == "remove"]
    assert all(sum(card.rank for card in move.cards) == 12 for move in removals)
    king = next(card for card in base if card is not None and card.rank == 12)
    assert Move.remove(king) in removals


# -- MSC scoring -----------------------------------------------------------------
def test_microsofts_row_bonuses_grow_from_the_base_up_to_the_top_card() -> None:
    """The values of mchung94/solitaire-player's ScoreChallengeSolver (docs/rules.md, "Scoring")."""
    assert [msc_row_bonus(7, row) for row in range(6, -1, -1)] == [25, 50, 75, 100, 150, 250, 500]
    assert [msc_row_bonus(6, row) for row in range(5, -1, -1)] == [25, 50, 75, 100, 150, 500]


def removing_row_by_row(board: Board) -> list[int]:
    """Clear ``board``'s pyramid from the base up, each row's king last; the points of each removal."""
    gains = []
    while board.status() == "playing":
        rows = {move: {board.index_of(card) for card in move.cards} for move in board.legal_moves}
        removals = {move: max(board.row_of(index) for index in places)  # type: ignore[arg-type]
                    for move, places in rows.items() if move.kind == "remove" and None not in places}
        lowest = max(removals.values())
        in_row = [move for move, row in removals.items() if row == lowest]
        move = min(in_row, key=lambda move: len(move.cards) == 1)  # pairs before the row's king
        before = board.score
        board.push(move)
        gains.append(board.score - before)
    return gains


def test_each_emptied_row_scores_its_height_and_a_king_emptying_a_row_too() -> None:
    board = Board(clearable_deal(), preset("three-pass"))
    gains = removing_row_by_row(board)
    # Rows from the base up: K + 3 pairs, 3 pairs, K + 2 pairs, 2 pairs, K + pair, pair, K.
    per_row = [4, 3, 3, 2, 2, 1, 1]
    ends = [sum(per_row[: row + 1]) - 1 for row in range(7)]
    assert [gains[end] for end in ends] == [5 + bonus for bonus in (25, 50, 75, 100, 150, 250, 500)]
    assert all(gain == MSC_REMOVAL_POINTS for index, gain in enumerate(gains) if index not in ends)
    assert board.status() == "cleared" and board.score == 16 * 5 + 1150


def test_one_pair_that_empties_two_rows_scores_both() -> None:
    """Only the overlap rule lets one pair take the last card of two rows (a card and the one
    card covering it): Microsoft's values with that rule, as rules are values."""
    rules = preset("three-pass")._replace(overlap=True)
    base = ["Kc", "Kd", "Ac", "Qc", "2c", "Jc", "5c"]
    above = ["Kh", "3c", "Tc", "4c", "9c", "8c"]
    filler = [str(card) for card in STANDARD_DECK.cards if str(card) not in base + above][:15]
    board = Board(build_deal(filler + above + base, []), rules)
    for move in [Move.remove(c("Kc")), Move.remove(c("Kd")), Move.remove(c("Ac"), c("Qc")),
                 Move.remove(c("2c"), c("Jc")), Move.remove(c("Kh")), Move.remove(c("3c"), c("Tc")),
                 Move.remove(c("4c"), c("9c"))]:
        board.push(move)
    before = board.score
    board.push(Move.remove(c("5c"), c("8c")))  # 8c lies under 5c alone: the base and the row above empty
    assert board.score - before == 5 + 25 + 50


def test_nothing_scores_once_the_pyramid_is_cleared() -> None:
    board = Board(clearable_deal(), preset("three-pass"))
    removing_row_by_row(board)
    assert board.status() == "cleared" and board.stock and board.legal_moves == []


def perfect_deal() -> str:
    """The clearable pyramid over a stock of pairs: each drawn card pairs with the next stock card."""
    stock = [card for suit in "hs" for low, high in zip("A23456", "QJT987") for card in (low + suit, high + suit)]
    pyramid = Board(clearable_deal()).deal[:28]
    return build_deal([str(card) for card in pyramid], stock)


def test_a_perfect_game_scores_1290() -> None:
    """The whole deck removed, the pyramid last: Microsoft's maximum (ScoreChallengeSolver's
    MAX_POSSIBLE_SCORE)."""
    board = Board(perfect_deal(), preset("three-pass"))
    while board.stock:
        board.push(Move.draw())
        board.push(Move.remove(board.waste[-1], board.stock[0]))
    assert not board.waste and board.score == 12 * 5
    removing_row_by_row(board)
    assert board.status() == "cleared" and board.score == 1290


def test_every_preset_scores_through_push_without_error() -> None:
    for rules in PRESETS.values():
        board = Board(numbered_deal(11, rules.deck), rules)
        rng = random.Random(rules.name)
        while board.status() == "playing" and len(board.move_stack) < 200:
            board.push(rng.choice(board.legal_moves))
        assert board.score >= 0


def test_illegal_move_still_raises_in_variants() -> None:
    board = board_with([], ["5c"], preset("classic"))
    with pytest.raises(IllegalMoveError):
        board.push(Move.redeal())


# -- the exact end check ---------------------------------------------------------
def brute_force_removal_reachable(board: Board) -> bool:
    """Search every stock/waste position reachable by draws and redeals, written
    independently of the board: a removal anywhere means the game goes on."""
    rules = board.rules
    pyramid = board.pyramid
    rows = rules.rows

    def uncovered(index: int) -> bool:
        row = 0
        while (row + 1) * (row + 2) // 2 <= index:
            row += 1
        if row == rows - 1:
            return True
        below = index + row + 1
        return pyramid[below] is None and pyramid[below + 1] is None

    def single_coverer_pairs() -> list[tuple[Card, Card]]:
        pairs = []
        for index, card in enumerate(pyramid):
            if card is None or uncovered(index):
                continue
            row = 0
            while (row + 1) * (row + 2) // 2 <= index:
                row += 1
            below = [i for i in (index + row + 1, index + row + 2) if pyramid[i] is not None]
            if len(below) == 1 and uncovered(below[0]):
                pairs.append((card, pyramid[below[0]]))
        return pairs

    free = [card for i, card in enumerate(pyramid) if card is not None and uncovered(i)]

    def has_removal(stock: tuple[Card, ...], waste: tuple[Card, ...]) -> bool:
        cards = list(free)
        if rules.stock_top_playable and stock:
            cards.append(stock[0])
        if rules.waste_playable and waste:
            cards.append(waste[-1])
        if any(card.rank == rules.target for card in cards):
            return True
        if any(a.rank + b.rank == rules.target for i, a in enumerate(cards) for b in cards[i + 1:]):
            return True
        return rules.overlap and any(a.rank + b.rank == rules.target for a, b in single_coverer_pairs())

    cap = 3  # more redeals than this never reach a new position
    left = board.redeals_left
    start = (tuple(board.stock), tuple(board.waste), cap if left is None else min(left, cap))
    seen = {start}
    todo = [start]
    while todo:
        stock, waste, redeals = todo.pop()
        if has_removal(stock, waste):
            return True
        successors = []
        if stock:
            k = rules.draw_count
            successors.append((stock[k:], waste + stock[:k], redeals))
        elif waste and redeals > 0:
            successors.append((waste, (), redeals if left is None else redeals - 1))
        for state in successors:
            if state not in seen:
                seen.add(state)
                todo.append(state)
    return False


@pytest.mark.parametrize("name", list(PRESETS))
@pytest.mark.parametrize("redeals", ["default", 0, 1, None])
def test_end_check_matches_brute_force_on_random_positions(name: str, redeals) -> None:
    rules = preset(name) if redeals == "default" else preset(name).with_redeals(redeals)
    rng = random.Random(f"{name}-{redeals}")
    checked = 0
    for number in range(1, 13):
        board = Board(numbered_deal(number, rules.deck), rules)
        while True:
            assert board.removal_reachable() == brute_force_removal_reachable(board), board.fen()
            checked += 1
            moves = board.legal_moves
            if not moves:
                break
            removals = [m for m in moves if m.kind == "remove"]
            board.push(rng.choice(removals) if removals and rng.random() < 0.7 else rng.choice(moves))
    assert checked > 100


def test_end_check_sees_a_stock_pair_that_needs_a_redeal() -> None:
    # Classic with one redeal and an empty pyramid: 5c and 8d meet as waste top
    # and stock top only in the pass after the redeal.
    rules = preset("classic").with_redeals(1)
    board = Board(clearable_deal(), rules)
    board.pyramid = [None] * 28
    board.stock, board.waste = [], [c("2c"), c("5c"), c("8d")]
    assert board.status() == "playing"
    assert brute_force_removal_reachable(board)
    board.redeals_left = 0
    assert board.status() == "no_moves"
    assert not brute_force_removal_reachable(board)


def test_classic_counts_every_card_its_goal_asks_to_remove() -> None:
    """Issue 47, item 10: Classic's goal is all 52 cards, yet its "cards left" counted the pyramid's:
    28 at the start, and "23 cards left" at the end with 20 more in the waste."""
    from pyramid.engine.deal import numbered_deal
    from pyramid.engine.rules import CLASSIC, RELAXED

    board = Board(numbered_deal(3), CLASSIC)
    assert board.cards_to_clear() == 52 and board.cards_left() == 28
    board.push(Move.draw())
    assert board.cards_to_clear() == 52, "a draw removes nothing"
    relaxed = Board(numbered_deal(3), RELAXED)
    assert relaxed.cards_to_clear() == relaxed.cards_left() == 28, "its goal is the pyramid"
