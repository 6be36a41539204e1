"""The pure layout, without SDL: every slot on screen, nothing overlapping, taps round-trip.

Only the help-page test measures text with the bundled font (pygame.font, no video).
"""

from __future__ import annotations

import itertools

import pytest

from display.errors import LayoutError
from display.layout import FAN_BAND, Layout
from display.rect import Rect, merge_rects
from display.text import text_width
from pyramid.engine.tableau import pyramid_geometry
from pyramid.engine.deal import numbered_deal
from pyramid.console.help_text import paginate, pyramid_help
from pyramid.engine.rules import RETROHUB
from pyramid.view import MenuHit, MenuView, PanelView, TableView, TextView, View

SIZES = [(320, 240), (480, 320), (800, 480), (1280, 720), (1920, 1080), (320, 480)]
SCREENS = [(size, safe) for size in SIZES for safe in (0, 5)]


def table_view(rows: int = 7, removed: frozenset[int] = frozenset(), waste: int = 2) -> TableView:
    cards = numbered_deal(11)
    size = rows * (rows + 1) // 2
    pyramid = tuple(None if i in removed else card for i, card in enumerate(cards[:size]))
    return TableView(
        rows=rows, pyramid=pyramid, stock_count=10, stock_face_up=None, waste=tuple(cards[size : size + waste]),
        stock_label="1 redeal left", hollow=False, score_label="Score 0", chosen=None, cursor=None,
    )


@pytest.mark.parametrize("size,safe", SCREENS)
@pytest.mark.parametrize("rows, fanned", [(7, 1), (6, 1), (7, 3)])
def test_every_table_slot_is_inside_the_safe_area(size: tuple[int, int], safe: int, rows: int, fanned: int) -> None:
    layout = Layout(size, safe)
    table = layout.table(rows, fanned)
    waste_hint = Rect(table.waste.x - 2 * table.waste_step, table.waste.y, table.waste.w + 2 * table.waste_step, table.waste.h)
    slots = list(table.cards) + [table.stock, waste_hint, table.stock_label, table.score, table.title, table.status]
    for rect in slots:
        assert layout.safe.contains(rect), (rect, layout.safe)
    for rect in list(table.cards) + [table.stock, table.waste]:
        assert layout.safe.contains(rect.inflate(table.cursor_width + 1)), "the cursor ring must stay visible"
    assert len(table.cards) == rows * (rows + 1) // 2


@pytest.mark.parametrize("size,safe", SCREENS)
@pytest.mark.parametrize("fanned", [1, 3])
def test_stock_waste_labels_and_pyramid_do_not_overlap(size: tuple[int, int], safe: int, fanned: int) -> None:
    """King Tut's waste fanned three wide (issue 47) keeps clear of the pyramid as one card's edges do."""
    table = Layout(size, safe).table(7, fanned)
    if fanned > 1:
        assert table.waste_step >= 0.38 * table.card_w, "each fanned card shows its index corner"
    column = [table.stock, table.waste.move(-2 * table.waste_step, 0).union(table.waste)]
    others = column + [table.stock_label, table.score, table.title, table.status]
    for card in table.cards:
        for rect in others:
            assert not card.intersects(rect), (card, rect)
    for first, second in itertools.combinations(others, 2):
        assert not first.intersects(second), (first, second)
    assert table.stock.y < table.waste.y, "the waste is below the stock"
    assert table.score.right > table.cards[0].right, "the score is top right"


def test_the_stock_label_beside_the_stock_stays_clear_of_the_cursor_ring_of_every_card() -> None:
    """Beside the stock the label runs toward the pyramid's apex (six rows reach it): it stops
    where the ring of a chosen card would begin, never under it. (Under the waste, where the
    smallest screens put it, it keeps clear of the cards themselves: the test above.)"""
    beside = 0
    for (size, safe), rows in itertools.product(SCREENS + [((640, 480), 0), ((1024, 600), 0)], (7, 6)):
        table = Layout(size, safe).table(rows)
        if table.stock_label.y > table.stock.y:
            continue  # under the waste
        beside += 1
        for card in table.cards:
            ring = card.inflate(table.cursor_width + 1)
            assert not ring.intersects(table.stock_label), (size, safe, rows, card, table.stock_label)
    assert beside >= 10


@pytest.mark.parametrize("size,safe", SCREENS)
def test_each_card_is_half_covered_by_the_two_below(size: tuple[int, int], safe: int) -> None:
    table = Layout(size, safe).table(7)
    places, covers = pyramid_geometry(7)
    assert abs(table.row_step - table.card_h / 2) <= 1
    for index, coverers in enumerate(covers):
        card = table.cards[index]
        for coverer in coverers:
            overlap = card.intersection(table.cards[coverer])
            assert overlap is not None and overlap.y == card.y + table.row_step
        row = places[index][0]
        if row + 1 < 7:
            neighbour = table.cards[index + 1] if places[index + 1][0] == row else None
            if neighbour is not None:
                assert not card.intersects(neighbour), "cards of one row never overlap"


@pytest.mark.parametrize("size,safe", SCREENS)
@pytest.mark.parametrize("rows", [7, 6])
def test_taps_on_each_slot_centre_round_trip(size: tuple[int, int], safe: int, rows: int) -> None:
    layout = Layout(size, safe)
    table = layout.table(rows)
    full = View("game", table=table_view(rows))
    for index in range(len(table.cards)):
        assert layout.hit_at(full, *table.visible_part(index, rows).center) == index
        alone = View("game", table=table_view(rows, removed=frozenset(range(len(table.cards))) - {index}))
        assert layout.hit_at(alone, *table.cards[index].center) == index
    assert layout.hit_at(full, *table.stock.center) == "stock"
    assert layout.hit_at(full, *table.waste.center) == "waste"
    assert layout.hit_at(View("game", table=table_view(rows, waste=0)), *table.waste.center) is None
    assert layout.hit_at(full, table.status.x, table.status.y) is None


def test_a_removed_card_uncovers_the_one_beneath_for_taps() -> None:
    layout = Layout((480, 320))
    table = layout.table(7)
    point = table.cards[21].center  # bottom-left card, over the lower half of card 15
    assert layout.hit_at(View("game", table=table_view()), *point) == 21
    below = table.cards[15]
    point = (below.x + 2, below.bottom - 2)
    assert layout.hit_at(View("game", table=table_view(removed=frozenset({21}))), *point) == 15


@pytest.mark.parametrize("size,safe", SCREENS)
def test_menu_lines_fit_and_round_trip(size: tuple[int, int], safe: int) -> None:
    layout = Layout(size, safe)
    menu = MenuView("Redeal the stock?", ("No redeal", "One redeal", "Unlimited redeals"), 1, footer="▲ ▼ ✓")
    placed = layout.menu(menu)
    view = View("redeal_choice", menu=menu)
    assert [index for index, _ in placed.items] == [0, 1, 2]
    for index, rect in placed.items:
        assert layout.safe.contains(rect) and not rect.intersects(placed.title)
        assert placed.footer is not None and not rect.intersects(placed.footer)
        assert layout.hit_at(view, *rect.center) == MenuHit(index)
    assert layout.hit_at(view, layout.safe.x, layout.safe.y) is None
    first = placed.items[0][1]
    for card in placed.fan:  # with the room the tilt needs
        band = card.inflate(card.h // 4, round(card.h * (FAN_BAND - 1) / 2))
        assert layout.safe.contains(band) and band.bottom <= first.y and band.y >= placed.title.bottom


def test_menus_get_a_fan_of_cards_where_there_is_room() -> None:
    menu = MenuView("Redeal the stock?", ("No redeal", "One redeal", "Unlimited redeals"), 1, footer="▲ ▼ ✓")
    assert all(len(Layout(size).menu(menu).fan) == 4 for size in SIZES)
    crowded = MenuView("Deals", tuple(f"Deal {n}" for n in range(12)), 0)
    assert Layout((320, 240)).menu(crowded).fan == ()


def test_a_long_menu_scrolls_to_keep_the_selected_line_visible() -> None:
    layout = Layout((320, 240))
    menu = MenuView("Deals", tuple(f"Deal {n}" for n in range(40)), 33)
    placed = layout.menu(menu)
    shown = [index for index, _ in placed.items]
    assert 33 in shown and len(shown) < 40 and shown == list(range(shown[0], shown[-1] + 1))
    rect = dict(placed.items)[33]
    assert layout.hit_at(View("menu", menu=menu), *rect.center) == MenuHit(33)
    assert all(layout.safe.contains(rect) for _, rect in placed.items)


@pytest.mark.parametrize("size,safe", SCREENS)
def test_panel_items_round_trip_and_a_panel_takes_every_tap(size: tuple[int, int], safe: int) -> None:
    layout = Layout(size, safe)
    panel = PanelView("Pyramid cleared, 420 points", ("Well played!",), ("New deal", "Menu"), 0)
    view = View("game_over", table=table_view(), panel=panel)
    placed = layout.panel(panel)
    assert layout.safe.contains(placed.box)
    for index, rect in placed.items:
        assert placed.box.contains(rect)
        assert layout.hit_at(view, *rect.center) == MenuHit(index)
    stock = layout.table(7).stock
    assert layout.hit_at(view, *stock.center) is None, "cards under a panel cannot be picked"
    bare = View("game_over", table=table_view(), panel=PanelView("No move left"))
    assert layout.hit_at(bare, *layout.panel(bare.panel).box.center) == MenuHit(0)
    assert layout.hit_at(bare, layout.safe.x, layout.safe.y) is None


@pytest.mark.parametrize("size,safe", SCREENS)
def test_six_choices_of_a_panel_show_whole_and_a_longer_list_scrolls(size: tuple[int, int], safe: int) -> None:
    """The pause panel has six choices: a player sees them all at once on every screen (they came
    closer together rather than scrolling); twenty scroll around the selected one, none overlapping."""
    layout = Layout(size, safe, measure=text_width)
    choices = ("Continue", "Hint", "Undo", "Restart this deal", "Rules & controls", "Quit to the menu")
    placed = layout.panel(PanelView("Paused", (), choices, 5))
    assert [index for index, _ in placed.items] == list(range(6))
    many = layout.panel(PanelView("Deals", (), tuple(f"Deal {n}" for n in range(20)), 17))
    shown = [index for index, _ in many.items]
    assert 6 <= len(shown) < 20 and 17 in shown and shown == list(range(shown[0], shown[-1] + 1))
    for box in (placed, many):
        assert layout.safe.contains(box.box)
        for _, rect in box.items:
            assert box.box.contains(rect)
            assert rect.h >= box.line_px * 1.25, "a line of text and a margin: still a target to tap"
        assert all(rect.bottom <= below.y for (_, rect), (_, below) in itertools.pairwise(box.items))


@pytest.mark.parametrize("size,safe", SCREENS)
def test_the_help_pages_fit_whole_without_overlaps(size: tuple[int, int], safe: int) -> None:
    """Each page of the rules as the help screen splits them (:func:`paginate`)."""
    layout = Layout(size, safe, measure=text_width)  # the real font's widths decide the wrapping
    for sections in paginate(pyramid_help(RETROHUB, "english")):
        page = TextView("Pyramid: rules & controls", sections)
        placed = layout.text(page)
        if size == (320, 240) and safe:  # a TV margin on a tiny screen: a page may be cut, and says so
            assert placed.complete or placed.lines[-1].text == "…"
        else:
            assert placed.complete, [line.text for line in placed.lines]
        headings = [line.text for line in placed.lines if line.style == "heading"]
        assert headings == [name for name, _ in page.sections][: len(headings)]
        for line in placed.lines:
            assert layout.safe.contains(line.rect) and not line.rect.intersects(placed.title)
        for first, second in itertools.combinations(placed.lines, 2):
            assert not first.rect.intersects(second.rect)
        assert layout.hit_at(View("help", text=page), *placed.lines[0].rect.center) is None


def test_bigger_screens_get_bigger_cards_and_text() -> None:
    tables = [Layout(size).table(7) for size in [(320, 240), (480, 320), (800, 480), (1280, 720), (1920, 1080)]]
    widths = [table.card_w for table in tables]
    assert widths == sorted(widths) and widths[0] >= 30
    assert tables[0].text_px >= 12


def test_impossible_screens_are_refused_with_the_size_quoted() -> None:
    with pytest.raises(LayoutError, match="60x40"):
        Layout((60, 40)).table(7)
    with pytest.raises(LayoutError, match="safe area"):
        Layout((320, 240), 30)


def test_merged_rectangles_cover_every_input_and_join_neighbours() -> None:
    rects = [Rect(0, 0, 10, 10), Rect(12, 0, 10, 10), Rect(200, 200, 5, 5), Rect(3, 3, 4, 4)]
    merged = merge_rects(rects)
    assert len(merged) == 2
    for rect in rects:
        assert any(box.contains(rect) for box in merged)
    assert merge_rects([Rect(0, 0, 10, 10), Rect(0, 100, 10, 10)]) == [Rect(0, 0, 10, 10), Rect(0, 100, 10, 10)]


@pytest.mark.parametrize("size,safe", SCREENS)
def test_a_long_panel_line_wraps_inside_the_box_and_its_choice_stays_on_screen(size: tuple[int, int], safe: int) -> None:
    """A notice's explanation is a sentence or two: it wraps, it is never cut mid-word off screen."""
    layout = Layout(size, safe, measure=text_width)
    text = ("The saved data was damaged (file is not a database). It was kept as "
            "pyramid.db.damaged-20261201-182427 and the console starts afresh.")
    panel = PanelView("About your saved data", (text,), ("OK",), 0)
    placed = layout.panel(panel)
    assert layout.safe.contains(placed.box)
    assert len(placed.items) == 1 and placed.box.contains(placed.items[0][1])
    for line in placed.lines:
        assert placed.box.contains(line.rect)
        assert text_width(line.text, placed.line_px) <= line.rect.w or " " not in line.text
    shown = " ".join(line.text for line in placed.lines)
    assert shown == text or shown.endswith("…")


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_stock_label_keeps_the_text_size_at_320x240(language: str) -> None:
    """Issue 47, item 8: "7 cards · No redeal left" was shrunk into the room beside the stock, about
    7 px high on a 2.8" screen; a second line beside the stock card keeps it at the status line's size."""
    from display.layout import label_lines
    from pyramid.console.catalogue import use_language
    from pyramid.console.table import stock_label

    layout = Layout((320, 240), 0, measure=text_width)
    table = layout.table(7)
    try:
        use_language(language)
        for label in (stock_label(7, 0, True), stock_label(20, 1, False), stock_label(20, None, False)):
            lines = label_lines(label, table.stock_label, table.text_px, text_width)
            assert all(text_width(line, table.text_px) <= table.stock_label.w for line in lines), (label, lines)
            assert len(lines) * round(table.text_px * 1.3) <= table.stock_label.h
            assert not any(table.stock_label.intersects(card) for card in table.cards)
    finally:
        use_language("en")
