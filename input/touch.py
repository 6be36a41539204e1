"""Where a touch lands: panel pixels, the coordinates of every ``tap`` from input.

A window reports clicks in its own pixels; SDL reports touches as fractions
of the window; an evdev touchscreen reports raw axis values. Input turns all
of them into pixels of the *panel* (the screen as the hardware sees it). When
the display is rotated (display settings, ``rotation = 90``) the picture the
player sees — the frame — is turned on the panel, and the application turns
taps back with ``Display.to_frame_point`` when it looks up what was touched.
Doing that in exactly one place (the application, which owns the display)
keeps the rotation from being applied twice, and scripted ``tap:X,Y`` actions
go the same way.
"""

from __future__ import annotations

from collections.abc import Callable

#: Returns the panel's size in pixels; read at each touch, so a resized window is followed.
PanelSize = Callable[[], tuple[int, int]]


def panel_point(fraction_x: float, fraction_y: float, panel_size: PanelSize) -> tuple[int, int]:
    """The panel pixel at fractions (0..1) of its width and height; 1.0 (the far edge) is the last pixel."""
    width, height = panel_size()
    return _scale(fraction_x, width), _scale(fraction_y, height)


def _scale(fraction: float, size: int) -> int:
    return min(size - 1, max(0, int(fraction * size)))
