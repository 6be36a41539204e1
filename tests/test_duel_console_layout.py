"""Where the Pyramids joker goes on every screen, and that a tap finds it."""

from __future__ import annotations

import pytest

from display.layout import Layout
from pyramid.engine.duel.board import DuelBoard
from pyramid.console.duel.table import DuelTable
from pyramid.view import View

SIZES = [(320, 240), (480, 320), (800, 480), (1280, 720), (1920, 1080), (320, 480)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("safe", (0, 5))
def test_joker_beside_the_stock_on_screen_and_clear_of_every_card(size: tuple[int, int], safe: int) -> None:
    table = Layout(size, safe).table(7)
    joker = table.joker
    assert (joker.w, joker.h) == (table.card_w, table.card_h)
    assert Layout(size, safe).safe.contains(joker) and joker.bottom <= table.status.y
    assert not any(card.intersects(joker) for card in table.cards)
    for other in (table.stock, table.waste):
        assert not other.inflate(table.cursor_width + 1).intersects(joker.inflate(table.cursor_width + 1))


@pytest.mark.parametrize("size", [(320, 240), (1920, 1080)])
def test_a_tap_on_the_joker_picks_it_until_it_is_played(size: tuple[int, int]) -> None:
    play = DuelTable(DuelBoard.for_match(16))
    layout = Layout(size)
    x, y = layout.table(7).joker.center
    assert layout.hit_at(View("duel", table=play.view()), x, y) == "joker"
    play.pick("joker")
    assert layout.hit_at(View("duel", table=play.view()), x, y) is None  # armed: the joker lies on the pile
    assert layout.hit_at(View("game", table=play.view()), *layout.table(7).waste.center) == "waste"
