"""The KMS/DRM target: full screen on a Pi's HDMI or DSI output, without X.

Follows FACTS.md: the driver is set explicitly and verified (SDL would fall
back silently to an invisible one), ``SDL_FRAMEBUFFER_ACCELERATION=opengles2``
avoids a black screen on software GL stacks and is harmless on a Pi, and the
DRM card with a connected connector is chosen through
``SDL_KMSDRM_DEVICE_INDEX`` (a Pi 4/5 has two cards).
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pygame

from .base import Display, blit_to_panel
from .drm import SYSFS, DrmOutput, connected_outputs
from .errors import DisplayError
from .rect import Rect
from .rotation import Rotation
from .sdl import start_video

ADVICE = (
    "Run it from a text console (not inside X or Wayland) as a user in the 'video' and 'render' groups, "
    "or try --display fbdev."
)
TV_SAFE_AREA = 5


class KmsDrmDisplay(Display):
    """Full screen at the connected output's current mode.

    ``safe_area`` ``None`` means: 5 % on a TV connector (HDMI, composite), 0 on a panel (DSI, DPI).
    """

    name = "kmsdrm"

    def __init__(self, rotation: Rotation = Rotation(0), safe_area: float | None = None, sysfs: Path = SYSFS) -> None:
        outputs = connected_outputs(sysfs)
        if not outputs:
            raise DisplayError(f"no connected screen found under {sysfs / 'class' / 'drm'}. {ADVICE}")
        self.output: DrmOutput = outputs[0]
        hints = {"SDL_KMSDRM_DEVICE_INDEX": str(self.output.card), "SDL_FRAMEBUFFER_ACCELERATION": "opengles2"}
        start_video("kmsdrm", hints, advice=ADVICE)
        try:
            self._screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        except pygame.error as error:
            pygame.display.quit()
            raise DisplayError(f"kmsdrm could not set a mode on card{self.output.card} {self.output.connector}: {error}. {ADVICE}") from None
        pygame.mouse.set_visible(False)
        panel = self._screen.get_size()
        if safe_area is None:
            safe_area = TV_SAFE_AREA if self.output.is_tv else 0
        description = f"kmsdrm card{self.output.card} {self.output.connector} {panel[0]}x{panel[1]}"
        super().__init__(rotation.frame_size(panel), rotation, safe_area, description)

    def _show(self, frame: pygame.Surface, dirty: Sequence[Rect]) -> None:
        pygame.display.update(blit_to_panel(frame, self._screen, dirty, self.rotation))

    def close(self) -> None:
        pygame.display.quit()
