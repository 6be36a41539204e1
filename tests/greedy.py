"""A greedy Pyramid player: the yardstick the difficulty grades are checked against.

It never looks ahead: when a removal is possible it plays the one taking the
most pyramid cards, from the lowest row (those cards free the most others),
and otherwise draws or redeals. A player who plays by sight like this wins
the easy deals and loses the ones full of traps, so its win rate falling
grade by grade (``benchmarks/bench_grades.py``, ``tests/test_grade_separation.py``)
shows that the grades of :mod:`pyramid.engine.grade` measure something a
player feels.
"""

from __future__ import annotations

from pyramid.engine.board import Board, Move

#: More moves than any game of any preset needs; only unlimited redeals come near it (going round).
MAX_MOVES = 400


def _preference(board: Board, move: Move) -> tuple[int, int]:
    """How much the greedy player likes a removal: pyramid cards taken, then the lowest place among them."""
    places = [index for index in map(board.index_of, move.cards) if index is not None]
    return len(places), max(places, default=-1)


def greedy_move(board: Board) -> Move | None:
    """The greedy player's move in ``board`` (``None`` when the game is over)."""
    moves = board.legal_moves
    removals = [move for move in moves if move.kind == "remove"]
    if removals:
        return max(removals, key=lambda move: _preference(board, move))
    return moves[0] if moves else None


def greedy_wins(board: Board) -> bool:
    """Whether the greedy player clears ``board`` from its position (``board`` itself is not changed)."""
    game = board.copy()
    for _ in range(MAX_MOVES):
        move = greedy_move(game)
        if move is None:
            break
        game.push(move)
    return game.status() == "cleared"
