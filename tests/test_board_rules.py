"""Every rule of docs/rules.md, "Pyramid", checked through the engine."""

from __future__ import annotations

import json

import pytest

from pyramid.engine.board import Board, Move
from pyramid.engine.errors import IllegalMoveError, InvalidMoveError
from pyramid.engine.rules import RETROHUB

from deals import build_deal, c, clearable_deal

UNLIMITED = RETROHUB.with_redeals(None)
ONE = RETROHUB.with_redeals(1)


def board_with(pyramid: list[str], stock: list[str], rules=RETROHUB) -> Board:
    return Board(build_deal(pyramid, stock), rules)


def test_deal_layout_and_initial_state() -> None:
    board = Board(clearable_deal())
    assert len(board.pyramid) == 28 and len(board.stock) == 24 and board.waste == []
    assert [len(row) for row in board.pyramid_rows()] == [1, 2, 3, 4, 5, 6, 7]
    assert board.score == 0 and board.redeals_left == 0
    assert board.uncovered_indices() == list(range(21, 28)), "the base row is always uncovered"


def test_a_card_is_uncovered_only_when_both_covering_cards_are_gone() -> None:
    board = Board(clearable_deal())
    # index 15 (row 5, col 0) is covered by 21 and 22: Kc and Ac in the base row.
    board.push(Move.parse("Kc"))
    assert not board.is_uncovered(15), "one covering card gone is not enough"
    board.push(Move.parse("Ac+Qc"))
    assert board.is_uncovered(15)


def test_pairs_must_make_13_and_kings_leave_alone() -> None:
    board = Board(clearable_deal())
    with pytest.raises(IllegalMoveError) as error:
        board.push(Move.parse("Ac+2c"))
    assert "'2c+Ac'" in str(error.value) or "'Ac+2c'" in str(error.value)
    board.push(Move.parse("Kc"))
    assert board.pyramid[21] is None
    with pytest.raises(IllegalMoveError):
        board.push(Move.parse("Ks"))  # the top king is covered


def test_covered_cards_cannot_be_removed() -> None:
    board = Board(clearable_deal())
    with pytest.raises(IllegalMoveError):
        board.push(Move.parse("4c+9c"))  # row 6: still covered by the base


def test_move_notation_round_trips_and_rejects_garbage() -> None:
    for text in ("draw", "redeal", "Ks", "5c+8d"):
        assert str(Move.parse(text)) == text
    assert Move.parse("8d+5c") == Move.parse("5c+8d")
    for text in ("", "Zz", "Ac+Ac", "Ac+2c+3c", "drew"):
        with pytest.raises(InvalidMoveError) as error:
            Move.parse(text)
        assert repr(text) in str(error.value)


def test_stock_goes_to_waste_and_only_the_waste_top_plays() -> None:
    # base row 7 cards are 2c..8c-ish; the stock starts with Jd then 4s.
    board = board_with([], ["Jd", "Qh"])
    base = [board.pyramid[i] for i in board.uncovered_indices()]
    board.push(Move.draw())
    assert board.waste == [c("Jd")] and board.stock[0] == c("Qh")
    board.push(Move.draw())
    assert board.waste_top == c("Qh")
    assert c("Jd") not in board.playable_cards(), "a card under the waste top does not play"
    assert c("Qh") in board.playable_cards()
    assert all(card in board.playable_cards() for card in base)


def test_waste_top_pairs_with_a_pyramid_card_and_scores_as_base() -> None:
    base_row = ["Ac", "2c", "3c", "4c", "5c", "6c", "7c"]
    deal = build_deal(["Kd", "Kh", "Ks", "Td", "9d", "8d", "7d", "6d", "5d", "4d",
                       "3d", "2d", "Ad", "Qd", "Jd", "Th", "9h", "8h", "7h", "6h", "5h"] + base_row,
                      ["Qc", "Jc"])
    board = Board(deal)
    board.push(Move.draw())
    assert board.waste_top == c("Qc")
    board.push(Move.parse("Ac+Qc"))
    assert board.score == 5 + 5, "a base card and a waste card are worth 5 each"
    assert board.waste == []


def test_points_per_row_and_whole_pyramid_is_420() -> None:
    board = Board(clearable_deal())
    expected = {0: 35, 6: 5}
    assert board.card_points(board.pyramid[0]) == expected[0]
    assert board.card_points(board.pyramid[27]) == expected[6]
    # clear it with a plain greedy player: every row holds its own pairs
    while board.status() == "playing":
        removals = [m for m in board.legal_moves if m.kind == "remove"]
        board.push(removals[0])
    assert board.status() == "cleared"
    assert board.score == 420


@pytest.mark.parametrize("rules, passes", [(RETROHUB, 1), (ONE, 2)])
def test_redeals_turn_the_waste_over_in_drawing_order(rules, passes: int) -> None:
    board = Board(clearable_deal(), rules)
    order = list(board.stock)
    for n in range(passes):
        assert board.stock == order, "a redeal brings the cards back in the order drawn"
        while board.stock:
            board.push(Move.draw())
        assert board.waste == order
        if n + 1 < passes:
            assert Move.redeal() in board.legal_moves
            board.push(Move.redeal())
    assert Move.redeal() not in board.legal_moves
    assert board.redeals_left == 0


def test_unlimited_redeals_never_run_out() -> None:
    board = Board(clearable_deal(), UNLIMITED)
    for _ in range(3):
        while board.stock:
            board.push(Move.draw())
        board.push(Move.redeal())
    assert board.redeals_left is None and len(board.stock) == 24


UPPER = ["3c", "3d", "3h", "3s", "4c", "4d", "4h", "4s", "Kd", "Kh", "Ks",
         "Ac", "Ad", "Ah", "As", "2c", "2d", "2h", "2s", "9s", "Qc"]
BASE = ["Tc", "Td", "Th", "Ts", "9c", "9d", "9h"]  # partners 3 and 4 are all covered
STOCK = ["5c", "Kc", "6c", "7c", "8c", "5d", "6d", "7d", "8d", "5h", "6h", "7h", "8h",
         "5s", "6s", "7s", "8s", "Jc", "Jd", "Jh", "Js", "Qd", "Qh", "Qs"]


def test_no_move_left_at_once_when_nothing_in_stock_or_waste_can_ever_help() -> None:
    stock = ["Qc" if card == "Kc" else card for card in STOCK]
    upper = ["Kc" if card == "Qc" else card for card in UPPER]
    board = Board(build_deal(upper + BASE, stock), UNLIMITED)
    assert board.status() == "no_moves", "unlimited redeals must not let the player cycle for nothing"
    assert board.legal_moves == []


def test_no_move_left_as_soon_as_the_last_useful_card_is_buried() -> None:
    board = Board(build_deal(UPPER + BASE, STOCK), RETROHUB)
    assert board.status() == "playing", "Kc is still in the stock"
    board.push(Move.draw())
    board.push(Move.draw())  # Kc drawn...
    assert board.status() == "playing"
    board.push(Move.draw())  # ...and covered: with no redeal it can never come back
    assert board.status() == "no_moves", board.fen()


def test_a_redeal_in_hand_keeps_a_buried_card_reachable() -> None:
    board = Board(build_deal(UPPER + BASE, STOCK), ONE)
    for _ in range(3):
        board.push(Move.draw())
    assert board.status() == "playing"
    while board.stock:
        board.push(Move.draw())
    board.push(Move.redeal())
    board.push(Move.draw())
    board.push(Move.draw())
    board.push(Move.parse("Kc"))
    assert board.status() == "no_moves"


def test_cleared_ends_the_game() -> None:
    board = Board(clearable_deal())
    while board.status() == "playing":
        board.push([m for m in board.legal_moves if m.kind == "remove"][0])
    assert board.is_cleared() and board.legal_moves == []


def test_undo_restores_exactly() -> None:
    board = Board(clearable_deal(), ONE)
    before = board.to_json()
    for move in ("Kc", "draw", "Ac+Qc"):
        board.push(Move.parse(move))
    for _ in range(3):
        board.pop()
    assert board.to_json() == before and board.move_stack == []
    with pytest.raises(IndexError):
        board.pop()


def test_json_round_trip() -> None:
    board = Board(clearable_deal(), ONE)
    for move in ("Kc", "draw", "draw", "Ac+Qc"):
        board.push(Move.parse(move))
    data = json.loads(json.dumps(board.to_json()))
    again = Board.from_json(data, ONE)
    assert again.to_json() == board.to_json()
