"""Starting SDL's video subsystem with a driver we chose, and checking it took.

With no display and ``SDL_VIDEODRIVER`` unset, SDL silently falls back to an
invisible offscreen driver (FACTS.md), so every target names its driver and
then verifies what SDL really opened.
"""

from __future__ import annotations

import os
from typing import Mapping

import pygame

from .errors import DisplayError


def start_video(driver: str | None, hints: Mapping[str, str] | None = None, advice: str = "") -> str:
    """Initialise SDL video with ``driver`` (``None``: SDL's choice) and ``hints``; return the driver in use.

    Raises :class:`DisplayError` with ``advice`` appended when SDL cannot
    start or starts a different driver than the one asked for.
    """
    if pygame.display.get_init():
        pygame.display.quit()
    if driver is not None:
        os.environ["SDL_VIDEODRIVER"] = driver
    os.environ.update(hints or {})
    try:
        pygame.display.init()
    except pygame.error as error:
        name = driver or "the default"
        raise DisplayError(f"SDL could not start {name} video driver: {error}. {advice}".strip()) from None
    actual = pygame.display.get_driver()
    # SDL names drivers case-insensitively: asked for "kmsdrm", SDL 2.32 reports "KMSDRM".
    if driver is not None and actual.lower() != driver.lower():
        pygame.display.quit()
        raise DisplayError(f"SDL started the {actual!r} video driver instead of {driver!r}. {advice}".strip())
    return actual
