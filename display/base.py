"""What every screen offers the application: one small interface.

A :class:`Display` is opened for a target (window, KMS/DRM, framebuffer,
headless) and then only receives finished frames with the rectangles that
changed. It knows nothing about cards, so the renderer stays the same for
every target, and the main loop does not care which one it drives.
"""

from __future__ import annotations

import io
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Sequence

import pygame

from .errors import DisplayError
from .rect import Rect
from .rotation import Rotation


class Display(ABC):
    """A screen to present frames on.

    ``size`` is the frame size to render at (after rotation); ``safe_area`` is
    the margin in percent the layout must keep (a TV's overscan, 0 on a
    panel); ``description`` says in plain words what was opened.
    """

    name: str = "display"

    def __init__(self, size: tuple[int, int], rotation: Rotation, safe_area: float, description: str) -> None:
        self.size = size
        self.rotation = rotation
        self.safe_area = safe_area
        self.description = description
        self._last_frame: pygame.Surface | None = None

    @abstractmethod
    def _show(self, frame: pygame.Surface, dirty: Sequence[Rect]) -> None:
        """Put the ``dirty`` parts of ``frame`` on the screen."""

    def present(self, frame: pygame.Surface, dirty: Sequence[Rect]) -> None:
        """Show ``frame``, of which only ``dirty`` changed since the last call."""
        if frame.get_size() != self.size:
            raise DisplayError(f"frame of {frame.get_size()} presented on a {self.size} display")
        self._last_frame = frame
        if dirty:
            self._show(frame, dirty)

    def refresh(self) -> None:
        """Show the whole last frame again: the screen lost it (a window was exposed, a console came back)."""
        if self._last_frame is not None:
            self._show(self._last_frame, [Rect(0, 0, *self.size)])

    def to_frame_point(self, x: int, y: int) -> tuple[int, int]:
        """A point in screen pixels (a click, a touch) in frame coordinates, for hit testing."""
        return self.rotation.to_frame_point(x, y, self.size)

    def screenshot(self, name: str | Path) -> bytes:
        """The last frame presented, as the player sees it, encoded as ``name``'s extension says (PNG...).

        Bytes rather than a file: the caller writes them where and how it must
        (whole or not at all), which pygame's own save to a path cannot do.
        """
        if self._last_frame is None:
            raise DisplayError("no frame has been presented yet: draw a view before taking a screenshot")
        encoded = io.BytesIO()
        pygame.image.save(self._last_frame, encoded, Path(name).name)
        return encoded.getvalue()

    def close(self) -> None:
        """Give the screen back (restore the console, close the window)."""

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def blit_to_panel(frame: pygame.Surface, panel: pygame.Surface, dirty: Sequence[Rect], rotation: Rotation) -> list[pygame.Rect]:
    """Copy the ``dirty`` parts of ``frame`` onto ``panel``, turned; return the panel rectangles."""
    frame_size = frame.get_size()
    changed = []
    for rect in dirty:
        area = pygame.Rect(tuple(rect))
        target = rotation.to_panel(rect, frame_size)
        panel.blit(rotation.turn(frame.subsurface(area)), (target.x, target.y))
        changed.append(pygame.Rect(tuple(target)))
    return changed
