"""What moves between two views: flights of sprites, planned from the difference of the views.

A card removed fades on its way to the score, a drawn card turns over from the
stock onto the waste, a fresh deal flies out of the stock, a refused pair
shakes, a scoring removal lets its "+N" rise, a cleared pyramid bursts into
suits. Each is a :class:`Flight`: one sprite going from one rectangle to
another during part of the animation. Flights are sprites like any other, so
the renderer repaints only the places they leave and reach: on an SPI panel
only the moving card's rectangles are sent. What moves is read from the views
alone (:func:`pyramid.view_change.view_change`, worked out once a frame by the frontend, and the view's feedback for what the
cards cannot say), so every game gets the same motion without telling it.
"""

from __future__ import annotations

import math
from typing import Hashable, NamedTuple

from pyramid.view import Feedback
from pyramid.view_change import TableChange, ViewChange

from . import theme
from .layout import TableLayout
from .rect import Rect, bounding_box
from .render import Overlay, Sprite, target_rect
from .symbols import Color
from .text import render_text

#: How long an animation lasts (the issue's limit is 250 ms), and the frame period while it runs.
DURATION = 0.22
#: How long a cleared pyramid is celebrated (issue 29: the burst was gone within 220 ms); the cards
#: still move in :data:`DURATION`, and any press ends it at once.
WIN_DURATION = 1.6
FRAME = 1 / 40
#: Transparency and width are quantised, so every image of an animation is made once and reused.
ALPHA_STEPS = 5
SQUEEZE_STEPS = 6
#: The suits a cleared pyramid bursts into, and how many.
BURST = (("♠", theme.BLACK), ("♥", theme.RED), ("♣", theme.BLACK), ("♦", theme.RED))
SPARKS = 12


class Flight(NamedTuple):
    """``key`` drawn moving from ``start`` to ``end`` between fractions ``begin`` and ``finish``.

    ``lands``: the card arrives at a place of the next view, which stays empty
    until it does. ``fades``: it turns see-through on its way (a removed card, a
    "+N"). ``back``: the key of its face-down side, shown on the first half while
    it turns over. ``wobble``: pixels it shakes sideways, dying out (a refused pair).
    """

    key: tuple[Hashable, ...]
    start: Rect
    end: Rect
    begin: float = 0.0
    finish: float = 1.0
    lands: bool = True
    fades: bool = False
    back: tuple[Hashable, ...] | None = None
    wobble: int = 0

    def sprite(self, progress: float) -> Sprite | None:
        """Where and how it is drawn at ``progress`` (0..1 of the animation); ``None`` off its time."""
        if not self.begin <= progress < self.finish:
            return None
        local = (progress - self.begin) / (self.finish - self.begin)
        eased = 1 - (1 - local) ** 3
        x = round(self.start.x + (self.end.x - self.start.x) * eased)
        y = round(self.start.y + (self.end.y - self.start.y) * eased)
        if self.wobble:
            x += round(self.wobble * math.sin(local * 6 * math.pi) * (1 - local))
        key = self.key
        if self.back is not None:
            turn = abs(math.cos(math.pi * local))
            width = max(1, round(round(turn * SQUEEZE_STEPS) * self.start.w / SQUEEZE_STEPS))
            key = ("squeeze", self.back if local < 0.5 else self.key, width)
        if self.fades:  # whole for the first half, then fading out
            key = ("alpha", key, round(255 * math.ceil(min(1.0, 2 * (1 - local)) * ALPHA_STEPS) / ALPHA_STEPS))
        return Rect(x, y, self.start.w, self.start.h), key


class Animation(NamedTuple):
    """The flights from one view to the next; :meth:`overlay` is one frame of it."""

    flights: tuple[Flight, ...]
    #: Seconds it lasts.
    duration: float = DURATION

    def overlay(self, progress: float) -> Overlay:
        hidden = frozenset(flight.end for flight in self.flights if flight.lands and progress < flight.finish)
        sprites = tuple(sprite for flight in self.flights if (sprite := flight.sprite(progress)) is not None)
        return Overlay(hidden, sprites)


def plan(view_change: ViewChange, before_scene: list[Sprite], after_scene: list[Sprite],
         table: TableLayout) -> Animation:
    """The animation of ``view_change`` (the view before drawn as ``before_scene``) on ``table``'s layout."""
    change, feedback = view_change.cards, view_change.feedback
    was, now = _cards_at(before_scene), _cards_at(after_scene)
    flights = _card_flights(change, table, was, now)
    if feedback is not None and feedback.cue == "win" and table.cards:
        share = DURATION / WIN_DURATION  # the cards move as fast as ever; the burst fills the rest
        flights = [flight._replace(begin=flight.begin * share, finish=flight.finish * share) for flight in flights]
        return Animation(tuple(flights + _feedback_flights(feedback, change, table, now)), WIN_DURATION)
    if feedback is not None:
        flights += _feedback_flights(feedback, change, table, now)
    return Animation(tuple(flights))


def _cards_at(scene: list[Sprite]) -> dict[Rect, tuple[Hashable, ...]]:
    """The card drawn on top at each place of a scene."""
    return {rect: key for rect, key in scene if key[0] in ("face", "back", "joker")}


def _card_flights(change: TableChange, table: TableLayout, was: dict[Rect, tuple[Hashable, ...]],
                  now: dict[Rect, tuple[Hashable, ...]]) -> list[Flight]:
    flights: list[Flight] = []
    if change.dealt:
        count = len(table.cards)
        for index, place in enumerate(table.cards):
            if place in now:  # every card leaves the stock a little after the one before it
                begin = 0.5 * index / count
                flights.append(Flight(now[place], table.stock, place, begin, begin + 0.5))
    discard = _centred(table.stock, table.score)
    for target, _ in change.removed:
        place = target_rect(table, target)
        if place in was:
            flights.append(Flight(was[place], place, discard, lands=False, fades=True))
    stock = was.get(table.stock)
    back = ("back", stock[1], None) if stock is not None and stock[0] == "back" else None
    if change.drawn is not None and table.waste in now:
        flights.append(Flight(now[table.waste], table.stock, table.waste, back=back))
    if change.laid is not None and table.waste in now:
        flights.append(Flight(now[table.waste], target_rect(table, change.laid[0]), table.waste))
    if change.redealt and table.stock in now:
        size = now[table.stock][1]
        flights.append(Flight(("back", size, None), table.waste, table.stock))
    return flights


def _feedback_flights(feedback: Feedback, change: TableChange, table: TableLayout,
                      now: dict[Rect, tuple[Hashable, ...]]) -> list[Flight]:
    """What the cards cannot say: a refused pair shakes, points rise, a cleared pyramid bursts."""
    flights: list[Flight] = []
    if feedback.cue == "wrong":
        amplitude = max(3, table.card_w // 6)
        for target in feedback.targets:
            place = target_rect(table, target)
            if place in now:
                flights.append(Flight(now[place], place, place, wobble=amplitude))
    elif feedback.cue == "pair" and feedback.points > 0:
        places = [target_rect(table, target) for target, _ in change.removed] or \
                 [target_rect(table, target) for target in feedback.targets]
        if places:
            px = max(table.text_px, table.card_h // 2)
            flights.append(_text_flight(f"+{feedback.points}", px, theme.NOTICE, places[-1], -table.card_h // 2))
            if feedback.bonus:  # a row's bonus rises above the removal's points, where the row was
                above = places[-1].move(0, -px)
                flights.append(_text_flight(feedback.bonus, px, theme.NOTICE, above, -table.card_h))
    elif feedback.cue == "win" and table.cards:
        middle = bounding_box(table.cards) or table.cards[0]
        reach = table.card_h * 3
        for spark in range(SPARKS):
            glyph, colour = BURST[spark % len(BURST)]
            angle = 2 * math.pi * spark / SPARKS
            start = _text_flight(glyph, table.card_h // 2, colour, middle, 0)
            end = start.start.move(round(reach * math.cos(angle)), round(reach * math.sin(angle)))
            flights.append(start._replace(end=end))
    return flights


def _text_flight(text: str, px: int, colour: Color, around: Rect, rise: int) -> Flight:
    """``text`` centred on ``around``, rising ``rise`` pixels (upwards when negative) as it fades."""
    width, height = render_text(text, px, colour).get_size()
    start = _centred(Rect(0, 0, width, height), around)
    return Flight(("text", text, px, colour), start, start.move(0, rise), lands=False, fades=True)


def _centred(rect: Rect, around: Rect) -> Rect:
    """``rect``'s size, centred on ``around``."""
    cx, cy = around.center
    return Rect(cx - rect.w // 2, cy - rect.h // 2, rect.w, rect.h)

