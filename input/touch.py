"""Where a touch or a click lands on the picture the player sees.

Touch panels and windows report positions on the *panel* (the device's own
pixel grid; touchscreens as fractions of their axes). The game's ``tap(x, y)``
is in *frame* coordinates — the picture as drawn, which differs from the panel
when the display is rotated (display settings, ``rotation = 90``). The display
owns that conversion (``Display.to_frame_point``); input must not import
display, so the conversion is handed in here as a plain function, and every
source (SDL mouse and touch, evdev touchscreens) goes through this one place:
rotation is applied exactly once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


def _unrotated(x: int, y: int) -> tuple[int, int]:
    return (x, y)


@dataclass(frozen=True)
class TouchArea:
    """The panel's pixel size (read at each touch, so resizes are followed) and panel → frame mapping."""

    panel_size: Callable[[], tuple[int, int]]
    to_frame: Callable[[int, int], tuple[int, int]] = _unrotated

    def pixel(self, x: int, y: int) -> tuple[int, int]:
        """The frame point shown at panel pixel (x, y) — for mouse clicks."""
        return self.to_frame(int(x), int(y))

    def fraction(self, u: float, v: float) -> tuple[int, int]:
        """The frame point at fractions (u, v) of the panel's width and height — for touchscreens."""
        width, height = self.panel_size()
        return self.pixel(_scale(u, width), _scale(v, height))


def _scale(fraction: float, size: int) -> int:
    """0..1 of the panel onto its pixels; 1.0 (the far edge) is the last pixel."""
    return min(size - 1, max(0, int(fraction * size)))
