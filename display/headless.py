"""The headless target: frames are kept in memory, nothing is shown.

Used by the scripted mode, by ``--screenshot`` and by tests. SDL's "dummy"
video driver is started (and checked) so that pygame's event queue works the
same as on a real screen, and no window can ever appear by accident.
"""

from __future__ import annotations

from typing import Sequence

import pygame

from .base import Display
from .rect import Rect
from .rotation import Rotation
from .sdl import start_video


class HeadlessDisplay(Display):
    """An invisible screen of ``size``; :meth:`screenshot` saves what would be shown."""

    name = "headless"

    def __init__(self, size: tuple[int, int], safe_area: float = 0) -> None:
        start_video("dummy")
        super().__init__(size, Rotation(0), safe_area, f"headless {size[0]}x{size[1]} (SDL dummy driver, nothing shown)")

    def _show(self, frame: pygame.Surface, dirty: Sequence[Rect]) -> None:
        """Nothing to show: the frame is kept for :meth:`screenshot`."""

    def close(self) -> None:
        pygame.display.quit()
