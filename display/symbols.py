"""Suit signs and interface glyphs drawn as shapes, never taken from a font.

pygame's bundled font has no ♠ ♥ ♦ ♣, ∞, ✓, ✱ or arrows, and system fonts
differ from one Pi image to the next, so every such sign is described here as
a few primitives in a unit square and painted at four times the size, then
scaled down smoothly: crisp and anti-aliased at any size, from an 8-pixel suit
on a 320x240 TFT to a TV. Results are cached per (symbol, size, colour).
The primitives are named tuples, cheap to define before the first frame
(see pyramid.view).
"""

# Annotations are evaluated, not postponed: cheaper named tuples at start-up (see pyramid.view).

import math
from functools import lru_cache
from typing import NamedTuple, Union

import pygame

from pyramid.engine.cards import RED_SUITS, SUIT_SIGNS

Color = tuple[int, int, int]
Point = tuple[float, float]


class Polygon(NamedTuple):
    """A filled polygon; coordinates are fractions of the symbol's size."""

    points: tuple[Point, ...]


class Disc(NamedTuple):
    centre: Point
    radius: float


class Ring(NamedTuple):
    centre: Point
    radius: float
    width: float


class Polyline(NamedTuple):
    """A thick line through ``points`` with round joints and ends."""

    points: tuple[Point, ...]
    width: float


Primitive = Union[Polygon, Disc, Ring, Polyline]

SUPERSAMPLE = 4


def _lemniscate() -> tuple[Point, ...]:
    """The infinity sign: Bernoulli's lemniscate, fitted into the unit square."""
    points = []
    for step in range(73):
        t = 2 * math.pi * step / 72
        denominator = 1 + math.sin(t) ** 2
        points.append((0.5 + 0.44 * math.cos(t) / denominator, 0.5 + 0.62 * math.sin(t) * math.cos(t) / denominator))
    return tuple(points)


def _circular_arrow() -> tuple[Primitive, ...]:
    """↻ — the redeal sign on the hollow stock place."""
    arc = tuple(
        (0.5 + 0.32 * math.cos(math.radians(a)), 0.52 + 0.32 * math.sin(math.radians(a)))
        for a in range(-60, 231, 10)
    )
    end = math.radians(-60)
    tip = (0.5 + 0.32 * math.cos(end), 0.52 + 0.32 * math.sin(end))
    head = ((tip[0] - 0.17, tip[1] - 0.05), (tip[0] + 0.17, tip[1] - 0.05), (tip[0] + 0.04, tip[1] + 0.2))
    return (Polyline(arc, 0.11), Polygon(head))


def _star() -> tuple[Primitive, ...]:
    """✱ — six spokes round a hub."""
    spokes: list[Primitive] = []
    for k in range(3):
        angle = math.pi / 2 + k * math.pi / 3
        dx, dy = 0.42 * math.cos(angle), 0.42 * math.sin(angle)
        spokes.append(Polyline(((0.5 - dx, 0.5 - dy), (0.5 + dx, 0.5 + dy)), 0.16))
    return tuple(spokes) + (Disc((0.5, 0.5), 0.14),)


SHAPES: dict[str, tuple[Primitive, ...]] = {
    # French suits.
    "h": (
        Disc((0.285, 0.33), 0.235),
        Disc((0.715, 0.33), 0.235),
        Polygon(((0.065, 0.41), (0.5, 0.94), (0.935, 0.41), (0.5, 0.3))),
    ),
    "d": (Polygon(((0.5, 0.02), (0.88, 0.5), (0.5, 0.98), (0.12, 0.5))),),
    "s": (
        Polygon(((0.5, 0.03), (0.935, 0.56), (0.065, 0.56))),
        Disc((0.285, 0.6), 0.225),
        Disc((0.715, 0.6), 0.225),
        Polygon(((0.5, 0.62), (0.68, 0.98), (0.32, 0.98))),
    ),
    "c": (
        Disc((0.5, 0.27), 0.215),
        Disc((0.265, 0.6), 0.215),
        Disc((0.735, 0.6), 0.215),
        Disc((0.5, 0.52), 0.13),
        Polygon(((0.5, 0.5), (0.68, 0.98), (0.32, 0.98))),
    ),
    # Spanish suits, simply: a coin, a cup, a sword, a club.
    "o": (Ring((0.5, 0.5), 0.45, 0.1), Disc((0.5, 0.5), 0.26)),
    "p": (
        Polygon(((0.12, 0.1), (0.88, 0.1), (0.8, 0.36), (0.6, 0.52), (0.4, 0.52), (0.2, 0.36))),
        Polygon(((0.44, 0.5), (0.56, 0.5), (0.58, 0.82), (0.42, 0.82))),
        Polygon(((0.22, 0.82), (0.78, 0.82), (0.78, 0.95), (0.22, 0.95))),
    ),
    "e": (
        Polygon(((0.5, 0.02), (0.58, 0.14), (0.56, 0.7), (0.44, 0.7), (0.42, 0.14))),
        Polygon(((0.2, 0.68), (0.8, 0.68), (0.8, 0.77), (0.2, 0.77))),
        Polygon(((0.45, 0.77), (0.55, 0.77), (0.55, 0.9), (0.45, 0.9))),
        Disc((0.5, 0.92), 0.07),
    ),
    # The club (basto) as a knotty cudgel: broad at its rounded head, narrowing to the handle, with
    # the stubs of cut branches on both sides (issue 47: a thin stroke was hard to tell at 1280x720).
    "b": (
        Polygon(((0.413, 0.068), (0.747, 0.132), (0.498, 0.935), (0.342, 0.905))),
        Disc((0.58, 0.1), 0.17),
        Disc((0.42, 0.92), 0.08),
        Disc((0.36, 0.4), 0.075),
        Disc((0.71, 0.34), 0.065),
        Disc((0.62, 0.635), 0.07),
    ),
    # Interface glyphs that fonts lack.
    "∞": (Polyline(_lemniscate(), 0.1),),
    "▲": (Polygon(((0.5, 0.12), (0.92, 0.85), (0.08, 0.85))),),
    "▼": (Polygon(((0.08, 0.15), (0.92, 0.15), (0.5, 0.88))),),
    "◀": (Polygon(((0.12, 0.5), (0.85, 0.08), (0.85, 0.92))),),
    "▶": (Polygon(((0.15, 0.08), (0.88, 0.5), (0.15, 0.92))),),
    "✓": (Polyline(((0.1, 0.52), (0.38, 0.82), (0.92, 0.16)), 0.16),),
    "✱": _star(),
    "↻": _circular_arrow(),
    # What the font cannot draw (display.text puts U+FFFD, the replacement character, in its
    # place): a crossed box, one per character, so no text is ever drawn as nothing.
    "\ufffd": (
        Polyline(((0.2, 0.06), (0.8, 0.06), (0.8, 0.94), (0.2, 0.94), (0.2, 0.06)), 0.09),
        Polyline(((0.2, 0.06), (0.8, 0.94)), 0.09),
        Polyline(((0.8, 0.06), (0.2, 0.94)), 0.09),
    ),
}

#: The suit signs of text (pyramid.engine.cards.SUIT_SIGNS) map onto the suit shapes, so text such as
#: "5♣", or a Spanish card's name, draws as the cards do.
SHAPES.update({sign: SHAPES[suit] for suit, sign in SUIT_SIGNS.items()})
#: The signs of the red suits, drawn red in text.
RED_SIGNS = frozenset(SUIT_SIGNS[suit] for suit in RED_SUITS)
#: Every suit sign: drawn at the height of the text around it.
SUIT_SIGN_SET = frozenset(SUIT_SIGNS.values())

#: The characters :mod:`display.text` draws with these shapes instead of the font.
GLYPHS = frozenset(name for name in SHAPES if len(name) == 1 and not name.isascii())


@lru_cache(maxsize=512)
def symbol(name: str, size: int, color: Color) -> pygame.Surface:
    """The shape ``name`` in a ``size`` x ``size`` transparent surface, anti-aliased."""
    big = size * SUPERSAMPLE
    canvas = pygame.Surface((big, big), pygame.SRCALPHA)
    for primitive in SHAPES[name]:
        _paint(canvas, primitive, big, color)
    return pygame.transform.smoothscale(canvas, (size, size))


def _paint(canvas: pygame.Surface, primitive: Primitive, scale: int, color: Color) -> None:
    if isinstance(primitive, Polygon):
        pygame.draw.polygon(canvas, color, [(x * scale, y * scale) for x, y in primitive.points])
    elif isinstance(primitive, Disc):
        x, y = primitive.centre
        pygame.draw.circle(canvas, color, (x * scale, y * scale), primitive.radius * scale)
    elif isinstance(primitive, Ring):
        x, y = primitive.centre
        width = max(1, round(primitive.width * scale))
        pygame.draw.circle(canvas, color, (x * scale, y * scale), primitive.radius * scale, width)
    else:
        thickness = max(1, round(primitive.width * scale))
        points = [(x * scale, y * scale) for x, y in primitive.points]
        pygame.draw.lines(canvas, color, False, points, thickness)
        for point in points:  # round joints and ends
            pygame.draw.circle(canvas, color, point, thickness / 2)
