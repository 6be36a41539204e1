"""Where a touchscreen player taps for Pyramid moves, on the console's own layout at the scripted tests'
size (480x320, as tests/duel_taps.py for the duel)."""

from __future__ import annotations

from duel_taps import SIZE
from pyramid.engine.board import Board, Move


def taps(board: Board, moves: list[Move]) -> str:
    """A touchscreen player's taps for ``moves`` from ``board`` (which is played on): a pyramid card and
    the waste top are tapped before the stock's top, as a first tap on the stock draws."""
    from display.render import Renderer

    table, words = Renderer(SIZE).layout.table(board.rules.rows), []
    for move in moves:
        if move.kind != "remove":
            places = [table.stock]
        else:
            places = [table.cards[index] if (index := board.index_of(card)) is not None else
                      table.waste if card == board.waste_top else table.stock for card in move.cards]
            places.sort(key=lambda rect: rect == table.stock)
        words += ["tap:{},{}".format(*rect.center) for rect in places]
        board.push(move)
    return " ".join(words)
