"""Realistic views for screenshots, benchmarks and renderer tests.

``python -m display.samples docs`` writes the README screenshots
(docs/screenshot-<W>x<H>.png) without going through the whole application.

They come from the engine itself (a numbered deal played for a while through
:class:`pyramid.play.Table`), not from hand-made data, so what they show is
what a player sees — including the cursor, a chosen card and the waste.
"""

from __future__ import annotations

import sys
from pathlib import Path

from pyramid.board import Board
from pyramid.deal import numbered_deal
from pyramid.help_text import pyramid_help
from pyramid.play import Table
from pyramid.rules import RETROHUB
from pyramid.view import MenuView, PanelView, TextView, View

from .settings import parse_size


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
    return View("help", text=TextView("Pyramid: rules & controls", pyramid_help(RETROHUB)))


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


def save_screenshots(directory: Path, sizes: list[tuple[int, int]], views: dict[str, View]) -> list[Path]:
    """Render each view at each size into ``directory`` as ``<name>-<W>x<H>.png``."""
    import pygame

    from .render import Renderer

    saved = []
    for size in sizes:
        renderer = Renderer(size)
        for name, view in views.items():
            renderer.draw(view)
            path = directory / f"{name}-{size[0]}x{size[1]}.png"
            pygame.image.save(renderer.frame, str(path))
            saved.append(path)
    return saved


def main(arguments: list[str]) -> None:
    """``python -m display.samples DIRECTORY [WxH …] [--all]``: the README screenshots (or every sample)."""
    all_samples = "--all" in arguments
    words = [word for word in arguments if word != "--all"]
    if not words:
        raise SystemExit("usage: python -m display.samples DIRECTORY [WxH ...] [--all]")
    sizes = [parse_size(word) for word in words[1:]] or [(320, 240), (480, 320), (800, 480), (1920, 1080)]
    views = all_views() if all_samples else {"screenshot": game_view()}
    for path in save_screenshots(Path(words[0]), sizes, views):
        print(path)


if __name__ == "__main__":
    main(sys.argv[1:])
