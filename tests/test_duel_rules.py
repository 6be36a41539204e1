"""Every rule of the Pyramids duel (docs/rules.md, "Pyramids"), on hand-built deals."""

from __future__ import annotations

import pytest
from deals import build_deal, c

from pyramid.engine.cards import RANK_LETTERS, STANDARD_DECK, format_cards
from pyramid.engine.deal import numbered_deal
from pyramid.engine.duel.board import DuelBoard, DuelMove, match_deals, ranks_fit, round_deal_numbers
from pyramid.engine.errors import IllegalMoveError, InvalidDealError, InvalidMoveError
from pyramid.engine.errors import ReplayError

# The base row is pyramid indices 21..27; the 29th card of a deal starts on the pile.
BASE = slice(21, 28)


def duel_deal(base: list[str], pile: str, stock: list[str] = (), upper: list[str] = ()) -> str:
    """A deal with the given base row, upper rows (row by row, padded), pile card and stock top."""
    used = [c(t) for t in [*base, pile, *stock, *upper]]
    rest = [str(card) for card in STANDARD_DECK.cards if card not in used]
    upper_rows = list(upper) + rest[: 21 - len(upper)]
    return build_deal(upper_rows + list(base), [pile, *stock])


#: Pyramid indices row by row from the base up, left to right: an order that respects covering.
BASE_UP = [i for row in range(6, -1, -1) for i in range(row * (row + 1) // 2, row * (row + 1) // 2 + row + 1)]


def chain_deal(start_rank: int = 1) -> str:
    """A deal that clears in one sequence: removing the rows base first, left to right,
    each card is one rank above the card before it (wrapping from king to ace)."""
    used_suits: dict[int, int] = {}
    pyramid: list[str] = [""] * 28
    rank = start_rank
    pile = RANK_LETTERS[rank - 1] + "c"
    used_suits[rank] = 1
    for index in BASE_UP:
        rank = rank % 13 + 1
        suit = "cdhs"[used_suits.get(rank, 0)]
        used_suits[rank] = used_suits.get(rank, 0) + 1
        pyramid[index] = RANK_LETTERS[rank - 1] + suit
    return build_deal(pyramid, [pile])


def chain_moves(board: DuelBoard) -> list[DuelMove]:
    """The 28 placements that clear a :func:`chain_deal` round in one sequence."""
    return [DuelMove.place(board.deal[index]) for index in BASE_UP]


def play(board: DuelBoard, *moves: str) -> None:
    for move in moves:
        board.push(DuelMove.parse(move))


def test_layout_of_a_round_pyramid_pile_and_stock() -> None:
    deal = numbered_deal(7)
    board = DuelBoard([deal])
    assert board.pyramid == list(deal[:28])
    assert board.pile == [deal[28]]
    assert board.stock == list(deal[29:])
    assert len(board.stock) == 23
    assert board.uncovered_indices() == list(range(21, 28))
    assert (board.round_number, board.score, board.streak, board.joker_available) == (1, 0, 0, True)


@pytest.mark.parametrize(
    ("rank", "other", "fits"),
    [(1, 13, True), (13, 1, True), (1, 2, True), (2, 1, True), (7, 8, True), (8, 7, True),
     (1, 1, False), (5, 7, False), (12, 1, False), (2, 13, False)],
)
def test_one_up_or_one_down_with_the_ace_both_high_and_low(rank: int, other: int, fits: bool) -> None:
    assert ranks_fit(rank, other) is fits


def test_every_rank_has_exactly_two_neighbours() -> None:
    assert all(sum(ranks_fit(rank, other) for other in range(1, 14)) == 2 for rank in range(1, 14))


def test_suits_do_not_matter_and_only_fitting_uncovered_cards_are_offered() -> None:
    board = DuelBoard([duel_deal(["8s", "6h", "Kc", "7d", "2c", "9c", "Td"], pile="7c")])
    placements = {str(move) for move in board.legal_moves if move.kind == "place"}
    assert placements == {"8s", "6h"}
    assert [str(move) for move in board.legal_moves][-2:] == ["joker", "turn"]


def test_wrap_around_king_ace_two() -> None:
    board = DuelBoard([duel_deal(["Ad", "Kh", "2s", "Ah", "Qc", "5c", "6c"], pile="Kc")])
    play(board, "Ad", "2s", "Ah", "Kh", "Qc")
    assert [str(card) for card in board.pile] == ["Kc", "Ad", "2s", "Ah", "Kh", "Qc"]
    assert board.streak == 5


def test_consecutive_placements_score_5_10_15() -> None:
    board = DuelBoard([duel_deal(["6c", "7c", "8c", "9c", "Tc", "Jc", "Qc"], pile="5c")])
    scores = []
    for card in ("6c", "7c", "8c", "9c"):
        play(board, card)
        scores.append(board.score)
    assert scores == [5, 15, 30, 50]
    assert board.streak == 4


def test_turning_costs_5_and_ends_the_sequence() -> None:
    board = DuelBoard([duel_deal(["6c", "7c", "Kd", "Kh", "Ks", "4d", "2c"], pile="5c", stock=["3c"])])
    play(board, "6c", "7c")
    assert (board.score, board.streak) == (15, 2)
    play(board, "turn")
    assert (board.score, board.streak) == (10, 0)
    assert board.pile_top == c("3c")
    play(board, "4d")
    assert (board.score, board.streak) == (15, 1)  # a new sequence starts at 5
    assert board.tallies[-1].turns == 1


def test_joker_costs_50_lets_any_card_go_and_continues_the_sequence() -> None:
    board = DuelBoard([duel_deal(["6c", "7c", "Kd", "Qh", "2s", "9d", "3h"], pile="5c")])
    play(board, "6c", "7c")  # 5 + 10
    play(board, "joker")
    assert (board.score, board.joker_armed, board.joker_available) == (-35, True, False)
    assert all(move.kind == "place" for move in board.legal_moves)
    uncovered_above = str(board.pyramid[15])  # both cards below it are gone
    assert {str(m) for m in board.legal_moves} == {"Kd", "Qh", "2s", "9d", "3h", uncovered_above}
    play(board, "Kd")  # third of the sequence: 15
    play(board, "Qh")  # fourth: 20
    assert (board.score, board.streak, board.joker_armed) == (0, 4, False)
    assert DuelMove.joker() not in board.legal_moves


def test_joker_once_per_round_and_illegal_moves_quote_the_move() -> None:
    board = DuelBoard([duel_deal(["6c", "Kd", "Kh", "Ks", "4d", "4h", "2c"], pile="5c")])
    play(board, "joker", "Kd")
    with pytest.raises(IllegalMoveError, match="'joker'"):
        board.push(DuelMove.joker())
    with pytest.raises(IllegalMoveError, match="'Kh'"):
        board.push(DuelMove.parse("Kh"))
    with pytest.raises(IllegalMoveError, match="'Ac'"):
        board.push(DuelMove.parse("Ac"))  # not in the pyramid at all


def test_while_the_joker_is_armed_the_stock_cannot_be_turned() -> None:
    board = DuelBoard([duel_deal(["6c", "Kd", "Kh", "Ks", "4d", "4h", "2c"], pile="5c")])
    play(board, "joker")
    with pytest.raises(IllegalMoveError, match="'turn'"):
        board.push(DuelMove.turn())


def test_covered_cards_wait_for_both_cards_below() -> None:
    board = DuelBoard([duel_deal(["6c", "8c", "Kd", "Kh", "Ks", "4d", "2c"], pile="5c")])
    covered = board.pyramid[15]
    assert covered is not None and not board.is_uncovered(15)
    play(board, "6c")
    assert not board.is_uncovered(15)  # one of its two covering cards is still there


def test_clearing_scores_50_and_deals_the_next_round() -> None:
    second = numbered_deal(99)
    board = DuelBoard([chain_deal(), second])
    for move in chain_moves(board):
        assert board.round_number == 1
        board.push(move)
    assert board.tallies[0].cleared and board.tallies[0].placements == 28
    assert board.round_scores()[0] == 5 * 28 * 29 // 2 + 50
    assert board.round_number == 2
    assert board.pyramid == list(second[:28]) and board.pile == [second[28]]
    assert (board.streak, board.joker_available, board.score) == (0, True, 5 * 28 * 29 // 2 + 50)
    assert [len(moves) for moves in board.round_moves()] == [28, 0]


def test_clearing_the_last_round_ends_the_match_cleared() -> None:
    board = DuelBoard([chain_deal(5)])
    for move in chain_moves(board):
        board.push(move)
    assert board.status() == "cleared"
    assert board.score == 2080
    assert board.legal_moves == []


def dead_end_deal() -> str:
    """Base: four 7s and three kings; every 6, 8, queen and ace is hidden in the upper rows,
    so without the joker no base card can ever go on the pile."""
    upper = ["6c", "6d", "6h", "6s", "8c", "8d", "8h", "8s", "Qc", "Qd", "Qh", "Qs", "Ac", "Ad", "Ah", "As"]
    return duel_deal(["7c", "7d", "7h", "7s", "Kc", "Kd", "Kh"], pile="2c", upper=upper)


def test_the_joker_keeps_a_hopeless_round_alive() -> None:
    board = DuelBoard([dead_end_deal()])
    assert board.status() == "playing"
    assert [str(move) for move in board.legal_moves] == ["joker", "turn"]


def test_a_round_ends_only_on_what_the_player_sees() -> None:
    """Issue 47, item 5: no stock card fits any uncovered card, yet the round goes on while the stock
    holds cards (ending it then told the player what the hidden stock held); it ends once the stock
    is empty, the joker used and no card fits, each turn costing its 5 points."""
    board = DuelBoard([dead_end_deal(), numbered_deal(5)])
    play(board, "joker", "7c")
    assert len(board.stock) == 23
    assert board.status() == "playing" and [str(move) for move in board.legal_moves] == ["turn"]
    for _ in range(23):
        assert board.status() == "playing"
        play(board, "turn")
    assert board.status() == "no_moves" and board.legal_moves == []
    assert board.round_number == 1  # a round not completed ends the game
    with pytest.raises(IllegalMoveError, match="'turn'"):
        board.push(DuelMove.turn())
    assert board.score == -50 + 5 - 23 * 5


def test_the_game_goes_on_while_a_stock_card_could_still_fit() -> None:
    deal = duel_deal(["7c", "7d", "7h", "Kc", "Kd", "Kh", "Ks"], pile="2c", stock=["3c", "4c", "8s"],
                     upper=["6c", "6d", "6h", "6s", "8c", "8d", "8h", "Qc", "Qd", "Qh", "Qs", "Ac", "Ad", "Ah", "As"])
    board = DuelBoard([deal])
    play(board, "joker", "Kc", "turn", "turn")
    assert board.status() == "playing"  # the 8s is still in the stock
    play(board, "turn")
    assert [str(m) for m in board.legal_moves][:3] == ["7c", "7d", "7h"]


def test_pop_undoes_exactly_across_a_round_change() -> None:
    board = DuelBoard([chain_deal(), numbered_deal(3)])
    *first, last = chain_moves(board)
    for move in first:
        board.push(move)
    before = board.to_json()
    board.push(last)
    assert board.round_number == 2
    assert board.pop() == last
    assert board.to_json() == before
    assert board.round_number == 1 and len(board.tallies) == 1


def test_pop_with_no_move_raises_index_error() -> None:
    with pytest.raises(IndexError):
        DuelBoard([numbered_deal(1)]).pop()


@pytest.mark.parametrize("text", ["Th", "turn", "joker", "Ac", "Ks"])
def test_move_notation_round_trips(text: str) -> None:
    assert str(DuelMove.parse(text)) == text


def test_move_parsing_is_forgiving_about_case_and_spaces() -> None:
    assert DuelMove.parse(" JOKER ") == DuelMove.joker()
    assert DuelMove.parse("tH") == DuelMove.place(c("Th"))


@pytest.mark.parametrize("text", ["", "draw", "1x", "Th+3c", "jokers"])
def test_bad_move_notation_raises_quoting_the_text(text: str) -> None:
    with pytest.raises(InvalidMoveError, match=repr(text).replace("+", r"\+")):
        DuelMove.parse(text)


def test_match_number_names_five_reproducible_deals() -> None:
    assert round_deal_numbers(1) == (2298633410, 1703865448, 4214379871, 3997354252, 3506550202)
    assert round_deal_numbers(2**32) == (2743206201, 1465302334, 557984470, 3018567414, 212008176)
    assert match_deals(1)[0] == numbered_deal(2298633410)
    board = DuelBoard.for_match(1)
    assert board.deals == match_deals(1) and board.match_number == 1


@pytest.mark.parametrize("number", [0, -1, 2**32 + 1])
def test_match_number_out_of_range(number: int) -> None:
    with pytest.raises(ValueError, match=str(number)):
        round_deal_numbers(number)


def test_bad_deals_are_refused() -> None:
    with pytest.raises(InvalidDealError):
        DuelBoard([])
    with pytest.raises(InvalidDealError):
        DuelBoard([numbered_deal(1)] * 6)
    with pytest.raises(InvalidDealError):
        DuelBoard([format_cards(numbered_deal(1)[:51])])


def test_json_carries_the_duel_fields_and_rebuilds_the_match() -> None:
    board = DuelBoard.for_match(42)
    for _ in range(6):
        board.push(board.legal_moves[0])
    data = board.to_json()
    assert data["rules"] == "pyramids"
    assert data["match"] == 42 and "deals" not in data
    for key in ("pyramid", "stock", "pile", "joker_available", "round", "streak", "score", "status", "deal"):
        assert key in data
    assert data["pile"][-1] == str(board.pile_top)
    rebuilt = DuelBoard.from_json(data)
    assert rebuilt.to_json() == data
    assert rebuilt.move_stack == board.move_stack


def test_json_of_a_match_without_number_keeps_its_deals() -> None:
    board = DuelBoard([chain_deal(), numbered_deal(8)])
    board.push(chain_moves(board)[0])
    data = board.to_json()
    assert data["match"] is None and len(data["deals"]) == 2
    assert DuelBoard.from_json(data).to_json() == data


def test_json_that_does_not_replay_is_refused() -> None:
    board = DuelBoard.for_match(42)
    board.push(board.legal_moves[0])
    data = board.to_json()
    with pytest.raises(InvalidDealError, match="score"):
        DuelBoard.from_json({**data, "score": data["score"] + 5})
    with pytest.raises(InvalidDealError, match="rules"):
        DuelBoard.from_json({**data, "rules": "retrohub"})
    with pytest.raises(ReplayError, match="saved move 1 'nonsense'"):
        DuelBoard.from_json({**data, "moves": ["nonsense"]})


def test_a_saved_game_comes_back_from_its_match_number_and_moves() -> None:
    board = DuelBoard.for_match(77)
    for _ in range(12):
        board.push(board.legal_moves[0])
    saved = [str(move) for move in board.move_stack]
    resumed = DuelBoard.for_match(77)
    resumed.replay(saved)
    assert resumed.to_json() == board.to_json()
    with pytest.raises(ReplayError, match="saved move 2 'turn'"):
        DuelBoard.for_match(77).replay(["joker", "turn"])
