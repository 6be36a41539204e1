"""The best move on a deal that cannot be won: checked against a plain search of every line."""

from __future__ import annotations

import random

import pytest

from pyramid.engine.advice import Outlook, best_move
from pyramid.engine.board import Board
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import PRESETS


#: Pyramid cards left in the positions tested: few enough to try every line without a memo.
LEFT = 8


def every_line_best(board: Board) -> Outlook:
    """The best (pyramid cards removed, score) over every line from ``board``: no memo, no budget.

    A position met again on the same line (the stock going round) is a repetition and ends it.
    """
    start = board.cards_left()
    seen: set[str] = set()

    def best() -> Outlook:
        here = Outlook(start - board.cards_left(), board.score)
        key = board.fen() + f"|{board.redeals_left}"
        if key in seen:
            return here
        seen.add(key)
        for move in board.legal_moves:
            board.push(move)
            here = max(here, best())
            board.pop()
        seen.discard(key)
        return here

    return best()


def late_position(number: int, preset: str, left: int) -> Board:
    """Deal ``number`` played by random removals, drawing only when none is possible, until at
    most ``left`` pyramid cards remain (small enough for :func:`every_line_best`)."""
    rules = PRESETS[preset]
    board = Board(numbered_deal(number, rules.deck), rules)
    rng = random.Random(number)
    while board.status() == "playing" and board.cards_left() > left:
        removals = [move for move in board.legal_moves if move.kind == "remove"]
        board.push(rng.choice(removals or board.legal_moves))
    return board


def late_positions(preset: str, count: int = 8) -> list[Board]:
    """The first ``count`` deals whose removal-first random game gets down to :data:`LEFT` cards."""
    found = []
    for number in range(1, 500):
        board = late_position(number, preset, LEFT)
        if board.status() == "playing":
            found.append(board)
            if len(found) == count:
                break
    assert len(found) == count, f"only {len(found)} {preset} games got down to {LEFT} cards"
    return found


@pytest.mark.parametrize("preset", ["retrohub", "classic", "king-tut", "spanish", "overlap"])
def test_the_advised_move_leads_to_the_best_line_there_is(preset: str) -> None:
    for board in late_positions(preset):
        advice = best_move(board, max_seconds=30)
        assert advice is not None and advice.complete
        assert advice.move in board.legal_moves
        best = every_line_best(board.copy())
        assert advice.outlook == best
        # And the move is the first of such a line: the best after it, plus what it removes, is the best.
        left = board.cards_left()
        board.push(advice.move)
        after = every_line_best(board.copy())
        assert Outlook(after.removed + left - board.cards_left(), after.score) == best


def test_no_move_no_advice() -> None:
    board = Board(numbered_deal(3), PRESETS["retrohub"])
    while board.status() == "playing":
        board.push(board.legal_moves[-1])  # draws first: the deal soon runs out of moves
    assert best_move(board) is None
