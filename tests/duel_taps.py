"""Where a player taps for a duel move, on the console's own layout (480x320, the scripted tests' size)."""

from __future__ import annotations

from pyramid.engine.duel.board import DuelBoard, DuelMove

SIZE = (480, 320)


def tap_for(board: DuelBoard, move: DuelMove) -> str:
    """The tap a player makes for ``move``, at the centre of what is drawn there."""
    from display.render import Renderer

    table = Renderer(SIZE).layout.table(board.rules.rows)
    if move.kind == "turn":
        rect = table.stock
    elif move.kind == "joker":
        rect = table.joker
    else:
        assert move.card is not None
        index = board.index_of(move.card)
        assert index is not None
        rect = table.cards[index]
    x, y = rect.center
    return f"tap:{x},{y}"
