"""Playing one Pyramid deal with a cursor: what ✓, a tap and the arrows do.

This is the UI-neutral half of the table: it owns the :class:`Board`, the
chosen card and the cursor, and turns picks into engine moves. Every rule
question is answered by the board; nothing here re-implements a rule.
"""

from __future__ import annotations

from typing import Any

from pyramid.console.catalogue import say, say_count
from pyramid.actions import Kind
from pyramid.console import cursor
from pyramid.engine.board import Board, Move
from pyramid.engine.cards import Card
from pyramid.view import TableView, Target


class Table:
    """A deal in play: the board plus the chosen card and the cursor."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.chosen: Card | None = None
        self.cursor: Target | None = cursor.nearest(self.targets(), None, self.board.places)
        #: The two cards of the last pick that did not make a pair (the first chosen, then the other).
        self.refused: tuple[Card, Card] | None = None

    # -- targets ------------------------------------------------------------
    def targets(self) -> list[Target]:
        """Where the cursor may land: stock (or its hollow), waste top, pickable pyramid cards."""
        board = self.board
        if board.status() != "playing":
            return []
        found: list[Target] = []
        if board.stock or board.can_redeal():
            found.append("stock")
        if board.waste and board.rules.waste_playable:
            found.append("waste")
        found.extend(board.pickable_indices())
        return found

    def card_at(self, target: Target) -> Card | None:
        if target == "stock":
            return self.board.stock_top if self.board.rules.stock_top_playable else None
        if target == "waste":
            return self.board.waste_top
        if target == "joker":
            return None
        return self.board.pyramid[target]

    def chosen_target(self) -> Target | None:
        if self.chosen is None:
            return None
        if self.chosen == self.board.waste_top:
            return "waste"
        index = self.board.index_of(self.chosen)
        if index is not None:
            return index
        return "stock"

    # -- actions ------------------------------------------------------------
    def move_cursor(self, direction: Kind) -> None:
        self.cursor = cursor.step(self.targets(), self.cursor, direction, self.board.places)

    def pick(self, target: Target) -> Move | None:
        """Pick ``target`` (✓ on it, or a tap); return the move played, if any."""
        self.refused = None
        if target not in self.targets():
            return None
        self.cursor = target
        if target == "stock":
            move = self._pick_stock()
        else:
            card = self.card_at(target)
            move = self._pick_card(card) if card is not None else None
        self._settle()
        return move

    def _pick_stock(self) -> Move | None:
        board = self.board
        top = board.stock_top if board.rules.stock_top_playable else None
        if top is not None:
            move = self._pick_card(top)
            if move is not None:
                return move
            self.chosen = None if self.chosen == top else self.chosen
        move = Move.draw() if board.stock else Move.redeal()
        board.push(move)
        return move

    def _pick_card(self, card: Card) -> Move | None:
        board = self.board
        alone = Move.remove(card)
        if board.is_legal(alone):
            board.push(alone)
            if self.chosen == card:
                self.chosen = None
            return alone
        if self.chosen is None:
            self.chosen = card
            return None
        if self.chosen == card:
            self.chosen = None
            return None
        pair = Move.remove(self.chosen, card)
        if board.is_legal(pair):
            board.push(pair)
            self.chosen = None
            return pair
        self.refused = (self.chosen, card)
        self.chosen = card
        return None

    def cancel(self) -> bool:
        """Unchoose the chosen card; ``False`` when nothing was chosen."""
        if self.chosen is None:
            return False
        self.chosen = None
        return True

    def undo(self) -> Move | None:
        """Take back the last move (an assist)."""
        if not self.board.move_stack:
            return None
        move = self.board.pop()
        self.chosen = None
        self._settle()
        return move

    def _settle(self) -> None:
        """Keep chosen and cursor valid after the position changed.

        A chosen waste card that got covered is unchosen; a chosen pyramid card
        stays chosen while drawing (docs/rules.md, "Pyramid").
        """
        if self.chosen is not None and self.chosen not in self.board.playable_cards():
            self.chosen = None
        self.cursor = cursor.nearest(self.targets(), self.cursor, self.board.places)

    # -- views --------------------------------------------------------------
    def view(self, title: str = "") -> TableView:
        board = self.board
        face_up = board.stock_top if board.rules.stock_top_playable else None
        if board.rules.scoring == "cards_left":
            score_label = say("table.cards_left", cards=board.cards_to_clear())
        else:
            score_label = say("table.score", score=board.score)
        return TableView(
            rows=board.rules.rows,
            pyramid=tuple(board.pyramid),
            stock_count=len(board.stock),
            stock_face_up=face_up,
            waste=tuple(board.waste),
            stock_label=stock_label(len(board.stock), board.redeals_left, face_up is not None),
            hollow=not board.stock and board.can_redeal(),
            score_label=score_label,
            chosen=self.chosen_target(),
            cursor=self.cursor,
            title=title,
            fanned=board.rules.draw_count,
        )

    def target_of(self, card: Card) -> Target | None:
        """Where ``card`` lies on the table, if it shows: its pyramid place, the waste top, the stock."""
        board = self.board
        index = board.index_of(card)
        if index is not None:
            return index
        if card == board.waste_top:
            return "waste"
        return "stock" if card == board.stock_top else None

    def targets_of(self, move: Move) -> tuple[Target, ...]:
        """Where ``move``'s cards lie now (the pair to highlight), or the stock for a draw or redeal."""
        if move.kind != "remove":
            return ("stock",)
        board = self.board
        targets: list[Target] = []
        for card in move.cards:
            index = board.index_of(card)
            targets.append(index if index is not None else ("waste" if card == board.waste_top else "stock"))
        return tuple(targets)

    def state(self) -> dict[str, Any]:
        """The scripted mode's ``game`` object."""
        data = self.board.to_json()
        data["chosen"] = str(self.chosen) if self.chosen else None
        if self.cursor is None or isinstance(self.cursor, str):
            data["cursor"] = self.cursor
        else:
            card = self.board.pyramid[self.cursor]
            data["cursor"] = str(card) if card else None
        return data


def stock_label(cards: int, redeals_left: int | None, face_up: bool) -> str:
    """What the label beside the stock says: the redeals left, always (a label that vanished at
    the last redeal left players wondering), and the cards left when the stock lies face up (its
    back, which shows the count, is not seen then)."""
    if redeals_left is None:
        redeals = say("table.unlimited_redeals")
    elif redeals_left == 0:
        redeals = say("table.no_redeal_left")
    else:
        redeals = say_count("table.redeals_left", redeals_left)
    return say_count("table.stock_cards", cards, redeals=redeals) if face_up else redeals
