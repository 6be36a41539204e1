"""The desktop target: a pygame window on X11 or Wayland.

SDL chooses between X11 and Wayland itself; what it must not do is fall back
to an invisible driver when no desktop is reachable, so the driver is checked
after start-up and an invisible one is an error that says what to use instead.

The window keeps the size it was opened at. A tiling window manager (or a
user's ``xdotool windowsize``) may still resize it: the frame is then shown
again, centred on a dark surround, and taps are mapped back through the same
offset; a window shown again after being hidden is repainted whole. The app
calls :meth:`WindowDisplay.refresh` for every such window event.
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
        self._panel = pygame.Surface(self._screen.get_size())
        self._offset = (0, 0)
        super().__init__(size, rotation, safe_area, f"window {size[0]}x{size[1]} ({driver})")

    def _show(self, frame: pygame.Surface, dirty: Sequence[Rect]) -> None:
        dx, dy = self._offset
        changed = [area.move(dx, dy) for area in blit_to_panel(frame, self._panel, dirty, self.rotation)]
        for area in changed:
            self._screen.blit(self._panel, area, area.move(-dx, -dy))
        pygame.display.update(changed)

    def refresh(self) -> None:
        """The window was resized, shown again or exposed: take its surface anew and paint it whole."""
        screen = pygame.display.get_surface()
        if screen is not None:
            self._screen = screen
        (width, height), (panel_w, panel_h) = self._screen.get_size(), self._panel.get_size()
        self._offset = ((width - panel_w) // 2, (height - panel_h) // 2)
        self._screen.fill((0, 0, 0))
        super().refresh()
        pygame.display.flip()

    def to_frame_point(self, x: int, y: int) -> tuple[int, int]:
        return super().to_frame_point(x - self._offset[0], y - self._offset[1])

    def close(self) -> None:
        pygame.display.quit()
