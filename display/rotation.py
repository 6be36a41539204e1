"""Turning the picture for a panel mounted sideways or upside down.

The renderer always draws the *frame* the player sees; the *panel* is the
device's own pixel grid. ``Rotation(90)`` means the frame is turned 90°
clockwise on its way to the panel, so a 480x320 panel shows a 320x480
portrait frame. Rectangles and points are mapped both ways here, so that
dirty rectangles stay small after rotation and taps land where they look.
"""

# Annotations are evaluated, not postponed: cheaper named tuples at start-up (see pyramid.view).

from typing import NamedTuple

import pygame

from .rect import Rect

ROTATIONS = (0, 90, 180, 270)


class _RotationValue(NamedTuple):
    degrees: int


class Rotation(_RotationValue):
    """A clockwise quarter turn count in degrees: 0, 90, 180 or 270 (checked when made)."""

    __slots__ = ()

    def __new__(cls, degrees: int = 0) -> "Rotation":
        if degrees not in ROTATIONS:
            raise ValueError(f"invalid rotation {degrees!r}: use one of 0, 90, 180, 270")
        return super().__new__(cls, degrees)

    @property
    def sideways(self) -> bool:
        return self.degrees in (90, 270)

    def frame_size(self, panel_size: tuple[int, int]) -> tuple[int, int]:
        """The size to render at for a panel of ``panel_size``."""
        w, h = panel_size
        return (h, w) if self.sideways else (w, h)

    def panel_size(self, frame_size: tuple[int, int]) -> tuple[int, int]:
        return self.frame_size(frame_size)

    def to_panel(self, rect: Rect, frame_size: tuple[int, int]) -> Rect:
        """Where ``rect`` of the frame lands on the panel."""
        fw, fh = frame_size
        x, y, w, h = rect
        if self.degrees == 90:
            return Rect(fh - y - h, x, h, w)
        if self.degrees == 180:
            return Rect(fw - x - w, fh - y - h, w, h)
        if self.degrees == 270:
            return Rect(y, fw - x - w, h, w)
        return rect

    def to_frame_point(self, x: int, y: int, frame_size: tuple[int, int]) -> tuple[int, int]:
        """The frame point shown at panel point ``(x, y)`` (for taps and clicks)."""
        fw, fh = frame_size
        if self.degrees == 90:
            return (y, fh - 1 - x)
        if self.degrees == 180:
            return (fw - 1 - x, fh - 1 - y)
        if self.degrees == 270:
            return (fw - 1 - y, x)
        return (x, y)

    def turn(self, surface: pygame.Surface) -> pygame.Surface:
        """``surface`` as the panel must show it (pygame turns counter-clockwise, hence the sign)."""
        if self.degrees == 0:
            return surface
        return pygame.transform.rotate(surface, -self.degrees)
