"""An immutable integer rectangle, so that layout stays pure Python.

pygame's ``Rect`` would tie the geometry to SDL; this one is a plain named
tuple (immutable, hashable, usable as a cache key, cheap to define before the
first frame) that pygame accepts wherever it takes a rectangle.
"""

from __future__ import annotations

from typing import Iterable, NamedTuple


class Rect(NamedTuple):
    """``w`` × ``h`` pixels whose top-left corner is ``(x, y)``; right/bottom are exclusive."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    @property
    def center(self) -> tuple[int, int]:
        return (self.x + self.w // 2, self.y + self.h // 2)

    @property
    def area(self) -> int:
        return max(self.w, 0) * max(self.h, 0)

    def contains_point(self, x: int, y: int) -> bool:
        return self.x <= x < self.right and self.y <= y < self.bottom

    def contains(self, other: Rect) -> bool:
        return self.x <= other.x and self.y <= other.y and other.right <= self.right and other.bottom <= self.bottom

    def intersects(self, other: Rect) -> bool:
        return self.x < other.right and other.x < self.right and self.y < other.bottom and other.y < self.bottom

    def intersection(self, other: Rect) -> Rect | None:
        x, y = max(self.x, other.x), max(self.y, other.y)
        right, bottom = min(self.right, other.right), min(self.bottom, other.bottom)
        if right <= x or bottom <= y:
            return None
        return Rect(x, y, right - x, bottom - y)

    def union(self, other: Rect) -> Rect:
        x, y = min(self.x, other.x), min(self.y, other.y)
        return Rect(x, y, max(self.right, other.right) - x, max(self.bottom, other.bottom) - y)

    def inflate(self, dx: int, dy: int | None = None) -> Rect:
        """Grow by ``dx`` on the left and right and ``dy`` on top and bottom (shrink if negative)."""
        dy = dx if dy is None else dy
        return Rect(self.x - dx, self.y - dy, self.w + 2 * dx, self.h + 2 * dy)

    def move(self, dx: int, dy: int) -> Rect:
        return Rect(self.x + dx, self.y + dy, self.w, self.h)


def bounding_box(rects: Iterable[Rect]) -> Rect | None:
    """The smallest rectangle holding all of ``rects`` (``None`` for none)."""
    box: Rect | None = None
    for rect in rects:
        box = rect if box is None else box.union(rect)
    return box


def merge_rects(rects: Iterable[Rect], slack: float = 1.25, near: int = 8) -> list[Rect]:
    """Fewer, larger rectangles covering ``rects``: the fbcp-ili9341 way of cutting writes.

    Two rectangles become their bounding box when they overlap or lie within
    ``near`` pixels of each other, and the box is at most ``slack`` times their
    combined area, so merging never costs many pixels that did not change.
    """
    pending = [rect for rect in rects if rect.area > 0]
    merged = True
    while merged:
        merged = False
        result: list[Rect] = []
        for rect in pending:
            for i, kept in enumerate(result):
                box = kept.union(rect)
                close = kept.inflate(near).intersects(rect)
                if kept.intersects(rect) or (close and box.area <= slack * (kept.area + rect.area)):
                    result[i] = box
                    merged = True
                    break
            else:
                result.append(rect)
        pending = result
    return pending
