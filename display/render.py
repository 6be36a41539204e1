"""Draw a :class:`~pyramid.view.View` onto a pygame surface and say what changed.

A frame is described first as a *scene*: an ordered list of sprites, each a
rectangle and a hashable key naming the image drawn there (a card face, a text
in a colour, the cursor ring…). Comparing the scene with the previous one
gives the changed rectangles exactly, without comparing pixels; only those
rectangles are repainted (felt, then every sprite that touches them, in
order), and they are what a framebuffer needs to rewrite. The renderer reads
the view and never changes it.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from functools import lru_cache
from typing import Hashable, Literal, NamedTuple

import pygame

from pyramid.engine.tableau import pyramid_geometry
from pyramid.engine.cards import Card
from pyramid.view import CalendarView, DayMark, Hit, JokerState, MenuView, PanelView, TableView, Target, TextView, View

from . import theme
from .cards_art import CardArt, FaceStyle
from .layout import MIN_TEXT_PX, Layout, TableLayout, label_lines
from .rect import Rect, merge_rects
from .symbols import Color
from .text import fit_text, render_text, text_width

Align = Literal["left", "center", "right"]
Sprite = tuple[Rect, tuple[Hashable, ...]]

#: How many see-through or narrowed images are kept: a few animations' worth.
DERIVED_IMAGES = 96
#: The sprites that are a card (or its place): what an animation hides where a card is on its way.
CARD_KINDS = frozenset({"face", "back", "edge", "hollow", "joker"})
#: The rings drawn around a card: hidden with it while it has not landed.
RING_KINDS = frozenset({"cursor", "hint"})


def _hidden(rect: Rect, key: tuple[Hashable, ...], hidden: frozenset[Rect]) -> bool:
    """Whether an animation frame leaves the sprite out: a card whose place is still empty (it has not
    landed), and the cursor or a hint around such a place (issue 29: a ring round an empty slot)."""
    if key[0] in CARD_KINDS:
        return rect in hidden
    return key[0] in RING_KINDS and any(rect.contains(place) for place in hidden)


class Overlay(NamedTuple):
    """One frame of an animation over a view: the card sprites left out at ``hidden`` places
    (a card still on its way there) and ``sprites`` drawn over everything."""

    hidden: frozenset[Rect] = frozenset()
    sprites: tuple[Sprite, ...] = ()

#: The cards fanned above a menu's lines where there is room: a king and a pair that makes 13.
MENU_FAN = (Card(1, "s"), Card(13, "h"), Card(12, "c"), Card(1, "d"))
MENU_FAN_ANGLES = (15, 5, -5, -15)


class Renderer:
    """Draws views for a screen of ``size`` with a ``safe_area`` margin (percent).

    ``safe_area`` is the display's own margin; a view that carries the
    player's ``safe_area`` setting overrides it. ``frame`` is the surface
    drawn into; after :meth:`draw` it holds the whole picture, and the returned
    rectangles are the parts that differ from the previous frame (all of it
    the first time). ``layout`` is the layout of the last view drawn.
    """

    def __init__(self, size: tuple[int, int], safe_area: float = 0) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.size = size
        self.safe_area = safe_area
        self._layouts: dict[float, Layout] = {}
        self.layout = self._layout(safe_area)
        self.frame = pygame.Surface(size)
        self._felt = _felt(size)
        #: The sprites on the frame now, in drawing order, each marked when an animation's overlay drew it.
        self._scene: list[tuple[Rect, tuple[Hashable, ...], bool]] | None = None
        self._art: dict[tuple[int, int], CardArt] = {}
        self._derived: OrderedDict[tuple[Hashable, ...], pygame.Surface] = OrderedDict()

    def layout_for(self, view: View) -> Layout:
        """The layout ``view`` is drawn with (its safe area, else the display's)."""
        return self._layout(self.safe_area if view.safe_area is None else view.safe_area)

    def _layout(self, safe_area: float) -> Layout:
        if safe_area not in self._layouts:
            self._layouts[safe_area] = Layout(self.size, safe_area, measure=text_width)
        return self._layouts[safe_area]

    def hit_at(self, view: View, x: int, y: int) -> Hit:
        """What a tap at ``(x, y)`` (frame coordinates) lands on; see :meth:`Layout.hit_at`."""
        return self.layout_for(view).hit_at(view, x, y)

    def scene_for(self, view: View) -> list[Sprite]:
        """The sprites ``view`` is drawn with, in drawing order (``layout`` becomes the view's)."""
        self.layout = self.layout_for(view)
        return self._build_scene(view)

    def draw(self, view: View) -> list[Rect]:
        """Bring ``frame`` up to date with ``view``; return the rectangles that changed."""
        return self.paint(self.scene_for(view))

    def paint(self, scene: list[Sprite], overlay: Overlay | None = None) -> list[Rect]:
        """Bring ``frame`` up to date with ``scene`` (from :meth:`scene_for`); return what changed.

        An ``overlay`` (a frame of an animation, see :mod:`display.motion`) hides
        the cards at some places and draws its own sprites over the scene; being
        sprites too, only the places they left or reached are repainted.
        """
        layered = [(rect, key, False) for rect, key in scene]
        if overlay is not None:
            layered = [(rect, key, False) for rect, key in scene if not _hidden(rect, key, overlay.hidden)]
            layered += [(rect, key, True) for rect, key in overlay.sprites]
        if self._scene is None:
            dirty = [self.layout.screen]
        else:
            # A sprite of the overlay is drawn over everything, a panel's veil too: the same card at the same
            # place is another picture once it lies under a panel (a card landing as the end panel comes).
            before, after = Counter(self._scene), Counter(layered)
            changed = (before - after) + (after - before)
            dirty = merge_rects(_clip(rect, self.layout.screen) for rect, _, _ in changed)
        drawn = [(rect, key) for rect, key, _ in layered]
        for rect in dirty:
            self._repaint(drawn, rect)
        self._scene = layered
        return dirty

    def invalidate(self) -> None:
        """Forget the previous frame, so the next :meth:`draw` repaints everything."""
        self._scene = None

    # -- painting ------------------------------------------------------------
    def _repaint(self, scene: list[Sprite], area: Rect) -> None:
        target = pygame.Rect(tuple(area))
        self.frame.set_clip(target)
        self.frame.blit(self._felt, target, target)
        for rect, key in scene:
            if rect.intersects(area):
                self.frame.blit(self._image(key), (rect.x, rect.y))
        self.frame.set_clip(None)

    def _image(self, key: tuple[Hashable, ...]) -> pygame.Surface:
        """The image a sprite key names (every one of them cached)."""
        match key:
            case ("text", str(text), int(px), colour):
                return render_text(text, px, colour)
            case ("box", int(w), int(h), fill, edge, int(radius)):
                return _box(w, h, fill, edge, radius)
            case ("dim", int(w), int(h)):
                return _dim(w, h)
            case ("face", tuple() as size, Card() as card, FaceStyle() as style, bool(chosen), bool(covered)):
                return self._art[size].face(card, style, chosen, covered)
            case ("back", tuple() as size, int(count)):
                return self._art[size].back(count)
            case ("back", tuple() as size, None):  # a card on its way, without the stock's badge
                return self._art[size].back()
            case ("joker", tuple() as size, bool(spent)):
                return self._art[size].joker(spent)
            case ("edge", tuple() as size):
                return self._art[size].edge()
            case ("hollow", tuple() as size, bool(redeal)):
                return self._art[size].hollow(redeal)
            case ("fan", tuple() as size, Card() as card, FaceStyle() as style, int(angle)):
                return self._art[size].tilted(card, angle, style)
            case ("cursor", tuple() as size, int(height)):
                return self._art[size].cursor(height)
            case ("hint", tuple() as size, int(height)):
                return self._art[size].hint(height)
            case ("alpha" | "squeeze" as kind, tuple() as inner, int(amount)):
                return self._transformed(kind, inner, amount)
        raise ValueError(f"unknown sprite {key!r}")

    def _transformed(self, kind: str, inner: tuple[Hashable, ...], amount: int) -> pygame.Surface:
        """A sprite's image made see-through (``("alpha", inner, 0..255)``) or narrowed about its
        middle (``("squeeze", inner, width)``: a card turning over); the last ones used are kept."""
        key = (kind, inner, amount)
        image = self._derived.get(key)
        if image is not None:
            self._derived.move_to_end(key)
        else:
            source = self._image(inner)
            if kind == "alpha":
                image = source.copy()
                image.set_alpha(amount)
            else:
                narrow = pygame.transform.smoothscale(source, (max(1, amount), source.get_height()))
                image = pygame.Surface(source.get_size(), pygame.SRCALPHA)
                image.blit(narrow, ((source.get_width() - narrow.get_width()) // 2, 0))
            self._derived[key] = image
            if len(self._derived) > DERIVED_IMAGES:  # the least recently used goes: a full-HD card is 200 kB
                self._derived.popitem(last=False)
        return image

    # -- scenes ----------------------------------------------------------------
    def _build_scene(self, view: View) -> list[Sprite]:
        scene = _Scene()
        status = ""
        if view.menu is not None:
            # a notice takes the footer's place
            self._menu_scene(scene, view.menu, FaceStyle(view.letters, view.four_colour), footer=not view.notice)
        elif view.text is not None:
            self._text_scene(scene, view.text)
            status = view.text.footer
        elif view.calendar is not None:
            self._calendar_scene(scene, view.calendar)
            status = view.calendar.footer
        elif view.table is not None:
            self._table_scene(scene, view.table, FaceStyle(view.letters, view.four_colour))
            status = view.table.status_line
        if view.notice or status:
            colour = theme.NOTICE if view.notice else theme.FELT_MUTED
            scene.text(view.notice or status, self.layout.text_px, colour, self.layout.status_band, "center")
        if view.panel is not None:  # over whatever is below it: a table, a menu or a text page
            self._panel_scene(scene, view.panel)
        return scene.sprites

    def _art_for(self, table: TableLayout) -> tuple[tuple[int, int], CardArt]:
        size = (table.card_w, table.card_h)
        if size not in self._art:
            self._art[size] = CardArt(size, table.row_step, table.cursor_width)
        return size, self._art[size]

    def _table_scene(self, scene: _Scene, view: TableView, style: FaceStyle) -> None:
        table = self.layout.table(view.rows, view.fanned)
        size, art = self._art_for(table)
        px = table.text_px
        scene.text(view.score_label, round(px * 1.3), theme.FELT_TEXT, table.score, "right")
        label_h = round(px * 1.3)
        self._title_scene(scene, view, table)
        if view.stock_count and view.stock_face_up is not None:
            scene.add(table.stock, ("face", size, view.stock_face_up, style, view.chosen == "stock", False))
        elif view.stock_count:
            scene.add(table.stock, ("back", size, view.stock_count))
        else:
            scene.add(table.stock, ("hollow", size, view.hollow))
        for k, line in enumerate(label_lines(view.stock_label, table.stock_label, px, text_width)):
            box = table.stock_label
            scene.text(line, px, theme.FELT_TEXT, Rect(box.x, box.y + k * label_h, box.w, label_h), "left")
        if not view.waste:
            scene.add(table.waste, ("hollow", size, False))
        shown = view.waste[-3:]  # the top card and the two below it: their edges, or fanned
        for k, card in enumerate(shown):
            depth = len(shown) - 1 - k
            place = table.waste.move(-depth * table.waste_step, 0)
            if depth and view.fanned > depth:
                scene.add(place, ("face", size, card, style, False, False))
            elif depth:
                scene.add(place, ("edge", size))
            else:
                scene.add(place, ("face", size, card, style, view.chosen == "waste", False))
        if view.joker is not None:
            self._joker_scene(scene, table, size, view.joker)
        covers = pyramid_geometry(view.rows)[1]
        for index, pyramid_card in enumerate(view.pyramid):
            if pyramid_card is not None:
                covered = any(view.pyramid[i] is not None for i in covers[index])
                scene.add(table.cards[index], ("face", size, pyramid_card, style, view.chosen == index, covered))
        for kind, target in [("hint", target) for target in view.hint] + [("cursor", view.cursor)]:
            if target is not None:
                place = _ring_place(table, view, target)
                scene.add(place.inflate(art.cursor_margin), (kind, size, place.h))

    @staticmethod
    def _title_scene(scene: _Scene, view: TableView, table: TableLayout) -> None:
        """The title top right, and the detail line under it. Without a detail line, a long title
        ("Toutânkhamon · donne 777011509" at 320x240) takes its place too, split where it says two
        things, rather than being shrunk and cut."""
        px = table.text_px
        label_h = round(px * 1.3)
        box = table.title if view.detail else table.title.union(table.detail)
        for k, line in enumerate(label_lines(view.title, box, px, text_width)):
            scene.text(line, px, theme.FELT_MUTED, Rect(box.x, box.y + k * label_h, box.w, label_h), "right")
        scene.text(view.detail, px, theme.FELT_TEXT, table.detail, "right")

    @staticmethod
    def _joker_scene(scene: _Scene, table: TableLayout, size: tuple[int, int], joker: JokerState) -> None:
        """The joker beside the stock; once played it lies on the pile until a card covers it."""
        if joker == "armed":
            scene.add(table.joker, ("hollow", size, False))
            scene.add(table.waste, ("joker", size, False))
        else:
            scene.add(table.joker, ("joker", size, joker == "spent"))

    def _menu_scene(self, scene: _Scene, menu: MenuView, style: FaceStyle, footer: bool) -> None:
        layout = self.layout.menu(menu)
        scene.text(menu.title, layout.title_px, theme.FELT_TEXT, layout.title, "center")
        for rect, card, angle in zip(layout.fan, MENU_FAN, MENU_FAN_ANGLES):
            size = (rect.w, rect.h)
            if size not in self._art:
                self._art[size] = CardArt(size, rect.h // 2, 3)
            key = ("fan", size, card, style, angle)
            turned = self._image(key).get_rect(center=(rect.x + rect.w // 2, rect.y + rect.h // 2 + abs(angle) * rect.h // 80))
            scene.add(Rect(turned.x, turned.y, turned.w, turned.h), key)
        for index, rect in layout.items:
            self._item(scene, menu.items[index], rect, layout.item_px, index == menu.selected, theme.ITEM_TEXT)
        self._scroll_cues(scene, layout.items, len(menu.items), layout.item_px, theme.ITEM_TEXT)
        if layout.footer is not None and footer:
            scene.text(menu.footer, layout.footer_px, theme.FELT_MUTED, layout.footer, "center")

    def _panel_scene(self, scene: _Scene, panel: PanelView) -> None:
        layout = self.layout.panel(panel)
        scene.add(self.layout.screen, ("dim", self.layout.screen.w, self.layout.screen.h))
        radius = max(4, self.layout.text_px // 2)
        scene.add(layout.box, ("box", layout.box.w, layout.box.h, theme.PANEL, theme.PANEL_EDGE, radius))
        scene.text(panel.title, layout.title_px, theme.PANEL_TEXT, layout.title, "center")
        for line in layout.lines:
            scene.text(line.text, layout.line_px, theme.PANEL_TEXT, line.rect, "center")
        for index, rect in layout.items:
            self._item(scene, panel.items[index], rect, layout.line_px, index == panel.selected, theme.PANEL_TEXT)
        self._scroll_cues(scene, layout.items, len(panel.items), layout.line_px, theme.PANEL_TEXT)

    def _scroll_cues(self, scene: _Scene, shown: tuple[tuple[int, Rect], ...], count: int, px: int,
                     colour: Color) -> None:
        """▲ on the first line shown when lines are hidden above it, ▼ on the last when some are below:
        a small screen shows a window of a long menu, and the player must see that it goes on."""
        if not shown:
            return
        (first, top), (last, bottom) = shown[0], shown[-1]
        for hidden, rect, mark in ((first > 0, top, "▲"), (last < count - 1, bottom, "▼")):
            if hidden:
                cue = Rect(rect.right - rect.h, rect.y, rect.h, rect.h)
                scene.text(mark, px, colour, cue, "center")

    def _item(self, scene: _Scene, label: str, rect: Rect, px: int, selected: bool, colour: Color) -> None:
        """A menu or panel line: a rounded bar, filled with the cursor colour when selected."""
        radius = rect.h // 2
        fill = (*theme.CURSOR, 255) if selected else theme.ITEM
        edge = theme.CURSOR_EDGE if selected else None
        scene.add(rect, ("box", rect.w, rect.h, fill, edge, radius))
        scene.text(label, px, theme.SELECTED_TEXT if selected else colour, rect.inflate(-radius, 0), "center")

    def _calendar_scene(self, scene: _Scene, page: CalendarView) -> None:
        """The month: ◀ title ▶, the weekdays, a rounded cell a playable day (green once won, the
        cursor's colour when selected) with its number and its sign; the selected day's line below."""
        layout = self.layout.calendar(page)
        scene.text(page.title, layout.title_px, theme.FELT_TEXT, layout.title, "center")
        for shown, rect, arrow in ((page.earlier, layout.earlier, "◀"), (page.later, layout.later, "▶")):
            if shown:
                scene.text(arrow, layout.title_px, theme.FELT_TEXT, rect, "center")
        for name, rect in zip(page.weekdays, layout.heads):
            scene.text(name, layout.cell_px, theme.FELT_MUTED, rect, "center")
        px, radius = layout.cell_px, max(2, min(layout.cells[0].h, layout.cells[0].w) // 5)
        for index, (day, rect) in enumerate(zip(page.days, layout.cells)):
            selected = index == page.selected
            colour = theme.SELECTED_TEXT if selected else theme.FELT_MUTED if day.mark == "closed" else theme.FELT_TEXT
            if selected:
                scene.add(rect, ("box", rect.w, rect.h, (*theme.CURSOR, 255), theme.CURSOR_EDGE, radius))
            elif day.mark in ("won", "par", "best"):
                scene.add(rect, ("box", rect.w, rect.h, theme.DAY_WON, None, radius))
            elif day.mark != "closed":
                scene.add(rect, ("box", rect.w, rect.h, theme.ITEM, None, radius))
            sign = DAY_SIGNS.get(day.mark)
            split = rect.w * 3 // 5 if sign else rect.w
            scene.text(str(day.number), px, colour, Rect(rect.x, rect.y, split, rect.h), "center")
            if sign is not None:
                scene.text(sign[0], px, theme.SELECTED_TEXT if selected else sign[1],
                           Rect(rect.x + split, rect.y, rect.w - split, rect.h), "left")
        scene.text(page.detail, self.layout.text_px, theme.FELT_TEXT, layout.detail, "center")

    def _text_scene(self, scene: _Scene, page: TextView) -> None:
        layout = self.layout.text(page)
        scene.text(page.title, layout.title_px, theme.FELT_TEXT, layout.title, "center")
        for line in layout.lines:
            heading = line.style == "heading"
            px = round(layout.body_px * 1.15) if heading else layout.body_px
            scene.text(line.text, px, theme.NOTICE if heading else theme.FELT_TEXT, line.rect, "left")


#: The sign a calendar's day bears beside its number, and the sign's colour, by how it went.
DAY_SIGNS: dict[DayMark, tuple[str, Color]] = {
    "played": ("–", theme.FELT_MUTED), "won": ("✓", theme.FELT_TEXT), "par": ("✓", theme.NOTICE),
    "best": ("✱", theme.NOTICE)}


class _Scene:
    """The sprites of one frame, in drawing order."""

    def __init__(self) -> None:
        self.sprites: list[Sprite] = []

    def add(self, rect: Rect, key: tuple[Hashable, ...]) -> None:
        self.sprites.append((rect, key))

    def text(self, text: str, px: int, colour: Color, box: Rect, align: Align) -> None:
        """``text`` fitted into ``box`` (smaller, or shortened with "…"), centred vertically."""
        if not text or box.w <= 0:
            return
        fitted, size = fit_text(text, px, box.w, min_px=min(px, MIN_TEXT_PX - 1))
        width, height = text_width(fitted, size), render_text(fitted, size, colour).get_height()
        x = {"left": box.x, "center": box.x + (box.w - width) // 2, "right": box.right - width}[align]
        self.add(Rect(x, box.y + (box.h - height) // 2, max(1, width), height), ("text", fitted, size, colour))


def _ring_place(table: TableLayout, view: TableView, target: Target) -> Rect:
    """Where the cursor's or a hint's ring goes round ``target``: the card, or under Overlap a card under
    one other only the part that shows, never across the card over it (issue 47: it seemed to aim at both)."""
    covers = pyramid_geometry(view.rows)[1]
    if isinstance(target, int) and any(view.pyramid[i] is not None for i in covers[target]):
        return table.visible_part(target, view.rows)
    return target_rect(table, target)


def target_rect(table: TableLayout, target: Target) -> Rect:
    """Where a target lies on the table (the card there, the stock, the waste top, the joker)."""
    if target == "stock":
        return table.stock
    if target == "waste":
        return table.waste
    if target == "joker":
        return table.joker
    return table.cards[target]


def _clip(rect: Rect, screen: Rect) -> Rect:
    return rect.intersection(screen) or Rect(0, 0, 0, 0)


def _felt(size: tuple[int, int], grid: tuple[int, int] = (16, 12)) -> pygame.Surface:
    """The green baize: lighter in the middle, darker towards the edges.

    Shaded on a small grid and scaled up smoothly: a vignette has no detail,
    and the first frame must come quickly.
    """
    columns, rows = grid
    small = pygame.Surface(grid)
    for y in range(rows):
        for x in range(columns):
            dx, dy = (x - (columns - 1) / 2) / (columns / 2), (y - (rows - 1) / 2) / (rows / 2)
            shade = min(1.0, (dx * dx + dy * dy) ** 0.5 / 1.2) ** 2
            small.set_at((x, y), tuple(round(c + (e - c) * shade) for c, e in zip(theme.FELT, theme.FELT_EDGE)))
    return pygame.transform.smoothscale(small, size)


@lru_cache(maxsize=64)
def _box(w: int, h: int, fill: tuple[int, ...], edge: Color | None, radius: int) -> pygame.Surface:
    """A rounded rectangle (a panel, a menu line), with an optional 2-pixel edge."""
    surface = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(surface, fill, surface.get_rect(), border_radius=radius)
    if edge is not None:
        pygame.draw.rect(surface, edge, surface.get_rect(), width=2, border_radius=radius)
    return surface


@lru_cache(maxsize=2)
def _dim(w: int, h: int) -> pygame.Surface:
    """The veil laid over the table under a panel."""
    surface = pygame.Surface((w, h), pygame.SRCALPHA)
    surface.fill(theme.PANEL_DIM)
    return surface
