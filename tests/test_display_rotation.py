"""Rotation: rectangles, points and pixels agree for every quarter turn."""

from __future__ import annotations

import pygame
import pytest

from display.rect import Rect
from display.rotation import Rotation

FRAME = (7, 4)


@pytest.mark.parametrize("degrees", [0, 90, 180, 270])
def test_pixels_rectangles_and_taps_agree(degrees: int) -> None:
    rotation = Rotation(degrees)
    frame = pygame.Surface(FRAME)
    for x in range(FRAME[0]):
        for y in range(FRAME[1]):
            frame.set_at((x, y), (x * 30, y * 60, 7))
    turned = rotation.turn(frame)
    assert turned.get_size() == rotation.panel_size(FRAME)
    for x in range(FRAME[0]):
        for y in range(FRAME[1]):
            panel = rotation.to_panel(Rect(x, y, 1, 1), FRAME)
            assert turned.get_at((panel.x, panel.y)) == frame.get_at((x, y))
            assert rotation.to_frame_point(panel.x, panel.y, FRAME) == (x, y)
    block = rotation.to_panel(Rect(1, 1, 3, 2), FRAME)
    corners = [rotation.to_panel(Rect(x, y, 1, 1), FRAME) for x in (1, 3) for y in (1, 2)]
    assert all(block.contains(corner) for corner in corners) and block.area == 6


def test_a_sideways_panel_gives_a_portrait_frame() -> None:
    assert Rotation(90).frame_size((480, 320)) == (320, 480)
    assert Rotation(180).frame_size((480, 320)) == (480, 320)
    with pytest.raises(ValueError, match="45"):
        Rotation(45)
