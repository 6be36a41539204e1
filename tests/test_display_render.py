"""The renderer on an offscreen surface: known pixels, dirty rectangles, every kind of view."""

from __future__ import annotations


import pygame
import pytest

import samples
from display import theme
from display.cards_art import CardArt, FaceStyle, rank_label, suit_colour
from display.rect import Rect
from display.render import Renderer
from display.symbols import SHAPES, symbol
from pyramid.engine.cards import SPANISH_DECK, STANDARD_DECK, Card, Deck
from pyramid.view import MenuHit, MenuView, PanelView, TableView, View

SIZES = [(320, 240), (480, 320), (800, 480), (1920, 1080), (320, 480)]


def pixel(renderer: Renderer, x: int, y: int) -> tuple[int, int, int]:
    return tuple(renderer.frame.get_at((x, y)))[:3]  # type: ignore[return-value]


def close_to(colour: tuple[int, int, int], expected: tuple[int, ...], tolerance: int = 6) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected))


def is_felt(colour: tuple[int, int, int]) -> bool:
    r, g, b = colour
    return g > r + 30 and g > b + 20


def frame_bytes(renderer: Renderer) -> bytes:
    return pygame.image.tobytes(renderer.frame, "RGB")


def cursor_pixel(renderer: Renderer, target: Rect) -> tuple[int, int, int]:
    """A pixel in the middle of the cursor ring's left side around ``target``."""
    width = renderer.layout.table(7).cursor_width
    return pixel(renderer, target.x - 1 - width // 2, target.y + target.h // 2)


@pytest.fixture(scope="module")
def game() -> View:
    return samples.game_view()


@pytest.mark.parametrize("size", SIZES)
def test_a_game_shows_felt_cards_chosen_card_and_cursor(size: tuple[int, int], game: View) -> None:
    renderer = Renderer(size)
    assert renderer.draw(game) == [Rect(0, 0, *size)]
    table = renderer.layout.table(7)
    assert game.table is not None and isinstance(game.table.cursor, int) and isinstance(game.table.chosen, int)
    assert is_felt(pixel(renderer, table.status.x + 1, table.status.y + 1))
    top = table.cards[0]
    assert close_to(pixel(renderer, top.x + top.w // 2, top.y + 2), theme.CARD_FACE)
    chosen = table.cards[game.table.chosen]
    greyed = tuple(c * m // 255 for c, m in zip(theme.CARD_FACE, theme.CHOSEN_MULTIPLY))
    assert close_to(pixel(renderer, chosen.x + chosen.w // 2, chosen.y + 2), greyed)
    assert close_to(cursor_pixel(renderer, table.cards[game.table.cursor]), theme.CURSOR)
    back = table.stock
    assert close_to(pixel(renderer, back.x + 2, back.y + back.h // 2), theme.BACK, 12)


def test_the_cursor_shows_on_the_waste_and_on_the_hollow() -> None:
    hollow = samples.hollow_view()
    assert hollow.table is not None and hollow.table.hollow and hollow.table.cursor == "stock"
    renderer = Renderer((480, 320))
    renderer.draw(hollow)
    table = renderer.layout.table(7)
    assert close_to(cursor_pixel(renderer, table.stock), theme.CURSOR)
    inside = pixel(renderer, table.stock.x + table.stock.w // 2, table.stock.y + 4)
    assert is_felt(inside), "the hollow is an empty place on the felt, not a card"
    on_waste = View("game", table=hollow.table._replace(cursor="waste"))
    renderer.draw(on_waste)
    assert close_to(cursor_pixel(renderer, table.waste), theme.CURSOR)
    assert not close_to(cursor_pixel(renderer, table.stock), theme.CURSOR)


@pytest.mark.parametrize("label,drawn", [("1 redeal left", True), ("∞ redeals", True), ("No redeal left", True),
                                         ("", False)])
def test_the_label_beside_the_stock_is_drawn(label: str, drawn: bool, game: View) -> None:
    assert game.table is not None
    renderer = Renderer((480, 320))
    renderer.draw(View("game", table=game.table._replace(stock_label=label)))
    label = renderer.layout.table(7).stock_label
    colours = {pixel(renderer, x, y) for x in range(label.x, label.x + 30) for y in range(label.y, label.bottom)}
    assert any(min(c) > 200 for c in colours) == drawn


def test_nothing_changed_means_nothing_to_repaint(game: View) -> None:
    renderer = Renderer((480, 320))
    renderer.draw(game)
    assert renderer.draw(game) == []


def test_a_cursor_move_repaints_only_around_both_cursor_places(game: View) -> None:
    assert game.table is not None
    renderer = Renderer((480, 320))
    renderer.draw(game)
    table = renderer.layout.table(7)
    moved = View("game", table=game.table._replace(cursor="stock"))
    dirty = renderer.draw(moved)
    old, new = table.cards[game.table.cursor], table.stock
    margin = table.cursor_width + 1
    for target in (old, new):
        assert any(rect.contains(target.inflate(margin)) for rect in dirty)
    assert sum(rect.area for rect in dirty) < 0.15 * 480 * 320


def test_incremental_frames_equal_full_repaints_through_every_kind_of_view() -> None:
    views = list(samples.all_views().values())
    views += [samples.game_view(removals=10), samples.game_view(removals=11), views[0]]
    incremental = Renderer((480, 320))
    for view in views:
        incremental.draw(view)
        fresh = Renderer((480, 320))
        fresh.draw(view)
        assert frame_bytes(incremental) == frame_bytes(fresh)


def test_an_end_panel_lies_over_the_dimmed_table() -> None:
    renderer = Renderer((800, 480))
    plain = samples.end_view(cleared=False)
    assert plain.table is not None
    renderer.draw(View("game", table=plain.table))
    stock = renderer.layout.table(7).stock
    before = pixel(renderer, stock.x + 3, stock.y + stock.h // 2)
    renderer.draw(plain)
    after = pixel(renderer, stock.x + 3, stock.y + stock.h // 2)
    assert sum(after) < sum(before) - 30
    assert plain.panel is not None
    box = renderer.layout.panel(plain.panel).box
    assert close_to(pixel(renderer, box.x + box.w // 2, box.y + 3), theme.PANEL)
    first_item = dict(renderer.layout.panel(plain.panel).items)[0]
    assert close_to(pixel(renderer, first_item.x + first_item.h, first_item.y + 3), theme.CURSOR)


def test_a_menu_highlights_its_selected_line() -> None:
    menu = MenuView("Redeal the stock?", ("No redeal", "One redeal", "Unlimited redeals"), 2)
    renderer = Renderer((320, 240))
    renderer.draw(View("redeal_choice", menu=menu))
    lines = dict(renderer.layout.menu(menu).items)
    assert close_to(pixel(renderer, lines[2].x + lines[2].h, lines[2].y + 3), theme.CURSOR)
    assert not close_to(pixel(renderer, lines[0].x + lines[0].h, lines[0].y + 3), theme.CURSOR)


def test_the_notice_replaces_the_status_line(game: View) -> None:
    renderer = Renderer((480, 320))
    renderer.draw(game)
    dirty = renderer.draw(game._replace(notice="Saved"))
    status = renderer.layout.table(7).status
    assert dirty and all(status.contains(rect) for rect in dirty)
    colours = {pixel(renderer, x, status.y + status.h // 2) for x in range(status.x, status.right)}
    assert any(close_to(c, theme.NOTICE, 40) for c in colours)


def test_a_notice_on_a_menu_takes_the_place_of_its_footer() -> None:
    menu = samples.menu_view()
    renderer = Renderer((480, 320))
    renderer.draw(menu)
    footer = renderer.layout.menu(menu.menu).footer
    assert footer is not None
    dirty = renderer.draw(menu._replace(notice="Settings file: syntax error at line 3"))
    band = renderer.layout.status_band
    assert dirty and all(band.union(footer).contains(rect) for rect in dirty)
    row = {pixel(renderer, x, band.y + band.h // 2) for x in range(band.x, band.right)}
    assert any(close_to(c, theme.NOTICE, 40) for c in row)
    assert not any(close_to(c, theme.FELT_MUTED, 10) for c in row), "the footer is not drawn under the notice"


def test_court_cards_carry_french_letters_unless_english_is_asked() -> None:
    assert [rank_label(Card(rank, "s"), "french") for rank in (1, 10, 11, 12, 13)] == ["A", "10", "V", "D", "R"]
    assert [rank_label(Card(rank, "h"), "english") for rank in (11, 12, 13)] == ["J", "Q", "K"]
    assert rank_label(Card(12, "o"), "french") == "12"


@pytest.mark.parametrize("deck", [STANDARD_DECK, SPANISH_DECK], ids=["standard", "spanish"])
def test_every_card_of_both_decks_shows_its_suit_in_the_top_strip(deck: Deck) -> None:
    art = CardArt((39, 55), 27, 3)
    for card in deck.cards:
        face = art.face(card)
        assert face.get_size() == (39, 55)
        top_strip = {tuple(face.get_at((x, y)))[:3] for x in range(2, 38) for y in range(2, 26)}
        assert any(close_to(c, suit_colour(card), 50) for c in top_strip), card


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_symbols_are_solid_in_the_middle_even_at_8_pixels(name: str) -> None:
    tiny = symbol(name, 8, (0, 0, 0))
    big = symbol(name, 64, (0, 0, 0))
    assert tiny.get_size() == (8, 8)
    assert max(tiny.get_at((x, y)).a for x in range(2, 6) for y in range(2, 6)) > 100
    assert sum(big.get_at((x, y)).a > 128 for x in range(64) for y in range(64)) > 200


def test_six_row_and_spanish_tables_render() -> None:
    cards = SPANISH_DECK.cards
    table = TableView(
        rows=6, pyramid=cards[:21], stock_count=27, stock_face_up=cards[21], waste=cards[22:24],
        stock_label="∞ redeals", hollow=False, score_label="Score 0", chosen="stock", cursor="stock",
    )
    renderer = Renderer((480, 320))
    renderer.draw(View("game", table=table, panel=PanelView("Spanish deck", ("Pairs make 12",))))
    stock = renderer.layout.table(6).stock
    assert not is_felt(pixel(renderer, stock.x + stock.w // 2, stock.y + 3))


def test_a_hint_rings_its_cards_in_its_own_colour_under_the_cursor(game: View) -> None:
    assert game.table is not None and isinstance(game.table.cursor, int)
    renderer = Renderer((480, 320))
    table = renderer.layout.table(7)
    hinted = View("game", table=game.table._replace(hint=("waste", game.table.cursor)))
    renderer.draw(game)
    dirty = renderer.draw(hinted)
    assert any(rect.contains(table.waste.inflate(table.cursor_width + 1)) for rect in dirty)
    assert close_to(cursor_pixel(renderer, table.waste), theme.HINT)
    assert close_to(cursor_pixel(renderer, table.cards[game.table.cursor]), theme.CURSOR), "the cursor stays on top"


def test_king_tuts_three_waste_cards_are_fanned_faces_and_one_card_draws_show_edges(game: View) -> None:
    """Issue 47, item 11: King Tut draws three and showed only the waste's top card."""
    assert game.table is not None and len(game.table.waste) >= 3
    for fanned, lower in ((1, "edge"), (3, "face")):
        renderer = Renderer((1280, 720))
        table = renderer.layout.table(7, fanned)
        sprites = dict(renderer.scene_for(game._replace(table=game.table._replace(fanned=fanned))))
        for depth in (1, 2):
            assert sprites[table.waste.move(-depth * table.waste_step, 0)][0] == lower, (fanned, depth)
        assert sprites[table.waste][0] == "face"


def test_the_cursor_on_a_card_under_another_rings_only_the_part_that_shows(game: View) -> None:
    """Issue 47, item 11: under Overlap a card under one other can be played; its ring went round the
    whole card, across the card over it, and seemed to aim at both."""
    dealt = samples.played_table(7, removals=0).view()
    pyramid = list(dealt.pyramid)
    pyramid[21] = None  # index 15's left cover gone: 22 still lies over it
    renderer = Renderer((1280, 720))
    table = renderer.layout.table(7)
    for cursor, height in ((15, table.row_step), (22, table.card_h)):
        view = View("game", table=dealt._replace(pyramid=tuple(pyramid), cursor=cursor, hint=(cursor,)))
        rings = [(rect, key) for rect, key in renderer.scene_for(view) if key[0] in ("cursor", "hint")]
        assert [key[2] for _, key in rings] == [height, height]
        assert all(rect.y < table.cards[cursor].y for rect, _ in rings)


def test_the_spanish_club_is_a_cudgel_not_a_thin_stroke() -> None:
    """Issue 47, item 11: the club (basto) was a thin green stroke, hard to recognise at 1280x720: it
    inked 18 % of its square (a cup 37 %, a coin 46 %); now a knotty cudgel, over a quarter."""
    sign = symbol("b", 64, (0, 0, 0))
    ink = sum(1 for x in range(64) for y in range(64) if sign.get_at((x, y)).a > 128) / 64 ** 2
    assert ink > 0.25


def test_the_four_colour_deck_paints_diamonds_blue_and_clubs_green() -> None:
    art = CardArt((60, 84), 42, 5)
    for card, colour in ((Card(5, "d"), theme.FOUR_COLOUR_SUITS["d"]), (Card(5, "c"), theme.FOUR_COLOUR_SUITS["c"])):
        plain, four = art.face(card), art.face(card, FaceStyle(four_colour=True))
        strip = {tuple(four.get_at((x, y)))[:3] for x in range(2, 58) for y in range(2, 40)}
        assert any(close_to(c, colour, 40) for c in strip)
        assert pygame.image.tobytes(plain, "RGBA") != pygame.image.tobytes(four, "RGBA")


def test_the_players_safe_area_moves_everything_inward_and_taps_follow(game: View) -> None:
    renderer = Renderer((1280, 720), safe_area=0)
    renderer.draw(game)
    edge = renderer.layout.table(7).stock
    tv = game._replace(safe_area=8)
    dirty = renderer.draw(tv)
    inset = renderer.layout.table(7).stock
    assert inset.x >= 1280 * 8 // 100 > edge.x and dirty
    assert renderer.hit_at(tv, *inset.center) == "stock"
    assert renderer.hit_at(game, *edge.center) == "stock"
    assert frame_bytes(renderer) == frame_bytes(_fresh(tv, (1280, 720)))


def _fresh(view: View, size: tuple[int, int]) -> Renderer:
    renderer = Renderer(size)
    renderer.draw(view)
    return renderer


PANEL_OVER = [
    ("menu", View("notice", menu=MenuView("Pyramid", ("Continue", "New game", "Settings"), 0),
                  panel=PanelView("About your saved data", ("The data file was damaged.",), ("OK",), 0))),
    ("text", View("confirm", text=samples.help_view().text,
                  panel=PanelView("Reset all statistics?", (), ("No", "Reset"), 0))),
]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("below, view", PANEL_OVER, ids=[name for name, _ in PANEL_OVER])
def test_a_panel_is_drawn_over_a_menu_or_a_text_page(size: tuple[int, int], below: str, view: View) -> None:
    """A notice or a confirmation over a menu or a text screen must be seen: it takes the presses."""
    assert view.panel is not None
    renderer = Renderer(size)
    renderer.draw(view)
    panel = renderer.layout.panel(view.panel)
    inside = pixel(renderer, panel.box.x + panel.box.w // 2, panel.box.y + 2)
    assert close_to(inside, theme.PANEL[:3], tolerance=10), f"no panel over the {below}: {inside}"
    bare = Renderer(size)
    bare.draw(view._replace(panel=None))
    assert frame_bytes(bare) != frame_bytes(renderer)
    # The panel takes the taps: its last line, not whatever lies below it.
    index, rect = panel.items[-1]
    assert renderer.hit_at(view, rect.x + rect.w // 2, rect.y + rect.h // 2) == MenuHit(index)


def test_the_menu_fan_follows_the_card_letters_setting() -> None:
    """The king and queen of the fan over the menus read R, D in French and K, Q in English."""
    french, english = Renderer((480, 320)), Renderer((480, 320))
    menu = samples.menu_view()
    french.draw(menu._replace(letters="french"))
    english.draw(menu._replace(letters="english"))
    fan = french.layout.menu(menu.menu).fan
    assert fan, "the menu has its fan at 480x320"
    area = pygame.Rect(tuple(fan[0].union(fan[-1])))
    assert (pygame.image.tobytes(french.frame.subsurface(area), "RGB")
            != pygame.image.tobytes(english.frame.subsurface(area), "RGB"))


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
def test_lines_hidden_below_or_above_are_cued(size: tuple[int, int]) -> None:
    """A long menu or a results panel on a small screen shows a window of its lines, and says so."""
    lines = tuple(f"Line {n}" for n in range(14))
    long_menu = View("menu", menu=MenuView("Pyramid", lines, 0))
    renderer = Renderer(size)
    renderer.draw(long_menu)
    shown = renderer.layout.menu(long_menu.menu).items
    assert len(shown) < len(lines), "the test needs a menu longer than the screen"
    window = View("menu", menu=MenuView("Pyramid", lines[: len(shown)], 0))
    bare = Renderer(size)
    bare.draw(window)
    last = shown[-1][1]
    area = pygame.Rect(last.right - last.h, last.y, last.h, last.h)
    assert (pygame.image.tobytes(renderer.frame.subsurface(area), "RGB")
            != pygame.image.tobytes(bare.frame.subsurface(area), "RGB")), "no ▼ where lines go on below"
    results = PanelView("You win!", tuple(f"Round {n}:  40 – 35" for n in range(1, 6)) + ("You 230 – 190 Computer",),
                        ("Watch the computer's game", "Back to the menu"), 0)
    view = View("duel_result", panel=results)
    renderer.draw(view)
    items = renderer.layout.panel(results).items
    if len(items) < len(results.items):  # the second line is out of view: a cue must say it is there
        last = items[-1][1]
        cue = pygame.Rect(last.right - last.h, last.y, last.h, last.h)
        plain = Renderer(size)
        plain.draw(View("duel_result", panel=results._replace(items=results.items[:1])))
        assert (pygame.image.tobytes(renderer.frame.subsurface(cue), "RGB")
                != pygame.image.tobytes(plain.frame.subsurface(cue), "RGB"))


@pytest.mark.parametrize("size", SIZES)
def test_cards_under_the_waste_top_show_an_edge_never_half_a_letter(size: tuple[int, int], game: View) -> None:
    """Whatever lies under the waste top, the slivers look the same: no rank cut mid-letter."""
    assert game.table is not None
    top = game.table.waste[-1] if game.table.waste else Card(3, "d")
    one, other = Renderer(size), Renderer(size)
    one.draw(game._replace(table=game.table._replace(waste=(Card(1, "d"), Card(10, "c"), top))))
    other.draw(game._replace(table=game.table._replace(waste=(Card(13, "s"), Card(12, "h"), top))))
    table = one.layout.table(7)
    slivers = table.waste.move(-2 * table.waste_step, 0).union(table.waste.move(-table.waste_step, 0))
    strip = pygame.Rect(slivers.x, slivers.y, 2 * table.waste_step, slivers.h)
    assert pygame.image.tobytes(one.frame.subsurface(strip), "RGB") == pygame.image.tobytes(
        other.frame.subsurface(strip), "RGB")
