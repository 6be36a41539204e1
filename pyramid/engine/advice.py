"""The best move when the deal cannot be won: the one that leads to the most pyramid cards removed.

A hint on a lost deal must still help: "no winning line" is a verdict, not
advice. :func:`best_move` searches the positions reachable from the board
(depth first, removals before draws, every position valued once) for the
line that removes the most pyramid cards, the score breaking ties, and
returns that line's first move. Each first move gets an equal share of
``max_seconds`` (the search of one must not starve the others); within its
share it returns the best line found so far — depth first with removals
first, that is at least a greedy line — so on a slow console a hint is never
withheld for want of time, only less far-sighted.
"""

from __future__ import annotations

import time
from typing import NamedTuple

from pyramid.engine.board import Board, Move
from pyramid.engine.cards import Card


class Outlook(NamedTuple):
    """How good a line is: pyramid cards removed along it, then points (compared in that order)."""

    removed: int
    score: int


class Advice(NamedTuple):
    """The move to play and what the best line found after it achieves; ``complete`` when the
    search looked at every reachable position (the line is then the best there is)."""

    move: Move
    outlook: Outlook
    complete: bool


_Key = tuple[tuple[Card | None, ...], tuple[Card, ...], tuple[Card, ...], int | None]


class _Search:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.deadline = 0.0
        self.values: dict[_Key, Outlook] = {}
        self.complete = True
        self.start_left = board.cards_left()

    def key(self) -> _Key:
        board = self.board
        return tuple(board.pyramid), tuple(board.stock), tuple(board.waste), board.redeals_left

    def here(self) -> Outlook:
        return Outlook(self.start_left - self.board.cards_left(), self.board.score)

    def value(self) -> Outlook:
        """The best outlook reachable from the board's position (a lower bound once time is up)."""
        key = self.key()
        known = self.values.get(key)
        if known is not None:
            return known
        best = self.here()
        self.values[key] = best  # a position met again on its own line (draws going round) adds nothing
        if time.monotonic() > self.deadline:
            self.complete = False
            return best
        for move in self.board.legal_moves:
            self.board.push(move)
            try:
                best = max(best, self.value())
            finally:
                self.board.pop()
        self.values[key] = best
        return best


def best_move(board: Board, max_seconds: float = 1.0) -> Advice | None:
    """The first move of the line removing the most pyramid cards (``None`` when no move is left)."""
    search = _Search(board.copy())
    best: Advice | None = None
    moves = board.legal_moves
    start = time.monotonic()
    for index, move in enumerate(moves, start=1):
        search.deadline = start + max_seconds * index / len(moves)
        search.board.push(move)
        try:
            outlook = search.value()
        finally:
            search.board.pop()
        if best is None or outlook > best.outlook:
            best = Advice(move, outlook, True)
    return best._replace(complete=search.complete) if best is not None else None
