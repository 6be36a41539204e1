"""Realistic views for the renderer's tests and benchmarks (the README's screenshots
come from the console itself: docs/screenshots.sh).

They come from the engine itself (a numbered deal played for a while through
:class:`pyramid.console.table.Table`), not from hand-made data, so what they show is
what a player sees — including the cursor, a chosen card and the waste.
"""

from __future__ import annotations


from pyramid.engine.board import Board
from pyramid.engine.deal import numbered_deal
from pyramid.console.help_text import pyramid_help
from pyramid.console.table import Table
from pyramid.engine.rules import RETROHUB
from pyramid.view import MenuView, PanelView, TextView, View



def played_table(deal_number: int = 7, removals: int = 9, redeals: int | None = 1) -> Table:
    """Deal ``deal_number`` after up to ``removals`` removals, drawing when nothing pairs."""
    table = Table(Board(numbered_deal(deal_number), RETROHUB.with_redeals(redeals)))
    board = table.board
    done = 0
    while done < removals and board.status() == "playing":
        removal = next((move for move in board.legal_moves if move.kind == "remove"), None)
        if removal is None:
            table.pick("stock")
            continue
        for card in removal.cards:
            index = board.index_of(card)
            table.pick(index if index is not None else "waste")
        done += 1
    return table


def game_view(deal_number: int = 7, removals: int = 9) -> View:
    """A game in progress, with a chosen card and the cursor on another uncovered card."""
    table = played_table(deal_number, removals)
    uncovered = table.board.uncovered_indices()
    table.pick(uncovered[-1])
    table.cursor = uncovered[0]
    tv = table.view(f"Deal {deal_number}")._replace(status_line="Pick a card that makes 13 with the grey one")
    return View("game", table=tv)


def hollow_view() -> View:
    """The stock used up with a redeal left: the hollow, with the cursor on it."""
    table = played_table(3, removals=2)
    while table.board.stock:
        table.pick("stock")
    table.cursor = "stock"
    return View("game", table=table.view("Deal 3"))


def end_view(cleared: bool) -> View:
    table = played_table(7, removals=30)
    panel = PanelView("Pyramid cleared, 420 points" if cleared else "No move left", items=("New deal", "Menu"))
    return View("game_over", table=table.view("Deal 7"), panel=panel)


def menu_view() -> View:
    return View("redeal_choice", menu=MenuView(
        "Redeal the stock?", ("No redeal", "One redeal", "Unlimited redeals"), 1, footer="▲ ▼ choose   ✓ deal   ✱ back",
    ))


def help_view() -> View:
    return View("help", text=TextView("Pyramid: rules & controls", pyramid_help(RETROHUB, "english")))


def all_views() -> dict[str, View]:
    """Every sample by name, for screenshot sets."""
    return {
        "game": game_view(),
        "hollow": hollow_view(),
        "cleared": end_view(True),
        "no_moves": end_view(False),
        "menu": menu_view(),
        "help": help_view(),
    }
