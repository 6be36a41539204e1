"""Where everything goes on the screen: pure geometry, no pygame.

One engine for every screen from 320x240 to 1920x1080, landscape or portrait:
it searches for the largest card that lets the pyramid, the stock column, the
score and the status band fit inside the safe area without overlapping, so no
per-resolution table has to be maintained. It is also the only place that
knows where things are drawn, so tap hit-testing (:meth:`Layout.hit_at`) lives
here too, and both can be tested without SDL.

Text widths are needed to wrap the help pages and to size menus; they come
from a ``measure(text, px)`` function (the renderer passes the real font's),
with a conservative estimate as the default so the module stays pure.
The layout records are named tuples, cheap to define before the first frame
(see pyramid.view).
"""

# Annotations are evaluated, not postponed: cheaper named tuples at start-up (see pyramid.view).

import math
from functools import lru_cache
from typing import Callable, Literal, NamedTuple

from pyramid.engine.tableau import pyramid_geometry
from pyramid.view import CalendarView, Hit, MenuHit, MenuView, MonthHit, PanelView, TextView, View

from .errors import LayoutError
from .rect import Rect

#: Width in pixels of ``text`` drawn with a font of ``px`` pixels.
TextMeasure = Callable[[str, int], int]

#: Poker cards are 63 x 88 mm.
CARD_ASPECT = 88 / 63
#: Below this many pixels a font stops being readable on a small TFT.
MIN_TEXT_PX = 10
#: A help page may go one size smaller rather than lose its last lines.
MIN_PAGE_PX = 9
#: Height of the band of fanned cards over a menu, in card heights (room for the tilt).
FAN_BAND = 1.45
#: How far each card of a fanned waste (draw three) lies from the one above it, in card widths: its
#: index corner (rank and suit) shows whole.
FAN_STEP = 0.4
#: Longest text shown beside the stock; the label must have room for it.
STOCK_LABEL_SAMPLE = "2 redeals left"


def cursor_width(card_w: int) -> int:
    """Thickness of the cursor ring, drawn (with a 1-pixel dark edge) just outside its card."""
    return max(3, round(card_w * 0.08))


def estimate_text_width(text: str, px: int) -> int:
    """A generous guess of the width of ``text`` in a sans-serif bold font of ``px`` pixels."""
    return math.ceil(len(text) * px * 0.58)


class TableLayout(NamedTuple):
    """Rectangles of the table screen.

    ``cards[i]`` is pyramid index ``i``; ``waste`` is the top card of the
    waste, whose lower cards peek out ``waste_step`` pixels to its left (the
    Pyramids pile is drawn there too). ``joker`` is the Pyramids joker's place
    beside the stock, and ``detail`` a line under the title.
    """

    card_w: int
    card_h: int
    row_step: int
    cards: tuple[Rect, ...]
    stock: Rect
    waste: Rect
    waste_step: int
    stock_label: Rect
    score: Rect
    title: Rect
    status: Rect
    text_px: int
    joker: Rect = Rect(0, 0, 0, 0)
    detail: Rect = Rect(0, 0, 0, 0)

    @property
    def cursor_width(self) -> int:
        return cursor_width(self.card_w)

    def visible_part(self, index: int, rows: int) -> Rect:
        """The part of card ``index`` that shows when the full pyramid is dealt."""
        row = pyramid_geometry(rows)[0][index][0]
        rect = self.cards[index]
        if row == rows - 1:
            return rect
        return Rect(rect.x, rect.y, rect.w, self.row_step)


class MenuLayout(NamedTuple):
    """A full-screen list; ``items`` pairs each visible item index with its line.

    ``fan`` places a few decorative cards between the title and the lines when
    the screen has room for them (none on a 320x240 panel).
    """

    title: Rect
    title_px: int
    items: tuple[tuple[int, Rect], ...]
    item_px: int
    footer: Rect | None
    footer_px: int
    fan: tuple[Rect, ...] = ()


class PanelLayout(NamedTuple):
    """A box over the screen: its title, its text wrapped to the box, and its choices."""

    box: Rect
    title: Rect
    title_px: int
    lines: tuple["PlacedText", ...]
    line_px: int
    items: tuple[tuple[int, Rect], ...]


class PlacedText(NamedTuple):
    """One line of a text page, already wrapped, with its style."""

    rect: Rect
    text: str
    style: Literal["heading", "body"]


class TextLayout(NamedTuple):
    """A text page (help): the title and every wrapped line in place."""

    title: Rect
    title_px: int
    body_px: int
    lines: tuple[PlacedText, ...]
    complete: bool


class CalendarLayout(NamedTuple):
    """A month page: the title between its ◀ ▶ places, the weekdays' heads, a cell a day (in
    ``days`` order), the selected day's line, all above the status line."""

    title: Rect
    title_px: int
    earlier: Rect
    later: Rect
    heads: tuple[Rect, ...]
    cells: tuple[Rect, ...]
    cell_px: int
    detail: Rect


class Layout:
    """Geometry for one screen: ``size`` in pixels and a safe-area margin in percent.

    The safe area (the part of a TV picture guaranteed to be visible) is
    ``safe_area`` percent of the width and of the height on each side.
    """

    def __init__(self, size: tuple[int, int], safe_area: float = 0, measure: TextMeasure = estimate_text_width) -> None:
        width, height = size
        if width < 1 or height < 1:
            raise LayoutError(f"invalid screen size {size!r}")
        if not 0 <= safe_area <= 20:
            raise LayoutError(f"invalid safe area {safe_area!r}: expected 0 to 20 percent")
        self.size = (width, height)
        self.screen = Rect(0, 0, width, height)
        mx, my = round(width * safe_area / 100), round(height * safe_area / 100)
        self.safe = Rect(mx, my, width - 2 * mx, height - 2 * my)
        self.measure = measure
        #: The body text size: readable on a 320x240 TFT, large enough on a TV.
        self.text_px = max(14, round(min(self.safe.w, self.safe.h * 4 / 3) / 24))
        self.pad = max(2, self.text_px // 3)
        self._label_width = measure(STOCK_LABEL_SAMPLE, self.text_px)

    @property
    def status_band(self) -> Rect:
        """The line at the bottom for the status and notices, on every screen."""
        height = round(self.text_px * 1.5)
        return Rect(self.safe.x, self.safe.bottom - height, self.safe.w, height)

    # -- the table ---------------------------------------------------------
    @lru_cache(maxsize=4)
    def table(self, rows: int = 7, fanned: int = 1) -> TableLayout:
        """The table for a pyramid of ``rows`` rows; :class:`LayoutError` if it cannot fit. ``fanned``: the
        waste's cards shown whole, the draw's count (King Tut draws three, and players expect the three
        fanned, each index corner showing: issue 47); with one, the cards below the top show an edge."""
        if rows < 1:
            raise LayoutError(f"invalid number of rows {rows!r}")
        status = self.status_band
        area = Rect(self.safe.x, self.safe.y, self.safe.w, status.y - self.safe.y)
        # A pyramid is about (rows + 1) / 2 card heights tall: no wider card can fit.
        tallest = math.ceil(area.h * 2 / ((rows + 1) * CARD_ASPECT)) + 1
        for card_w in range(min(area.w // rows, tallest), 7, -1):
            for label_below in (False, True):
                table = self._try_table(rows, card_w, area, status, label_below, fanned > 1)
                if table is not None:
                    return table
        raise LayoutError(f"a {rows}-row pyramid does not fit on a {self.size[0]}x{self.size[1]} screen")

    def _try_table(self, rows: int, card_w: int, area: Rect, status: Rect, label_below: bool,
                   fan: bool) -> TableLayout | None:
        """The table with cards ``card_w`` wide, or ``None`` if they do not fit.

        The stock label goes beside the stock when there is room for it there,
        else (``label_below``) under the waste, where it lengthens the column.
        """
        line_h = round(self.text_px * 1.3)
        area = area.inflate(-(cursor_width(card_w) + 1))  # the cursor ring of an edge card stays on screen
        card_h = round(card_w * CARD_ASPECT)
        gap = max(2, round(card_w * 0.08))
        step = card_h // 2
        pyramid_w = rows * card_w + (rows - 1) * gap
        pyramid_h = card_h + (rows - 1) * step
        waste_step = max(2, round(card_w * (FAN_STEP if fan else 0.14)))
        stock = Rect(area.x, area.y, card_w, card_h)
        waste = Rect(area.x + 2 * waste_step, stock.bottom + gap, card_w, card_h)
        column_bottom = waste.bottom + gap + (line_h + self.pad if label_below else 0)
        column = Rect(area.x, area.y, card_w + 2 * waste_step + gap, column_bottom - area.y)
        if pyramid_w > area.w or column.bottom > area.bottom:
            return None
        centres = (area.x + area.w // 2, area.right - (pyramid_w + 1) // 2)
        for centre in centres:
            offsets = _row_offsets(rows, card_w, gap, centre)
            top = area.y
            for row, (left, _) in enumerate(offsets):
                if left < column.right:
                    top = max(top, column.bottom - row * step)
            slack = area.bottom - (top + pyramid_h)
            if slack < 0:
                continue
            top += slack // 3
            cards = tuple(
                Rect(offsets[row][0] + col * (card_w + gap), top + row * step, card_w, card_h)
                for row, col in pyramid_geometry(rows)[0]
            )
            if label_below:
                stock_label = Rect(stock.x, waste.bottom + self.pad, column.w, line_h)
            else:
                clearance = max(self.pad, cursor_width(card_w) + 2)  # the cursor ring of a card beside it
                label_x = stock.right + clearance
                middle = self.safe.x + self.safe.w // 2
                free = _free_width(label_x, stock.y, line_h, cards, middle, clearance)
                stock_label = Rect(label_x, stock.y, free, line_h)
                if stock_label.w < self._label_width:
                    return None
                # A second line beside the stock card when the cards leave it free: a long label
                # ("7 cards · No redeal left") then keeps the text size (it shrank to 9 px at 320x240).
                if card_h >= 2 * line_h:
                    free_two = _free_width(label_x, stock.y, 2 * line_h, cards, middle, clearance)
                    if free_two >= self._label_width:
                        stock_label = Rect(label_x, stock.y, free_two, 2 * line_h)
            return self._finish_table(card_w, card_h, step, cards, stock, waste, waste_step, stock_label, status)
        return None

    def _finish_table(
        self, card_w: int, card_h: int, step: int, cards: tuple[Rect, ...],
        stock: Rect, waste: Rect, waste_step: int, stock_label: Rect, status: Rect,
    ) -> TableLayout:
        """Add the score, the title and the detail line in the top right corner, clear of the cards."""
        px = self.text_px
        score_h, line_h = round(px * 1.6), round(px * 1.3)
        middle = self.safe.x + self.safe.w // 2
        right = self.safe.right - self.pad
        score = _right_band(self.safe.y, score_h, cards, middle, right, self.pad)
        title = _right_band(score.bottom, line_h, cards, middle, right, self.pad)
        detail = _right_band(title.bottom, line_h, cards, middle, right, self.pad)
        joker = self._joker_place(stock, waste, cards, status)
        return TableLayout(card_w, card_h, step, cards, stock, waste, waste_step, stock_label, score, title, status, px,
                           joker, detail)

    def _joker_place(self, stock: Rect, waste: Rect, cards: tuple[Rect, ...], status: Rect) -> Rect:
        """The joker's place: right of the stock, else under the pile, wherever cursor rings stay apart.

        Both rings (the joker's and its neighbour's) reach ``cursor_width + 1``
        outside their cards, hence the spacing; the pile peeks out right of
        the stock, so the joker clears it too. Should neither place be free,
        the joker goes right of the stock all the same (over the pyramid's edge).
        """
        spacing = 2 * (cursor_width(stock.w) + 1) + 1
        beside = Rect(max(stock.right, waste.right) + spacing, stock.y, stock.w, stock.h)
        below = Rect(stock.x, waste.bottom + spacing, stock.w, stock.h)
        for place in (beside, below):
            room = place.inflate(spacing // 2)
            inside = place.right <= self.safe.right and place.bottom <= status.y
            if inside and not any(card.intersects(room) for card in cards):
                return place
        return beside

    # -- menus, panels, text pages ------------------------------------------
    @lru_cache(maxsize=16)
    def menu(self, menu: MenuView) -> MenuLayout:
        safe, px = self.safe, self.text_px
        title_px = round(px * 1.8)
        title = Rect(safe.x, safe.y + self.pad, safe.w, round(title_px * 1.4))
        footer_px = max(MIN_TEXT_PX, round(px * 0.85))
        footer = Rect(safe.x, safe.bottom - round(footer_px * 1.5), safe.w, round(footer_px * 1.5)) if menu.footer else None
        top = title.bottom + self.pad
        bottom = (footer.y if footer else safe.bottom) - self.pad
        item_px = round(px * 1.15)
        widest = max((self.measure(item, item_px) for item in menu.items), default=0)
        width = min(safe.w - 2 * self.pad, max(widest + 3 * px, px * 16))
        line_h = _spacing(round(item_px * 2.3), round(item_px * 1.6), bottom - top, len(menu.items))
        shown = _window(len(menu.items), menu.selected, max(1, (bottom - top) // line_h))
        fan = self._fan(top, bottom - top - line_h * len(shown))
        if fan:
            top += round(fan[0].h * FAN_BAND) + 2 * self.pad
        block_top = top + (bottom - top - line_h * len(shown)) // 2
        x = safe.x + (safe.w - width) // 2
        inner = max(2, line_h // 12)
        items = tuple(
            (index, Rect(x, block_top + k * line_h + inner, width, line_h - 2 * inner)) for k, index in enumerate(shown)
        )
        return MenuLayout(title, title_px, items, item_px, footer, footer_px, fan)

    def _fan(self, top: int, spare: int, cards: int = 4) -> tuple[Rect, ...]:
        """Card places fanned from ``top``, if the ``spare`` height left by the lines is enough.

        The renderer tilts the outer cards by up to 15° and lowers them a little:
        the places are centred in a band :data:`FAN_BAND` times their height.
        """
        card_h = min(round((spare - 2 * self.pad) / FAN_BAND), self.text_px * 4)
        if card_h < self.text_px * 2:
            return ()
        card_w = round(card_h / CARD_ASPECT)
        step = round(card_w * 0.62)
        left = self.safe.x + (self.safe.w - card_w - step * (cards - 1)) // 2
        y = top + self.pad + round(card_h * (FAN_BAND - 1) / 2)
        return tuple(Rect(left + k * step, y, card_w, card_h) for k in range(cards))

    @lru_cache(maxsize=16)
    def panel(self, panel: PanelView) -> PanelLayout:
        """The box, its title, its text and its choices. Every choice shows whole before the text
        does (issue 47: a loss panel's choices went below the fold at 320x240): when the text and
        the choices at their least spacing do not fit, the box's margins and the lines' spacing
        close up, then the text is cut ("…"); only a list longer than the screen scrolls."""
        safe, px = self.safe, self.text_px
        title_px, line_px = round(px * 1.5), px
        line_h, item_h, least_item = round(line_px * 1.4), round(line_px * 2.2), round(line_px * 1.6)
        title_h = round(title_px * 1.6)
        widths = [self.measure(panel.title, title_px)]
        widths += [self.measure(line, line_px) for line in panel.lines + panel.items]
        width = min(safe.w - 2 * self.pad, max(widths) + 4 * px)
        # Long lines (a notice's explanation) wrap inside the box rather than being cut off.
        texts = [part for line in panel.lines for part in wrap_text(line, width - 2 * px, line_px, self.measure)]
        margin, gap = px, px // 2  # above the title and below the choices; between the text and the choices
        choices_h = least_item * min(len(panel.items), max(1, (safe.h - title_h) // least_item))
        if title_h + 2 * margin + gap + line_h * len(texts) + choices_h > safe.h:
            margin, gap, line_h = px // 2, px // 4, round(line_px * 1.2)
        room_for_lines = max(0, (safe.h - title_h - 2 * margin - gap - choices_h) // line_h)
        if len(texts) > room_for_lines:  # the choices first; say the text goes on
            texts = texts[:max(room_for_lines - 1, 0)] + ["…"] if room_for_lines else []
        # As a menu's lines: the pause panel's six choices show whole from 320x240 to a TV with its safe area.
        room = safe.h - title_h - 2 * margin - gap - line_h * len(texts)
        item_h = _spacing(item_h, least_item, room, len(panel.items))
        shown = _window(len(panel.items), panel.selected, max(1, room // item_h))
        height = min(title_h + line_h * len(texts) + gap + item_h * len(shown) + 2 * margin, safe.h)
        box = Rect(safe.x + (safe.w - width) // 2, safe.y + (safe.h - height) // 2, width, height)
        title = Rect(box.x + px, box.y + margin, box.w - 2 * px, round(title_px * 1.4))
        lines = tuple(PlacedText(Rect(title.x, title.bottom + k * line_h, title.w, line_h), text, "body")
                      for k, text in enumerate(texts))
        items_top = (lines[-1].rect.bottom if lines else title.bottom) + gap
        inner = max(2, item_h // 12)
        items = tuple(
            (index, Rect(title.x, items_top + k * item_h + inner, title.w, item_h - 2 * inner))
            for k, index in enumerate(shown)
        )
        return PanelLayout(box, title, title_px, lines, line_px, items)

    @lru_cache(maxsize=8)
    def text(self, page: TextView) -> TextLayout:
        """The largest text size (down to :data:`MIN_PAGE_PX`) at which the page fits, in 1 or 2 columns."""
        safe = self.safe
        title_px = round(self.text_px * 1.45)
        title = Rect(safe.x, safe.y + self.pad, safe.w, round(title_px * 1.25))
        bottom = self.status_band.y if page.footer else safe.bottom - self.pad
        body = Rect(safe.x + self.pad, title.bottom + self.pad, safe.w - 2 * self.pad, bottom - title.bottom - self.pad)
        best: tuple[PlacedText, ...] = ()
        for px in range(self.text_px, MIN_PAGE_PX - 1, -1):
            for columns, spaced in ((1, True), (2, True), (1, False)):
                if columns == 2 and body.w < px * 36:
                    continue
                placed, complete = self._flow_text(page, body, px, columns, spaced)
                if complete:
                    return TextLayout(title, title_px, px, placed, True)
                best = placed
        if best:  # say that the page goes on: its last line becomes an ellipsis
            best = best[:-1] + (PlacedText(best[-1].rect, "…", "body"),)
        return TextLayout(title, title_px, MIN_PAGE_PX, best, False)

    def _flow_text(self, page: TextView, body: Rect, px: int, columns: int, spaced: bool) -> tuple[tuple[PlacedText, ...], bool]:
        """Place the page's lines in ``columns``; a heading never ends a column; ``spaced`` parts paragraphs."""
        gutter = px * 2
        column_w = (body.w - gutter * (columns - 1)) // columns
        line_h, heading_h = round(px * 1.2), round(px * 1.4)
        gap = round(px * 0.35) if spaced else 0
        # (text, style, height, space before, height that must fit with it)
        lines: list[tuple[str, Literal["heading", "body"], int, int, int]] = []
        for heading, paragraphs in page.sections:
            lines.append((heading, "heading", heading_h, gap if lines else 0, heading_h + line_h))
            for number, paragraph in enumerate(paragraphs):
                for part_number, part in enumerate(wrap_text(paragraph, column_w, px, self.measure)):
                    space = gap // 2 if number and not part_number else 0
                    lines.append((part, "body", line_h, space, line_h))
        placed: list[PlacedText] = []
        column, y = 0, body.y
        for text, style, height, space, needed in lines:
            if y + space + needed > body.bottom:
                column, y, space = column + 1, body.y, 0
                if column == columns:
                    return tuple(placed), False
            y += space if y > body.y else 0
            x = body.x + column * (column_w + gutter)
            placed.append(PlacedText(Rect(x, y, column_w, height), text, style))
            y += height
        return tuple(placed), True

    @lru_cache(maxsize=4)
    def calendar(self, page: CalendarView) -> CalendarLayout:
        """Seven columns across the safe area, as many week rows as the month takes (4 to 6), each cell
        as tall as the rows leave; the number's size follows the cell, down to :data:`MIN_TEXT_PX`."""
        safe, px, pad = self.safe, self.text_px, self.pad
        title_px = round(px * 1.45)
        title_h = round(title_px * 1.3)
        arrow_w = title_h * 2
        title = Rect(safe.x + arrow_w, safe.y + pad, safe.w - 2 * arrow_w, title_h)
        earlier = Rect(safe.x, title.y, arrow_w, title_h)
        later = Rect(safe.right - arrow_w, title.y, arrow_w, title_h)
        head_h = round(px * 1.2)
        detail = Rect(safe.x, self.status_band.y - round(px * 1.5), safe.w, round(px * 1.5))
        weeks = (page.first_column + len(page.days) + 6) // 7
        grid_top = title.bottom + pad + head_h
        column_w = (safe.w - 2 * pad) // 7
        row_h = min((detail.y - pad - grid_top) // weeks, round(column_w * 0.8))
        gap = max(1, min(column_w, row_h) // 12)
        left = safe.x + (safe.w - 7 * column_w) // 2
        heads = tuple(Rect(left + column * column_w, title.bottom + pad, column_w, head_h) for column in range(7))
        cells = []
        for index in range(len(page.days)):
            week, column = divmod(page.first_column + index, 7)
            cells.append(Rect(left + column * column_w + gap, grid_top + week * row_h + gap,
                              column_w - 2 * gap, row_h - 2 * gap))
        cell_px = max(MIN_TEXT_PX, min(px, round(row_h * 0.55)))
        return CalendarLayout(title, title_px, earlier, later, heads, tuple(cells), cell_px, detail)

    # -- taps --------------------------------------------------------------
    def hit_at(self, view: View, x: int, y: int) -> Hit:
        """What a tap at ``(x, y)`` lands on in ``view``: what the player sees on top there.

        A panel is drawn over everything else and takes every tap while it is
        shown; one without choices answers ``MenuHit(0)`` for a tap inside it
        (the same as ✓). Pyramid cards are tested from the bottom row up, since
        lower rows are drawn over higher ones.
        """
        if view.panel is not None:
            panel = self.panel(view.panel)
            if not view.panel.items:
                return MenuHit(0) if panel.box.contains_point(x, y) else None
            return _hit_items(panel.items, x, y)
        if view.menu is not None:
            return _hit_items(self.menu(view.menu).items, x, y)
        if view.text is not None:
            return None
        if view.calendar is not None:
            return self._calendar_hit(view.calendar, x, y)
        table_view = view.table
        if table_view is None:
            return None
        table = self.table(table_view.rows, table_view.fanned)
        for index in reversed(range(len(table.cards))):
            if table_view.pyramid[index] is not None and table.cards[index].contains_point(x, y):
                return index
        if table.stock.contains_point(x, y):
            return "stock"
        if table_view.joker in ("available", "spent") and table.joker.contains_point(x, y):
            return "joker"
        if table_view.waste and table.waste.contains_point(x, y):
            return "waste"
        return None


    def _calendar_hit(self, page: CalendarView, x: int, y: int) -> Hit:
        """A day's cell (``MenuHit`` of its index), ◀ or ▶ where another month lies that way, or nothing."""
        layout = self.calendar(page)
        if page.earlier and layout.earlier.contains_point(x, y):
            return MonthHit(-1)
        if page.later and layout.later.contains_point(x, y):
            return MonthHit(1)
        return next((MenuHit(index) for index, cell in enumerate(layout.cells) if cell.contains_point(x, y)), None)


def label_lines(text: str, box: Rect, px: int, measure: TextMeasure) -> list[str]:
    """``text`` in lines of ``px`` that ``box`` holds (lines of 1.3 ``px``), split first where it says
    two things (" · "), else between words; one line, to be shrunk to fit, when it needs more."""
    capacity = max(1, box.h // round(px * 1.3))
    if measure(text, px) <= box.w or capacity == 1:
        return [text]
    parts = text.split(" · ")
    if len(parts) <= capacity and all(measure(part, px) <= box.w for part in parts):
        return parts
    lines = wrap_text(text, box.w, px, measure)
    return lines if len(lines) <= capacity and all(measure(line, px) <= box.w for line in lines) else [text]


def wrap_text(text: str, width: int, px: int, measure: TextMeasure) -> list[str]:
    """Split ``text`` into lines no wider than ``width`` (a single long word stays whole)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if current and measure(candidate, px) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current or not lines:
        lines.append(current)
    return lines


def _row_offsets(rows: int, card_w: int, gap: int, centre: int) -> list[tuple[int, int]]:
    """Left and right edge of each pyramid row, centred on ``centre``."""
    offsets = []
    for row in range(rows):
        width = (row + 1) * card_w + row * gap
        left = centre - width // 2
        offsets.append((left, left + width))
    return offsets


def _free_width(x: int, y: int, height: int, cards: tuple[Rect, ...], right: int, clearance: int) -> int:
    """How far a band starting at ``(x, y)`` can extend to the right, ``clearance`` short of the first card it meets."""
    band = Rect(x, y, right - x, height)
    for card in cards:
        if card.intersects(band) and card.x >= x:
            right = min(right, card.x - clearance)
        elif card.intersects(band):
            return 0
    return max(0, right - x)


def _right_band(y: int, height: int, cards: tuple[Rect, ...], middle: int, right: int, pad: int) -> Rect:
    """A band at height ``y`` in the right half, from the last card it meets to the right edge."""
    band = Rect(middle, y, right - middle, height)
    left = max([middle] + [card.right + pad for card in cards if card.intersects(band)])
    return Rect(left, y, max(0, right - left), height)


def _spacing(full: int, least: int, room: int, count: int) -> int:
    """The height of each of ``count`` choices in ``room``: ``full`` when they fit, closer together (down
    to ``least``, still a target to tap) before any of them has to scroll out of view."""
    return min(full, max(least, room // max(1, count)))


def _window(count: int, selected: int, capacity: int) -> list[int]:
    """The indices of at most ``capacity`` consecutive items, keeping ``selected`` in view."""
    if count <= capacity:
        return list(range(count))
    first = min(max(0, selected - capacity // 2), count - capacity)
    return list(range(first, first + capacity))


def _hit_items(items: tuple[tuple[int, Rect], ...], x: int, y: int) -> Hit:
    for index, rect in items:
        if rect.contains_point(x, y):
            return MenuHit(index)
    return None
