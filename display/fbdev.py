"""The framebuffer target: frames written straight into ``/dev/fbN`` through mmap.

For small SPI panels (often ``/dev/fb1``, 16 bits per pixel) where every byte
written costs bus time: frames are rendered offscreen, only the changed
rectangles (merged when close, as fbcp-ili9341 does) are turned for the
panel's rotation, converted by SDL into the panel's pixel layout (RGB565,
BGR565, XRGB8888, XBGR8888) and copied row by row into the mapped memory.
"""

from __future__ import annotations

import logging
import mmap
import os
from pathlib import Path
from typing import Sequence

import pygame

from .base import Display
from .console import ConsoleGraphicsMode
from .drm import SYSFS, connected_outputs
from .errors import DisplayError
from .fbinfo import (
    FramebufferGeometry,
    framebuffer_driver,
    is_drm_emulation,
    list_framebuffers,
    read_geometry,
)
from .rect import Rect, merge_rects
from .rotation import Rotation
from .sdl import start_video

log = logging.getLogger(__name__)

TV_SAFE_AREA = 5


def choose_framebuffer(dev: Path = Path("/dev"), sysfs: Path = SYSFS) -> Path:
    """The framebuffer to use when none is named: a panel's own (e.g. SPI) before a DRM emulation."""
    devices = list_framebuffers(dev)
    if not devices:
        raise DisplayError(f"no framebuffer device ({dev}/fb*) found. Enable the panel's overlay, or use --display kmsdrm.")
    native = [device for device in devices if not is_drm_emulation(framebuffer_driver(device, sysfs))]
    return (native or devices)[0]


class FramebufferDisplay(Display):
    """A framebuffer device (chosen automatically when ``device`` is ``None``).

    ``geometry`` replaces the ioctls (tests use a regular file with a made-up
    geometry); ``console`` switches the text console to graphics mode while
    the display is open. ``bytes_written`` counts the bytes copied to the
    device, which is what a SPI bus pays for.
    """

    name = "fbdev"

    def __init__(
        self,
        device: Path | None = None,
        rotation: Rotation = Rotation(0),
        safe_area: float | None = None,
        *,
        geometry: FramebufferGeometry | None = None,
        console: bool = True,
        sysfs: Path = SYSFS,
        dev: Path = Path("/dev"),
    ) -> None:
        chosen = device is None
        self.device = choose_framebuffer(dev, sysfs) if device is None else Path(device)
        try:
            self._fd = os.open(self.device, os.O_RDWR)
        except OSError as error:
            raise DisplayError(
                f"cannot open {self.device}: {error.strerror}. Check that it exists and that the user is in the 'video' group."
            ) from None
        try:
            self.geometry = geometry or read_geometry(self._fd, self.device, sysfs)
            fmt = self.geometry.pixel_format
            if not fmt.supported:
                raise DisplayError(f"{self.device} uses {fmt.name}, which is not supported: use a 16- or 32-bit mode (e.g. fbset -depth 16).")
            self._memory = mmap.mmap(self._fd, self.geometry.memory_size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        except (OSError, ValueError) as error:
            os.close(self._fd)
            raise DisplayError(f"cannot map {self.device}: {error}") from None
        except DisplayError:
            os.close(self._fd)
            raise
        self._panel = pygame.Surface(self.geometry.size, 0, fmt.bits_per_pixel, fmt.masks)
        self.bytes_written = 0
        self._console = ConsoleGraphicsMode() if console else None
        if safe_area is None:
            tv = is_drm_emulation(self.geometry.driver) and any(output.is_tv for output in connected_outputs(sysfs))
            safe_area = TV_SAFE_AREA if tv else 0
        start_video("dummy")  # for pygame's event queue and clock; nothing is shown through SDL
        description = (
            f"fbdev {self.device}{' (chosen automatically)' if chosen else ''}: "
            f"{self.geometry.driver or 'framebuffer'}, {self.geometry.width}x{self.geometry.height} {fmt.name}"
        )
        super().__init__(rotation.frame_size(self.geometry.size), rotation, safe_area, description)
        log.info("display: %s", description)

    def _show(self, frame: pygame.Surface, dirty: Sequence[Rect]) -> None:
        rects = merge_rects(dirty)
        areas = [self.rotation.to_panel(rect, self.size) for rect in rects]
        for rect, area in zip(rects, areas):
            self._panel.blit(self.rotation.turn(frame.subsurface(pygame.Rect(tuple(rect)))), (area.x, area.y))
        self._write(areas)

    def _write(self, areas: list[Rect]) -> None:
        """Copy ``areas`` of the converted panel image into the device, one row span at a time."""
        geometry, pitch = self.geometry, self._panel.get_pitch()
        bpp = geometry.pixel_format.bytes_per_pixel
        buffer = self._panel.get_buffer()  # locks the surface until released at return
        # pygame's type stubs do not declare BufferProxy a buffer; it is one (the pixels, locked).
        raw_view = memoryview(buffer)  # type: ignore[arg-type]
        with raw_view as raw, raw.cast("B") as pixels:
            for area in areas:
                span = area.w * bpp
                for y in range(area.y, area.bottom):
                    start = y * pitch + area.x * bpp
                    offset = geometry.offset_of(area.x, y)
                    self._memory[offset : offset + span] = pixels[start : start + span]
                self.bytes_written += span * area.h

    def close(self) -> None:
        if self._console is not None:
            self._console.restore()
            self._console = None
        if not self._memory.closed:
            self._memory.close()
            os.close(self._fd)
        pygame.display.quit()
