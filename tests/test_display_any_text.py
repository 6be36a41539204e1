"""Any text draws: names come from strangers on the network, so no string may make the renderer raise.

The strings are arbitrary Unicode (combining marks alone, variation selectors, emoji,
bidi and zero-width controls, surrogates, unassigned code points), at every size, and on
every drawing path: menus, panels, text pages and the table's lines all draw through
:func:`display.text.render_text`, and the scenes below put the text in each of them.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import samples
from display.render import Renderer
from display.text import PLACEHOLDER, drawable, fit_text, render_text, text_width
from pyramid.view import MenuView, PanelView, TextView, View

#: Every code point, surrogates included (a Python str can hold them; JSON's \ud800 makes one).
ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=40)
#: Pieces that broke the renderer before (issue 26) or tend to: mixed into the arbitrary text.
TRICKY = ["♠\u034f♠", "Bob♥\ufe0f", "\u0301", "\ufe0f", "\u200b", "\u202e", "\u2066", "\U000e0001", "\ud800",
          "\x00", "\n", "\t", "😀", "\U0010ffff", "\u00a0", "\u3000", "", " "]
TEXT = st.one_of(ANY_TEXT, st.lists(st.sampled_from(TRICKY) | ANY_TEXT, max_size=5).map("".join))


@pytest.mark.parametrize("text", TRICKY)
@pytest.mark.parametrize("px", [1, 9, 14, 40])
def test_each_known_troublemaker_draws_at_every_size(text: str, px: int) -> None:
    surface = render_text(text, px, (255, 255, 255))
    assert surface.get_width() == max(1, text_width(text, px))


@settings(max_examples=300, deadline=None)
@given(TEXT, st.integers(1, 64))
def test_any_text_draws_and_measures_alike(text: str, px: int) -> None:
    surface = render_text(text, px, (240, 240, 240))
    assert surface.get_width() == max(1, text_width(text, px))
    assert surface.get_height() > 0
    fitted, size = fit_text(text, px, 120)
    render_text(fitted, size, (0, 0, 0))


def ink(text: str) -> int:
    """How many pixels ``text`` lights."""
    surface = render_text(text, 20, (255, 255, 255))
    return sum(1 for x in range(surface.get_width()) for y in range(surface.get_height())
               if surface.get_at((x, y)).a > 64)


def test_what_the_font_cannot_draw_shows_as_one_visible_box_each() -> None:
    assert drawable("♠\u034f♠") == "♠" + PLACEHOLDER + "♠"
    assert drawable("\u202eBob") == PLACEHOLDER + "Bob"
    assert drawable("Zoë · Ça…") == "Zoë · Ça…", "letters the font has are drawn by it"
    assert drawable("a\u00a0b") == "a b", "a space the font lacks is still a space"
    assert ink(PLACEHOLDER) > 20, "the placeholder is visible"
    # Two names that differ only by characters the font lacks do not look the same.
    assert text_width("Ann\u200b", 20) > text_width("Ann", 20)
    assert text_width("Ann\u200b\u200b", 20) > text_width("Ann\u200b", 20)


def scenes(text: str) -> list[View]:
    """The text in every line of every kind of view (menu, panel over the table, text page, table)."""
    game = samples.game_view()
    assert game.table is not None
    table = game.table._replace(title=text, status_line=text, detail=text, stock_label=text, score_label=text)
    return [
        View("menu", menu=MenuView(text, (text, "Back", text), 0, footer=text), notice=text),
        View("game_over", table=table, panel=PanelView(text, lines=(text, text), items=(text, "Menu"))),
        View("help", text=TextView(text, ((text, (text, text)),), footer=text)),
        View("game", table=table, notice=text),
    ]


@pytest.fixture(scope="module")
def renderers() -> list[Renderer]:
    return [Renderer(size) for size in [(320, 240), (800, 480), (1920, 1080)]]


@settings(max_examples=40, deadline=None)
@given(TEXT)
def test_any_text_draws_on_every_screen_at_every_size(renderers: list[Renderer], text: str) -> None:
    for renderer in renderers:
        for view in scenes(text):
            renderer.draw(view)


def ink_rows(surface: object, colour_test: object) -> list[int]:
    import pygame

    assert isinstance(surface, pygame.Surface)
    return [y for y in range(surface.get_height())
            if any(colour_test(surface.get_at((x, y))) for x in range(surface.get_width()))]  # type: ignore[operator]


def test_suit_signs_in_text_are_as_tall_as_the_text_and_red_ones_red() -> None:
    """Issue 29 item 10: in status lines the suits were tiny and in the text's colour (a ♦ read as a ♥;
    the network detail line's were some 5 pixels tall at 320x240)."""
    from display import theme
    from pyramid.console.wording import card_name
    from pyramid.engine.cards import Card

    px = 12
    red = ink_rows(render_text("♦", px, theme.FELT_TEXT),
                   lambda c: c.a > 128 and c.r > 150 and c.g < 90 and c.b < 90)
    capital = ink_rows(render_text("D", px, theme.FELT_TEXT), lambda c: c.a > 128)
    assert red and red[-1] - red[0] >= capital[-1] - capital[0]  # as tall as a capital letter beside it
    black = ink_rows(render_text("♠", px, theme.FELT_TEXT), lambda c: c.a > 128 and c.g > 200)
    assert black, "a black suit keeps the text's colour: black would vanish on the felt"
    spanish = card_name(Card.parse("2o"), "french")
    assert spanish != "2o" and PLACEHOLDER not in drawable(spanish)  # the coin's shape, not the letter o
    assert card_name(Card.parse("Jo"), "french").startswith("11")  # as the Spanish face shows it, not "V"
    assert ink_rows(render_text(spanish[1:], px, theme.FELT_TEXT), lambda c: c.a > 128 and c.r > 150 and c.g < 90)


@pytest.mark.parametrize("px", [12, 20, 40])
def test_text_after_a_sign_keeps_the_baseline_of_an_accented_capital_before_it(px: int) -> None:
    """The friends' board's "Éléonore: … ✓ (aided)": SDL_ttf draws a run with a capital accent lower
    on a taller surface, and the words after the ✓ sat some 2 pixels above it at 1280x720; a run with a
    descender under it ("Åg") lost the descender's foot."""
    from display import theme

    def bottom(surface: pygame.Surface, start: int, stop: int) -> int:
        return max(y for y in range(surface.get_height()) for x in range(start, stop) if surface.get_at((x, y)).a > 128)

    line = render_text("É x ✓ x", px, theme.FELT_TEXT)
    first, second = (text_width("É ", px), text_width("É x", px)), (text_width("É x ✓ ", px), line.get_width())
    assert bottom(line, *first) == bottom(line, *second)
    for text in ("Åg", "Ég ✓"):
        deep = render_text(text, px, theme.FELT_TEXT)
        g = text_width(text[0], px), text_width(text[:2], px)
        assert bottom(deep, *g) < deep.get_height() - 1, "the g's foot is drawn whole, above the surface's edge"
