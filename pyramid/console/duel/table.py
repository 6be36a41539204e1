"""Playing one Pyramids game with a cursor: what ✓, a tap and the arrows do.

The UI-neutral half of the duel table, the counterpart of
:class:`pyramid.console.table.Table`: it owns the :class:`~pyramid.duel.DuelBoard` and
the cursor, turns picks into engine moves and explains a refused pick in a
few words. Every rule question is answered by the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyramid.console.catalogue import say
from pyramid.actions import Kind
from pyramid.console import cursor
from pyramid.engine.cards import CardLetters
from pyramid.engine.duel.board import DuelBoard, DuelMove
from pyramid.console.wording import card_name
from pyramid.view import JokerState, TableView, Target


@dataclass(frozen=True, slots=True)
class Pick:
    """What a pick did: the move played, or why nothing happened (``refusal``)."""

    move: DuelMove | None = None
    refusal: str = ""


class DuelTable:
    """One contender's game in play: the board plus the cursor."""

    def __init__(self, board: DuelBoard, letters: CardLetters = "english") -> None:
        self.board = board
        self.letters = letters
        self.cursor: Target | None = cursor.nearest(self.targets(), None, self.board.places)

    def targets(self) -> list[Target]:
        """Where the cursor may land: the stock, the joker while it can be played, uncovered cards."""
        board = self.board
        if board.is_over():
            return []
        found: list[Target] = []
        if board.stock and not board.joker_armed:
            found.append("stock")
        if board.joker_available and not board.joker_armed:
            found.append("joker")
        found.extend(board.uncovered_indices())
        return found

    @property
    def joker_state(self) -> JokerState:
        if self.board.joker_armed:
            return "armed"
        return "available" if self.board.joker_available else "spent"

    # -- actions ------------------------------------------------------------
    def move_cursor(self, direction: Kind) -> None:
        self.cursor = cursor.step(self.targets(), self.cursor, direction, self.board.places)

    def pick(self, target: Target) -> Pick:
        """Pick ``target`` (✓ on it, or a tap): play it when the rules allow, else say why not."""
        refusal = self._refusal(target)
        if refusal:
            return Pick(refusal=refusal)
        if target == "stock":
            move = DuelMove.turn()
        elif target == "joker":
            move = DuelMove.joker()
        else:
            card = self.board.pyramid[target]  # type: ignore[index]
            assert card is not None
            move = DuelMove.place(card)
        round_before = self.board.round_number
        self.board.push(move)
        aimed = target if self.board.round_number == round_before else None  # a new round starts afresh
        self.cursor = cursor.nearest(self.targets(), aimed, self.board.places)
        return Pick(move)

    def _refusal(self, target: Target) -> str:
        """Why ``target`` cannot be played now ("" when it can)."""
        board = self.board
        if board.is_over():
            return say("duel.refuse_over")
        if target == "waste":
            return say("duel.refuse_pile")
        if target == "joker":
            if board.joker_armed:
                return say("duel.refuse_joker_armed")
            if not board.joker_available:
                return say("duel.refuse_joker_spent")
            return ""
        if target == "stock":
            if board.joker_armed:
                return say("duel.refuse_joker_first")
            return "" if board.stock else say("duel.refuse_stock_empty")
        if target not in self.targets():
            return say("duel.refuse_covered")
        card = board.pyramid[target]
        assert card is not None
        if not board.fits(card):
            return say("duel.refuse_fit", card=card_name(card, self.letters), pile=card_name(board.pile_top, self.letters))
        return ""

    # -- views --------------------------------------------------------------
    def view(self, title: str = "", detail: str = "") -> TableView:
        board = self.board
        return TableView(
            rows=board.rules.rows,
            pyramid=tuple(board.pyramid),
            stock_count=len(board.stock),
            stock_face_up=None,
            waste=tuple(board.pile),
            stock_label="",
            hollow=False,
            score_label=say("table.score", score=board.score),
            chosen=None,
            cursor=self.cursor,
            title=title,
            joker=self.joker_state,
            detail=detail,
        )

    def targets_of(self, move: DuelMove) -> tuple[Target, ...]:
        """Where ``move`` is played: the card placed, the stock turned, the joker."""
        if move.kind == "turn":
            return ("stock",)
        if move.kind == "joker":
            return ("joker",)
        index = self.board.index_of(move.card) if move.card is not None else None
        return (index,) if index is not None else ()

    def state(self) -> dict[str, Any]:
        """The scripted mode's ``game`` object: the board's JSON, the cursor, and no chosen card."""
        data = self.board.to_json()
        data["chosen"] = None
        if self.cursor is None or isinstance(self.cursor, str):
            data["cursor"] = self.cursor
        else:
            card = self.board.pyramid[self.cursor]
            data["cursor"] = str(card) if card else None
        return data
