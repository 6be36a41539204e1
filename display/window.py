"""The desktop target: a pygame window on X11 or Wayland.

SDL chooses between X11 and Wayland itself; what it must not do is fall back
to an invisible driver when no desktop is reachable, so the driver is checked
after start-up and an invisible one is an error that says what to use instead.
"""

from __future__ import annotations

from typing import Sequence

import pygame

from .base import Display, blit_to_panel
from .errors import DisplayError
from .rect import Rect
from .rotation import Rotation
from .sdl import start_video

#: SDL drivers that show nothing on a desktop.
INVISIBLE_DRIVERS = ("offscreen", "dummy", "evdev")


class WindowDisplay(Display):
    """A window of ``size`` frame pixels (turned by ``rotation`` if asked), titled ``title``."""

    name = "window"

    def __init__(self, size: tuple[int, int], rotation: Rotation = Rotation(0), safe_area: float = 0, title: str = "Pyramid") -> None:
        advice = "Start it from a desktop session, or use --display kmsdrm, fbdev or headless."
        driver = start_video(None, advice=advice)
        if driver in INVISIBLE_DRIVERS or driver == "kmsdrm":
            pygame.display.quit()
            raise DisplayError(f"no desktop to open a window on (SDL picked the {driver!r} driver). {advice}")
        pygame.display.set_caption(title)
        try:
            self._screen = pygame.display.set_mode(rotation.panel_size(size))
        except pygame.error as error:
            pygame.display.quit()
            raise DisplayError(f"could not open a {size[0]}x{size[1]} window: {error}. {advice}") from None
        super().__init__(size, rotation, safe_area, f"window {size[0]}x{size[1]} ({driver})")

    def _show(self, frame: pygame.Surface, dirty: Sequence[Rect]) -> None:
        pygame.display.update(blit_to_panel(frame, self._screen, dirty, self.rotation))

    def close(self) -> None:
        pygame.display.quit()
